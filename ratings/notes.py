"""The notes the ratings write by themselves (on changes, flags and audit entries).

They are stored in English, as every stored note is, so the history reads the same whatever
language wrote it; pages translate them when they show them (`rating_note`), and leave a note
a person typed as it is.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

LATE_GAME_NOTE = gettext_noop("recalculated in game order: an earlier game arrived late")
RECOMPUTE_NOTE = gettext_noop("recomputed from the game history")
RESULT_CHANGED_NOTE = gettext_noop("The game's result was changed.")
RECORD_INVALID_NOTE = gettext_noop("the game's record is no longer valid")

_WRITTEN_BY_THE_RATINGS = frozenset(
    {LATE_GAME_NOTE, RECOMPUTE_NOTE, RESULT_CHANGED_NOTE, RECORD_INVALID_NOTE}
)


def note_shown(note: str) -> str:
    """A stored note in the reader's language when the ratings wrote it, else as typed."""
    return gettext(note) if note in _WRITTEN_BY_THE_RATINGS else note
