"""The living demo behind `make run` (`manage.py load_demo`).

Every result comes from a self-played record sent through the real submission path
(`games.services.record_submit`: stored, adjudicated by the engine, counted by the match,
rated), so the demo shows what the system does, not what a fixture says. Deterministic: the same
code gives the same players, games and draws.
"""

from __future__ import annotations

import copy
import json
import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from games import services as game_services
from games.engine import selfplay
from games.models import Game, RecordSource
from players.models import Player
from players.roles import ORGANISERS_GROUP
from players.types import User
from ratings.models import Rating, RatingSystem
from ratings.services import title_award
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
# The account holders' family names (their usernames stay their first names).
SURNAMES = {
    "Ingrid": "Solberg",
    "Tomas": "Walker",
    "Csilla": "Varga",
    "Bela": "Horváth",
    "Ana": "García",
    "Dora": "Becker",
    "Mike": "Anderson",
    "Aroha": "Tipene",
    "Pieter": "Bakker",
    "Jana": "Horáková",
    "Kasia": "Zielińska",
    "Lucas": "Moreau",
    "Emma": "Clarke",
    "Noah": "Mitchell",
    "Giulia": "Romano",
    "Sven": "Hoffmann",
}
# How the account holders' first names are written in full ("Bela" is the username).
FIRST_NAMES = {"Bela": "Béla"}
ACCOUNT_WOMEN = {"Ingrid", "Csilla", "Ana", "Dora", "Aroha", "Jana", "Kasia", "Emma", "Giulia"}

# Account-less players entered by organisers, per country: women's first names, men's first
# names, and family names. Where the language gives a woman's family name its own form
# (Russian Smirnov/Smirnova, Czech Dvořák/Dvořáková, Polish Kowalski/Kowalska) the family name
# is a (man's, woman's) pair. Hungarian names are shown in the Western order, given name first,
# as the rest of the site shows every name. No name starts with a capital outside ASCII
# ("Şahin", "Černý"): SQLite's LOWER() folds only ASCII, so on `make run`'s database a record
# naming such a player would not find them (players.selectors.players_by_names).
_PEOPLE: dict[str, tuple[list[str], list[str], list[str | tuple[str, str]]]] = {
    "HU": (
        ["Zsófia", "Réka", "Katalin", "Eszter"],
        ["Gábor", "Péter", "Attila", "Bence"],
        ["Nagy", "Kovács", "Tóth", "Szabó", "Balogh"],
    ),
    "CZ": (
        ["Lenka", "Tereza", "Petra", "Kateřina"],
        ["Petr", "Jakub", "Ondřej", "Tomáš"],
        [
            ("Novák", "Nováková"),
            ("Svoboda", "Svobodová"),
            ("Dvořák", "Dvořáková"),
            ("Král", "Králová"),
            ("Procházka", "Procházková"),
        ],
    ),
    "RU": (
        ["Olga", "Anna", "Natalia", "Yekaterina"],
        ["Ivan", "Dmitri", "Sergei", "Alexei"],
        [
            ("Ivanov", "Ivanova"),
            ("Petrov", "Petrova"),
            ("Smirnov", "Smirnova"),
            ("Kuznetsov", "Kuznetsova"),
            ("Volkov", "Volkova"),
        ],
    ),
    "TR": (
        ["Elif", "Zeynep", "Ayşe", "Defne"],
        ["Emre", "Mehmet", "Can", "Burak"],
        ["Yılmaz", "Kaya", "Demir", "Aydın", "Arslan"],
    ),
    "DE": (
        ["Lena", "Mia", "Sophie", "Hannah"],
        ["Jonas", "Felix", "Paul", "Lukas"],
        ["Müller", "Schmidt", "Weber", "Fischer"],
    ),
    "NZ": (
        ["Ruby", "Isla", "Mere", "Hana"],
        ["Liam", "Nikau", "Manaia", "Tama"],
        ["Smith", "Williams", "Ngata", "Parata"],
    ),
    "GB": (
        ["Amelia", "Grace", "Sophie"],
        ["Oliver", "Harry", "George"],
        ["Brown", "Taylor", "Evans", "Hughes"],
    ),
    "US": (["Olivia", "Ava", "Emily"], ["Ethan", "Mason", "Logan"], ["Johnson", "Miller", "Davis"]),
    "PL": (
        ["Zofia", "Maja", "Agnieszka"],
        ["Jan", "Piotr", "Tomasz"],
        ["Nowak", "Wójcik", ("Kowalski", "Kowalska"), ("Wiśniewski", "Wiśniewska")],
    ),
    "FR": (
        ["Chloé", "Inès", "Camille"],
        ["Hugo", "Louis", "Jules"],
        ["Martin", "Bernard", "Dubois"],
    ),
    "NL": (["Sanne", "Fleur", "Anouk"], ["Daan", "Bram", "Sem"], ["de Jong", "Jansen", "Visser"]),
    "AU": (
        ["Charlotte", "Matilda", "Chloe"],
        ["Jack", "William", "Oscar"],
        ["Wilson", "Thompson", "Nguyen"],
    ),
    "JP": (
        ["Yui", "Aiko", "Sakura"],
        ["Haruto", "Kenji", "Takeshi"],
        ["Satō", "Suzuki", "Takahashi", "Tanaka"],
    ),
}
# Every woman's first name of the demo, for the tests of the family names' forms.
WOMEN = ACCOUNT_WOMEN | {name for women, _men, _surnames in _PEOPLE.values() for name in women}


