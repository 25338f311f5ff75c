"""Decisions made for a match rather than by its games: rulings, walkover claims, round
deadlines and what happens when they pass."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from players.audit.registry import register_audit_type
from players.audit.transitions import transition
from players.types import User
from ratings.services import game_review_flag
from tournaments import selectors
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    AuditAction,
    Entry,
    EntryStatus,
    Match,
    MatchStatus,
    Round,
    sides_of,
)
from tournaments.permissions import leads_entry, match_side_of
from tournaments.rating_seam import event_results_changed
from tournaments.services.access import require_judge, require_manager
from tournaments.services.audit import audit, audit_entry
from tournaments.services.audit_words import match_status_words, when_words
from tournaments.services.progression import match_finish
from tournaments.services.rounds import DRAW_START_WINDOW


@transaction.atomic
def match_rule(*, actor: User, match: Match, winner_entry_id: int | None, reason: str) -> Match:
    """An organiser's or controller's ruling on a match (override), with a reason; never by
    one who plays in it (staff excepted)."""
    require_judge(actor, match)
    if not reason.strip():
        raise ValidationError({"reason": _("A ruling needs a reason.")})
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("event__championship")
        .get(pk=match.pk)
    )
    if (
        match.next_match_id
        and Match.objects.filter(pk=match.next_match_id)
        .exclude(status__in=[MatchStatus.WAITING, MatchStatus.SCHEDULED])
        .exists()
    ):
        raise ValidationError(
            {"match": _("The next round's match has started; rule on it instead.")}
        )
    sides = {match.entry_a_id: match.entry_a, match.entry_b_id: match.entry_b}
    if winner_entry_id is not None and winner_entry_id not in sides:
        raise ValidationError({"winner": _("The winner must be one of the match's entries.")})
    winner = sides.get(winner_entry_id) if winner_entry_id is not None else None
    previous = {"status": match.status, "winner": match.winner_id}
    if match.is_final and match.next_match_id:
        # Undo what the earlier result put into the next match before feeding the new one.
        field = "entry_a" if match.next_side == 0 else "entry_b"
        transition(
            Match.objects.filter(pk=match.next_match_id), MatchStatus.WAITING, fields={field: None}
        )
        if match.winner_id:
            transition(Entry.objects.filter(pk=match.winner_id), EntryStatus.ACTIVE)
    if match.winner_id and match.winner_id != winner_entry_id:
        transition(
            Entry.objects.filter(pk=match.winner_id),
            EntryStatus.ACTIVE,
            from_=(EntryStatus.CHAMPION,),
        )
    for entry_id in sides:
        if entry_id:
            transition(
                Entry.objects.filter(pk=entry_id),
                EntryStatus.ACTIVE,
                from_=(EntryStatus.ELIMINATED,),
            )
    match_finish(
        match,
        winner=winner,
        status=MatchStatus.RULED if winner else MatchStatus.VOID,
        reason="ruling",
        audit=audit_entry(
            actor=actor,
            championship=match.event.championship,
            event=match.event,
            action=AuditAction.MATCH_RULE,
            target=f"match {match.pk}",
            reason=reason,
            details={"before": previous, "winner": winner_entry_id},
        ),
    )
    event_results_changed(match.event_id)
    for game_id in match.match_games.values_list("game_id", flat=True):
        # The games' rating changes stand, but an admin should look at a ruled match's games.
        game_review_flag(game_id=game_id, note=f"match {match.pk} ruled: {reason}", actor=actor)
    return match


@transaction.atomic
def match_walkover_claim(*, actor: User, match: Match) -> Match:
    """A player says they were available: at the deadline, with no game played, they win."""
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related(*sides_of("entry_a"), *sides_of("entry_b"), "event__championship")
        .get(pk=match.pk)
    )
    side = match_side_of(actor, match)
    if side is None:
        raise PermissionDenied(_("Only a player of this match may claim a walkover."))
    claimant = match.entry_a if side == 0 else match.entry_b
    if claimant.team_id is not None and not leads_entry(actor, claimant):
        raise PermissionDenied(_("Only the team's captain or deputy may claim a walkover."))
    if not selectors.match_open_for_games(match) or match.games_played:
        raise ValidationError(
            {"match": _("A walkover can be claimed only for an open match with no game played.")}
        )
    entry = match.entry_a if side == 0 else match.entry_b
    if match.walkover_claimed_by_id and match.walkover_claimed_by_id != entry.pk:
        raise ValidationError(
            {
                "match": _(
                    "Your opponent has claimed too: both were available, "
                    "so play the match or ask a controller."
                )
            }
        )
    match.walkover_claimed_by = entry
    match.save(update_fields=["walkover_claimed_by"])
    audit(
        actor=actor,
        championship=match.event.championship,
        event=match.event,
        action=AuditAction.WALKOVER_CLAIM,
        target=f"match {match.pk}",
    )
    return match


@transaction.atomic
def round_deadline_set(
    *, actor: User, round_: Round, deadline: dt.datetime, reason: str = ""
) -> Round:
    require_manager(actor, round_.event.championship)
    now = timezone.now()
    if not now - DRAW_START_WINDOW <= deadline <= now + DRAW_START_WINDOW:
        raise ValidationError({"deadline": _("A deadline must be within a year of today.")})
    previous = round_.deadline
    round_.deadline = deadline
    round_.deadline_processed = False
    round_.save(update_fields=["deadline", "deadline_processed"])
    audit(
        actor=actor,
        championship=round_.event.championship,
        event=round_.event,
        action=AuditAction.DEADLINE_SET,
        target=round_.english_name,
        reason=reason,
        details={
            "before": previous.isoformat() if previous else None,
            "after": deadline.isoformat(),
        },
    )
    return round_


def deadlines_process(*, now: dt.datetime | None = None) -> int:
    """Settle the open matches of every round whose deadline has passed (beat task).

    A side that claimed the walkover wins it; with no game and no claim, both are out.
    With games played, the side ahead on TPs wins; a level match is left for a ruling.
    """
    now = now or timezone.now()
    settled = 0
    for round_id in Round.objects.filter(deadline__lt=now, deadline_processed=False).values_list(
        "pk", flat=True
    ):
        with transaction.atomic():
            round_ = (
                Round.objects.select_for_update(skip_locked=True)
                .filter(pk=round_id, deadline_processed=False)
                .first()
            )
            if round_ is None:
                continue
            for match in (
                Match.objects.select_for_update(of=("self",))
                .select_related("event__championship")
                .filter(round=round_)
                .exclude(status__in=FINAL_MATCH_STATUSES)
                .order_by("bracket_index", "id")
            ):
                if match.is_final or not (match.entry_a_id and match.entry_b_id):
                    continue
                if _deadline_settle(match):
                    settled += 1
            round_.deadline_processed = True
            round_.save(update_fields=["deadline_processed"])
    return settled


def _deadline_settle(match: Match) -> bool:
    """Settle one open match at its round's deadline, with its audit entry; False for a level
    match, left open for a ruling (audited as such)."""
    if match.games_played:
        if match.tps_a == match.tps_b:
            audit(
                actor=None,
                championship=match.event.championship,
                event=match.event,
                action=AuditAction.DEADLINE_LEVEL,
                target=f"match {match.pk}",
                reason=gettext_noop("level at the deadline"),
                details={"status": match.status, "winner": None},
            )
            return False
        winner = match.entry_a if match.tps_a > match.tps_b else match.entry_b
        outcome, status = AuditAction.DEADLINE_LEADER, MatchStatus.DECIDED
    elif match.walkover_claimed_by_id:
        winner = match.walkover_claimed_by
        outcome, status = AuditAction.DEADLINE_WALKOVER, MatchStatus.WALKOVER
    else:
        transition(
            Entry.objects.filter(pk__in=[match.entry_a_id, match.entry_b_id]),
            EntryStatus.ELIMINATED,
            from_=(EntryStatus.ACTIVE,),
        )
        winner = None
        outcome, status = AuditAction.DEADLINE_BOTH_OUT, MatchStatus.VOID
    match_finish(
        match,
        winner=winner,
        status=status,
        reason=str(outcome),
        audit=_deadline_entry(match, outcome, status, winner.pk if winner else None),
    )
    return True


def _deadline_entry(match: Match, outcome: str, status: str, winner_id: int | None) -> dict:
    """The audit entry of a match the deadline settles, written with its move."""
    return audit_entry(
        actor=None,
        championship=match.event.championship,
        event=match.event,
        action=outcome,
        target=f"match {match.pk}",
        details={"status": status, "winner": winner_id},
    )


# --- Audit types: the actions this module writes, and their words ---------------------------


def _ruling_words(details: dict, names: Any) -> str:
    before = details.get("before") if isinstance(details.get("before"), dict) else {}
    if details.get("winner"):
        text = _("Winner: %(winner)s") % {"winner": names.entry(details.get("winner"))}
    else:
        text = _("Void: no winner")
    if before:
        was = match_status_words(before.get("status"))
        if before.get("winner"):
            was = _("%(status)s, winner %(winner)s") % {
                "status": was,
                "winner": names.entry(before["winner"]),
            }
        text = _("%(ruling)s (before: %(was)s)") % {"ruling": text, "was": was}
    return text


def _deadline_words(details: dict, names: Any) -> str:
    winner = details.get("winner")
    if winner:
        return _("Winner: %(winner)s") % {"winner": names.entry(winner)}
    return match_status_words(details.get("status", ""))


def _deadline_set_words(details: dict, names: Any) -> str:
    return _("%(after)s (was %(before)s)") % {
        "after": when_words(details.get("after")),
        "before": when_words(details.get("before")),
    }


register_audit_type(
    AuditAction.MATCH_RULE, details={"before": dict, "winner": int}, describe=_ruling_words
)
register_audit_type(AuditAction.WALKOVER_CLAIM)
register_audit_type(
    AuditAction.DEADLINE_SET, details={"before": str, "after": str}, describe=_deadline_set_words
)
for _outcome in (
    AuditAction.DEADLINE_LEADER,
    AuditAction.DEADLINE_WALKOVER,
    AuditAction.DEADLINE_BOTH_OUT,
    AuditAction.DEADLINE_LEVEL,
):
    register_audit_type(_outcome, details={"status": str, "winner": int}, describe=_deadline_words)
