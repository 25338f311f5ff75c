"""The Masters' climb: hidden strengths, their lobby games past the title's 950, the titles
awarded."""

from __future__ import annotations

import math
import random
from datetime import timedelta

from django.core.exceptions import ValidationError

from players.models import Player
from ratings.models import Rating, RatingSystem
from ratings.services import title_award
from tournaments.demo.names import (
    NAMES,
)
from tournaments.demo.state import (
    MASTER_GAMES_CAP,
    MASTER_STRENGTH,
    MASTER_TARGET,
    MASTERS,
    Demo,
    submit,
)


def strengths(players: list[Player]) -> dict[int, float]:
    """Hidden strengths: log-normal around 1 for the field; the account holders are the keen
    experts, five to twelve times as strong (they win most games, by many tiles, and climb to
    the upper half of the scale); the Masters far above everyone."""
    luck = random.Random(7)
    strength = {p.pk: math.exp(luck.gauss(0.0, 0.5)) for p in players}
    for player in players[: len(NAMES)]:
        strength[player.pk] = 5.0 + 7.0 * luck.random()
    for name in MASTERS:
        strength[players[[n for n, _c in NAMES].index(name)].pk] = MASTER_STRENGTH
    return strength


def _lobby(player: Player) -> float:
    value = (
        Rating.objects.filter(player=player, system=RatingSystem.LOBBY)
        .values_list("value", flat=True)
        .first()
    )
    return 0.0 if value is None else value


def masters_history(demo: Demo, masters: list[Player], field: list[Player]) -> None:
    """The Masters' lobby games over the last weeks, against the field in turn, until each has
    the ranking a title asks for: a Master is someone who beat nearly everyone, by a lot, for a
    long time. Spread out in time so no pair meets often in a day (that would be flagged as
    win trading)."""
    climbing = list(masters)
    opponents = 0
    for _ in range(MASTER_GAMES_CAP):
        for master in list(climbing):
            opponent = field[opponents % len(field)]
            opponents += 1
            submit(demo, demo.admin, demo.duel(master, opponent, step=timedelta(minutes=45)))
            if _lobby(master) >= MASTER_TARGET:
                climbing.remove(master)
        if not climbing:
            return


def award_titles(demo: Demo, masters: list[Player]) -> None:
    """The admin awards the title to each Master still at 950 or more (the title's own check)."""
    for master in masters:
        try:
            title_award(
                actor=demo.admin,
                player_id=master.pk,
                note="Lobby ranking over 950 with a World Championship played.",
            )
        except ValidationError:
            continue  # below 950 after the championship: the title waits for them
