"""Building table opens for the tests: a championship, players, sheets typed by a controller."""

from __future__ import annotations

from tests.factories import PlayerFactory, UserFactory
from tournaments.models import Championship, Event, Round
from tournaments.opens.services.score_sheets import table_results_enter
from tournaments.opens.services.table_opens import table_open_create, table_open_start
from tournaments.services import championship_create, championship_staff_set, entry_register
from tournaments.standings import round_tables


def open_championship(organiser) -> tuple[Championship, object]:
    """A published championship with a controller; returns it and the controller."""
    championship = championship_create(
        actor=organiser, name="Table Open Cup", year=2026, category="open", published=True
    )
    controller = UserFactory()
    PlayerFactory(user=controller)
    championship_staff_set(
        actor=organiser, championship=championship, user=controller, role="controller"
    )
    return championship, controller


def table_open(
    organiser, championship, players: int, *, start: bool = True, name_suffix: str = "", **config
) -> Event:
    config.setdefault("system", "swiss")
    if config["system"] == "swiss":
        config.setdefault("swiss_rounds", 7)
    event = table_open_create(
        actor=organiser, championship=championship, name="Weekend Open" + name_suffix, **config
    )
    for _ in range(players):
        entry_register(actor=organiser, event=event, player=PlayerFactory())
    if start:
        event = table_open_start(actor=organiser, event=event, draw_seed=1)
    return event


def sheet_for(round_number: int, table: int, seed_a: int, seed_b: int) -> dict:
    """A plausible, varied and repeatable score sheet (some draws, one resignation a round)."""
    score_a = 8 + (seed_a * 7 + round_number * 3 + table) % 27
    score_b = 8 + (seed_b * 5 + round_number * 11) % 27
    if table == 2:
        return {"score_a": score_a, "score_b": score_b, "ending": "resigned", "conceded_by": "b"}
    return {"score_a": str(score_a), "score_b": str(score_b), "minutes_a": "24"}


def play_round(controller, round_: Round) -> dict[int, dict]:
    sheets = {
        t.number: sheet_for(round_.number, t.number, t.match.entry_a.seed, t.match.entry_b.seed)
        for t in round_tables(round_)
        if not t.match.is_bye
    }
    table_results_enter(actor=controller, round_=round_, sheets=sheets)
    return sheets
