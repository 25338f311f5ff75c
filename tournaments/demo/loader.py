"""Loading the demo: its stages in order, the games to expect, the sign-ins worth trying."""

from __future__ import annotations

import random
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.db import transaction

from games.models import Game
from players.models import Player
from players.roles import ORGANISERS_GROUP
from tournaments import rating_seam
from tournaments.demo.events import (
    doubles_and_team_cup,
    junior_championship,
    online_open,
    table_open,
    world_championship,
)
from tournaments.demo.lobby import casual_games_play, players_create
from tournaments.demo.masters import award_titles, masters_history, strengths
from tournaments.demo.names import (
    NAMES,
    PASSWORD,
)
from tournaments.demo.state import (
    CASUAL_GAMES,
    JUNIORS,
    MASTERS,
    WORLD_ENTRANTS,
    Demo,
    DemoSummary,
)
from tournaments.models import Championship, Match, MatchStatus


def expected_games(world_entrants: int = WORLD_ENTRANTS, casual_games: int = CASUAL_GAMES) -> int:
    """About how many games the demo plays with these sizes (for a progress bar's total)."""
    masters = len(MASTERS) * 200
    groups = world_entrants // 6 * 15 * 11 // 10
    knockout = (1 << ((world_entrants * 6 // 7).bit_length() - 1)) * 3 // 4
    return masters + casual_games * 11 // 10 + groups + knockout + 95


def load_demo(
    *,
    world_entrants: int = WORLD_ENTRANTS,
    casual_games: int = CASUAL_GAMES,
    progress: Callable[[str], None] = lambda line: None,
    on_game: Callable[[], None] = lambda: None,
) -> DemoSummary | None:
    """Create the demo once; None when it is already there. The sizes are parameters so a test
    can build a small demo through the same code. `progress` hears a line per stage, `on_game`
    is called for every game sent."""
    UserModel = get_user_model()
    if UserModel.objects.filter(username="organiser").exists():
        return None
    with transaction.atomic():
        # Every demo account has the same password: hash it once, not once per account (each
        # hash costs a fifth of a second by design).
        hashed = make_password(PASSWORD)
        admin = UserModel.objects.create(
            username="admin",
            email="admin@example.org",
            password=hashed,
            is_staff=True,
            is_superuser=True,
        )
        organiser = UserModel.objects.create(
            username="organiser", email="org@example.org", password=hashed
        )
        organiser.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
        Player.objects.create(display_name="Organiser", country="GB", user=organiser)
        players = players_create(UserModel, world_entrants, hashed, organiser)
    demo = Demo(
        admin=admin,
        organiser=organiser,
        rng=random.Random(2026),
        strength=strengths(players),
        on_game=on_game,
    )
    accounts = {name: player for (name, _country), player in zip(NAMES, players, strict=False)}
    masters = [accounts[name] for name in MASTERS]
    progress(f"{len(players)} players")
    casual_games_play(demo, players, casual_games)
    progress(f"{demo.games} casual games")
    with rating_seam.results_batch():
        world_championship(demo, players[:world_entrants])
    progress(f"World Championship: {demo.games} games so far")
    # The Masters climb against the field (the account holders climb on their own).
    masters_history(demo, masters, players[len(NAMES) : -JUNIORS])
    # The title asks for 950 and an Elo-rated tournament (the World Championship's groups).
    award_titles(demo, masters)
    progress(f"The Masters' lobby games: {demo.games} games so far")
    with rating_seam.results_batch():
        junior_championship(demo, players[-JUNIORS:])
        online_open(demo, players[:16])
        doubles_and_team_cup(demo.organiser, Championship.objects.get(name="Online Open"), accounts)
        table_open(demo, players[16:40])
    games = Game.objects.count()
    progress(
        f"Junior Championship, Online Open (Swiss, doubles), Team Cup and Table Open: "
        f"{games} games in all"
    )
    return DemoSummary(
        players=len(players),
        games=games,
        championships=list(Championship.objects.order_by("pk").values_list("name", flat=True)),
        logins=[f"{username} / {PASSWORD}" for username, _role in demo_logins()],
    )


def demo_logins() -> list[tuple[str, str]]:
    """The demo's sign-ins worth trying, each with what it shows (username, role): printed at
    the end of every `make run`."""
    logins = [
        ("admin", "staff: the rating review queue, Master titles, every page"),
        ("organiser", "organises every demo championship: draws, rounds, rulings"),
    ]
    waiting = (
        Match.objects.filter(
            status__in=[MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS],
            entry_a__player__user__isnull=False,
        )
        .order_by("pk")
        .values_list("entry_a__player__user__username", "event__championship__name")
        .first()
    )
    if waiting is not None:
        logins.append((waiting[0], f"a player with a match to play ({waiting[1]})"))
    for username in (name.lower() for name in MASTERS):
        if username != (waiting or ("",))[0]:
            logins.append((username, "a player who holds the Master title"))
            break
    return logins
