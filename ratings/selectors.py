"""Reads for ratings: ranking tables, histories, titles, review counts, seeding figures (the
review queue's own reads are ``ratings.queue.selectors``).

Each selector runs a fixed number of queries whatever the number of rows.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import (
    Count,
    Exists,
    F,
    FilteredRelation,
    IntegerField,
    Max,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext

from games.models import Game, RecordStatus
from players.models import AuditEntry
from ratings import params as rating_params
from ratings.history.dating import played_expression
from ratings.hooks import event_names
from ratings.models import (
    AuditAction,
    ChangeReason,
    EloEvent,
    EloStanding,
    Rating,
    RatingChange,
    RatingSystem,
    Review,
    ReviewStatus,
    Title,
)
from ratings.systems import is_provisional, period_key


def both_seats() -> dict[str, FilteredRelation]:
    """Annotations putting both seats of a two-player game on one row: seat 0 as ``first``,
    seat 1 as ``second`` (fresh objects each time: a query keeps state on them)."""
    return {
        "first": FilteredRelation("seats", condition=Q(seats__seat=0)),
        "second": FilteredRelation("seats", condition=Q(seats__seat=1)),
    }


def ranked_ratings(system: str) -> QuerySet[Rating]:
    """The ratings that appear in a public table: humans with games, this month for monthly."""
    ratings = Rating.objects.filter(system=system, games__gt=0, player__is_robot=False)
    if system == RatingSystem.MONTHLY:
        ratings = ratings.filter(period=current_period())
    return ratings


def ranking_table(
    *, system: str, country: str = "", search: str = "", limit: int | None = None
) -> QuerySet[Rating]:
    """A table's top ``limit`` (the ranking size setting), with each row's place in the whole
    table as ``rank`` even when filtered by country or name (ties share a place)."""
    limit = limit or settings.RATINGS_RANKING_SIZE
    ahead = (
        ranked_ratings(system)
        .filter(value__gt=OuterRef("value"))
        .order_by()
        .values("system")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rows = ranked_ratings(system).select_related("player")
    if country:
        rows = rows.filter(player__country=country.strip().upper())
    if search:
        rows = rows.filter(player__display_name__icontains=search.strip())
    return rows.annotate(
        rank=Coalesce(Subquery(ahead, output_field=IntegerField()), Value(0)) + 1
    ).order_by("-value", "player__display_name")[:limit]


def is_provisional_elo(rating: Rating) -> bool:
    return rating.system == RatingSystem.ELO and is_provisional(
        rating.games, rating_params.elo_params()
    )


def player_ratings(*, player_id: int) -> list[Rating]:
    """A player's rating in each table they have played in, in table order."""
    order = {s: i for i, s in enumerate(RatingSystem.values)}
    rows = list(Rating.objects.filter(player_id=player_id, games__gt=0))
    period = current_period()
    for r in rows:
        r.provisional = is_provisional_elo(r)
        r.stale = r.system == RatingSystem.MONTHLY and r.period != period
    return sorted(rows, key=lambda r: order[r.system])


def rating_history(*, player_id: int, system: str) -> QuerySet[RatingChange]:
    """A player's history in one table, oldest first (the chart's points).

    A game-by-game table shows its timeline: each game's and adjustment's current step, in game
    order (a step recalculated after a late game or a revert shows once, as it now stands, with
    ``replaces`` set; a reverted event shows as a step that moves nothing). The Elo shows every
    change in the order written. Each change carries ``played``, the date its point is shown at
    (``ratings.history.dating``: the game's played time, not when the change was computed).
    """
    changes = (
        RatingChange.objects.filter(player_id=player_id, system=system)
        .select_related("game", "reverted_by")
        .annotate(played=played_expression())
    )
    if system == RatingSystem.ELO:
        return changes.order_by("id")
    return changes.filter(at__isnull=False, replaced_by__isnull=True).order_by(
        "at", F("game_id").asc(nulls_last=True), Coalesce("origin_id", "id")
    )


def with_event_names(rows: Sequence[Any]) -> Sequence[Any]:
    """Set ``event_name`` on each row that names a tournament event (a RatingChange, an
    EloStanding): the championship and event, as the app owning events tells (``ratings.hooks``),
    in one query for all the rows. Rows without an event get None."""
    names = event_names(r.event_id for r in rows)
    for r in rows:
        r.event_name = (
            (names.get(r.event_id) or gettext("an event no longer listed")) if r.event_id else None
        )
    return rows


def player_titles(*, player_id: int) -> QuerySet[Title]:
    return Title.objects.filter(player_id=player_id).order_by("-awarded_at")


def title_list(*, status: str = Title.Status.ACTIVE) -> QuerySet[Title]:
    titles = Title.objects.select_related("player")
    if status:
        titles = titles.filter(status=status)
    return titles.order_by("player__display_name", "-awarded_at")


def elo_tournaments(*, player_id: int) -> QuerySet[EloStanding]:
    return EloStanding.objects.filter(player_id=player_id).order_by("-event_id")


