"""Reports of match games: who answers for them, and a ruling that changes a counted game.

`games` decides when a result stands (games/reports); it asks this module, through the
`ReportAuthority` registered in TournamentsConfig.ready, who may rule (the championship's
controllers and organisers), who may reopen (its organisers), who may see its reports at all
(who sees the championship: an unpublished one hides them), whom to tell of a dispute, and
which players a score sheet for the match seats. A new ruling on a game that already counted
(after an organiser reopened it) recounts that game's TPs here (`match_game_recount`).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext_noop

from games.hooks import ReportAuthority
from players.types import User
from tournaments import formats
from tournaments.matches.services.tps import game_tps, write_seat_tps
from tournaments.models import AuditAction, Match, MatchGame, sides_of
from tournaments.permissions import can_manage, can_see, judges_match
from tournaments.rating_seam import event_results_changed
from tournaments.services.audit import audit
from tournaments.services.progression import sync_match


def _match(value: Any) -> Match | None:
    try:
        match_id = int(value)
    except (TypeError, ValueError):
        return None
    return (
        Match.objects.select_related(
            "event__championship", *sides_of("entry_a"), *sides_of("entry_b")
        )
        .filter(pk=match_id)
        .first()
    )


def may_rule_match(actor: User, value: Any) -> bool:
    """The championship's rulers, except one who plays in the match or captains a side of it
    (a team match's board games are their team's)."""
    match = _match(value)
    return match is not None and judges_match(actor, match)


def may_reopen_match(actor: User, value: Any) -> bool:
    match = _match(value)
    return (
        match is not None
        and can_manage(actor, match.event.championship)
        and judges_match(actor, match)
    )


def may_see_match(actor: User, value: Any) -> bool:
    """A match game's report is seen only by those who see its championship (an unpublished
    one: its organisers and controllers, and staff)."""
    match = _match(value)
    return match is not None and can_see(actor, match.event.championship)


def match_rulers(value: Any) -> list:
    """The championship's controllers and organisers: they hear of a dispute."""
    match = _match(value)
    if match is None:
        return []
    championship = match.event.championship
    users = get_user_model().objects.filter(is_active=True)
    return list(
        (
            users.filter(pk__in=championship.controllers.values("pk"))
            | users.filter(pk__in=championship.organisers.values("pk"))
        ).distinct()
    )


def match_audit_ids(value: Any) -> dict:
    match = _match(value)
    if match is None:
        return {}
    return {"championship_id": match.event.championship_id, "event_id": match.event_id}


def match_seat_players(value: Any) -> list:
    """A score sheet's seats: the match's first entry is side A (seat 0). Score sheets are for
    singles: a pairs or team match has no two seats to fill."""
    match = _match(value)
    if match is None or match.entry_a is None or match.entry_b is None:
        return []
    if match.entry_a.player_id is None or match.entry_b.player_id is None:
        return []
    return [match.entry_a.player, match.entry_b.player]


def match_label(value: Any) -> str:
    match = _match(value)
    if match is None:
        return ""
    a = match.entry_a.name if match.entry_a else "?"
    b = match.entry_b.name if match.entry_b else "?"
    return f"{match.event.name}: {a} v {b}"


MATCH_REPORT_AUTHORITY = ReportAuthority(
    extension="match",
    may_rule=may_rule_match,
    may_reopen=may_reopen_match,
    may_see=may_see_match,
    rulers=match_rulers,
    audit_ids=match_audit_ids,
    seat_players=match_seat_players,
    label=match_label,
)


@transaction.atomic
def match_game_recount(*, game_id: int) -> MatchGame | None:
    """A ruling changed a counted game's result: its TPs follow (time penalties kept).

    An open match is settled again from its games; a decided one keeps its winner (changing
    it is a match ruling, with its own checks) and its totals move.
    """
    match_game = (
        MatchGame.objects.select_for_update(of=("self",))
        .select_related("game", "match__event__championship")
        .filter(game_id=game_id)
        .first()
    )
    if match_game is None:
        return None
    match = Match.objects.select_for_update(of=("self",)).get(pk=match_game.match_id)
    seats = list(match_game.game.seats.order_by("seat"))
    by_seat = game_tps(match_game.game, seats, match.event.tp_scheme)
    base_a, base_b = by_seat[match_game.seat_a], by_seat[1 - match_game.seat_a]
    match_game.base_tps_a, match_game.base_tps_b = base_a, base_b
    match_game.tps_a, match_game.tps_b = formats.apply_time_penalties(
        base_a, base_b, match_game.penalty_a, match_game.penalty_b
    )
    match_game.save(update_fields=["base_tps_a", "base_tps_b", "tps_a", "tps_b"])
    write_seat_tps(match_game)
    if match.is_final:
        games = list(match.match_games.all())
        match.tps_a = sum((g.tps_a for g in games), Decimal("0"))
        match.tps_b = sum((g.tps_b for g in games), Decimal("0"))
        match.save(update_fields=["tps_a", "tps_b"])
    else:
        sync_match(match)
    event_results_changed(match.event_id)
    audit(
        actor=None,
        championship=match.event.championship,
        event=match.event,
        action=AuditAction.GAME_COUNTED,
        target=f"match {match.pk} game {match_game.number}",
        details={"game_id": game_id, "tps": [str(match_game.tps_a), str(match_game.tps_b)]},
        reason=gettext_noop("recounted after a new ruling on the game's result"),
    )
    return match_game
