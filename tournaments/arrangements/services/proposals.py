"""Proposals and agreements between the sides, and the beat task's acceptance for a silent
opponent once the event's response window has passed."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.audit.transitions import transition
from players.types import User
from tournaments import selectors as tournament_selectors
from tournaments.arrangements import selectors
from tournaments.arrangements.services.agreements import agree, withdraw
from tournaments.arrangements.services.common import (
    agreement_of,
    audit_match,
    check_time,
    locked,
    match_words,
    moment_words,
    require_open,
    require_side,
    side_entry,
    speakers,
    tell,
)
from tournaments.models import (
    ArrangementSource,
    AuditAction,
    Match,
    MatchArrangement,
    MatchProposal,
    ProposalStatus,
    sides_of,
)
from tournaments.permissions import arranging_side, can_manage

MAX_PROPOSALS = 10


# --- Proposals and agreements -------------------------------------------------------------


@transaction.atomic
def proposals_make(
    *, actor: User, match: Match, times: Sequence[dt.datetime], note: str = ""
) -> list[MatchProposal]:
    """A side proposes one or more times. The other side's open proposals are set aside (this
    is the answer to them); the side's own earlier open ones stay."""
    match = locked(match)
    side = require_side(actor, match)
    require_open(match)
    if agreement_of(match) is not None:
        raise ValidationError(
            {"match": _("This match has an agreed time: withdraw it before proposing others.")}
        )
    if not times:
        raise ValidationError({"times": _("Propose at least one time.")})
    if len(times) > MAX_PROPOSALS:
        raise ValidationError(
            {"times": _("Propose at most %(count)s times at once.") % {"count": MAX_PROPOSALS}}
        )
    now = timezone.now()
    for index, moment in enumerate(times):
        check_time(match, moment, field="times", now=now)
        if moment in times[:index]:
            raise ValidationError({"times": _("The same time is proposed twice.")})
    if MatchProposal.objects.filter(
        match=match, status=ProposalStatus.OPEN, starts_at__in=list(times)
    ).exists():
        raise ValidationError({"times": _("That time is proposed already.")})
    transition(
        MatchProposal.objects.filter(match=match, side=1 - side),
        ProposalStatus.DECLINED,
        from_=[ProposalStatus.OPEN],
        fields={"answered_at": now},
    )
    made = MatchProposal.objects.bulk_create(
        MatchProposal(
            match=match, side=side, proposed_by=actor, starts_at=moment, note=note, created=now
        )
        for moment in sorted(times)
    )
    audit_match(
        actor,
        match,
        AuditAction.MATCH_TIME_PROPOSE,
        reason=note,
        side=side,
        times=[m.starts_at.isoformat() for m in made],
    )

    def text() -> str:
        count = len(made)
        return ngettext(
            "%(a)s v %(b)s (%(round)s, %(event)s): a time is proposed, %(times)s.",
            "%(a)s v %(b)s (%(round)s, %(event)s): %(count)s times are proposed: %(times)s.",
            count,
        ) % {
            **match_words(match),
            "count": count,
            "times": "; ".join(moment_words(m.starts_at) for m in made),
        }

    tell(speakers(side_entry(match, 1 - side)), text, match)
    return made


@transaction.atomic
def proposal_accept(*, actor: User, proposal: MatchProposal) -> MatchArrangement:
    """The other side accepts a proposed time: it is the agreement."""
    match = locked(proposal.match)
    proposal = MatchProposal.objects.select_for_update().get(pk=proposal.pk)
    side = require_side(actor, match)
    require_open(match)
    if proposal.side == side:
        raise ValidationError(
            {"proposal": _("That time is your side's own proposal: your opponent accepts it.")}
        )
    if proposal.status != ProposalStatus.OPEN:
        raise ValidationError({"proposal": _("That proposal is no longer open.")})
    now = timezone.now()
    check_time(match, proposal.starts_at, field="proposal", now=now)
    return agree(
        match,
        proposal=proposal,
        starts_at=proposal.starts_at,
        source=ArrangementSource.ACCEPTED,
        actor=actor,
        now=now,
    )


