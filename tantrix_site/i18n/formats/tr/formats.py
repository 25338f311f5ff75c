"""Turkish dates as Turkish readers write them, with the time zone the time is shown in, as the
English pages do: "30 Kasım 2026 18:05 CET", "5 Kas 2026", and a day of the month "15 Ara"
(the three-letter abbreviations, which take no dot). No leading zeros."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j F Y H:i T"
SHORT_DATETIME_FORMAT = "j M Y H:i T"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j M"
YEAR_MONTH_FORMAT = "F Y"
# How knockout rounds before the last 16 are named (tournaments/format_words.py): by the
# players left, "Son 64 turu".
KNOCKOUT_ROUND_NAMES = "players"