def adjustment_list(*, player_id: int | None = None) -> QuerySet[RatingChange]:
    changes = RatingChange.objects.filter(reason=ChangeReason.ADJUSTMENT).select_related(
        "player", "actor", "reverted_by"
    )
    if player_id is not None:
        changes = changes.filter(player_id=player_id)
    return changes.order_by("-id")


def audit_list(*, action: str = "") -> QuerySet[AuditEntry]:
    """The ratings' lines of the one audit trail (actions of `ratings.AuditAction`)."""
    entries = AuditEntry.objects.filter(action__in=AuditAction.values).select_related(
        "actor", "subject_player"
    )
    if action:
        entries = entries.filter(action=action)
    return entries.order_by("-created", "-id")


@dataclass(frozen=True)
class TitleCandidate:
    player_id: int
    display_name: str
    lobby: float
    elo_tournaments: int


def title_candidates() -> list[TitleCandidate]:
    """Players at or above the lobby minimum who hold no Master title (for the admin page)."""
    params = rating_params.title_params()
    rows = (
        Rating.objects.filter(
            system=RatingSystem.LOBBY, value__gte=params.min_lobby, player__is_robot=False
        )
        .exclude(player__titles__status=Title.Status.ACTIVE)
        .select_related("player")
        .annotate(events=Count("player__elo_standings", distinct=True))
        .order_by("-value")
    )
    return [
        TitleCandidate(r.player_id, r.player.display_name, r.value, r.events) for r in rows[:200]
    ]


def seeding_ratings(player_ids: Sequence[int]) -> dict[int, tuple[float | None, float | None]]:
    """(tournament Elo, lobby ranking) per player, None where they have none; for seeding."""
    result: dict[int, tuple[float | None, float | None]] = {}
    rows = Rating.objects.filter(
        player_id__in=list(player_ids),
        system__in=[RatingSystem.ELO, RatingSystem.LOBBY],
        games__gt=0,
    ).values_list("player_id", "system", "value")
    found: dict[int, dict[str, float]] = {}
    for pid, system, value in rows:
        found.setdefault(pid, {})[system] = value
    for pid in player_ids:
        figures = found.get(pid, {})
        result[pid] = (figures.get(RatingSystem.ELO), figures.get(RatingSystem.LOBBY))
    return result


def open_review_count() -> int:
    return Review.objects.filter(status=ReviewStatus.OPEN).count()


def masters_count() -> int:
    return Title.objects.filter(kind=Title.Kind.MASTER, status=Title.Status.ACTIVE).count()


def has_open_reviews(player_id: int) -> bool:
    return Review.objects.filter(Q(player_id=player_id), status=ReviewStatus.OPEN).exists()


# --- Reads the services use ---------------------------------------------------------------------


def game_period(played_at: dt.datetime) -> str:
    """The monthly table a game belongs to, by the site's time zone (settings.TIME_ZONE)."""
    return period_key(timezone.localtime(played_at) if timezone.is_aware(played_at) else played_at)


def current_period() -> str:
    return period_key(timezone.localdate())


def elo_tournaments_played(player_id: int) -> int:
    return EloStanding.objects.filter(player_id=player_id).count()


EloGame = tuple[int, int, float, float]


def _elo_games_query() -> Any:
    """Two-player games of a tournament event with both TPs written, and not reverted."""
    reverted = RatingChange.objects.filter(
        reason=ChangeReason.REVERT, reverts__reason=ChangeReason.GAME, reverts__game=OuterRef("pk")
    )
    return (
        Game.objects.filter(
            event_id__isnull=False,
            players_count=2,
            is_pairs=False,
            record__status=RecordStatus.VALID,
        )
        .annotate(**both_seats())
        .filter(first__tournament_points__isnull=False, second__tournament_points__isnull=False)
        .filter(~Exists(reverted))
    )


def elo_event_games(event_id: int) -> list[EloGame]:
    return [
        (a, b, float(tp_a), float(tp_b))
        for a, b, tp_a, tp_b in _elo_games_query()
        .filter(event_id=event_id)
        .order_by("played_at", "id")
        .values_list(
            "first__player_id",
            "second__player_id",
            "first__tournament_points",
            "second__tournament_points",
        )
    ]


@dataclass(frozen=True)
class EloEventState:
    event_id: int
    fingerprint: str
    games: int
    first_played_at: dt.datetime | None


def elo_event_states(*, event_id: int | None = None) -> list[EloEventState]:
    """Every event with Elo-ratable games, in tournament order (first game played, then id).

    The fingerprint changes when a game is added or reverted or its TPs move (a time penalty).
    """
    games = _elo_games_query()
    if event_id is not None:
        games = games.filter(event_id=event_id)
    rows = (
        games.values("event_id")
        .annotate(
            n=Count("id"),
            last=Max("id"),
            tp=Sum("first__tournament_points"),
            first_played=Min("played_at"),
        )
        .order_by("first_played", "event_id")
    )
    return [
        EloEventState(
            event_id=row["event_id"],
            fingerprint=f"{row['n']}:{row['last']}:{row['tp']}",
            games=row["n"],
            first_played_at=row["first_played"],
        )
        for row in rows
    ]


