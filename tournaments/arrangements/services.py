"""Arranging when a match is played (issue 30). Every write is one atomic service that locks
the match row first (two players answering at once meet there), checks who acts, audits, and
tells the other side by a notice and an e-mail in their own language and time zone.

Who acts: the side's speakers (`permissions.arranging_side`: the player, either partner, a
team's captain or deputy, as for a walkover claim); organisers set or withdraw a time and nudge.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.audit.registry import register_audit_type
from players.models import Player
from players.notices.services import notice_send
from players.preferences.timezones import zone_for
from players.roles import is_admin, player_of
from players.types import User
from tournaments import selectors as tournament_selectors
from tournaments.arrangements import selectors
from tournaments.arrangements.times import zone_named
from tournaments.models import (
    ArrangementPolicy,
    ArrangementSource,
    ArrangementStatus,
    AuditAction,
    AvailabilityWindow,
    Entry,
    Event,
    Match,
    MatchArrangement,
    MatchProposal,
    NoShowClaim,
    ProposalStatus,
    sides_of,
)
from tournaments.permissions import arranging_side, can_manage, leads_entry
from tournaments.services.access import require_manager
from tournaments.services.audit import audit
from tournaments.services.audit_words import when_words

# What notices about an arrangement link to (the match page; registered in apps.ready).
NOTICE_ABOUT = "match_arrangement"
MAX_PROPOSALS = 10
MAX_WINDOWS = 28
# How far ahead a time may be proposed when the round has no deadline.
FURTHEST = dt.timedelta(days=366)

# --- Helpers -------------------------------------------------------------------------------


def _locked(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related(
            "event__championship",
            "event__arrangement",
            "round",
            *sides_of("entry_a"),
            *sides_of("entry_b"),
        )
        .get(pk=match.pk)
    )


def _require_side(actor: User, match: Match) -> int:
    side = arranging_side(actor, match)
    if side is None:
        raise PermissionDenied(
            _("Only the match's players (for a team, its captain or deputy) may arrange its time.")
        )
    return side


def _require_open(match: Match) -> None:
    if not tournament_selectors.match_open_for_games(match) or match.is_bye:
        raise ValidationError({"match": _("Only an open match with both sides known is arranged.")})


def _check_time(match: Match, starts_at: dt.datetime, *, field: str, now: dt.datetime) -> None:
    """A time must be ahead of now and within the round (by its deadline)."""
    if timezone.is_naive(starts_at):
        raise ValueError("times reach services aware (the forms and the API read the zone)")
    if starts_at <= now:
        raise ValidationError({field: _("That time has passed: propose a time still to come.")})
    deadline = match.round.deadline
    if deadline is not None and starts_at > deadline:
        raise ValidationError(
            {
                field: _("That time is after the round's deadline (%(deadline)s).")
                % {"deadline": _moment_words(deadline)}
            }
        )
    if starts_at > now + FURTHEST:
        raise ValidationError({field: _("A match is arranged at most a year ahead.")})


def _moment_words(moment: dt.datetime) -> str:
    """A moment in the active zone and language, the site's one format."""
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def _speakers(entry: Entry | None) -> list[User]:
    """The accounts that speak for an entry (who is told about its arrangements)."""
    if entry is None:
        return []
    if entry.team_id is not None:
        ids = [entry.team.captain_id, entry.team.deputy_id]
    else:
        ids = entry.members()
    return [
        p.user
        for p in Player.objects.filter(pk__in=[i for i in ids if i]).select_related("user")
        if p.user
    ]


def _side_entry(match: Match, side: int) -> Entry:
    return match.entry_a if side == 0 else match.entry_b


