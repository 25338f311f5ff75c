"""The living demo behind `make run` (`manage.py load_demo`).

Every result comes from a self-played record sent through the real submission path
(`games.services.record_submit`: stored, adjudicated by the engine, counted by the match,
rated), so the demo shows what the system does, not what a fixture says. Deterministic: the same
code gives the same players, games and draws.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from games import services as game_services
from games.engine import selfplay
from games.models import Game, RecordSource
from players.models import Player
from players.roles import ORGANISERS_GROUP
from players.types import User
from tournaments import rating_seam, services
from tournaments.models import Championship, Event, Match, MatchStatus, Round
from tournaments.opens.services.score_sheets import table_results_enter
from tournaments.opens.services.table_opens import table_open_create, table_open_start
from tournaments.sides.selectors import match_lineup
from tournaments.standings import round_tables

PASSWORD = "tantrix-demo"
# The players who have accounts (username = first name in lower case).
NAMES = [
    ("Ingrid", "NO"),
    ("Tomas", "NZ"),
    ("Csilla", "HU"),
    ("Bela", "HU"),
    ("Ana", "ES"),
    ("Dora", "DE"),
    ("Mike", "US"),
    ("Aroha", "NZ"),
    ("Pieter", "NL"),
    ("Jana", "CZ"),
    ("Kasia", "PL"),
    ("Lucas", "FR"),
    ("Emma", "GB"),
    ("Noah", "AU"),
    ("Giulia", "IT"),
    ("Sven", "DE"),
]
# Account-less players entered by organisers: first names and surnames per country.
_PEOPLE = {
    "HU": (["Gábor", "Zsófia", "Péter", "Réka", "Attila"], ["Nagy", "Kovács", "Tóth", "Szabó"]),
    "CZ": (["Petr", "Lenka", "Jakub", "Tereza", "Ondřej"], ["Novák", "Svoboda", "Dvořák"]),
    "RU": (["Ivan", "Olga", "Dmitri", "Anna", "Sergei"], ["Ivanov", "Petrova", "Smirnov"]),
    "TR": (["Emre", "Elif", "Mehmet", "Zeynep", "Can"], ["Yılmaz", "Kaya", "Demir"]),
    "DE": (["Jonas", "Lena", "Felix", "Mia", "Paul"], ["Müller", "Schmidt", "Weber"]),
    "NZ": (["Liam", "Ruby", "Nikau", "Isla", "Manaia"], ["Smith", "Williams", "Ngata"]),
    "GB": (["Oliver", "Amelia", "Harry", "Isla", "George"], ["Brown", "Taylor", "Evans"]),
    "US": (["Ethan", "Olivia", "Mason", "Ava", "Logan"], ["Johnson", "Miller", "Davis"]),
    "PL": (["Jan", "Zofia", "Piotr", "Maja", "Tomasz"], ["Nowak", "Wójcik", "Kowalczyk"]),
    "FR": (["Hugo", "Chloé", "Louis", "Inès", "Jules"], ["Martin", "Bernard", "Dubois"]),
    "NL": (["Daan", "Sanne", "Bram", "Fleur", "Sem"], ["de Jong", "Jansen", "Visser"]),
    "AU": (["Jack", "Charlotte", "William", "Matilda", "Oscar"], ["Wilson", "Thompson"]),
}
WORLD_ENTRANTS = 150
JUNIORS = 8
CASUAL_GAMES = 120


@dataclass
class DemoSummary:
    players: int = 0
    games: int = 0
    championships: list[str] = field(default_factory=list)
    logins: list[str] = field(default_factory=list)


@dataclass
class _Demo:
    admin: User
    organiser: User
    rng: random.Random
    seed: int = 1000
    games: int = 0
    # Games are dated from a month ago onwards, in the order they are sent, so the rating order
    # and the submission order agree.
    clock: datetime = field(default_factory=lambda: timezone.now() - timedelta(days=28))

    def next_record(self, players: str, names: Iterable[str]) -> bytes:
        self.seed += 1
        record = selfplay(self.seed, players)
        for seat, name in zip(record["players"], names, strict=True):
            seat["name"] = name
        self.clock += timedelta(minutes=3)
        record["played_at"] = self.clock.isoformat(timespec="seconds")
        self.games += 1
        return json.dumps(record).encode()


def load_demo(
    *,
    world_entrants: int = WORLD_ENTRANTS,
    casual_games: int = CASUAL_GAMES,
    progress: Callable[[str], None] = lambda line: None,
) -> DemoSummary | None:
    """Create the demo once; None when it is already there. The sizes are parameters so a test
    can build a small demo through the same code."""
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
        players = _players(UserModel, world_entrants, hashed, organiser)
    demo = _Demo(admin=admin, organiser=organiser, rng=random.Random(2026))
    progress(f"{len(players)} players")
    _casual_games(demo, players, casual_games)
    progress(f"{demo.games} casual games")
    with rating_seam.results_batch():
        _world_championship(demo, players[:world_entrants])
        progress(f"World Championship: {demo.games} games so far")
        _junior_championship(demo, players[-JUNIORS:])
        _online_open(demo, players[:16])
        doubles_and_team_cup(
            demo.organiser,
            Championship.objects.get(name="Online Open"),
            {p.display_name: p for p in players[: len(NAMES)]},
        )
        _table_open(demo, players[16:40])
    games = Game.objects.count()
    progress(
        f"Junior Championship, Online Open (Swiss, doubles), Team Cup and Table Open: "
        f"{games} games in all"
    )
    return DemoSummary(
        players=len(players),
        games=games,
        championships=list(Championship.objects.order_by("pk").values_list("name", flat=True)),
        logins=[f"organiser / {PASSWORD}", f"admin / {PASSWORD}"]
        + [f"{name.lower()} / {PASSWORD}" for name, _ in NAMES[:3]],
    )


def _players(UserModel, count: int, hashed_password: str, organiser: User) -> list[Player]:
    players = []
    for name, country in NAMES:
        user = UserModel.objects.create(
            username=name.lower(), email=f"{name.lower()}@example.org", password=hashed_password
        )
        players.append(Player.objects.create(display_name=name, country=country, user=user))
    people = [
        (f"{first} {surname}", country)
        for country, (first_names, surnames) in _PEOPLE.items()
        for first in first_names
        for surname in surnames
    ]
    random.Random(150).shuffle(people)
    adults = max(0, count - len(players))
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


def _casual_games(demo: _Demo, players: list[Player], count: int) -> None:
    """Lobby games among the players with accounts and a few others, and some pairs games."""
    pool = players[:40]
    for _ in range(count):
        a, b = demo.rng.sample(pool, 2)
        _submit(demo, demo.admin, demo.next_record("2", (a.display_name, b.display_name)))
    for _ in range(count // 10):
        four = demo.rng.sample(players[:16], 4)
        _submit(demo, demo.admin, demo.next_record("pairs", [p.display_name for p in four]))


def _submit(demo: _Demo, actor: User, body: bytes, **extensions) -> None:
    submission = game_services.record_submit(
        actor=actor, body=body, source=RecordSource.IMPORT, extensions=extensions or None
    )
    if not submission.accepted:
        raise RuntimeError(f"the demo's own record was refused: {submission.refusal}")


def _championship(demo: _Demo, name: str, category: str) -> Championship:
    return services.championship_create(
        actor=demo.organiser, name=name, year=2026, category=category, published=True
    )


def _event(demo: _Demo, championship: Championship, **config) -> Event:
    return services.event_create(
        actor=demo.organiser,
        championship=championship,
        games_per_match=config.pop("games_per_match", 1),
        max_extra_games=config.pop("max_extra_games", 3),
        extra_game_margin=config.pop("extra_game_margin", "0.1"),
        **config,
    )


def _enter(demo: _Demo, event: Event, players: Iterable[Player], draw_seed: int) -> None:
    for player in players:
        services.entry_register(actor=demo.organiser, event=event, player=player)
    services.event_seed(actor=demo.organiser, event=event)
    services.draw_generate(actor=demo.organiser, event=event, draw_seed=draw_seed)


def _open_matches(event: Event) -> list[Match]:
    return list(
        Match.objects.filter(
            event=event, status__in=[MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS]
        )
        .select_related("entry_a__player", "entry_b__player", "round")
        .order_by("round__number", "bracket_index", "pk")
    )


def _play(demo: _Demo, event: Event, *, rounds: int | None = None, share: float = 1.0) -> None:
    """Play the event's open matches game by game: all of them, or rounds up to `rounds`, of the
    last of which only the first `share` of the matches (a round in progress)."""
    held_back: set[int] = set()
    if rounds is not None and share < 1.0:
        last_round = list(
            Match.objects.filter(event=event, round__number=rounds).order_by("bracket_index", "pk")
        )
        held_back = {m.pk for m in last_round[max(1, int(len(last_round) * share)) :]}
    for _ in range(200):
        matches = [
            m
            for m in _open_matches(event)
            if (rounds is None or m.round.number <= rounds) and m.pk not in held_back
        ]
        if not matches:
            return
        for match in matches:
            if match.state_reason == "level_needs_ruling":
                # Level after every extra game: the controller sends the higher seed on.
                winner = min((match.entry_a, match.entry_b), key=lambda e: e.seed or 10**6)
                services.match_rule(
                    actor=demo.organiser,
                    match=match,
                    winner_entry_id=winner.pk,
                    reason="Level after the extra games: the higher seed goes on.",
                )
                continue
            names = (match.entry_a.player.display_name, match.entry_b.player.display_name)
            _submit(demo, demo.organiser, demo.next_record("2", names), match=match.pk)
    raise RuntimeError(f"the demo could not finish {event.name}")


def _world_championship(demo: _Demo, players: list[Player]) -> None:
    # Groups of six; the best of them (128 of 150) fill a knockout of a power of two.
    qualifiers = 1 << ((len(players) * 6 // 7).bit_length() - 1)
    championship = _championship(demo, "World Championship", "world")
    qualifier = _event(
        demo,
        championship,
        name="Qualifying groups",
        stage=1,
        format="groups",
        groups_count=len(players) // 6,
    )
    main = _event(
        demo,
        championship,
        name="Main draw",
        stage=2,
        format="knockout",
        feeds_from=qualifier,
        qualifiers_count=qualifiers,
        qualifier_policy="against_top_seeds",
    )
    _enter(demo, qualifier, players, draw_seed=2026)
    _play(demo, qualifier)
    services.qualifiers_advance(actor=demo.organiser, event=main)
    services.event_seed(actor=demo.organiser, event=main)
    services.draw_generate(actor=demo.organiser, event=main, draw_seed=7)
    # The first round played, the second half played: a bracket in progress.
    _play(demo, main, rounds=2, share=0.5)


def _junior_championship(demo: _Demo, juniors: list[Player]) -> None:
    championship = _championship(demo, "World Junior Championship", "world")
    event = _event(
        demo,
        championship,
        name="Juniors",
        format="knockout",
        eligibility="junior",
        junior_age_limit=18,
        cutoff_date=date(2026, 1, 1),
    )
    _enter(demo, event, juniors, draw_seed=18)
    _play(demo, event)


def _table_open(demo: _Demo, players: list[Player]) -> None:
    """A face-to-face Swiss: results typed from score sheets, three rounds of five entered."""
    championship = _championship(demo, "Wellington Table Open", "open")
    event = table_open_create(
        actor=demo.organiser, championship=championship, name="Open", system="swiss", swiss_rounds=5
    )
    for player in players:
        services.entry_register(actor=demo.organiser, event=event, player=player)
    table_open_start(actor=demo.organiser, event=event, draw_seed=3)
    for number in range(1, 4):
        round_ = Round.objects.get(event=event, number=number)
        sheets = {}
        for table in round_tables(round_):
            if table.match.is_bye:
                continue
            score_a = 10 + demo.rng.randrange(25)
            score_b = 10 + demo.rng.randrange(25)
            sheets[table.number] = {"score_a": score_a, "score_b": score_b, "minutes_a": 25}
        table_results_enter(actor=demo.organiser, round_=round_, sheets=sheets)


def _online_open(demo: _Demo, players: list[Player]) -> None:
    championship = _championship(demo, "Online Open", "open")
    event = _event(demo, championship, name="Swiss", format="swiss", swiss_rounds=5)
    _enter(demo, event, players, draw_seed=5)
    _play(demo, event, rounds=3)


def doubles_and_team_cup(organiser: User, championship: Championship, by_name: dict) -> None:
    """A doubles event in the open, and a team cup of two regional teams, each with a game."""
    doubles = services.event_create(
        actor=organiser,
        championship=championship,
        name="Doubles",
        format="knockout",
        entry_kind="pair",
        games_per_match=1,
        max_extra_games=2,
        extra_game_margin="0.1",
    )
    for first, second in [
        ("Lucas", "Noah"),
        ("Giulia", "Sven"),
        ("Bela", "Emma"),
        ("Tomas", "Aroha"),
    ]:
        services.pair_register(
            actor=organiser, event=doubles, player=by_name[first], partner=by_name[second]
        )
    services.draw_generate(actor=organiser, event=doubles, draw_seed=2)
    match = Match.objects.filter(event=doubles, status=MatchStatus.SCHEDULED).first()
    a, b = match.entry_a.pair, match.entry_b.pair
    record = selfplay(200, "pairs")
    for seat, player in zip(
        record["players"], (a.player_a, b.player_a, a.player_b, b.player_b), strict=True
    ):
        seat["name"] = player.display_name
    game_services.record_submit(
        actor=organiser, body=json.dumps(record).encode(), extensions={"match": match.pk}
    )

    cup = services.championship_create(
        actor=organiser, name="Demo Team Cup", year=2026, category="open", published=True
    )
    rosters = {
        "North": (
            ["Ingrid", "Pieter", "Dora", "Kasia", "Jana", "Emma"],
            ["NO", "NL", "DE", "PL", "CZ", "GB"],
        ),
        "South": (
            ["Tomas", "Csilla", "Ana", "Mike", "Aroha"],
            ["NZ", "HU", "ES", "US", "FR", "AU", "IT"],
        ),
    }
    event = services.event_create(
        actor=organiser,
        championship=cup,
        name="Final",
        format="knockout",
        entry_kind="team",
        team_boards=5,
        games_per_match=1,
    )
    for name, (members, region) in rosters.items():
        team = services.team_create(
            actor=organiser,
            championship=cup,
            name=name,
            region_countries=region,
            captain=by_name[members[0]],
            deputy=by_name[members[1]],
            roster=[by_name[m] for m in members],
        )
        services.team_enter(actor=organiser, event=event, team=team)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    final = Match.objects.get(event=event)
    _board, player_a, player_b = match_lineup(final)[0]
    record = selfplay(300, "2")
    names = {p.pk: p.display_name for p in by_name.values()}
    record["players"][0]["name"], record["players"][1]["name"] = names[player_a], names[player_b]
    game_services.record_submit(
        actor=organiser, body=json.dumps(record).encode(), extensions={"match": final.pk}
    )
