"""Reads of the review queue: each item described as an admin needs it to decide, a page at a
time in a fixed number of queries whatever the page holds.

An item says what it is about: its kind and table in words, the player, the event (a tournament
Elo swing), the games behind it (each with its date played, opponents, result and whether it
still counts), the size of the change with its played date, how the event moves the player now
(Elo), and the actions that work for it (``ratings.queue.kinds``).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from games.models import Game, GameSeat, RecordStatus
from ratings.history.dating import played_expression
from ratings.hooks import event_names
from ratings.models import (
    ChangeReason,
    EloStanding,
    RatingChange,
    RatingSystem,
    Review,
    ReviewKind,
    ReviewStatus,
)
from ratings.queue.kinds import is_elo_swing, review_actions, review_table

WON, LOST, DRAWN = "won", "lost", "drawn"


@dataclass(frozen=True)
class Opponent:
    name: str
    score: int
    tps: Decimal | None


@dataclass(frozen=True)
class GameBehind:
    """One game behind an item, as the item's player played it."""

    game_id: int
    event_id: int | None
    played_at: dt.datetime
    outcome: str  # WON, LOST or DRAWN, for the item's player
    score: int
    tps: Decimal | None  # tournament points, for a tournament game
    opponents: tuple[Opponent, ...]
    counts: bool  # still in the ratings (not reverted, its record still valid)
    reverted: bool

    @property
    def opponent_names(self) -> str:
        return ", ".join(o.name for o in self.opponents)


def review_queue(
    *, status: str = ReviewStatus.OPEN, kind: str = "", table: str = ""
) -> QuerySet[Review]:
    """The queue, oldest first, filtered by status, kind and table (the flagged change's table;
    a title lapse has none). Each review's change carries ``played``
    (``ratings.history.dating``)."""
    reviews = Review.objects.select_related(
        "change", "game", "player", "title", "reviewer"
    ).annotate(change_played=played_expression("change__"))
    if status:
        reviews = reviews.filter(status=status)
    if kind:
        reviews = reviews.filter(kind=kind)
    if table:
        reviews = reviews.filter(change__system=table)
    return reviews.order_by("created", "id")


def review_item(review_id: int) -> Review | None:
    """One item, described (``describe_reviews``); None when there is no such review."""
    review = review_queue(status="").filter(pk=review_id).first()
    if review is not None:
        describe_reviews([review])
    return review


def describe_reviews(reviews: Sequence[Review]) -> Sequence[Review]:
    """Set on each review what the queue shows of it:

    ``item_name`` (its player and kind, "Ingrid: Large swing", for messages and labels),
    ``table`` and ``table_label`` (the table it is about, "" for a title lapse), ``history_table``
    (the table its player link opens), ``event_id`` and ``event_name`` (an Elo swing),
    ``games_behind`` (``GameBehind``, oldest first), ``lapsed_on`` (a title lapse's day),
    ``standing`` (an Elo swing: the player's
    result in the event as it stands now), ``actions`` (``kinds.review_actions``).
    """
    reviews = list(reviews)
    swings = [r for r in reviews if is_elo_swing(r)]
    names = event_names(r.change.event_id for r in swings)
    elo_games = _elo_games_of(
        {(r.change.event_id, r.player_id) for r in swings if r.player_id is not None}
    )
    # Both players of one game may be flagged (a swing each): every (game, player) is wanted.
    single: dict[int, set[int]] = defaultdict(set)
    for r in reviews:
        if _has_own_game(r):
            single[_game_of(r)].add(r.player_id)
    game_rows = _games_as_played(single)
    standings = {
        (s.event_id, s.player_id): s
        for s in EloStanding.objects.filter(
            event_id__in={r.change.event_id for r in swings},
            player_id__in={r.player_id for r in swings},
        )
    }
    for review in reviews:
        kind = review.get_kind_display()
        review.item_name = (
            gettext("%(player)s: %(kind)s") % {"player": review.player.display_name, "kind": kind}
            if review.player is not None
            else str(kind)
        )
        review.table = review_table(review)
        review.table_label = RatingSystem(review.table).label if review.table else ""
        review.history_table = review.table or (
            RatingSystem.MASTER if review.kind == ReviewKind.TITLE_LAPSE else RatingSystem.LOBBY
        )
        review.event_id = None
        review.event_name = None
        review.event_listed = False
        review.standing = None
        review.played = getattr(review, "change_played", None)
        if is_elo_swing(review):
            event_id = review.change.event_id
            review.event_id = event_id
            review.event_name = names.get(event_id) or gettext("an event no longer listed")
            review.event_listed = event_id in names
            review.games_behind = elo_games.get((event_id, review.player_id), [])
            review.standing = standings.get((event_id, review.player_id))
            counting = any(g.counts for g in review.games_behind)
        else:
            found = game_rows.get((_game_of(review), review.player_id))
            review.games_behind = [found] if _has_own_game(review) and found else []
            counting = True
        review.lapsed_on = _day((review.detail or {}).get("lapsed_on"))
        review.actions = review_actions(review, games_counting=counting)
    return reviews


