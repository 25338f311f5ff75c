"""What a signed-in player's home shows, one read per part (issue 28).

Each part is a list of small dataclasses, so the page, the API and later additions (an agreed
match time beside a next match) read the same rows: add a field to the row and fill it here.
Times are aware datetimes; the page shows them in the reader's zone (the time zone middleware)
and the API in the player's own (`serializers`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from games.models import ReportedGame, ResultState
from games.reports.selectors import names_versus, reports_waiting_for, seated
from players.models import Player
from players.roles import player_of
from players.types import User
from ratings.models import RatingSystem
from ratings.selectors import player_ratings, rating_history
from tournaments.arrangements.selectors import agreements_for
from tournaments.game_links import match_links
from tournaments.models import (
    EntryKind,
    EventStatus,
    Match,
    MatchStatus,
    sides_of,
)
from tournaments.selectors import (
    eligibility_problems,
    entries_of_player,
    events_visible_to,
)

# A next match is one whose sides are both known and that is not settled yet.
OPEN_MATCH_STATUSES = (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)
SETTLED_MATCH_STATUSES = (
    MatchStatus.DECIDED,
    MatchStatus.WALKOVER,
    MatchStatus.RULED,
    MatchStatus.VOID,
)
# The tables a player's home shows: the 1000-point ranking and the tournament Elo.
HOME_SYSTEMS = (RatingSystem.LOBBY, RatingSystem.ELO)
TREND_DAYS = 30
# Points in a rating's sparkline (its latest changes).
SPARKLINE_POINTS = 20
# The home shows the first few of each list; the API pages through them all.
HOME_LIST_LENGTH = 5


@dataclass(frozen=True)
class NextMatch:
    """A match the player has still to play (or finish)."""

    match_id: int
    event_id: int
    event_name: str
    championship_name: str
    round_name: str
    opponent: str
    status: str
    status_label: str
    games_played: int
    deadline: dt.datetime | None
    overdue: bool
    # The time the sides agreed for it (tournaments/arrangements, issue 30), if any.
    agreed_at: dt.datetime | None = None


@dataclass(frozen=True)
class RecentResult:
    """A settled match of the player's: who won, by how many TPs."""

    match_id: int
    event_name: str
    championship_name: str
    round_name: str
    opponent: str
    # "won", "lost" or "none" (void: neither side goes on).
    outcome: str
    status_label: str
    tps_mine: str
    tps_theirs: str
    decided_at: dt.datetime | None


@dataclass(frozen=True)
class WaitingReport:
    """A report of the other side's that waits for this person's answer."""

    version_id: int
    reported_game_id: int
    players: str
    scores: list[int]
    reported_by: str
    reported_at: dt.datetime
    # After this the report stands unanswered (GAME_REPORT_CONFIRM_HOURS).
    answer_by: dt.datetime
    match_id: int | None
    match_label: str


@dataclass(frozen=True)
class OpenDispute:
    """A game of the player's whose result is disputed, waiting for a ruling."""

    reported_game_id: int
    players: str
    since: dt.datetime
    match_id: int | None
    match_label: str


@dataclass(frozen=True)
class RatingTrend:
    """A rating now, its move over the last TREND_DAYS days, and its latest steps."""

    system: str
    label: str
    value: float
    games: int
    provisional: bool
    change: float | None
    points: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class OpenEvent:
    """An event taking registrations that the player may enter."""

    event_id: int
    name: str
    championship_name: str
    format_label: str
    entry_kind: str
    entry_kind_label: str


@dataclass(frozen=True)
class Home:
    player: Player
    next_matches: list[NextMatch]
    waiting_reports: list[WaitingReport]
    disputes: list[OpenDispute]
    recent_results: list[RecentResult]
    ratings: list[RatingTrend]
    open_events: list[OpenEvent]


def home_player(user: User) -> Player | None:
    """The player whose home this is: the signed-in account's player, else None (a visitor,
    or an account without a player, gets the visitor's home)."""
    if not (user and user.is_authenticated):
        return None
    return player_of(user)


