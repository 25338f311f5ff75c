"""The site's one way of writing dates (FORMAT_MODULE_PATH): "30 Nov 2026" and
"30 Nov 2026, 18:05 CET", always with the time zone the time is shown in (the reader's own,
see players.preferences.middleware.TimezoneMiddleware). Templates write {{ value }} or |date
without an argument, or |date:"DATETIME_FORMAT", never a format of their own.
"""

DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i T"
SHORT_DATETIME_FORMAT = "j M Y, H:i T"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j M"
YEAR_MONTH_FORMAT = "F Y"
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d/%m/%Y"]
DATETIME_INPUT_FORMATS = ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M"]
FIRST_DAY_OF_WEEK = 1
# How knockout rounds before the last 16 are named (tournaments/format_words.py): by the
# players left, "Round of 64".
KNOCKOUT_ROUND_NAMES = "players"