@transaction.atomic
def proposal_withdraw(*, actor: User, proposal: MatchProposal) -> MatchProposal:
    """The proposing side takes back a time not yet answered."""
    match = locked(proposal.match)
    proposal = MatchProposal.objects.select_for_update().get(pk=proposal.pk)
    side = require_side(actor, match)
    if proposal.side != side:
        raise PermissionDenied(_("Only the side that proposed a time may take it back."))
    if proposal.status != ProposalStatus.OPEN:
        raise ValidationError({"proposal": _("That proposal is no longer open.")})
    transition(proposal, ProposalStatus.WITHDRAWN, fields={"answered_at": timezone.now()})
    return proposal


@transaction.atomic
def arrangement_withdraw(*, actor: User, match: Match, reason: str) -> MatchArrangement:
    """Either side (or an organiser) withdraws the agreement before it starts, with a reason."""
    match = locked(match)
    side = arranging_side(actor, match)
    if side is None and not can_manage(actor, match.event.championship):
        raise PermissionDenied(
            _("Only the match's players and this championship's organisers may do that.")
        )
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the agreed time is withdrawn.")})
    arrangement = agreement_of(match)
    if arrangement is None:
        raise ValidationError({"match": _("This match has no agreed time.")})
    now = timezone.now()
    if arrangement.starts_at <= now:
        raise ValidationError(
            {"match": _("The agreed time has come: it can no longer be withdrawn.")}
        )
    withdraw(arrangement, actor=actor, reason=reason, now=now)
    others = (
        speakers(side_entry(match, 1 - side))
        if side is not None
        else [*speakers(match.entry_a), *speakers(match.entry_b)]
    )

    def text() -> str:
        return _(
            "%(a)s v %(b)s (%(round)s, %(event)s): the time agreed for %(when)s is withdrawn: "
            "%(reason)s"
        ) % {**match_words(match), "when": moment_words(arrangement.starts_at), "reason": reason}

    tell(others, text, match)
    return arrangement


def proposals_auto_accept(*, now: dt.datetime | None = None) -> int:
    """Accept, for a silent opponent, the first time proposed once the event's response window
    has passed (beat task). Idempotent: each match is settled under its row lock and only when
    it still has no agreement and the proposal is still open, so a repeat, a second worker or a
    player answering at the same moment finds the work done."""
    now = now or timezone.now()
    accepted = 0
    due: dict[int, int] = {}
    for proposal in selectors.proposals_due(now=now):
        hours = proposal.match.event.arrangement.response_hours
        if proposal.created + dt.timedelta(hours=hours) <= now:
            due.setdefault(proposal.match_id, proposal.pk)
    for match_id in due:
        with transaction.atomic():
            match = (
                Match.objects.select_for_update(of=("self",), skip_locked=True)
                .select_related(
                    "event__championship",
                    "event__arrangement",
                    "round",
                    *sides_of("entry_a"),
                    *sides_of("entry_b"),
                )
                .filter(pk=match_id)
                .first()
            )
            if match is None or agreement_of(match) is not None:
                continue
            if not tournament_selectors.match_open_for_games(match):
                continue
            first = _first_acceptable(match, now)
            if first is None:
                continue
            agree(
                match,
                proposal=first,
                starts_at=first.starts_at,
                source=ArrangementSource.AUTO,
                actor=None,
                now=now,
            )
            accepted += 1
    return accepted


def _first_acceptable(match: Match, now: dt.datetime) -> MatchProposal | None:
    """The first proposed open time still ahead and within the round (earliest proposed, then
    earliest time), whose window has passed."""
    hours = match.event.arrangement.response_hours
    if hours is None:
        return None
    for proposal in MatchProposal.objects.filter(match=match, status=ProposalStatus.OPEN).order_by(
        "created", "starts_at", "id"
    ):
        if proposal.created + dt.timedelta(hours=hours) > now:
            return None
        deadline = match.round.deadline
        if proposal.starts_at > now and (deadline is None or proposal.starts_at <= deadline):
            return proposal
    return None