def swing_games(review: Review) -> list[GameBehind]:
    """The games behind a tournament Elo swing: the player's Elo games in the event, oldest
    first (none for any other item)."""
    if not is_elo_swing(review) or review.player_id is None:
        return []
    key = (review.change.event_id, review.player_id)
    return _elo_games_of({key}).get(key, [])


# --- The games, in bulk --------------------------------------------------------------------------


def _has_own_game(review: Review) -> bool:
    """The item is about one game (a swing in a game-by-game table, a game ruled on later); a
    repeated-results flag lists its whole series instead (``review_series``)."""
    return (
        not is_elo_swing(review)
        and review.kind != ReviewKind.REPEATED_RESULTS
        and _game_of(review) is not None
        and review.player_id is not None
    )


def _day(text: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text) if text else None
    except (TypeError, ValueError):
        return None


def _game_of(review: Review) -> int | None:
    if review.game_id is not None:
        return review.game_id
    return review.change.game_id if review.change is not None else None


def _elo_games_of(pairs: set[tuple[int, int]]) -> dict[tuple[int, int], list[GameBehind]]:
    """For each (event, player): their games of the event that the Elo rates (two players, both
    tournament points written), as they played them."""
    if not pairs:
        return {}
    players_by_event: dict[int, set[int]] = defaultdict(set)
    for event_id, player_id in pairs:
        players_by_event[event_id].add(player_id)
    condition = Q()
    for event_id, players in players_by_event.items():
        condition |= Q(game__event_id=event_id, player_id__in=players)
    seats = GameSeat.objects.filter(
        condition,
        game__players_count=2,
        game__is_pairs=False,
        tournament_points__isnull=False,
    ).values_list("game_id", "player_id")
    wanted: dict[int, set[int]] = defaultdict(set)
    for game_id, player_id in seats:
        wanted[game_id].add(player_id)
    found: dict[tuple[int, int], list[GameBehind]] = defaultdict(list)
    for (_game_id, player_id), game in _games_as_played(wanted).items():
        if game.tps is not None and all(o.tps is not None for o in game.opponents):
            found[(game.event_id, player_id)].append(game)
    for games in found.values():
        games.sort(key=lambda g: (g.played_at, g.game_id))
    return found


def _side(seat: int, is_pairs: bool) -> int:
    """The side a seat plays for: pairs partners sit opposite (seats 0 and 2, 1 and 3)."""
    return seat % 2 if is_pairs else seat


def _games_as_played(wanted: dict[int, Iterable[int]]) -> dict[tuple[int, int], GameBehind]:
    """Each game in ``wanted`` (game id -> the players it is wanted for) as that player played
    it: three queries for any number of games."""
    if not wanted:
        return {}
    games = {
        g.pk: g
        for g in Game.objects.filter(pk__in=list(wanted))
        .select_related("record")
        .only("pk", "event_id", "played_at", "winner_seat", "is_draw", "is_pairs", "record__status")
    }
    seats: dict[int, list[tuple[int, int, str, int, Decimal | None]]] = defaultdict(list)
    for game_id, seat, player_id, name, score, tps in (
        GameSeat.objects.filter(game_id__in=list(wanted))
        .order_by("game_id", "seat")
        .values_list(
            "game_id", "seat", "player_id", "player__display_name", "score", "tournament_points"
        )
    ):
        seats[game_id].append((seat, player_id, name, score, tps))
    reverted = set(
        RatingChange.objects.filter(
            reason=ChangeReason.REVERT,
            reverts__reason=ChangeReason.GAME,
            reverts__game_id__in=list(wanted),
        ).values_list("reverts__game_id", flat=True)
    )
    result: dict[tuple[int, int], GameBehind] = {}
    for game_id, players in wanted.items():
        game = games.get(game_id)
        if game is None:
            continue
        for player_id in players:
            own = next((s for s in seats[game_id] if s[1] == player_id), None)
            if own is None:
                continue
            mine = _side(own[0], game.is_pairs)
            if game.is_draw or game.winner_seat is None:
                outcome = DRAWN
            else:
                outcome = WON if _side(game.winner_seat, game.is_pairs) == mine else LOST
            result[(game_id, player_id)] = GameBehind(
                game_id=game_id,
                event_id=game.event_id,
                played_at=game.played_at,
                outcome=outcome,
                score=own[3],
                tps=own[4],
                opponents=tuple(
                    Opponent(name=name, score=score, tps=tps)
                    for seat, _pid, name, score, tps in seats[game_id]
                    if _side(seat, game.is_pairs) != mine
                ),
                counts=game_id not in reverted and game.record.status == RecordStatus.VALID,
                reverted=game_id in reverted,
            )
    return result
