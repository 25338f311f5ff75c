"""What a forecast is made of, read from the database: the model and its tables, an event's
match format, and each entry's rating per board from the Elo its players brought to the event.

Strength from members (docs/ratings.md, "Forecasts"): a single player is their own Elo; a pair
is the mean of its partners' (they share a colour and take turns); a team is not one number at
all but its lineup, a rating per board, because a team match is every board's games summed:
each board is forecast from its own two players. A player without an Elo counts as the pool's
anchor (1850), as the Elo itself counts an unrated opponent.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from math import sqrt

from ratings import params as rating_params
from ratings.selectors import elo_brought
from tournaments.formats import bye_tps
from tournaments.formats.forecast import (
    ChanceTable,
    ForecastParams,
    GameModel,
    MatchFormat,
    pair_rating,
    tenths,
)
from tournaments.formats.forecast.match import OutcomeTable
from tournaments.models import Entry, EntryKind, Event, TeamBoard, TeamMember

Boards = tuple[float, ...]

# A model, and its tables, per set of constants: built once per process and kept warm (their
# grids fill as gaps are met; every value is a pure function of the constants, so sharing them
# between requests changes nothing but the time).
_MODELS: dict[ForecastParams, GameModel] = {}
_CHANCES: dict[tuple[ForecastParams, MatchFormat], ChanceTable] = {}
_OUTCOMES: dict[tuple[ForecastParams, MatchFormat], OutcomeTable] = {}


def forecast_params() -> ForecastParams:
    """The forecasts' constants: the Elo's scale and unrated value from the parameter set in
    force (ratings/params.py), the margin spread of the model."""
    elo = rating_params.elo_params()
    return ForecastParams(scale=elo.scale, unrated=elo.initial)


def game_model() -> GameModel:
    params = forecast_params()
    model = _MODELS.get(params)
    if model is None:
        model = _MODELS[params] = GameModel(params)
    return model


def chance_table(fmt: MatchFormat) -> ChanceTable:
    key = (forecast_params(), fmt)
    table = _CHANCES.get(key)
    if table is None:
        table = _CHANCES[key] = ChanceTable(game_model(), fmt)
    return table


def outcome_table(fmt: MatchFormat) -> OutcomeTable:
    key = (forecast_params(), fmt)
    table = _OUTCOMES.get(key)
    if table is None:
        table = _OUTCOMES[key] = OutcomeTable(game_model(), fmt)
    return table


def match_format(event: Event) -> MatchFormat:
    """The event's matches as the model plays them. A team match's tie-breaks (boards won,
    board 1, extra games on board 1) are not modelled: level counts as a coin flip."""
    if event.entry_kind == EntryKind.TEAM:
        return MatchFormat(games=event.games_per_match, boards=event.team_boards)
    margin = tenths(event.extra_game_margin)
    extras = event.max_extra_games if margin > 0 else 0
    return MatchFormat(
        games=event.games_per_match, extra_margin=margin if extras else 0, max_extra_games=extras
    )


def bye_tenths(event: Event) -> int:
    """What a Swiss bye earns in this event, in tenths of a TP."""
    games = event.games_per_match * (event.team_boards if event.entry_kind == EntryKind.TEAM else 1)
    return tenths(bye_tps(games))


def rosters(team_ids: Iterable[int]) -> dict[int, list[int]]:
    """Each team's players in board order."""
    found: dict[int, list[int]] = {}
    for team_id, player_id in (
        TeamMember.objects.filter(team_id__in=list(team_ids))
        .order_by("team_id", "board")
        .values_list("team_id", "player_id")
    ):
        found.setdefault(team_id, []).append(player_id)
    return found


