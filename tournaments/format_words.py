"""The format algorithms' messages, and the rounds' stored names, in the reader's language.

`tournaments.formats` imports no Django: it raises `FormatError` (and returns `Message`
refusals) as English templates with their parameters apart. Whatever shows one to a person
translates it here, at request time.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from django.utils import formats
from django.utils.translation import get_language, gettext, gettext_noop

from tournaments.formats.errors import FormatError, Message, Phrase
from tournaments.formats.labels import EarlyRoundStyle, early_round_name


def format_error_text(error: FormatError | Message) -> str:
    """The message in the active language (its English text when no catalogue has it)."""
    if not error.params:
        return gettext(error.template)
    params = {
        name: gettext(value) if isinstance(value, Phrase) else value
        for name, value in error.params.items()
    }
    return gettext(error.template) % params


def early_round_style() -> EarlyRoundStyle:
    """How the reader's language names a knockout's rounds before the last 16: its format
    module's KNOCKOUT_ROUND_NAMES (tantrix_site/i18n/formats/<language>/formats.py)."""
    for module in formats.get_format_modules(get_language()):
        style = getattr(module, "KNOCKOUT_ROUND_NAMES", None)
        if style in ("players", "fraction", "number"):
            return style
    return "players"


# The names the draws store for rounds (English, as tournaments.formats.labels makes them).
_KNOCKOUT_ROUNDS = {
    "Final": gettext_noop("Final"),
    "Semi-finals": gettext_noop("Semi-finals"),
    "Quarter-finals": gettext_noop("Quarter-finals"),
}
_ROUND_OF = re.compile(r"Round of (\d+)")
_ROUND_NUMBER = re.compile(r"Round (\d+)")


def round_name_text(name: str, number: int | None = None, rounds: int | None = None) -> str:
    """A round's stored English name ("Semi-finals", "Round of 64", "Round 3") in the active
    language; a name of any other shape (an imported one) as it is.

    A round of 64 is named the reader's way (`early_round_style`); a language that counts the
    rounds from the start needs the round's `number`, or the knockout's number of `rounds` to
    work it out."""
    if name in _KNOCKOUT_ROUNDS:
        return gettext(_KNOCKOUT_ROUNDS[name])
    if found := _ROUND_OF.fullmatch(name):
        size = int(found.group(1))
        style = early_round_style()
        if number is None and rounds and size > 1:
            number = rounds - size.bit_length() + 2
        if style == "number" and (number is None or number < 1):
            style = "players"
        return early_round_name(size, number or 0, gettext=gettext, style=style)[0]
    if found := _ROUND_NUMBER.fullmatch(name):
        return gettext("Round %(number)s") % {"number": int(found.group(1))}
    return name


def tps_text(value: Decimal | float | int | None, *, localized: bool = True) -> str:
    """Tournament points as people read them: always one decimal place ("35.0", "13.4"), with
    the reader's decimal mark unless `localized` is off (CSV files). Stored TPs keep two
    places (a game's 13.35 after a penalty) and the API gives them whole; a page that wrote
    "35" in one cell and "13.35" in the next read as two different kinds of number (issue 28).
    Rounded half up, as a score sheet would be."""
    if value is None:
        return ""
    rounded = Decimal(str(value)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return formats.number_format(rounded, 1) if localized else f"{rounded:.1f}"