def elo_event_nothing_to_rate(event_id: int) -> bool:
    """Whether the event has no games and no standings, and its last calculation said so (a
    calculation now would write that record again). One query: any game at all, ratable or
    not, sends the event to the full calculation (the ratable ones' query costs more to build
    than this whole check)."""
    return (
        EloEvent.objects.filter(event_id=event_id, games=0)
        .filter(
            ~Exists(EloStanding.objects.filter(event_id=event_id)),
            ~Exists(Game.objects.filter(event_id=event_id)),
        )
        .exists()
    )


def elo_events_changed() -> list[EloEventState]:
    stored = dict(EloEvent.objects.values_list("event_id", "fingerprint"))
    return [s for s in elo_event_states() if stored.get(s.event_id) != s.fingerprint]


def elo_event_state(event_id: int) -> EloEventState | None:
    return next(iter(elo_event_states(event_id=event_id)), None)


def master_title_intervals(
    *, player_ids: Iterable[int] | None = None
) -> dict[int, list[tuple[dt.datetime, dt.datetime | None]]]:
    """When each player held the Master title (of these players, or of everyone)."""
    held: dict[int, list[tuple[dt.datetime, dt.datetime | None]]] = defaultdict(list)
    titles = Title.objects.filter(kind=Title.Kind.MASTER)
    if player_ids is not None:
        titles = titles.filter(player_id__in=list(player_ids))
    for pid, start, end in titles.values_list("player_id", "awarded_at", "ended_at"):
        held[pid].append((start, end))
    return held


def title_held_at(intervals: Iterable, when: dt.datetime) -> bool:
    return any(start <= when and (end is None or end > when) for start, end in intervals)


def ratings_by_player(system: str, player_ids: Iterable[int]) -> dict[int, Rating]:
    """The players' Rating rows in one table, by player."""
    return {
        r.player_id: r for r in Rating.objects.filter(system=system, player_id__in=list(player_ids))
    }


def rating_change_names(ids: set[int]) -> dict[int, str]:
    """Names for the audit trail's `rating_change_id`s: table, player, before and after."""
    changes = RatingChange.objects.filter(pk__in=ids).select_related("player")
    return {
        c.pk: f"{c.get_system_display()}: {c.player.display_name} {c.before:.0f} → {c.after:.0f}"
        for c in changes
    }


def review_names(ids: set[int]) -> dict[int, str]:
    """Names for the audit trail's `review_id`s."""
    reviews = Review.objects.filter(pk__in=ids).select_related("player")
    return {
        r.pk: f"{r.get_kind_display()}: {r.player.display_name if r.player else ''}".rstrip(": ")
        for r in reviews
    }


def title_names(ids: set[int]) -> dict[int, str]:
    """Names for the audit trail's `title_id`s."""
    titles = Title.objects.filter(pk__in=ids).select_related("player")
    return {t.pk: f"{t.get_kind_display()}: {t.player.display_name}" for t in titles}


def elo_events_named(*, limit: int = 100) -> list[tuple[int, str]]:
    """Events with Elo-rated games, latest first, by name (the staff's event choice)."""
    states = elo_event_states()[::-1][:limit]
    names = event_names(s.event_id for s in states)
    return [
        (s.event_id, names.get(s.event_id) or gettext("an event no longer listed")) for s in states
    ]


def elo_brought(event_id: int, player_ids: Iterable[int]) -> dict[int, tuple[float | None, int]]:
    """The tournament Elo each player brings to an event, as (rating, games), taken as the
    event's calculation takes it (`services.elo.elo_event_recalculate`): the standing kept from
    the event's first calculation, else the player's rating now; (None, 0) for a player without
    one (unrated). The forecasts read this, so a match is forecast from the ratings its players
    brought."""
    wanted = set(player_ids)
    brought: dict[int, tuple[float | None, int]] = dict.fromkeys(wanted, (None, 0))
    standing = set()
    for pid, rating, games in EloStanding.objects.filter(
        event_id=event_id, player_id__in=wanted
    ).values_list("player_id", "rating_before", "games_before"):
        standing.add(pid)
        brought[pid] = (rating, games) if games > 0 else (None, 0)
    for pid, value, games in Rating.objects.filter(
        system=RatingSystem.ELO, player_id__in=wanted - standing, games__gt=0
    ).values_list("player_id", "value", "games"):
        brought[pid] = (value, games)
    return brought


def elo_standings_brought(
    event_ids: Iterable[int],
) -> dict[tuple[int, int], tuple[float | None, int]]:
    """What every player of these events brought to them, from the standings kept at each
    event's first calculation only ((event, player) → (rating, games); (None, 0) when unrated):
    the ratings as they were before the event's games, for replaying a history."""
    return {
        (event_id, pid): (rating, games) if games > 0 else (None, 0)
        for event_id, pid, rating, games in EloStanding.objects.filter(
            event_id__in=list(event_ids)
        ).values_list("event_id", "player_id", "rating_before", "games_before")
    }