def _tell(users: Iterable[User], text: Callable[[], str], match: Match) -> None:
    """A notice (and its e-mail) to each user in their language and time zone: `text` words
    it in the active ones."""
    for user in {u.pk: u for u in users if u is not None}.values():
        player = player_of(user)
        language = (player and player.language) or settings.LANGUAGE_CODE
        zone = zone_for(player.time_zone) if player else None
        with (
            translation.override(language),
            timezone.override(zone or timezone.get_default_timezone()),
        ):
            notice_send(user=user, text=text(), about=NOTICE_ABOUT, about_id=match.pk)


def _match_words(match: Match) -> dict[str, str]:
    return {
        "a": match.entry_a.name if match.entry_a else "",
        "b": match.entry_b.name if match.entry_b else "",
        "round": str(match.round),
        "event": match.event.name,
    }


def _audit(
    actor: User | None, match: Match, action: str, *, reason: str = "", **details: Any
) -> None:
    audit(
        actor=actor,
        championship=match.event.championship,
        event=match.event,
        action=action,
        target=f"match {match.pk}",
        reason=reason,
        details=details,
    )


def _agreed(match: Match) -> MatchArrangement | None:
    return MatchArrangement.objects.filter(match=match, status=ArrangementStatus.AGREED).first()


# --- Proposals and agreements -------------------------------------------------------------


@transaction.atomic
def proposals_make(
    *, actor: User, match: Match, times: Sequence[dt.datetime], note: str = ""
) -> list[MatchProposal]:
    """A side proposes one or more times. The other side's open proposals are set aside (this
    is the answer to them); the side's own earlier open ones stay."""
    match = _locked(match)
    side = _require_side(actor, match)
    _require_open(match)
    if _agreed(match) is not None:
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
        _check_time(match, moment, field="times", now=now)
        if moment in times[:index]:
            raise ValidationError({"times": _("The same time is proposed twice.")})
    if MatchProposal.objects.filter(
        match=match, status=ProposalStatus.OPEN, starts_at__in=list(times)
    ).exists():
        raise ValidationError({"times": _("That time is proposed already.")})
    MatchProposal.objects.filter(match=match, status=ProposalStatus.OPEN, side=1 - side).update(
        status=ProposalStatus.DECLINED, answered_at=now
    )
    made = MatchProposal.objects.bulk_create(
        MatchProposal(
            match=match, side=side, proposed_by=actor, starts_at=moment, note=note, created=now
        )
        for moment in sorted(times)
    )
    _audit(
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
            **_match_words(match),
            "count": count,
            "times": "; ".join(_moment_words(m.starts_at) for m in made),
        }

    _tell(_speakers(_side_entry(match, 1 - side)), text, match)
    return made


@transaction.atomic
def proposal_accept(*, actor: User, proposal: MatchProposal) -> MatchArrangement:
    """The other side accepts a proposed time: it is the agreement."""
    match = _locked(proposal.match)
    proposal = MatchProposal.objects.select_for_update().get(pk=proposal.pk)
    side = _require_side(actor, match)
    _require_open(match)
    if proposal.side == side:
        raise ValidationError(
            {"proposal": _("That time is your side's own proposal: your opponent accepts it.")}
        )
    if proposal.status != ProposalStatus.OPEN:
        raise ValidationError({"proposal": _("That proposal is no longer open.")})
    now = timezone.now()
    _check_time(match, proposal.starts_at, field="proposal", now=now)
    return _agree(
        match,
        proposal=proposal,
        starts_at=proposal.starts_at,
        source=ArrangementSource.ACCEPTED,
        actor=actor,
        now=now,
    )


