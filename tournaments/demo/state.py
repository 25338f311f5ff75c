"""A demo run: its sizes, the Masters' figures, the one-sided games' seeds, the run's state
(hidden strengths, the records it plays and dates) and how a record is sent."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils import timezone

from games import services as game_services
from games.engine import selfplay
from games.models import RecordSource
from players.models import Player
from players.types import User

WORLD_ENTRANTS = 150
JUNIORS = 8
CASUAL_GAMES = 200


@dataclass
class DemoSummary:
    players: int = 0
    games: int = 0
    championships: list[str] = field(default_factory=list)
    logins: list[str] = field(default_factory=list)


# The demo's Masters (account holders, so they also play the World Championship however small
# a test makes it): their lobby games take them past the title's 950 through the real rating
# code, and an admin then awards them the title.
MASTERS = ("Csilla", "Tomas", "Ingrid")
MASTER_STRENGTH = 60.0
# Lobby games of the Masters: each plays until their lobby ranking reaches the title's 950 (about
# 200 games each, nearly all won by many tiles: from 900 up a win adds about a point), or this
# many.
MASTER_TARGET = 950.5
MASTER_GAMES_CAP = 300
# The lobby's regulars: at least this many adults, however small the World Championship (the
# Masters need a field to beat; a small one they would beat down to nothing).
MIN_ADULTS = 60
# A winner at least this many times stronger than the loser wins by many tiles.
DECISIVE_RATIO = 4.0
# Seeds of games that a greedy seat 0 (`selfplay(seed, "2", greedy=(0,))`) wins by 18 tiles or
# more: found once by playing seeds 50000 onwards (a test checks them). A one-sided game is what
# a much stronger player's win looks like; random self-play is won by about 5 tiles.
DECISIVE_SEEDS = (
    50007,
    50012,
    50025,
    50091,
    50117,
    50191,
    50264,
    50267,
    50286,
    50298,
    50329,
    50371,
    50402,
    50413,
    50416,
    50450,
    50494,
    50514,
    50533,
    50546,
    50555,
    50615,
    50622,
    50745,
    50790,
    50806,
    50832,
    50897,
    50923,
    50976,
    50994,
    51019,
    51022,
    51059,
    51065,
    51085,
    51091,
    51093,
    51128,
    51150,
    51244,
    51295,
    51316,
    51322,
    51354,
    51396,
    51404,
    51405,
    51413,
    51444,
    51487,
    51488,
    51557,
    51585,
    51592,
    51596,
    51627,
    51647,
    51651,
    51690,
    51751,
    51769,
    51790,
    51798,
    51816,
    51837,
    51854,
    51904,
    51916,
    51928,
    51933,
    52029,
    52061,
    52063,
    52082,
    52177,
    52193,
    52204,
    52236,
    52285,
)


@dataclass
class Demo:
    admin: User
    organiser: User
    rng: random.Random
    # Each player's hidden strength (player id -> Bradley-Terry strength, 1 on average): who wins
    # a game is drawn from it (`luck`), so results, and from them ratings, follow strength.
    strength: dict[int, float] = field(default_factory=dict)
    luck: random.Random = field(default_factory=lambda: random.Random(28))
    on_game: Callable[[], None] = lambda: None
    seed: int = 1000
    games: int = 0
    decisive: int = 0
    _decisive_records: dict[int, dict] = field(default_factory=dict)
    # Games are dated from four weeks ago onwards (the oldest a game may be entered without a
    # match to vouch for it), in the order they are sent, so the rating order and the
    # submission order agree.
    clock: datetime = field(default_factory=lambda: timezone.now() - timedelta(days=28))

    def next_record(self, players: str, names: Iterable[str]) -> bytes:
        self.seed += 1
        record = selfplay(self.seed, players)
        return self._finish(record, names)

    def duel(self, a: Player, b: Player, *, step: timedelta | None = None) -> bytes:
        """A two-player record of a against b won as their strengths say: the winner is drawn
        (Bradley-Terry), and a much stronger winner wins a one-sided game."""
        strength_a, strength_b = self.strength.get(a.pk, 1.0), self.strength.get(b.pk, 1.0)
        a_wins = self.luck.random() < strength_a / (strength_a + strength_b)
        winner, loser = (a, b) if a_wins else (b, a)
        gap = max(strength_a, strength_b) / min(strength_a, strength_b)
        if (strength_a >= strength_b) == a_wins and gap >= DECISIVE_RATIO:
            seed = DECISIVE_SEEDS[self.decisive % len(DECISIVE_SEEDS)]
            self.decisive += 1
            if seed not in self._decisive_records:
                self._decisive_records[seed] = selfplay(seed, "2", greedy=(0,))
            record = copy.deepcopy(self._decisive_records[seed])
            names = (winner.display_name, loser.display_name)
        else:
            self.seed += 1
            record = selfplay(self.seed, "2")
            first, second = record["claimed_scores"]
            ordered = (winner, loser) if first >= second else (loser, winner)
            names = tuple(p.display_name for p in ordered)
        return self._finish(record, names, step=step)

    def _finish(
        self, record: dict, names: Iterable[str], *, step: timedelta | None = None
    ) -> bytes:
        for seat, name in zip(record["players"], names, strict=True):
            seat["name"] = name
        self.clock += step or timedelta(minutes=3)
        record["played_at"] = self.clock.isoformat(timespec="seconds")
        self.games += 1
        self.on_game()
        return json.dumps(record).encode()


def submit(demo: Demo, actor: User, body: bytes, **extensions) -> None:
    submission = game_services.record_submit(
        actor=actor, body=body, source=RecordSource.IMPORT, extensions=extensions or None
    )
    if not submission.accepted:
        raise RuntimeError(f"the demo's own record was refused: {submission.refusal}")
