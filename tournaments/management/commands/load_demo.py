"""`manage.py load_demo`: the living demo (see tournaments/demo/); does nothing if present.

Either way it ends with the demo's sign-ins, so every `make run` shows them last before the
server starts. While it loads, a progress bar (on a terminal) stands for the games, and the
per-game log lines of the in-process tasks are held back (warnings and errors still show).
"""

from __future__ import annotations

import logging
import sys
import time
from contextlib import contextmanager

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from tournaments.demo import (
    CASUAL_GAMES,
    PASSWORD,
    WORLD_ENTRANTS,
    demo_logins,
    expected_games,
    load_demo,
)


@contextmanager
def _quiet_info():
    """Hold back INFO lines (each game's "applied 1 game(s)"): the bar says how far it is."""
    logging.disable(logging.INFO)
    try:
        yield
    finally:
        logging.disable(logging.NOTSET)


class Command(BaseCommand):
    help = (
        "Create the demo: about 160 players, casual and pairs games, three Masters, a World "
        "Championship (groups into a 128 knockout, partly played), a junior championship and a "
        "Swiss open, every result from a self-played record through the real submission path; "
        "then print the demo's sign-ins (also when it is already loaded)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--world-entrants", type=int, default=WORLD_ENTRANTS)
        parser.add_argument("--casual-games", type=int, default=CASUAL_GAMES)
        parser.add_argument(
            "--url", default="", help="Where the site will be served, to print with the sign-ins."
        )

    def handle(self, *args, **options):
        if options["world_entrants"] < 12 or options["casual_games"] < 0:
            raise CommandError("--world-entrants needs 12 or more; --casual-games 0 or more")
        started = time.monotonic()
        # A bar only on a terminal: in a log or a pipe its redrawing would be noise.
        bar = tqdm(
            total=expected_games(options["world_entrants"], options["casual_games"]),
            desc="Loading the demo",
            unit=" games",
            file=sys.stderr,
            disable=not sys.stderr.isatty(),
            leave=False,
            dynamic_ncols=True,
        )
        with bar, _quiet_info():
            summary = load_demo(
                world_entrants=options["world_entrants"],
                casual_games=options["casual_games"],
                progress=lambda line: self._above(bar, f"  {line}"),
                on_game=lambda: bar.update(1),
            )
        if summary is None:
            self.stdout.write("The demo is already loaded.")
        else:
            self.stdout.write(
                f"Demo loaded in {time.monotonic() - started:.0f} s: {summary.players} players, "
                f"{summary.games} games, championships: {', '.join(summary.championships)}."
            )
        self._sign_ins(options["url"])

    def _above(self, bar: tqdm, line: str) -> None:
        """A line printed above the bar (the bar is cleared and drawn again under it)."""
        with bar.external_write_mode(file=sys.stderr):
            self.stdout.write(line)

    def _sign_ins(self, url: str) -> None:
        where = f"Open {url} and sign" if url else "Sign"
        self.stdout.write(
            self.style.SUCCESS(f"{where} in with any of these (password: {PASSWORD}):")
        )
        for username, role in demo_logins():
            self.stdout.write(f"  {username:<10}  {role}")