def _agree(
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
    if _agreed(match) is not None:
        raise ValidationError({"match": _("This match has an agreed time already.")})
    arrangement = MatchArrangement.objects.create(
        match=match,
        starts_at=starts_at,
        agreed_at=now,
        source=source,
        proposal=proposal,
        agreed_by=actor,
    )
    if proposal is not None:
        MatchProposal.objects.filter(pk=proposal.pk).update(
            status=ProposalStatus.ACCEPTED, answered_at=now
        )
    MatchProposal.objects.filter(match=match, status=ProposalStatus.OPEN).update(
        status=ProposalStatus.DECLINED, answered_at=now
    )
    _audit(
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
            **_match_words(match),
            "when": _moment_words(starts_at),
        }

    _tell([*_speakers(match.entry_a), *_speakers(match.entry_b)], text, match)
    return arrangement


@transaction.atomic
def proposal_withdraw(*, actor: User, proposal: MatchProposal) -> MatchProposal:
    """The proposing side takes back a time not yet answered."""
    match = _locked(proposal.match)
    proposal = MatchProposal.objects.select_for_update().get(pk=proposal.pk)
    side = _require_side(actor, match)
    if proposal.side != side:
        raise PermissionDenied(_("Only the side that proposed a time may take it back."))
    if proposal.status != ProposalStatus.OPEN:
        raise ValidationError({"proposal": _("That proposal is no longer open.")})
    proposal.status = ProposalStatus.WITHDRAWN
    proposal.answered_at = timezone.now()
    proposal.save(update_fields=["status", "answered_at"])
    return proposal


@transaction.atomic
def arrangement_withdraw(*, actor: User, match: Match, reason: str) -> MatchArrangement:
    """Either side (or an organiser) withdraws the agreement before it starts, with a reason."""
    match = _locked(match)
    side = arranging_side(actor, match)
    if side is None and not can_manage(actor, match.event.championship):
        raise PermissionDenied(
            _("Only the match's players and this championship's organisers may do that.")
        )
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the agreed time is withdrawn.")})
    arrangement = _agreed(match)
    if arrangement is None:
        raise ValidationError({"match": _("This match has no agreed time.")})
    now = timezone.now()
    if arrangement.starts_at <= now:
        raise ValidationError(
            {"match": _("The agreed time has come: it can no longer be withdrawn.")}
        )
    _withdraw(arrangement, actor=actor, reason=reason, now=now)
    others = (
        _speakers(_side_entry(match, 1 - side))
        if side is not None
        else [*_speakers(match.entry_a), *_speakers(match.entry_b)]
    )

    def text() -> str:
        return _(
            "%(a)s v %(b)s (%(round)s, %(event)s): the time agreed for %(when)s is withdrawn: "
            "%(reason)s"
        ) % {**_match_words(match), "when": _moment_words(arrangement.starts_at), "reason": reason}

    _tell(others, text, match)
    return arrangement


def _withdraw(arrangement: MatchArrangement, *, actor: User, reason: str, now: dt.datetime) -> None:
    arrangement.status = ArrangementStatus.WITHDRAWN
    arrangement.withdrawn_at = now
    arrangement.withdrawn_by = actor
    arrangement.withdraw_reason = reason[:300]
    arrangement.save(update_fields=["status", "withdrawn_at", "withdrawn_by", "withdraw_reason"])
    _audit(
        actor,
        arrangement.match,
        AuditAction.MATCH_TIME_WITHDRAW,
        reason=reason,
        starts_at=arrangement.starts_at.isoformat(),
    )


@transaction.atomic
def arrangement_set(
    *, actor: User, match: Match, starts_at: dt.datetime, reason: str = ""
) -> MatchArrangement:
    """An organiser sets the time; one already agreed is replaced (which needs a reason)."""
    match = _locked(match)
    require_manager(actor, match.event.championship)
    _require_open(match)
    now = timezone.now()
    _check_time(match, starts_at, field="starts_at", now=now)
    reason = reason.strip()
    current = _agreed(match)
    if current is not None:
        if not reason:
            raise ValidationError(
                {"reason": _("The match has an agreed time: say why you replace it.")}
            )
        _withdraw(current, actor=actor, reason=reason, now=now)
    return _agree(
        match,
        proposal=None,
        starts_at=starts_at,
        source=ArrangementSource.ORGANISER,
        actor=actor,
        now=now,
        reason=reason,
    )


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
            if match is None or _agreed(match) is not None:
                continue
            if not tournament_selectors.match_open_for_games(match):
                continue
            first = _first_acceptable(match, now)
            if first is None:
                continue
            _agree(
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


# --- Organisers ---------------------------------------------------------------------------


@transaction.atomic
def arrangement_policy_set(
    *, actor: User, event: Event, response_hours: int | None
) -> ArrangementPolicy:
    require_manager(actor, event.championship)
    if response_hours is not None and not 1 <= response_hours <= 24 * 30:
        raise ValidationError(
            {"response_hours": _("A response window is from 1 hour to 30 days (720 hours).")}
        )
    policy, _created = ArrangementPolicy.objects.select_for_update().get_or_create(event=event)
    before = policy.response_hours
    policy.response_hours = response_hours
    policy.save(update_fields=["response_hours"])
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action=AuditAction.ARRANGEMENT_POLICY_SET,
        target=event.name,
        details={"before": before, "after": response_hours},
    )
    return policy


@transaction.atomic
def matches_nudge(*, actor: User, event: Event, match_ids: Sequence[int]) -> int:
    """Remind the players of the chosen open matches of the event to arrange (or play) them;
    how many matches were nudged. Matches not of the event or not open are refused."""
    require_manager(actor, event.championship)
    if not match_ids:
        raise ValidationError({"matches": _("Choose at least one match.")})
    open_matches = {
        m.pk: m
        for m in selectors.matches_to_arrange(event=event, which="all").filter(
            pk__in=list(match_ids)
        )
    }
    stray = [pk for pk in match_ids if pk not in open_matches]
    if stray:
        raise ValidationError(
            {
                "matches": _("These are not open matches of this event: %(ids)s.")
                % {"ids": ", ".join(map(str, stray))}
            }
        )
    for match in open_matches.values():
        agreed = match.agreed[0] if match.agreed else None

        def text(match: Match = match, agreed: MatchArrangement | None = agreed) -> str:
            words = _match_words(match)
            if agreed is not None:
                return _(
                    "%(a)s v %(b)s (%(round)s, %(event)s) was arranged for %(when)s and is not "
                    "played yet: please play it, or report what happened."
                ) % {**words, "when": _moment_words(agreed.starts_at)}
            if match.round.deadline:
                return _(
                    "%(a)s v %(b)s (%(round)s, %(event)s) has no agreed time yet: please arrange "
                    "it on the match page before the deadline, %(deadline)s."
                ) % {**words, "deadline": _moment_words(match.round.deadline)}
            return (
                _(
                    "%(a)s v %(b)s (%(round)s, %(event)s) has no agreed time yet: please "
                    "arrange it on the match page."
                )
                % words
            )

        _tell([*_speakers(match.entry_a), *_speakers(match.entry_b)], text, match)
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action=AuditAction.MATCH_TIME_NUDGE,
        target=event.name,
        details={"matches": sorted(open_matches)},
    )
    return len(open_matches)


