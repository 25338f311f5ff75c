"""The stored history replayed as forecasts: every tournament game (and every singles match
decided by its games) forecast from the ratings its players brought to the event, as they were
before its games, and scored against what happened (`tournaments.formats.forecast.scoring`).

The Elo moves once per event, from the standing each player brought (kept from the event's first
calculation: `ratings.EloStanding`), so "the ratings as they were then" is exactly that standing:
nothing the game itself, or any later one, changed. A game of an event the Elo has not yet
calculated has no standing: it is left out (and counted as skipped). Games are the Elo's own:
two-player tournament games with both TPs, not reverted (`ratings.selectors.elo_event_games`),
in tournament order; pairs games are not Elo games and are not replayed.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import sqrt

from ratings.selectors import elo_event_games, elo_event_states, elo_standings_brought
from tournaments.forecasts.sides import chance_table, game_model, match_format
from tournaments.formats.forecast import Evaluation, GameModel, Scored, evaluate
from tournaments.formats.points import tp_scheme
from tournaments.models import Event, Match, MatchStatus


@dataclass(frozen=True)
class HistoryReport:
    games: Evaluation
    matches: Evaluation
    skipped_games: int  # games of events the Elo has not calculated
    # The root mean square of the games' tile margins, read back from their TPs (games whose TPs
    # a time penalty moved, or at the 36-tile cap, are left out): what the model's `spread`
    # stands for, measured.
    measured_spread: float | None


def _outcome(a: float, b: float) -> float:
    return 1.0 if a > b else 0.0 if a < b else 0.5


def _gap(model: GameModel, a: tuple[float | None, int], b: tuple[float | None, int]) -> float:
    """The effective gap between two players' brought (rating, games), as the pages take it."""
    unrated = model.params.unrated
    (rating_a, games_a), (rating_b, games_b) = a, b
    gap = (unrated if rating_a is None else rating_a) - (unrated if rating_b is None else rating_b)
    return model.effective_gap(gap, model.rating_error(games_a), model.rating_error(games_b))


def history_report(bins: int = 10) -> HistoryReport:
    model = game_model()
    states = elo_event_states()
    brought = elo_standings_brought(s.event_id for s in states)
    margin_of = {
        float(tps): margin for margin, tps in enumerate(tp_scheme(1).winner_tps) if margin < 36
    }
    chances: dict[float, float] = {}
    games: list[Scored] = []
    margins: list[int] = []
    skipped = 0
    for state in states:
        for a, b, tp_a, tp_b in elo_event_games(state.event_id):
            key_a, key_b = (state.event_id, a), (state.event_id, b)
            if key_a not in brought or key_b not in brought:
                skipped += 1
                continue
            gap = _gap(model, brought[key_a], brought[key_b])
            chance = chances.get(gap)
            if chance is None:
                chance = chances[gap] = model.win_chance(gap)
            games.append(Scored(chance, _outcome(tp_a, tp_b), gap))
            margin = margin_of.get(round(max(tp_a, tp_b), 1))
            if margin is not None:
                margins.append(margin)
    events = {event_id for event_id, _player in brought}
    matches = []
    formats = {e.pk: match_format(e) for e in Event.objects.filter(pk__in=events)}
    rows = (
        Match.objects.filter(
            event_id__in=events,
            status=MatchStatus.DECIDED,
            games_played__gt=0,
            winner__isnull=False,
            entry_a__player__isnull=False,
            entry_b__player__isnull=False,
        )
        .order_by("decided_at", "id")
        .values_list(
            "event_id", "entry_a__player_id", "entry_b__player_id", "entry_a_id", "winner_id"
        )
    )
    for event_id, a, b, entry_a, winner in rows:
        if (event_id, a) not in brought or (event_id, b) not in brought:
            continue
        gap = _gap(model, brought[(event_id, a)], brought[(event_id, b)])
        chance = chance_table(formats[event_id]).chance(gap)
        matches.append(Scored(chance, 1.0 if winner == entry_a else 0.0, gap))
    spread = sqrt(sum(m * m for m in margins) / len(margins)) if margins else None
    return HistoryReport(
        games=evaluate(games, bins),
        matches=evaluate(matches, bins),
        skipped_games=skipped,
        measured_spread=spread,
    )
