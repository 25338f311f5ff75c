"""Counting games for matches: the submission extension, TPs per game, time penalties.

A game that cannot count for its match is kept as an `UncountedGame` (state: the sweep for
lost countings leaves it alone) and audited as `game_not_counted` (the record for people)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from games.models import Game, GameContext
from players.audit.registry import register_audit_type
from players.roles import player_of
from players.types import User
from tournaments import formats, selectors
from tournaments.format_words import format_error_text
from tournaments.formats.teams import board_game_allowed
from tournaments.matches.services.tps import game_tps, write_seat_tps
from tournaments.models import (
    AuditAction,
    Match,
    MatchGame,
    MatchStatus,
    UncountedGame,
    sides_of,
)
from tournaments.permissions import can_rule, judges_match
from tournaments.rating_seam import event_results_changed
from tournaments.services.audit import audit
from tournaments.services.progression import sync_match
from tournaments.sides.selectors import match_lineup, team_rules, team_state
from tournaments.sides.services.teams import lineup_fix


def game_placement(match: Match, seat_players: list[int]) -> tuple[int, int | None] | None:
    """(seat of side A, board) for a game with these seated player ids, if the game is between
    the match's two sides (else None). A pairs game seats a pair in seats 0 and 2 (1 and 3):
    side A is then in seats `seat_a` and `seat_a + 2`. A team match's game is between the two
    players of one board of its lineup (`board`, from 1); other games have no board."""
    a, b = match.entry_a, match.entry_b
    if a is None or b is None:
        return None
    if a.team_id is not None and b.team_id is not None:
        if len(seat_players) != 2:
            return None
        for board, player_a, player_b in match_lineup(match):
            if seat_players == [player_a, player_b]:
                return 0, board
            if seat_players == [player_b, player_a]:
                return 1, board
        return None
    seat = _seat_of_side_a(a, b, seat_players)
    return None if seat is None else (seat, None)


def _seat_of_side_a(a, b, seat_players: list[int]) -> int | None:
    if a.pair_id is not None and b.pair_id is not None:
        if len(seat_players) != 4:
            return None
        first, second = {seat_players[0], seat_players[2]}, {seat_players[1], seat_players[3]}
        pair_a, pair_b = set(a.pair.player_ids), set(b.pair.player_ids)
        if (first, second) == (pair_a, pair_b):
            return 0
        if (first, second) == (pair_b, pair_a):
            return 1
        return None
    if a.player_id is not None and b.player_id is not None and len(seat_players) == 2:
        if seat_players == [a.player_id, b.player_id]:
            return 0
        if seat_players == [b.player_id, a.player_id]:
            return 1
    return None


def _match_words(match: Match) -> dict[str, str]:
    """The match as its players know it, its event and round ("Demo Open", "Quarter-final"),
    not its database id (issue 28: "Match 545 is North v South")."""
    return {"event": match.event.name, "round": str(match.round)}


def _who_plays(match: Match) -> str:
    params = {
        **_match_words(match),
        "a": match.entry_a.name if match.entry_a else "?",
        "b": match.entry_b.name if match.entry_b else "?",
    }
    if match.entry_a and match.entry_a.team_id is not None:
        return (
            _(
                "This match (%(event)s, %(round)s) is %(a)s v %(b)s; a board game is between "
                "the two players of one board of its lineup (board 1 v board 1, ...)."
            )
            % params
        )
    if match.entry_a and match.entry_a.pair_id is not None:
        return (
            _(
                "This match (%(event)s, %(round)s) is %(a)s v %(b)s; a pairs record seats one "
                "pair in its first and third seats and the other in its second and fourth."
            )
            % params
        )
    return (
        _(
            "This match (%(event)s, %(round)s) is %(a)s v %(b)s; the record's players must be "
            "exactly these two."
        )
        % params
    )


def validate_match_submission(*, actor: User, value: Any, seat_players: list) -> int:
    """Submission extension `match`: the game must be between this match's two sides.

    Who plays whom is told only to the match's players and the championship's staff: anyone
    else gets the same answer as for a match that does not exist.
    """
    try:
        match_id = int(str(value).strip()) if len(str(value)) <= 18 else None
    except ValueError:
        match_id = None
    if match_id is None or match_id < 1:
        raise ValidationError(_("Give the match id as a whole number."))
    match = (
        Match.objects.select_related(
            "event__championship", *sides_of("entry_a"), *sides_of("entry_b")
        )
        .filter(pk=match_id)
        .first()
    )
    entries = (match.entry_a, match.entry_b) if match else ()
    players = {p for entry in entries if entry is not None for p in entry.members()}
    own = player_of(actor)
    if match is None or not (
        (own is not None and own.pk in players) or can_rule(actor, match.event.championship)
    ):
        raise ValidationError(
            _(
                "You have no match %(match)s: only the match's players and the championship's "
                "staff may submit its games."
            )
            % {"match": match_id}
        )
    if not selectors.match_open_for_games(match):
        raise ValidationError(
            _("This match (%(event)s, %(round)s) is not open for games (%(status)s).")
            % {**_match_words(match), "status": match.get_status_display()}
        )
    placement = game_placement(match, [p.pk for p in seat_players])
    if placement is None:
        raise ValidationError(_who_plays(match))
    if placement[1] is not None:
        state = team_state(match, list(match.match_games.all()))
        refusal = board_game_allowed(state, team_rules(match.event), placement[1])
        if refusal:
            raise ValidationError(
                _("This match (%(event)s, %(round)s): %(refusal)s.")
                % {**_match_words(match), "refusal": format_error_text(refusal)}
            )
    return match_id


@transaction.atomic
def match_game_attach(*, game_id: int) -> MatchGame | None:
    """Count a valid game for the match it was submitted for; decide and advance the match."""
    game = Game.objects.select_related("record").get(pk=game_id)
    match_id = (game.record.extensions or {}).get("match")
    if match_id is None or MatchGame.objects.filter(game=game).exists():
        return None
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("event__championship", *sides_of("entry_a"), *sides_of("entry_b"))
        .filter(pk=match_id)
        .first()
    )
    seats = list(game.seats.order_by("seat"))
    problem = None
    placement = None
    # Stored in English (the refusal and its audit line); marked so a page can translate it.
    if match is None:
        problem = gettext_noop("the match no longer exists")
    elif not selectors.match_open_for_games(match):
        with translation.override(None):
            problem = f"the match was already {match.get_status_display().lower()}"
    elif (placement := game_placement(match, [s.player_id for s in seats])) is None:
        problem = gettext_noop("the game's players are not this match's players")
    elif match.entry_a.pair_id is not None and not game.is_pairs:
        problem = gettext_noop("a doubles match counts pairs games only (partners share a colour)")
    elif placement[1] is not None:
        state = team_state(match, list(match.match_games.all()))
        refusal = board_game_allowed(state, team_rules(match.event), placement[1])
        problem = str(refusal) if refusal else None
    if problem:
        UncountedGame.objects.get_or_create(
            game=game,
            defaults={
                "match_id": match_id if isinstance(match_id, int) else None,
                "reason": problem,
            },
        )
        audit(
            actor=None,
            championship=match.event.championship if match else None,
            event=match.event if match else None,
            action=AuditAction.GAME_NOT_COUNTED,
            target=f"game {game.pk}",
            details={"game_id": game.pk, "match_id": match_id},
            reason=problem,
        )
        return None
    event = match.event
    seat_a, board = placement
    if board is not None:
        lineup_fix(match)
    by_seat = game_tps(game, seats, event.tp_scheme)
    base_a, base_b = by_seat[seat_a], by_seat[1 - seat_a]
    match_game = MatchGame.objects.create(
        match=match,
        game=game,
        number=match.match_games.count() + 1,
        seat_a=seat_a,
        board=board,
        base_tps_a=base_a,
        base_tps_b=base_b,
        tps_a=base_a,
        tps_b=base_b,
    )
    Game.objects.filter(pk=game.pk).update(context=GameContext.TOURNAMENT, event_id=event.pk)
    write_seat_tps(match_game)
    event_results_changed(event.pk)
    sync_match(match)
    audit(
        actor=None,
        championship=event.championship,
        event=event,
        action=AuditAction.GAME_COUNTED,
        target=f"match {match.pk}",
        details={"game_id": game.pk, "tps": [str(base_a), str(base_b)]},
    )
    return match_game


def _penalise_decided_match(match: Match) -> None:
    """A late penalty on a decided match moves its totals; it may not change its winner (that
    is a ruling, which says why and checks the next match has not started)."""
    games = list(match.match_games.order_by("number"))
    tps_a = sum((g.tps_a for g in games), Decimal("0"))
    tps_b = sum((g.tps_b for g in games), Decimal("0"))
    if match.winner_id is not None and match.status == MatchStatus.DECIDED:
        leader = match.entry_a_id if tps_a > tps_b else match.entry_b_id if tps_b > tps_a else None
        if leader != match.winner_id:
            raise ValidationError(
                {"side": _("This penalty would change the match's winner: make a ruling instead.")}
            )
    match.tps_a, match.tps_b = tps_a, tps_b
    match.save(update_fields=["tps_a", "tps_b"])


@transaction.atomic
def match_penalty_claim(*, actor: User, match_game: MatchGame, side: int) -> MatchGame:
    """The opponent claims the time penalty of `side` (0 = A, 1 = B) for one game.

    TPs move by the clock in the game record against the event's time limit; a claim is
    accepted while the match is still open, or by its organisers and controllers at any time.
    """
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("event__championship", *sides_of("entry_a"), *sides_of("entry_b"))
        .get(pk=match_game.match_id)
    )
    match_game = (
        MatchGame.objects.select_for_update(of=("self",))
        .select_related("game")
        .get(pk=match_game.pk)
    )
    if side not in (0, 1):
        raise ValidationError({"side": _("Side is 0 (the first player) or 1 (the second).")})
    # A ruler who plays in the match claims as a player (only the opponent's penalty).
    ruler = judges_match(actor, match)
    own = player_of(actor)
    claimant = match.entry_b if side == 0 else match.entry_a
    if not ruler and (own is None or claimant is None or own.pk not in claimant.members()):
        raise PermissionDenied(
            _(
                "Only the opponent of the player over time, or the "
                "championship's staff, may claim a time penalty."
            )
        )
    if match.is_final and not ruler:
        raise ValidationError({"match": _("The match is decided; ask a controller.")})
    clock = match_game.game.clock
    seat = match_game.seat_a if side == 0 else 1 - match_game.seat_a
    # A pair's penalty is the sum of its two players' (each has their own clock).
    side_seats = [seat, seat + 2] if match_game.game.is_pairs else [seat]
    if not clock or len(clock) <= max(side_seats):
        raise ValidationError({"side": _("The game record has no clock to judge the time by.")})
    limit = match.event.time_limit_seconds
    penalty = sum(formats.time_penalty_tps(int(clock[s]), limit, claimed=True) for s in side_seats)
    if penalty == 0:
        used = [int(clock[s]) for s in side_seats]
        if len(used) == 1:
            text = _(
                "That side used %(used)s s, within the %(limit)s s limit: there is no penalty."
            ) % {"used": used[0], "limit": limit}
        else:
            text = _(
                "That side used %(first)s s and %(second)s s, within the %(limit)s s limit: "
                "there is no penalty."
            ) % {"first": used[0], "second": used[1], "limit": limit}
        raise ValidationError({"side": text})
    if side == 0:
        match_game.penalty_a = penalty
    else:
        match_game.penalty_b = penalty
    match_game.tps_a, match_game.tps_b = formats.apply_time_penalties(
        match_game.base_tps_a, match_game.base_tps_b, match_game.penalty_a, match_game.penalty_b
    )
    match_game.save(update_fields=["penalty_a", "penalty_b", "tps_a", "tps_b"])
    write_seat_tps(match_game)
    event_results_changed(match.event_id)
    if not match.is_final:
        sync_match(match)
    else:
        _penalise_decided_match(match)
    audit(
        actor=actor,
        championship=match.event.championship,
        event=match.event,
        action=AuditAction.TIME_PENALTY,
        target=f"match {match.pk} game {match_game.number}",
        details={"side": side, "penalty": penalty},
    )
    return match_game


# --- Audit types: the actions this module writes, and their words ---------------------------


def _counted_words(details: dict, names: Any) -> str:
    tps = details.get("tps") or []
    if len(tps) == 2:
        return _("Game %(game)s: %(tps_a)s–%(tps_b)s tournament points") % {
            "game": details.get("game_id"),
            "tps_a": number_format(tps[0]),
            "tps_b": number_format(tps[1]),
        }
    return _("Game %(game)s") % {"game": details.get("game_id")}


def _not_counted_words(details: dict, names: Any) -> str:
    match_id = details.get("match_id")
    where = names.match(match_id) if isinstance(match_id, int) else _("its match")
    return _("Game %(game)s stays a casual game; it was sent for %(match)s") % {
        "game": details.get("game_id"),
        "match": where,
    }


def _penalty_words(details: dict, names: Any) -> str:
    penalty = details.get("penalty", 0)
    side = names.side(details.get("side"))
    if not isinstance(penalty, int):
        return _("%(side)s loses %(penalty)s TPs") % {"side": side, "penalty": penalty}
    return ngettext("%(side)s loses %(penalty)s TP", "%(side)s loses %(penalty)s TPs", penalty) % {
        "side": side,
        "penalty": penalty,
    }


# Written here and by `matches.reporting` (a recount after a new ruling on the game).
register_audit_type(
    AuditAction.GAME_COUNTED, details={"game_id": int, "tps": list}, describe=_counted_words
)
register_audit_type(
    AuditAction.GAME_NOT_COUNTED,
    details={"game_id": int, "match_id": (int, str)},
    describe=_not_counted_words,
)
register_audit_type(
    AuditAction.TIME_PENALTY, details={"side": int, "penalty": int}, describe=_penalty_words
)
