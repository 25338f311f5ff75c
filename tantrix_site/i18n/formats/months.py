"""The month names and abbreviations Django's dates write, marked again in this site's catalogue.

Django translates them in its own catalogue, as a month standing alone ("Дек."); after a day
number Russian wants the genitive, in lower case ("15 дек.", "15 мая"). The site's catalogue comes
before Django's, so giving these same messages there gives the pages the right forms
(MONTH_DAY_FORMAT and SHORT_DATE_FORMAT in tantrix_site/i18n/formats/ru). Nothing imports this
module: it is read by the catalogue extraction (and tests/i18n/test_formats.py checks the result).
"""

from django.utils.translation import gettext_lazy, pgettext_lazy

ABBREVIATED_MONTHS = (
    pgettext_lazy("abbrev. month", "Jan."),
    pgettext_lazy("abbrev. month", "Feb."),
    pgettext_lazy("abbrev. month", "March"),
    pgettext_lazy("abbrev. month", "April"),
    pgettext_lazy("abbrev. month", "May"),
    pgettext_lazy("abbrev. month", "June"),
    pgettext_lazy("abbrev. month", "July"),
    pgettext_lazy("abbrev. month", "Aug."),
    pgettext_lazy("abbrev. month", "Sept."),
    pgettext_lazy("abbrev. month", "Oct."),
    pgettext_lazy("abbrev. month", "Nov."),
    pgettext_lazy("abbrev. month", "Dec."),
)

# The months by name (Django's `F` format, YEAR_MONTH_FORMAT): Russian writes them in lower case
# inside a sentence ("за декабрь 2026 г."), where Django's catalogue capitalises them.
MONTHS = (
    gettext_lazy("January"),
    gettext_lazy("February"),
    gettext_lazy("March"),
    gettext_lazy("April"),
    gettext_lazy("May"),
    gettext_lazy("June"),
    gettext_lazy("July"),
    gettext_lazy("August"),
    gettext_lazy("September"),
    gettext_lazy("October"),
    gettext_lazy("November"),
    gettext_lazy("December"),
)
