"""Turkish dates as Turkish readers write them (Django's own), with the time zone the time is
shown in, as the English pages do ("30 Kasım 2026 18:05 CET")."""

DATETIME_FORMAT = "d F Y H:i T"
SHORT_DATETIME_FORMAT = "d M Y H:i T"
