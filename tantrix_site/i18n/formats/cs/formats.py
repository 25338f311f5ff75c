"""Czech dates as Czech readers write them (Django's own), with the time zone the time is shown
in, as the English pages do ("30. listopadu 2026 18:05 CET")."""

DATETIME_FORMAT = "j. E Y G:i T"
SHORT_DATETIME_FORMAT = "d.m.Y G:i T"
