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
from tournaments.demo import NAMES, PASSWORD, doubles_and_team_cup
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
        doubles_and_team_cup(organiser, championship, {p.display_name: p for p in players})
        self.stdout.write(
            f"demo data: {len(players)} players, games, and {Championship.objects.count()} "
            f"championships; log in as organiser / {PASSWORD} or admin / {PASSWORD}"
        )
