"""Arranging when a match is played (issue 30): the room of proposals, agreements, players'
usual free times, the organisers' list and nudge, and no-show claims.

`models` live in the models package (`tournaments/models/arrangements.py`); here are
`selectors` (reads, e.g. `agreed_matches`), `services` (writes, each audited), `forms`,
`views`, `api`, `urls`, `tasks` (the auto-acceptance beat task) and `times` (time zones).
"""
