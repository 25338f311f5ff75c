"""Calendars: a player's private feed address (`services`, `selectors`, the profile's buttons
in `views` and `api`), the iCalendar text every feed is written in (`ical`, Django-free), and the
registry through which the apps that know about matches fill a player's feed (`sources`).
Reminders before what the calendars hold are sent through `reminders`, once each."""
