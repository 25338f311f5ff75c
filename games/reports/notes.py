"""The notes the site itself writes on a version's answer, stored in English, read translated.

A version's `answer_note` holds either what a person typed (a dispute's reason) or one of these
sentences. Stored text is never in the language of whoever happened to act (docs/translations
.md), so the site stores the English sentence and `note_text` translates it when a page or the
API shows it; what a person typed is shown as typed.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop

NO_RATING = gettext_noop("No rating counts this game: it stands as reported.")
SAME_REPORT = gettext_noop("Confirmed by the same report.")
REPORTS_DIFFER = gettext_noop("The two reports of this game differ.")
AUTO_CONFIRMED = gettext_noop("Nobody answered within %(hours)s hours: confirmed automatically.")

_PLAIN = frozenset({NO_RATING, SAME_REPORT, REPORTS_DIFFER})
# The one note with a number in it, recognised by its English wording.
_AUTO_CONFIRMED = re.compile(
    re.escape(AUTO_CONFIRMED).replace(re.escape("%(hours)s"), r"(?P<hours>[0-9.]+)")
)


def auto_confirmed(hours: float) -> str:
    """The note of a version nobody answered in time (English, as stored)."""
    return AUTO_CONFIRMED % {"hours": f"{hours:g}"}


def note_text(note: str) -> str:
    """A stored note in the reader's language when the site wrote it; as typed otherwise."""
    if note in _PLAIN:
        return gettext(note)
    found = _AUTO_CONFIRMED.fullmatch(note)
    if found:
        return gettext(AUTO_CONFIRMED) % {"hours": found["hours"]}
    return note
