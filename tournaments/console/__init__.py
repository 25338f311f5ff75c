"""The organiser's round console (issue 28): per round of an event, what is played, waiting,
overdue or disputed, each match with its deadline, and reminders to its players.

`selectors` reads (one `ConsoleRow` per match: extend it there), `services` writes (reminders,
audited, at most one per match an hour), `views`/`api`/`urls` are thin. Organisers and
controllers of the championship only (the `rule` permission).
"""
