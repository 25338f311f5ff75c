"""`manage.py load_demo`: the living demo (see tournaments/demo.py); does nothing if present."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from tournaments.demo import CASUAL_GAMES, WORLD_ENTRANTS, load_demo


class Command(BaseCommand):
    help = (
        "Create the demo: about 160 players, casual and pairs games, a World Championship (groups "
        "into a 128 knockout, partly played), a junior championship and a Swiss open, every "
        "result from a self-played record through the real submission path."
    )

    def add_arguments(self, parser):
        parser.add_argument("--world-entrants", type=int, default=WORLD_ENTRANTS)
        parser.add_argument("--casual-games", type=int, default=CASUAL_GAMES)

    def handle(self, *args, **options):
        if options["world_entrants"] < 12 or options["casual_games"] < 0:
            raise CommandError("--world-entrants needs 12 or more; --casual-games 0 or more")
        started = time.monotonic()
        summary = load_demo(
            world_entrants=options["world_entrants"],
            casual_games=options["casual_games"],
            progress=lambda line: self.stdout.write(f"  {line}"),
        )
        if summary is None:
            self.stdout.write("The demo is already loaded.")
            return
        self.stdout.write(
            f"Demo loaded in {time.monotonic() - started:.0f} s: {summary.players} players, "
            f"{summary.games} games, championships: {', '.join(summary.championships)}."
        )
        self.stdout.write("Log in as: " + "; ".join(summary.logins))
