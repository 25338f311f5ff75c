"""Notices: a message on the site for one person (a report waiting for them, a ruling...), also
emailed. Other apps send them (`services.notice_send`) naming what each is about, never an
address; the page of each kind is registered by the app that owns it (`links`), and the page
(`views`), the API (`api`) and the email (`mail`) build the link when they show the notice. The
header counts the unread ones (`selectors`)."""
