"""The demo's players (account holders, account-less adults, juniors) and their lobby games."""

from __future__ import annotations

import random
from datetime import date

from players.models import Player
from players.types import User
from tournaments.demo.names import (
    FIRST_NAMES,
    NAMES,
    SURNAMES,
    account_less_people,
)
from tournaments.demo.state import (
    JUNIORS,
    MASTERS,
    MIN_ADULTS,
    Demo,
    submit,
)


def players_create(UserModel, count: int, hashed_password: str, organiser: User) -> list[Player]:
    """The account holders, then account-less adults (at least `MIN_ADULTS` in all), then the
    juniors."""
    players = []
    for name, country in NAMES:
        user = UserModel.objects.create(
            username=name.lower(), email=f"{name.lower()}@example.org", password=hashed_password
        )
        full = f"{FIRST_NAMES.get(name, name)} {SURNAMES[name]}"
        players.append(Player.objects.create(display_name=full, country=country, user=user))
    people = account_less_people()
    random.Random(150).shuffle(people)
    adults = max(0, max(count, MIN_ADULTS) - len(players))
    for index, (name, country) in enumerate(people[: adults + JUNIORS]):
        # The last few are juniors (born 2010-2013), for the junior championship: the organiser
        # entered them with their dates of birth, so the organiser enters them in it.
        junior = index >= adults
        born = date(2010 + index % 4, 1 + index % 12, 1 + index % 28) if junior else None
        players.append(
            Player.objects.create(
                display_name=name,
                country=country,
                date_of_birth=born,
                created_by=organiser if junior else None,
            )
        )
    return players


def casual_games_play(demo: Demo, players: list[Player], count: int) -> None:
    """Lobby games: half among the players with accounts and a few others, half of the keen
    account holders against the field (where they climb); and some pairs games."""
    pool = players[:40]
    keen = [p for name, p in zip(NAMES, players, strict=False) if name[0] not in MASTERS]
    field_players = players[len(NAMES) : -JUNIORS]
    for number in range(count):
        if number % 2:
            a, b = demo.rng.choice(keen), demo.rng.choice(field_players)
        else:
            a, b = demo.rng.sample(pool, 2)
        submit(demo, demo.admin, demo.duel(a, b))
    for _ in range(count // 10):
        four = demo.rng.sample(players[:16], 4)
        submit(demo, demo.admin, demo.next_record("pairs", [p.display_name for p in four]))
