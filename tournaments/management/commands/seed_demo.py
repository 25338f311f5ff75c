"""Demo data for `make run`: players, adjudicated games and a championship in progress."""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction

from games import services as game_services
from games.engine import selfplay
from games.models import RecordSource
from players.models import Player
from players.roles import ORGANISERS_GROUP
from tournaments import services
from tournaments.demo import NAMES, PASSWORD
from tournaments.models import Championship, Match, MatchStatus


class Command(BaseCommand):
    help = "Create demo users, players, games and a championship (does nothing if present)."

    def handle(self, *args, **options):
        User = get_user_model()
        if User.objects.filter(username="organiser").exists():
            self.stdout.write("demo data already present")
            return
        with transaction.atomic():
            admin = User.objects.create_superuser("admin", "admin@example.org", PASSWORD)
            organiser = User.objects.create_user("organiser", "org@example.org", PASSWORD)
            organiser.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
            Player.objects.create(display_name="Organiser", country="GB", user=organiser)
            players = []
            for name, country in NAMES:
                user = User.objects.create_user(
                    name.lower(), f"{name.lower()}@example.org", PASSWORD
                )
                players.append(Player.objects.create(display_name=name, country=country, user=user))
        for seed in range(12):
            record = selfplay(seed, "2")
            for seat, player in zip(
                record["players"], (players[seed % 16], players[(seed + 5) % 16]), strict=True
            ):
                seat["name"] = player.display_name
            game_services.record_submit(
                actor=admin, body=json.dumps(record).encode(), source=RecordSource.IMPORT
            )
        championship = services.championship_create(
            actor=organiser, name="Demo Open", year=2026, category="open", published=True
        )
        event = services.event_create(
            actor=organiser,
            championship=championship,
            name="Knockout",
            format="knockout",
            games_per_match=1,
            max_extra_games=2,
            extra_game_margin="0.1",
        )
        for player in players[:8]:
            services.entry_register(actor=organiser, event=event, player=player)
        services.draw_generate(actor=organiser, event=event, draw_seed=2026)
        for seed, match in enumerate(
            Match.objects.filter(event=event, round__number=1, status=MatchStatus.SCHEDULED)[:2]
        ):
            record = selfplay(100 + seed, "2")
            record["players"][0]["name"] = match.entry_a.player.display_name
            record["players"][1]["name"] = match.entry_b.player.display_name
            game_services.record_submit(
                actor=organiser, body=json.dumps(record).encode(), extensions={"match": match.pk}
            )
        _doubles_and_teams(organiser, championship, {p.display_name: p for p in players})
        self.stdout.write(
            f"demo data: {len(players)} players, games, and {Championship.objects.count()} "
            f"championships; log in as organiser / {PASSWORD} or admin / {PASSWORD}"
        )


def _doubles_and_teams(organiser, championship: Championship, by_name: dict) -> None:
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
    from tournaments.services.teams import match_lineup

    _board, player_a, player_b = match_lineup(final)[0]
    record = selfplay(300, "2")
    names = {p.pk: p.display_name for p in by_name.values()}
    record["players"][0]["name"], record["players"][1]["name"] = names[player_a], names[player_b]
    game_services.record_submit(
        actor=organiser, body=json.dumps(record).encode(), extensions={"match": final.pk}
    )
