"""An agreement stored and withdrawn: the steps proposals, the beat task and organisers share
(the caller holds the match row's lock)."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from players.audit.transitions import transition
from players.types import User
from tournaments.arrangements.services.common import (
    agreement_of,
    audit_match,
    match_words,
    moment_words,
    speakers,
    tell,
)
from tournaments.models import (
    ArrangementStatus,
    AuditAction,
    Match,
    MatchArrangement,
    MatchProposal,
    ProposalStatus,
)


def agree(
    match: Match,
    *,
    proposal: MatchProposal | None,
    starts_at: dt.datetime,
    source: str,
    actor: User | None,
    now: dt.datetime,
    reason: str = "",
) -> MatchArrangement:
    """Store the agreement (the match row is locked by the caller), settle the proposals,
    audit, and tell both sides."""
    if agreement_of(match) is not None:
        raise ValidationError({"match": _("This match has an agreed time already.")})
    arrangement = MatchArrangement.objects.create(
        match=match,
        starts_at=starts_at,
        agreed_at=now,
        source=source,
        proposal=proposal,
        agreed_by=actor,
    )
    open_ = [ProposalStatus.OPEN]
    if proposal is not None:
        transition(
            MatchProposal.objects.filter(pk=proposal.pk),
            ProposalStatus.ACCEPTED,
            from_=open_,
            fields={"answered_at": now},
        )
    transition(
        MatchProposal.objects.filter(match=match),
        ProposalStatus.DECLINED,
        from_=open_,
        fields={"answered_at": now},
    )
    audit_match(
        actor,
        match,
        AuditAction.MATCH_TIME_AGREE,
        reason=reason,
        starts_at=starts_at.isoformat(),
        source=str(source),
        proposal=proposal.pk if proposal else None,
    )

    def text() -> str:
        return _("%(a)s v %(b)s (%(round)s, %(event)s) is arranged for %(when)s.") % {
            **match_words(match),
            "when": moment_words(starts_at),
        }

    tell([*speakers(match.entry_a), *speakers(match.entry_b)], text, match)
    return arrangement


def withdraw(arrangement: MatchArrangement, *, actor: User, reason: str, now: dt.datetime) -> None:
    transition(
        arrangement,
        ArrangementStatus.WITHDRAWN,
        fields={"withdrawn_at": now, "withdrawn_by": actor, "withdraw_reason": reason[:300]},
    )
    audit_match(
        actor,
        arrangement.match,
        AuditAction.MATCH_TIME_WITHDRAW,
        reason=reason,
        starts_at=arrangement.starts_at.isoformat(),
    )
