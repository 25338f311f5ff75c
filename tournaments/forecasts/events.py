"""An event's forecast worked out from the database: a knockout exactly, a Swiss event by
simulation, and one match's chances. Language-free plain data, so one computation serves every
reader (pages and API, any language) until a result changes it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tournaments import selectors
from tournaments.forecasts.sides import (
    EventSides,
    bye_tenths,
    chance_table,
    game_model,
    lead_tenths,
    lineups,
    match_format,
    outcome_table,
)
from tournaments.formats.forecast import (
    KnockoutMatch,
    MatchFormat,
    MatchProgress,
    SwissEntrant,
    SwissOpenMatch,
    knockout_forecast,
    match_chance,
    swiss_forecast,
)
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    SIDES,
    Entry,
    Event,
    EventFormat,
    EventStatus,
    Match,
    MatchGame,
)
from tournaments.pages.links import side_url


@dataclass(frozen=True)
class EntryChances:
    """One entrant's chances: to win the event; to play in each later round of a knockout
    (round number, chance); to finish in the places that qualify onward (Swiss)."""

    entry_id: int
    name: str
    link: str
    win: float
    reach: tuple[tuple[int, float], ...] = ()
    qualify: float | None = None


@dataclass(frozen=True)
class EventForecast:
    event_id: int
    format: str
    # "exact" (a knockout, worked out over the bracket) or "simulation" (Swiss, `runs` runs)
    method: str
    rounds: tuple[int, ...]  # the knockout rounds the entries' `reach` names, in order
    last_round: int
    entries: tuple[EntryChances, ...]  # still in the running, likeliest winner first
    matches: dict[int, tuple[float, float]] = field(default_factory=dict)
    runs: int = 0
    places: int = 0  # Swiss: how many qualify onward (0: the event feeds none)


def _entries(event: Event) -> dict[int, Entry]:
    return {e.pk: e for e in event.entries.select_related(*SIDES)}


def _open_progress(
    match: Match, fmt: MatchFormat, games: dict[int, list[tuple[int | None, int]]]
) -> MatchProgress:
    """Where an unfinished match stands, from its games (team matches: per board)."""
    lead = lead_tenths(match.tps_a, match.tps_b)
    if fmt.boards == 1:
        return MatchProgress.after(fmt, lead=lead, games_played=match.games_played)
    played = Counter(board or 1 for board, _number in games.get(match.pk, []))
    left = tuple(max(0, fmt.games - played[board]) for board in range(1, fmt.boards + 1))
    return MatchProgress(lead=lead, games_left=left)


def _games_by_match(match_ids: list[int]) -> dict[int, list[tuple[int | None, int]]]:
    found: dict[int, list[tuple[int | None, int]]] = {}
    for match_id, board, number in MatchGame.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "board", "number"
    ):
        found.setdefault(match_id, []).append((board, number))
    return found


class _Chances:
    """Each side's chance in a match of the event, fresh or from where it stands."""

    def __init__(self, event: Event, sides: EventSides, fmt: MatchFormat) -> None:
        self.event, self.sides, self.fmt = event, sides, fmt
        self.model = game_model()
        self.table = chance_table(fmt) if fmt.boards == 1 else None
        self._team: dict[tuple[int, int], float] = {}

    def fresh(self, a: int, b: int) -> float:
        gaps = self.sides.gaps(a, b)
        if self.table is not None:
            return self.table.chance(gaps[0])
        found = self._team.get((a, b))
        if found is None:
            found = match_chance(self.model, self.fmt, gaps, (0.0,) * len(gaps))
            self._team[(a, b)] = found
        return found

    def now(
        self, match: Match, games: dict[int, list[tuple[int | None, int]]], lineup=None
    ) -> float:
        """Side A's chance in an unfinished match with both sides known."""
        a, b = match.entry_a_id, match.entry_b_id
        if not match.games_played:
            return self.fresh(a, b)
        progress = _open_progress(match, self.fmt, games)
        if self.fmt.boards > 1 and lineup:
            gaps = self.sides.lineup_gaps(lineup)
        else:
            gaps = self.sides.gaps(a, b)
        return match_chance(self.model, self.fmt, gaps, (0.0,) * len(gaps), progress)


def _in_progress(matches: list[Match]) -> list[int]:
    return [
        m.pk
        for m in matches
        if m.status not in FINAL_MATCH_STATUSES
        and m.games_played
        and m.entry_a_id is not None
        and m.entry_b_id is not None
    ]


