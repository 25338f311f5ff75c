"""Russian dates as Russian readers write them, with the time zone the time is shown in, as the
English pages do: "30 ноября 2026 г. 18:05 CET", "15 дек. 2026 г.", and a day of the month
"15 дек." (the month abbreviated in the genitive, with its dot: tantrix_site/i18n/formats/months.py
gives Django's N format these forms in the site's catalogue). No leading zeros."""

DATE_FORMAT = "j E Y г."
SHORT_DATE_FORMAT = "j N Y г."
DATETIME_FORMAT = "j E Y г. G:i T"
SHORT_DATETIME_FORMAT = "j N Y г. G:i T"
TIME_FORMAT = "G:i"
MONTH_DAY_FORMAT = "j N"
YEAR_MONTH_FORMAT = "F Y г."
# How knockout rounds before the last 16 are named (tournaments/format_words.py): by the
# fraction of the final, "1/32 финала" for the round of 64.
KNOCKOUT_ROUND_NAMES = "fraction"
