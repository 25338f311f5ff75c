"""The audit actions the arrangement services write, and their words."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.audit.registry import register_audit_type
from tournaments.models import (
    ArrangementSource,
    AuditAction,
)
from tournaments.services.audit_words import when_words

# --- Audit types: the actions this module writes, and their words ---------------------------


def _side_words(details: dict, names: Any) -> str:
    return _("Side A") if details.get("side") == 0 else _("Side B")


def _proposed_words(details: dict, names: Any) -> str:
    times = details.get("times") or []
    return _("%(side)s proposed: %(times)s") % {
        "side": _side_words(details, names),
        "times": "; ".join(when_words(t) for t in times),
    }


def _agreed_words(details: dict, names: Any) -> str:
    when = when_words(details.get("starts_at"))
    source = details.get("source")
    if source == ArrangementSource.AUTO:
        return _("%(when)s (accepted when the response window passed)") % {"when": when}
    if source == ArrangementSource.ORGANISER:
        return _("%(when)s (set by an organiser)") % {"when": when}
    return when


def _withdrawn_words(details: dict, names: Any) -> str:
    return when_words(details.get("starts_at"))


def _nudged_words(details: dict, names: Any) -> str:
    count = len(details.get("matches") or [])
    return ngettext("%(count)s match", "%(count)s matches", count) % {"count": count}


def _claim_words(details: dict, names: Any) -> str:
    return _("%(side)s; agreed time %(when)s") % {
        "side": _side_words(details, names),
        "when": when_words(details.get("starts_at")),
    }


def _policy_words(details: dict, names: Any) -> str:
    def hours(value: Any) -> str:
        if value is None:
            return _("no automatic acceptance")
        return ngettext("%(count)s hour", "%(count)s hours", value) % {"count": value}

    return _("%(after)s (was %(before)s)") % {
        "after": hours(details.get("after")),
        "before": hours(details.get("before")),
    }


register_audit_type(
    AuditAction.MATCH_TIME_PROPOSE, details={"side": int, "times": list}, describe=_proposed_words
)
register_audit_type(
    AuditAction.MATCH_TIME_AGREE,
    details={"starts_at": str, "source": str, "proposal": int},
    describe=_agreed_words,
)
register_audit_type(
    AuditAction.MATCH_TIME_WITHDRAW, details={"starts_at": str}, describe=_withdrawn_words
)
register_audit_type(AuditAction.MATCH_TIME_NUDGE, details={"matches": list}, describe=_nudged_words)
register_audit_type(
    AuditAction.NO_SHOW_CLAIM, details={"side": int, "starts_at": str}, describe=_claim_words
)
register_audit_type(AuditAction.NO_SHOW_REPLY, details={"side": int}, describe=_side_words)
register_audit_type(
    AuditAction.ARRANGEMENT_POLICY_SET,
    details={"before": int, "after": int},
    describe=_policy_words,
)
