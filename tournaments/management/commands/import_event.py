"""Read an event exported by `export_event` (or the event page's JSON link) into this database."""

from __future__ import annotations

import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import IntegrityError

from tournaments.services.exports import event_import


class Command(BaseCommand):
    help = (
        "Import an event from its JSON export: the championship (created if missing), players "
        "(matched by display name, else created), entries, rounds, matches, score sheets and "
        "games with their records. Nothing is written if any part is refused."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="The JSON file, or - for standard input")
        parser.add_argument(
            "--organiser", help="Username to make an organiser of the imported championship"
        )

    def handle(self, *args, **options):
        path = options["path"]
        try:
            text = self.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
            data = json.loads(text)
        except (OSError, ValueError) as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from None
        actor = None
        if options["organiser"]:
            actor = get_user_model().objects.filter(username=options["organiser"]).first()
            if actor is None:
                raise CommandError(f"There is no user {options['organiser']}.")
        try:
            event = event_import(data=data, actor=actor)
        except ValidationError as exc:
            raise CommandError(
                "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())
            ) from None
        except IntegrityError as exc:
            # e.g. a game whose report (by its fingerprint) this database already holds
            raise CommandError(f"The event clashes with what this database holds: {exc}") from None
        except (KeyError, TypeError) as exc:
            message = f"The file is not a complete event export (missing {exc})."
            raise CommandError(message) from None
        self.stdout.write(f"Imported {event} (event {event.pk}).")