def _people() -> list[tuple[str, str]]:
    """Every (full name, country) of the account-less players, each family name in the form
    that agrees with the first name."""
    people = []
    for country, (women, men, surnames) in _PEOPLE.items():
        for first in women + men:
            for surname in surnames:
                if isinstance(surname, tuple):
                    surname = surname[1] if first in WOMEN else surname[0]
                people.append((f"{first} {surname}", country))
    return people


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
class _Demo:
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
        players = _players(UserModel, world_entrants, hashed, organiser)
    demo = _Demo(
        admin=admin,
        organiser=organiser,
        rng=random.Random(2026),
        strength=_strengths(players),
        on_game=on_game,
    )
    accounts = {name: player for (name, _country), player in zip(NAMES, players, strict=False)}
    masters = [accounts[name] for name in MASTERS]
    progress(f"{len(players)} players")
    _casual_games(demo, players, casual_games)
    progress(f"{demo.games} casual games")
    with rating_seam.results_batch():
        _world_championship(demo, players[:world_entrants])
    progress(f"World Championship: {demo.games} games so far")
    # The Masters climb against the field (the account holders climb on their own).
    _masters_history(demo, masters, players[len(NAMES) : -JUNIORS])
    # The title asks for 950 and an Elo-rated tournament (the World Championship's groups).
    _award_titles(demo, masters)
    progress(f"The Masters' lobby games: {demo.games} games so far")
    with rating_seam.results_batch():
        _junior_championship(demo, players[-JUNIORS:])
        _online_open(demo, players[:16])
        doubles_and_team_cup(demo.organiser, Championship.objects.get(name="Online Open"), accounts)
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


def _strengths(players: list[Player]) -> dict[int, float]:
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


def _masters_history(demo: _Demo, masters: list[Player], field: list[Player]) -> None:
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
            _submit(demo, demo.admin, demo.duel(master, opponent, step=timedelta(minutes=45)))
            if _lobby(master) >= MASTER_TARGET:
                climbing.remove(master)
        if not climbing:
            return


def _award_titles(demo: _Demo, masters: list[Player]) -> None:
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


def _players(UserModel, count: int, hashed_password: str, organiser: User) -> list[Player]:
    """The account holders, then account-less adults (at least `MIN_ADULTS` in all), then the
    juniors."""
    players = []
    for name, country in NAMES:
        user = UserModel.objects.create(
            username=name.lower(), email=f"{name.lower()}@example.org", password=hashed_password
        )
        full = f"{FIRST_NAMES.get(name, name)} {SURNAMES[name]}"
        players.append(Player.objects.create(display_name=full, country=country, user=user))
    people = _people()
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


def _casual_games(demo: _Demo, players: list[Player], count: int) -> None:
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
        _submit(demo, demo.admin, demo.duel(a, b))
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
            record = demo.duel(match.entry_a.player, match.entry_b.player)
            _submit(demo, demo.organiser, record, match=match.pk)
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
    championship = _championship(demo, "World Junior Championship", "junior")
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
