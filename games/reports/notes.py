"""The notes the site itself writes on a version's answer, stored in English, read translated.

A version's `answer_note` holds either what a person typed (a dispute's reason) or one of these
sentences. Stored text is never in the language of whoever happened to act (docs/translations
.md), so the site stores the English sentence and `note_text` translates it when a page or the
API shows it; what a person typed is shown as typed.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

from games.stored_texts import stored_text

NO_RATING = gettext_noop("No rating counts this game: it stands as reported.")
SAME_REPORT = gettext_noop("Confirmed by the same report.")
REPORTS_DIFFER = gettext_noop("The two reports of this game differ.")
AUTO_CONFIRMED = gettext_noop("Nobody answered within %(hours)s hours: confirmed automatically.")

_NOTES = (NO_RATING, SAME_REPORT, REPORTS_DIFFER, AUTO_CONFIRMED)


def auto_confirmed(hours: float) -> str:
    """The note of a version nobody answered in time (English, as stored)."""
    return AUTO_CONFIRMED % {"hours": f"{hours:g}"}


def note_text(note: str) -> str:
    """A stored note in the reader's language when the site wrote it; as typed otherwise."""
    return stored_text(note, _NOTES)
