"""The format algorithms' messages, and the rounds' stored names, in the reader's language.

`tournaments.formats` imports no Django: it raises `FormatError` (and returns `Message`
refusals) as English templates with their parameters apart. Whatever shows one to a person
translates it here, at request time.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop

from tournaments.formats.errors import FormatError, Message, Phrase


def format_error_text(error: FormatError | Message) -> str:
    """The message in the active language (its English text when no catalogue has it)."""
    if not error.params:
        return gettext(error.template)
    params = {
        name: gettext(value) if isinstance(value, Phrase) else value
        for name, value in error.params.items()
    }
    return gettext(error.template) % params


# The names the draws store for rounds (English, as tournaments.formats.labels makes them).
_KNOCKOUT_ROUNDS = {
    "Final": gettext_noop("Final"),
    "Semi-finals": gettext_noop("Semi-finals"),
    "Quarter-finals": gettext_noop("Quarter-finals"),
}
_ROUND_OF = re.compile(r"Round of (\d+)")
_ROUND_NUMBER = re.compile(r"Round (\d+)")


def round_name_text(name: str) -> str:
    """A round's stored English name ("Semi-finals", "Round of 64", "Round 3") in the active
    language; a name of any other shape (an imported one) as it is."""
    if name in _KNOCKOUT_ROUNDS:
        return gettext(_KNOCKOUT_ROUNDS[name])
    if found := _ROUND_OF.fullmatch(name):
        return gettext("Round of %(size)s") % {"size": int(found.group(1))}
    if found := _ROUND_NUMBER.fullmatch(name):
        return gettext("Round %(number)s") % {"number": int(found.group(1))}
    return name
