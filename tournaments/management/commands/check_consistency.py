"""Check the system's invariants on this database and report every breach. Reads only."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.consistency import system_check


class Command(BaseCommand):
    requires_system_checks = []  # a read of the data; the checks of the code are not needed
    help = (
        "Check the invariants of games, ratings and tournaments on this database (one read-only "
        "snapshot) and report each breach on a line of its own, naming the objects' ids. Exit "
        "status 1 when there is any breach, 0 otherwise."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--json", action="store_true", help="Print the report as one JSON document"
        )
        parser.add_argument(
            "--recompute",
            action="store_true",
            help="Also compare the lobby, monthly, Master and doubles ratings with a replay of "
            "the game history (a dry run of recompute_ratings; the tournament Elo has no dry "
            "run and is not compared). Adjusted players differ by design.",
        )

    def handle(self, *args, **options):
        report = system_check(recompute=options["recompute"])
        if options["json"]:
            self.stdout.write(json.dumps(report.as_dict(), indent=2, default=str))
        else:
            for breach in report.breaches:
                self.stdout.write(str(breach))
            self.stdout.write(report.summary())
        if not report.consistent:
            raise CommandError(f"{len(report.breaches)} breach(es) of consistency", returncode=1)
