"""Seed data for `make load`: players with accounts and API tokens, a history of rated games, and
a published championship whose knockout bracket is drawn and partly played.

Runs inside bench.load's own process with Celery eager, so every seeded record is adjudicated
and rated before the system under test starts. Everything goes through the project's services,
as a real championship would.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

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
from players.tokens.services import api_token_issue
from tournaments import services as tournament_services
from tournaments.demo import NAMES
from tournaments.models import Match, MatchStatus

# The demo's players, so the load run's pages read like the demo's.
FIRST_NAMES = NAMES
PASSWORD = "tantrix-load"
# Self-play seeds: the seeded history, the championship's matches and the locust pool never
# share a game.
HISTORY_SEEDS = 0
MATCH_SEEDS = 100_000
POOL_SEEDS = 200_000


def _record(seed: int, names: tuple[str, str], played_at: dt.datetime | None = None) -> bytes:
    record = selfplay(seed, "2")
    record["players"][0]["name"], record["players"][1]["name"] = names
    if played_at is not None:
        record["played_at"] = played_at.isoformat()
    return json.dumps(record).encode("utf-8")


def seed(*, players: int, games: int, entries: int, pool: int) -> dict[str, Any]:
    """Create the data and return what the locust users need (ids, tokens, a record pool)."""
    User = get_user_model()
    with transaction.atomic():
        admin = User.objects.create_superuser("load-admin", "admin@example.org", PASSWORD)
        organiser = User.objects.create_user("load-organiser", "org@example.org", PASSWORD)
        organiser.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
        Player.objects.create(display_name="Load Organiser", country="GB", user=organiser)
        # One hash for every player: hashing each password would take most of the seeding time.
        password = make_password(PASSWORD)
        seated: list[Player] = []
        for index in range(players):
            first, country = FIRST_NAMES[index % len(FIRST_NAMES)]
            name = f"{first}{index:03d}"
            user = User.objects.create(
                username=name.lower(), email=f"{name.lower()}@example.org", password=password
            )
            seated.append(Player.objects.create(display_name=name, country=country, user=user))
        tokens = {p.pk: api_token_issue(user=p.user).key for p in seated}

    # A history of casual games, oldest first, so the ratings apply in played order.
    now = timezone.now()
    for index in range(games):
        a = seated[index % players]
        b = seated[(index * 7 + 1 + index // players) % players]
        if a.pk == b.pk:
            b = seated[(index + 1) % players]
        played_at = now - dt.timedelta(hours=2 * (games - index))
        game_services.record_submit(
            actor=admin,
            body=_record(HISTORY_SEEDS + index, (a.display_name, b.display_name), played_at),
            source=RecordSource.IMPORT,
        )

    championship = tournament_services.championship_create(
        actor=organiser, name="Load Open", year=now.year, category="open", published=True
    )
    event = tournament_services.event_create(
        actor=organiser,
        championship=championship,
        name="Knockout",
        format="knockout",
        games_per_match=1,
        max_extra_games=2,
        extra_game_margin="0.1",
    )
    for player in seated[: min(entries, players)]:
        tournament_services.entry_register(actor=organiser, event=event, player=player)
    tournament_services.event_seed(actor=organiser, event=event)
    tournament_services.draw_generate(actor=organiser, event=event, draw_seed=2026)
    # Play round 1 and half of round 2, so the bracket shows results and open matches.
    match_seed = MATCH_SEEDS
    for number, share in ((1, 1.0), (2, 0.5)):
        open_matches = list(
            Match.objects.filter(event=event, round__number=number, status=MatchStatus.SCHEDULED)
            .select_related("entry_a__player", "entry_b__player")
            .order_by("bracket_index")
        )
        for match in open_matches[: round(len(open_matches) * share)]:
            names = (match.entry_a.player.display_name, match.entry_b.player.display_name)
            game_services.record_submit(
                actor=organiser,
                body=_record(match_seed, names),
                extensions={"match": match.pk},
            )
            match_seed += 1

    return {
        "players": [{"id": p.pk, "name": p.display_name, "token": tokens[p.pk]} for p in seated],
        "championship": championship.pk,
        "event": event.pk,
        "matches": list(Match.objects.filter(event=event).values_list("pk", flat=True)),
        "games": list(Game.objects.order_by("-pk").values_list("pk", flat=True)[:500]),
        # Valid self-play games; a locust user puts its own name and an opponent's in the seats.
        "records": [selfplay(POOL_SEEDS + index, "2") for index in range(pool)],
    }
