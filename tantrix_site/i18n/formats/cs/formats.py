"""Czech dates as Czech readers write them, with the time zone the time is shown in, as the
English pages do: "30. listopadu 2026 18:05 CET", "15. 12. 2026", and a day of the month
"15. 12." (Czech writes the month as a number there, with a space after each dot). No leading
zeros."""

DATE_FORMAT = "j. E Y"
SHORT_DATE_FORMAT = "j. n. Y"
DATETIME_FORMAT = "j. E Y G:i T"
SHORT_DATETIME_FORMAT = "j. n. Y G:i T"
TIME_FORMAT = "G:i"
MONTH_DAY_FORMAT = "j. n."
YEAR_MONTH_FORMAT = "F Y"
# How knockout rounds before the last 16 are named (tournaments/format_words.py): by their
# number from the start, "2. kolo".
KNOCKOUT_ROUND_NAMES = "number"
