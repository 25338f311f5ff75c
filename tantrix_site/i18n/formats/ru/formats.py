"""Russian dates as Russian readers write them (Django's own), with the time zone the time is
shown in, as the English pages do ("30 ноября 2026 г. 18:05 CET")."""

DATETIME_FORMAT = "j E Y г. G:i T"
SHORT_DATETIME_FORMAT = "d.m.Y H:i T"