# --- Usual free times ----------------------------------------------------------------------


@transaction.atomic
def availability_set(
    *,
    actor: User,
    player: Player,
    windows: Sequence[tuple[int, dt.time, dt.time]],
    time_zone: str,
) -> list[AvailabilityWindow]:
    """Replace the player's usual free times (weekday, from, to; in `time_zone`)."""
    own = player_of(actor)
    if not (is_admin(actor) or (own is not None and own.pk == player.pk)):
        raise PermissionDenied(_("Only the player states when they are usually free."))
    zone_named(time_zone)
    if len(windows) > MAX_WINDOWS:
        raise ValidationError(
            {"windows": _("At most %(count)s free times.") % {"count": MAX_WINDOWS}}
        )
    for weekday, starts, ends in windows:
        if not 0 <= weekday <= 6:
            raise ValidationError({"windows": _("A weekday is from Monday to Sunday.")})
        if ends <= starts:
            raise ValidationError({"windows": _("A free time ends after it starts.")})
    Player.objects.select_for_update().filter(pk=player.pk).first()
    AvailabilityWindow.objects.filter(player=player).delete()
    return AvailabilityWindow.objects.bulk_create(
        AvailabilityWindow(player=player, weekday=w, starts=s, ends=e, time_zone=time_zone)
        for w, s, e in windows
    )


