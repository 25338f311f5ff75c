"""Hungarian dates as Hungarian readers write them, with the time zone the time is shown in, as
the English pages do: "2026. november 30. 18:05 CET", "2026. 12. 15.", and a day of the month
"dec. 15." (Django's abbreviations, with their dot). No leading zeros."""

DATE_FORMAT = "Y. F j."
SHORT_DATE_FORMAT = "Y. n. j."
DATETIME_FORMAT = "Y. F j. H:i T"
SHORT_DATETIME_FORMAT = "Y. n. j. H:i T"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "N j."
YEAR_MONTH_FORMAT = "Y. F"
# How knockout rounds before the last 16 are named (tournaments/format_words.py): by their
# number from the start, "2. forduló".
KNOCKOUT_ROUND_NAMES = "number"
