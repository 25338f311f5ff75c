"""Notices: a message on the site for one person (a report waiting for them, a ruling...), also
emailed. Other apps send them (`services.notice_send`); the header counts the unread ones
(`selectors`); the page (`views`) and the API (`api`) list them and mark them read."""
