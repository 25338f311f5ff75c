"""The details of a ratings audit line in words: what each stored key means, in the reader's
language, and its value as people write it (names for tables, the reader's decimal mark).

The audit stores details as data (`{"event": 4, "games": 25, "anchor_shift": 3.75}`) so that it
can be read by programs and re-read in any language; this is the one place that turns it into
a line a person reads. An unknown key is shown as stored, so a new detail is never hidden.
"""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from players.audit.registry import register_audit_type
from ratings.models import AuditAction, RatingSystem

LABELS = {
    "event": _("event"),
    "game": _("game"),
    "games": _("games"),
    "players": _("players"),
    "changes": _("rating changes"),
    "anchor_shift": _("pool shift"),
    "compensation": _("compensating change"),
    "compensations": _("compensating changes"),
    "recalculated": _("changes recalculated"),
    "corrected": _("steps corrected"),
    "seconds": _("seconds"),
    "system": _("table"),
    "systems": _("tables"),
    "tables": _("tables"),
    "before": _("before"),
    "after": _("after"),
    "series": _("series"),
    "reverted": _("games reverted"),
    "reviews_closed": _("reviews closed"),
    "lobby": _("lobby ranking"),
    "status": _("status"),
}
_SYSTEMS = dict(RatingSystem.choices)


def _value(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, float):
        return number_format(round(value, 2), 2)
    if isinstance(value, str):
        return str(_SYSTEMS.get(value, value))
    if isinstance(value, list | tuple):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value) and len(value) > 5:
            return ngettext("%(count)s item", "%(count)s items", len(value)) % {"count": len(value)}
        return ", ".join(_value(key, v) for v in value)
    if isinstance(value, dict):
        return details_text(value)
    return str(value)


def details_text(details: Any, *, skip: set[str] | frozenset[str] = frozenset()) -> str:
    """`{"games": 25, "anchor_shift": 3.75}` → "games: 25 · pool shift: 3,75" (in Hungarian)."""
    if not isinstance(details, dict):
        return "" if details in (None, "", {}) else str(details)
    return " · ".join(
        f"{LABELS.get(key, key)}: {_value(key, value)}"
        for key, value in details.items()
        if key not in skip
    )


# --- Each ratings action a registered type (issue 27) ---------------------------------------
# Its label is the action's TextChoices label; its details' shape is what the services write
# (`players.audit.services.audit` refuses an entry that does not fit); it describes itself in
# the words above. Declared here, beside those words, rather than beside each service: the
# ratings services write their entries through one helper (`services.audit.rating_audit`), and
# RatingsConfig.ready imports this module so any process can describe any entry.

NUMBER = (int, float)
IDS = list


def describe(details: dict, _names: Any = None) -> str:
    """A ratings entry's details in words (the audit page leaves out what it names itself)."""
    return details_text(details)


AUDIT_TYPES: dict[str, dict[str, type | tuple[type, ...]]] = {
    AuditAction.REVIEW_FLAG: {},
    AuditAction.REVIEW_APPROVE: {},
    # Closing reviews by reverting: a game (the flagged game), a series of repeated results, or
    # the games behind an Elo swing; with the reviews closed together.
    AuditAction.REVIEW_REVERT: {
        "game": int,
        "series": IDS,
        "reverted": IDS,
        "event": int,
        "reviews_closed": IDS,
    },
    AuditAction.REVIEW_ADJUST: {"system": str, "before": NUMBER, "after": NUMBER},
    AuditAction.GAME_REVERT: {
        "game": int,
        "changes": IDS,
        "compensations": IDS,
        "recalculated": int,
    },
    AuditAction.CHANGE_REVERT: {"compensation": int, "recalculated": int},
    AuditAction.ADJUSTMENT: {"system": str, "before": NUMBER, "after": NUMBER},
    AuditAction.TITLE_AWARD: {"lobby": NUMBER},
    AuditAction.TITLE_WITHDRAW: {"status": str},
    AuditAction.RECOMPUTE: {"seconds": NUMBER, "systems": dict},
    AuditAction.ELO_RECALCULATE: {
        "event": int,
        "games": int,
        "players": int,
        "changes": int,
        "anchor_shift": NUMBER,
    },
    AuditAction.RESULT_REPLAY: {"game": int, "recalculated": int, "tables": IDS},
}

for _action, _shape in AUDIT_TYPES.items():
    register_audit_type(_action, details=_shape, describe=describe)
