"""Write one event as JSON (entries, rounds, matches, score sheets, games with their records)."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Event
from tournaments.services.exports import event_export


class Command(BaseCommand):
    help = (
        "Export an event as JSON: its settings, players, entries, rounds, matches, score sheets "
        "and counted games with their records. `import_event` reads the file back."
    )

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int)
        parser.add_argument("--output", "-o", help="File to write (default: standard output)")

    def handle(self, *args, **options):
        event = Event.objects.select_related("championship").filter(pk=options["event_id"]).first()
        if event is None:
            raise CommandError(f"There is no event {options['event_id']}.")
        text = json.dumps(event_export(event), indent=1, ensure_ascii=False)
        if options["output"]:
            Path(options["output"]).write_text(text, encoding="utf-8")
            self.stdout.write(f"Wrote {event} to {options['output']}.")
        else:
            self.stdout.write(text)