def knockout_event(event: Event) -> EventForecast:
    """Every entrant's chance to reach each round and to win, over the bracket as it stands."""
    matches = list(
        event.matches.select_related("round").order_by("round__number", "bracket_index", "id")
    )
    entries = _entries(event)
    sides = EventSides(event, entries.values())
    fmt = match_format(event)
    chances = _Chances(event, sides, fmt)
    running = _in_progress(matches)
    games = _games_by_match(running) if fmt.boards > 1 else {}
    fixed = lineups(running) if fmt.boards > 1 else {}
    bracket = []
    for m in matches:
        decided = m.status in FINAL_MATCH_STATUSES
        chance_a = (
            chances.now(m, games, fixed.get(m.pk)) if m.pk in running and not decided else None
        )
        bracket.append(
            KnockoutMatch(
                key=m.pk,
                round=m.round.number,
                sides=(m.entry_a_id, m.entry_b_id),
                next=(m.next_match_id, m.next_side or 0) if m.next_match_id else None,
                decided=decided,
                winner=m.winner_id,
                chance_a=chance_a,
            )
        )
    result = knockout_forecast(bracket, chances.fresh)
    open_rounds = [m.round.number for m in matches if m.status not in FINAL_MATCH_STATUSES]
    current = min(open_rounds) if open_rounds else max(result.rounds, default=0)
    later = tuple(r for r in result.rounds if r > current)
    rows = []
    for entry_id, win in result.win.items():
        entry = entries.get(entry_id)
        if entry is None or win <= 0.0:
            continue
        reach = result.reach.get(entry_id, {})
        rows.append(
            EntryChances(
                entry_id=entry_id,
                name=entry.name,
                link=side_url(entry),
                win=win,
                reach=tuple((r, reach.get(r, 0.0)) for r in later),
            )
        )
    rows.sort(key=lambda row: (-row.win, row.name))
    return EventForecast(
        event_id=event.pk,
        format=event.format,
        method="exact",
        rounds=later,
        last_round=max(result.rounds, default=0),
        entries=tuple(rows),
        matches=dict(result.matches),
    )


def swiss_event(event: Event) -> EventForecast:
    """Every entrant's chance to win the Swiss event (and to qualify onward), by simulation."""
    standings = selectors.swiss_standings(event)
    matches = list(event.matches.select_related("round").order_by("round__number", "id"))
    entries = {entry.pk: entry for entry, _tps in standings}
    sides = EventSides(event, _entries(event).values())
    fmt = match_format(event)
    latest = max((m.round.number for m in matches), default=0)
    byes = Counter(m.entry_a_id for m in matches if m.is_bye)
    played = [(m.entry_a_id, m.entry_b_id) for m in matches if not m.is_bye and m.entry_b_id]
    running = _in_progress(matches)
    games = _games_by_match(running) if fmt.boards > 1 else {}
    open_matches = [
        SwissOpenMatch(
            m.entry_a_id,
            m.entry_b_id,
            _open_progress(m, fmt, games) if m.games_played else None,
        )
        for m in matches
        if m.round.number == latest
        and m.status not in FINAL_MATCH_STATUSES
        and not m.is_bye
        and m.entry_a_id in entries
        and m.entry_b_id in entries
    ]
    following = next(iter(event.feeds.all()), None)
    places = (following.qualifiers_count or 0) if following is not None else 0
    entrants = [
        SwissEntrant(
            key=entry.pk,
            seed=entry.seed if entry.seed is not None else 1_000_000 + entry.pk,
            tps=round(tps * 10),
            boards=sides.boards(entry.pk),
            byes=byes.get(entry.pk, 0),
            errors=sides.errors(entry.pk),
        )
        for entry, tps in standings
    ]
    decided = sum(m.status in FINAL_MATCH_STATUSES for m in matches)
    result = swiss_forecast(
        entrants,
        model=game_model(),
        fmt=fmt,
        rounds_left=max(0, event.swiss_rounds - latest),
        played=played,
        open_matches=open_matches,
        bye_tps=bye_tenths(event),
        places=max(1, places),
        # The same results give the same forecast: the draw of random numbers is seeded by the
        # event and how far it has got.
        seed=event.pk * 1_000_003 + decided,
        outcomes=outcome_table(fmt) if fmt.boards == 1 else None,
    )
    rows = [
        EntryChances(
            entry_id=entry_id,
            name=entries[entry_id].name,
            link=side_url(entries[entry_id]),
            win=result.win[entry_id],
            qualify=result.top[entry_id] if places else None,
        )
        for entry_id in result.win
    ]
    rows.sort(key=lambda row: (-row.win, -(row.qualify or 0.0), row.name))
    chances = _Chances(event, sides, fmt)
    shown = {}
    for m in matches:
        if m.round.number == latest and m.status not in FINAL_MATCH_STATUSES and m.entry_b_id:
            a = chances.now(m, games)
            shown[m.pk] = (a, 1.0 - a)
    return EventForecast(
        event_id=event.pk,
        format=event.format,
        method="simulation",
        rounds=(),
        last_round=latest,
        entries=tuple(rows),
        matches=shown,
        runs=result.runs,
        places=places,
    )


def forecastable(event: Event) -> bool:
    """Events with a forecast: knockouts and Swiss events in play."""
    return event.status == EventStatus.DRAWN and event.format in (
        EventFormat.KNOCKOUT,
        EventFormat.SWISS,
    )


def match_chances(match: Match) -> tuple[float, float] | None:
    """Each side's chance in an open match with both sides known (None otherwise)."""
    if match.is_final or match.is_bye or match.entry_a_id is None or match.entry_b_id is None:
        return None
    event = match.event
    entries = [match.entry_a, match.entry_b]
    sides = EventSides(event, entries)
    fmt = match_format(event)
    chances = _Chances(event, sides, fmt)
    games = _games_by_match([match.pk]) if fmt.boards > 1 and match.games_played else {}
    fixed = lineups([match.pk]).get(match.pk) if fmt.boards > 1 and match.games_played else None
    a = chances.now(match, games, fixed)
    return a, 1.0 - a