def _player_matches(player: Player):
    """The player's matches in published championships (as the player page lists entries),
    with what a row names."""
    mine = entries_of_player(player.pk).values("pk")
    return Match.objects.filter(
        Q(entry_a__in=mine) | Q(entry_b__in=mine), is_bye=False
    ).select_related("round", "event__championship", *sides_of("entry_a"), *sides_of("entry_b"))


def _sides(match: Match, entry_ids: set[int]) -> tuple[str, str]:
    """("a" or "b", the opponent's name) for the player's side of a match."""
    mine_a = match.entry_a_id in entry_ids
    other = match.entry_b if mine_a else match.entry_a
    return ("a" if mine_a else "b"), (other.name if other is not None else "")


def next_matches(player: Player, *, now: dt.datetime | None = None) -> list[NextMatch]:
    """The player's matches to play, the nearest deadline first (those without one last)."""
    now = now or timezone.now()
    entry_ids = set(entries_of_player(player.pk).values_list("pk", flat=True))
    matches = (
        _player_matches(player)
        .filter(status__in=OPEN_MATCH_STATUSES)
        .order_by(F("round__deadline").asc(nulls_last=True), "pk")
    )
    matches = list(matches)
    agreed = agreements_for(m.pk for m in matches)
    rows = []
    for match in matches:
        _side, opponent = _sides(match, entry_ids)
        deadline = match.round.deadline
        rows.append(
            NextMatch(
                match_id=match.pk,
                event_id=match.event_id,
                event_name=match.event.name,
                championship_name=match.event.championship.name,
                round_name=str(match.round),
                opponent=opponent,
                status=match.status,
                status_label=str(match.get_status_display()),
                games_played=match.games_played,
                deadline=deadline,
                overdue=deadline is not None and deadline < now,
                agreed_at=agreed[match.pk].starts_at if match.pk in agreed else None,
            )
        )
    return rows


def recent_results(player: Player) -> list[RecentResult]:
    """The player's settled matches, the latest first."""
    entry_ids = set(entries_of_player(player.pk).values_list("pk", flat=True))
    matches = (
        _player_matches(player)
        .filter(status__in=SETTLED_MATCH_STATUSES)
        .order_by("-decided_at", "-pk")
    )
    rows = []
    for match in matches:
        side, opponent = _sides(match, entry_ids)
        mine, theirs = (match.tps_a, match.tps_b) if side == "a" else (match.tps_b, match.tps_a)
        if match.winner_id is None:
            outcome = "none"
        else:
            outcome = "won" if match.winner_id in entry_ids else "lost"
        rows.append(
            RecentResult(
                match_id=match.pk,
                event_name=match.event.name,
                championship_name=match.event.championship.name,
                round_name=str(match.round),
                opponent=opponent,
                outcome=outcome,
                status_label=str(match.get_status_display()),
                # One decimal place, as every TP on the site.
                tps_mine=f"{mine:.1f}",
                tps_theirs=f"{theirs:.1f}",
                decided_at=match.decided_at,
            )
        )
    return rows


def _match_labels(match_ids: set[int]) -> dict[int, str]:
    return {pk: link.label for pk, link in match_links(match_ids).items()}


def _players_named(games: list[ReportedGame]) -> Callable[[ReportedGame], str]:
    """A game's players as its title says them ("Ana v Bela"), for any number of games in one
    query."""
    names = dict(
        Player.objects.filter(
            pk__in={pk for game in games for pk in game.seat_players}
        ).values_list("pk", "display_name")
    )
    return lambda game: names_versus([names.get(pk, "?") for pk in game.seat_players])