# --- No-show claims ------------------------------------------------------------------------


@transaction.atomic
def no_show_claim(*, actor: User, match: Match, message: str) -> NoShowClaim:
    """A side says the other did not appear at the agreed time. The claim keeps the agreement
    and the message for the controller; it is also the side's walkover claim (when the other
    side has not claimed one), so the deadline settles it if nobody rules first."""
    match = _locked(match)
    side = _require_side(actor, match)
    _require_open(match)
    message = message.strip()
    if not message:
        raise ValidationError({"message": _("Say what happened at the agreed time.")})
    arrangement = _agreed(match)
    now = timezone.now()
    if arrangement is None or arrangement.starts_at > now:
        raise ValidationError(
            {"match": _("A no-show is claimed only after the agreed time has passed.")}
        )
    if match.games_played:
        raise ValidationError({"match": _("A game of this match has been played.")})
    if NoShowClaim.objects.filter(arrangement=arrangement, side=side).exists():
        raise ValidationError(
            {"match": _("Your side has claimed a no-show for this time already.")}
        )
    claim = NoShowClaim.objects.create(
        match=match,
        arrangement=arrangement,
        side=side,
        claimed_by=actor,
        message=message[:2000],
        created=now,
    )
    if match.walkover_claimed_by_id is None:
        entry = _side_entry(match, side)
        if entry.team_id is None or leads_entry(actor, entry):
            match.walkover_claimed_by = entry
            match.save(update_fields=["walkover_claimed_by"])
            _audit(actor, match, AuditAction.WALKOVER_CLAIM)
    _audit(
        actor,
        match,
        AuditAction.NO_SHOW_CLAIM,
        reason=message,
        side=side,
        starts_at=arrangement.starts_at.isoformat(),
    )
    claimant = _side_entry(match, side).name

    def text() -> str:
        return _(
            "%(a)s v %(b)s (%(round)s, %(event)s): %(claimant)s says the other side did not "
            "appear at the agreed time, %(when)s. Answer on the match page."
        ) % {
            **_match_words(match),
            "claimant": claimant,
            "when": _moment_words(arrangement.starts_at),
        }

    _tell([*_speakers(_side_entry(match, 1 - side)), *_rulers(match)], text, match)
    return claim


@transaction.atomic
def no_show_reply(*, actor: User, claim: NoShowClaim, message: str) -> NoShowClaim:
    """The other side answers a no-show claim, once, before a ruling."""
    match = _locked(claim.match)
    claim = NoShowClaim.objects.select_for_update().get(pk=claim.pk)
    side = _require_side(actor, match)
    if side == claim.side:
        raise PermissionDenied(_("The other side answers a no-show claim."))
    if match.is_final:
        raise ValidationError({"match": _("The match is decided.")})
    message = message.strip()
    if not message:
        raise ValidationError({"message": _("Say what happened at the agreed time.")})
    if claim.reply:
        raise ValidationError({"message": _("Your side has answered this claim already.")})
    claim.reply = message[:2000]
    claim.replied_by = actor
    claim.replied_at = timezone.now()
    claim.save(update_fields=["reply", "replied_by", "replied_at"])
    _audit(actor, match, AuditAction.NO_SHOW_REPLY, reason=message, side=side)

    def text() -> str:
        return _("%(a)s v %(b)s (%(round)s, %(event)s): the no-show claim is answered.") % (
            _match_words(match)
        )

    _tell([*_speakers(_side_entry(match, claim.side)), *_rulers(match)], text, match)
    return claim


def _rulers(match: Match) -> list[User]:
    championship = match.event.championship
    return [*championship.controllers.all(), *championship.organisers.all()]


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
