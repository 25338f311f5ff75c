"""Calendars and reminders of matches (issue 30): what a player's feed and an event's feed hold
(`selectors` reads it, `feeds` writes it as calendar events in words), the event's feed page
(`views`, `urls`), and the reminders before a round's deadline and an agreed match (`reminders`,
sent once each by the beat task in `tasks`). The feed's text, the player's private address and
the ledger of reminders are the players app's (`players.calendars`)."""