def waiting_reports(user: User) -> list[WaitingReport]:
    """The reports waiting for this person's answer, oldest first: exactly the Reports page's
    list (`games.reports.selectors.reports_waiting_for`), so nobody sees another's."""
    reports = reports_waiting_for(user)
    names = _players_named([report.reported_game for report in reports])
    labels = _match_labels({r.reported_game.match_id for r in reports if r.reported_game.match_id})
    window = dt.timedelta(hours=settings.GAME_REPORT_CONFIRM_HOURS)
    return [
        WaitingReport(
            version_id=report.pk,
            reported_game_id=report.reported_game_id,
            players=names(report.reported_game),
            scores=list(report.scores),
            reported_by=report.side_player.display_name if report.side_player else "",
            reported_at=report.created,
            answer_by=report.created + window,
            match_id=report.reported_game.match_id,
            match_label=labels.get(report.reported_game.match_id, ""),
        )
        for report in reports
    ]


def open_disputes(player: Player) -> list[OpenDispute]:
    """The player's games whose result is disputed and not yet ruled, the oldest first."""
    games = list(
        ReportedGame.objects.filter(seated(player.pk), state=ResultState.DISPUTED).order_by(
            "updated", "pk"
        )
    )
    labels = _match_labels({game.match_id for game in games if game.match_id})
    names = _players_named(games)
    return [
        OpenDispute(
            reported_game_id=game.pk,
            players=names(game),
            since=game.updated,
            match_id=game.match_id,
            match_label=labels.get(game.match_id, ""),
        )
        for game in games
    ]


def rating_trends(player: Player, *, now: dt.datetime | None = None) -> list[RatingTrend]:
    """The player's ranking and tournament Elo (those they have), each with its move over the
    last TREND_DAYS days (by the played dates of the changes, as the charts date them; None
    when nothing changed in that time) and its latest SPARKLINE_POINTS values."""
    since = (now or timezone.now()) - dt.timedelta(days=TREND_DAYS)
    trends = []
    for rating in player_ratings(player_id=player.pk):
        if rating.system not in HOME_SYSTEMS:
            continue
        history = rating_history(player_id=player.pk, system=rating.system)
        latest = list(history.reverse()[:SPARKLINE_POINTS])
        change = None
        if any(step.played >= since for step in latest):
            # The value when the window opened: the last step before it, else (a player who
            # started within it) where their first step started.
            then = history.filter(played__lt=since).reverse().values_list("after", flat=True)
            start = then.first()
            if start is None:
                start = history.values_list("before", flat=True).first()
            change = rating.value - start
        trends.append(
            RatingTrend(
                system=rating.system,
                label=str(rating.get_system_display()),
                value=rating.value,
                games=rating.games,
                provisional=bool(getattr(rating, "provisional", False)),
                change=change,
                points=[c.after for c in reversed(latest)],
            )
        )
    return trends


def open_events(user: User, player: Player) -> list[OpenEvent]:
    """Events taking registrations that the player has not entered and may enter, as the
    registration service decides (`eligibility_problems`, which `entry_register` asks).

    Singles and pairs events (a pair is entered by naming a partner on the event's page); a
    team event is entered by its captain, so it is not offered here. An event filled by
    qualifiers only takes no registration."""
    entered = entries_of_player(player.pk).values("event_id")
    events = (
        events_visible_to(user)
        .filter(status=EventStatus.REGISTRATION, entry_kind__in=[EntryKind.SINGLE, EntryKind.PAIR])
        .filter(Q(feeds_from__isnull=True) | Q(qualifiers_count__gt=0))
        .exclude(pk__in=entered)
        .order_by("championship__year", "championship__name", "stage", "pk")
    )
    return [
        OpenEvent(
            event_id=event.pk,
            name=event.name,
            championship_name=event.championship.name,
            format_label=str(event.get_format_display()),
            entry_kind=event.entry_kind,
            entry_kind_label=str(event.get_entry_kind_display()),
        )
        for event in events
        if not eligibility_problems(event, player, actor=user)
    ]


def home_for(user: User) -> Home | None:
    """Everything the signed-in player's home shows; None for a visitor or an account
    without a player."""
    player = home_player(user)
    if player is None:
        return None
    return Home(
        player=player,
        next_matches=next_matches(player),
        waiting_reports=waiting_reports(user),
        disputes=open_disputes(player),
        recent_results=recent_results(player)[:HOME_LIST_LENGTH],
        ratings=rating_trends(player),
        open_events=open_events(user, player),
    )
