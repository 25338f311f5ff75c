"""The admins' review desk of the ratings, web and API: the review queue and its actions,
adjustments, Master titles awarded and withdrawn on the review page, the audit trail, and the
staff's tools (a recompute as a task with its progress, an event's Elo now, a repeated-results
series reverted in one action). The writes are ``ratings.services``; the public pages and API
are ``ratings.views`` and ``ratings.api``."""
