"""Recompute rating tables from the whole game history; store what differs."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from ratings import services
from ratings.models import RatingSystem


class Command(BaseCommand):
    help = (
        "Replay each game-by-game table from its first game and store every step that differs "
        "as a new version (and the ratings that differ); replay the tournament Elo. Run after a "
        "new rating parameter-set version, or when check_consistency --recompute reports a "
        "difference."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--system",
            action="append",
            choices=RatingSystem.values,
            help="A table to recompute (repeatable; default: all of them)",
        )
        parser.add_argument(
            "--as",
            dest="username",
            default="",
            help="Record this admin as the actor in the audit trail (default: none)",
        )
        parser.add_argument("--chunk-size", type=int, default=20_000)

    def handle(self, *args, system, username, chunk_size, **options):
        actor = None
        if username:
            actor = get_user_model().objects.filter(username=username).first()
            if actor is None:
                raise CommandError(f"No user is named {username!r}.")
        try:
            result = services.ratings_recompute(
                systems=system,
                actor=actor,
                progress=options["verbosity"] >= 1,
                chunk_size=chunk_size,
            )
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        for name, summary in result.systems.items():
            self.stdout.write(
                f"{RatingSystem(name).label}: {summary.games:,} games, {summary.players:,} "
                f"players, {summary.corrected:,} corrected"
            )
        self.stdout.write(f"done in {result.seconds:.1f} s")
