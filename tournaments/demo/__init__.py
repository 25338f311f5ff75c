"""The living demo behind `make run` (`manage.py load_demo`).

Every result comes from a self-played record sent through the real submission path
(`games.services.record_submit`: stored, adjudicated by the engine, counted by the match,
rated), so the demo shows what the system does, not what a fixture says. Deterministic: the same
code gives the same players, games and draws.

The rooms: `names` (the people), `state` (a run's sizes, state and how it sends a record),
`lobby` (players and lobby games), `masters` (the Masters' climb and titles), `events` (the
championships), `loader` (the stages in order).
"""

from tournaments.demo.events import doubles_and_team_cup
from tournaments.demo.loader import demo_logins, expected_games, load_demo
from tournaments.demo.names import (
    FIRST_NAMES,
    NAMES,
    PASSWORD,
    SURNAMES,
    WOMEN,
    account_less_people,
)
from tournaments.demo.state import (
    CASUAL_GAMES,
    DECISIVE_SEEDS,
    MASTERS,
    MIN_ADULTS,
    WORLD_ENTRANTS,
    DemoSummary,
)

__all__ = [
    "CASUAL_GAMES",
    "DECISIVE_SEEDS",
    "FIRST_NAMES",
    "MASTERS",
    "MIN_ADULTS",
    "NAMES",
    "PASSWORD",
    "SURNAMES",
    "WOMEN",
    "WORLD_ENTRANTS",
    "DemoSummary",
    "demo_logins",
    "doubles_and_team_cup",
    "expected_games",
    "load_demo",
    "account_less_people",
]
