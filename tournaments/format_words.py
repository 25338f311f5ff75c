"""The format algorithms' messages in the reader's language.

`tournaments.formats` imports no Django: it raises `FormatError` (and returns `Message`
refusals) as English templates with their parameters apart. Whatever shows one to a person
translates it here, at request time.
"""

from __future__ import annotations

from django.utils.translation import gettext

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