def lineups(match_ids: Iterable[int]) -> dict[int, list[tuple[int, int]]]:
    """The fixed lineups of these team matches: (side A's player, side B's) per board."""
    found: dict[int, list[tuple[int, int]]] = {}
    for match_id, a, b in (
        TeamBoard.objects.filter(match_id__in=list(match_ids))
        .order_by("match_id", "board")
        .values_list("match_id", "player_a_id", "player_b_id")
    ):
        found.setdefault(match_id, []).append((a, b))
    return found


class EventSides:
    """The ratings of an event's entries as its forecasts take them."""

    def __init__(self, event: Event, entries: Iterable[Entry]) -> None:
        self.event = event
        self.params = forecast_params()
        entries = list(entries)
        self._members: dict[int, list[int]] = {}
        teams = rosters(e.team_id for e in entries if e.team_id is not None)
        for entry in entries:
            if entry.pair_id is not None:
                self._members[entry.pk] = [entry.pair.player_a_id, entry.pair.player_b_id]
            elif entry.team_id is not None:
                self._members[entry.pk] = teams.get(entry.team_id, [])[: event.team_boards]
            else:
                self._members[entry.pk] = [entry.player_id]
        self._kinds = {e.pk: e.kind for e in entries}
        self.players: dict[int, tuple[float | None, int]] = {}
        self.model = game_model()
        self._load(p for members in self._members.values() for p in members)

    def _load(self, player_ids: Iterable[int]) -> None:
        wanted = set(player_ids) - self.players.keys()
        if wanted:
            self.players.update(elo_brought(self.event.pk, wanted))

    def rating(self, player_id: int) -> float:
        value, _games = self.players.get(player_id, (None, 0))
        return self.params.unrated if value is None else value

    def error(self, player_id: int) -> float:
        """How well the player's rating is known (`GameModel.rating_error`)."""
        _value, games = self.players.get(player_id, (None, 0))
        return self.model.rating_error(games)

    def boards(self, entry_id: int) -> Boards:
        """The entry's rating per board: (player,), (pair's mean,), or the team's lineup."""
        members = self._members.get(entry_id, [])
        if self._kinds.get(entry_id) == EntryKind.PAIR:
            return (pair_rating([self.rating(p) for p in members]),)
        if self._kinds.get(entry_id) == EntryKind.TEAM:
            boards = [self.rating(p) for p in members]
            boards += [self.params.unrated] * (self.event.team_boards - len(boards))
            return tuple(boards)
        return (self.rating(members[0]) if members else self.params.unrated,)

    def errors(self, entry_id: int) -> Boards:
        """Each board's rating error: a pair's mean is known to half the root of its partners'
        squared errors (the mean of two independent estimates)."""
        members = self._members.get(entry_id, [])
        if self._kinds.get(entry_id) == EntryKind.PAIR:
            return (sqrt(sum(self.error(p) ** 2 for p in members)) / max(1, len(members)),)
        if self._kinds.get(entry_id) == EntryKind.TEAM:
            errors = [self.error(p) for p in members]
            errors += [self.model.rating_error(0)] * (self.event.team_boards - len(errors))
            return tuple(errors)
        return (self.error(members[0]) if members else self.model.rating_error(0),)

    def gaps(self, a: int, b: int) -> Boards:
        """The effective rating gap on each board between entries a and b: the gap damped by
        how well the ratings are known (`GameModel.effective_gap`)."""
        return tuple(
            self.model.effective_gap(x - y, ex, ey)
            for x, y, ex, ey in zip(
                self.boards(a), self.boards(b), self.errors(a), self.errors(b), strict=True
            )
        )

    def lineup_gaps(self, lineup: list[tuple[int, int]]) -> Boards:
        """The effective gap on each board of a fixed team lineup."""
        self._load(p for pair in lineup for p in pair)
        return tuple(
            self.model.effective_gap(self.rating(a) - self.rating(b), self.error(a), self.error(b))
            for a, b in lineup
        )


def lead_tenths(tps_a: Decimal, tps_b: Decimal) -> int:
    return tenths(tps_a) - tenths(tps_b)
