"""Read an event exported by `export_event` (or the event page's JSON link) into this database.

The file is checked whole before anything is written (tournaments/services/imports): a refused
file is named problem by problem, each with its path in the file, the command exits with
status 1, and the database is as it was. What an import may do is in docs/organisers.md
("Exports and imports").
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from tournaments.services.imports import EventImportError, event_import

#: The largest file read: a whole world championship with every record is far smaller.
MAX_FILE_BYTES = 100 * 1024 * 1024


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _value in pairs]
    if len(set(keys)) != len(keys):
        repeated = sorted({key for key in keys if keys.count(key) > 1})
        raise ValueError(f"an object repeats the key(s) {', '.join(map(repr, repeated))}")
    return dict(pairs)


def read_export(raw: bytes) -> Any:
    """The file's JSON, or ValueError saying why it cannot be read."""
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(f"larger than {MAX_FILE_BYTES:,} bytes")
    try:
        return json.loads(
            raw.decode("utf-8"),
            parse_constant=_refuse_constant,
            object_pairs_hook=_no_repeated_keys,
        )
    except RecursionError:
        raise ValueError("nested too deeply to be an event export") from None


class Command(BaseCommand):
    help = (
        "Import an event from its JSON export: the championship (created if missing), players "
        "(matched by display name, else created), entries, rounds, matches, score sheets and "
        "games with their records. The whole file is checked first; nothing is written if any "
        "part is refused."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="The JSON file, or - for standard input")
        parser.add_argument(
            "--organiser",
            help="Import as this user: a new championship gets them as organiser; an existing "
            "one must already be theirs (an import never makes anyone its organiser)",
        )

    def handle(self, *args, **options):
        path = options["path"]
        where = "standard input" if path == "-" else path
        try:
            if path == "-":
                raw = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
            else:
                with Path(path).open("rb") as handle:
                    raw = handle.read(MAX_FILE_BYTES + 1)
            data = read_export(raw)
        except (OSError, ValueError) as exc:
            raise CommandError(f"Cannot read {where}: {exc}") from None
        actor = None
        if options["organiser"]:
            actor = get_user_model().objects.filter(username=options["organiser"]).first()
            if actor is None:
                raise CommandError(f"There is no user {options['organiser']}.")
        try:
            event = event_import(data=data, actor=actor)
        except EventImportError as exc:
            lines = [f"  {place}: {message}" for place, message in exc.problems]
            raise CommandError(
                f"{where} is refused, nothing was imported:\n" + "\n".join(lines)
            ) from None
        except ValidationError as exc:
            raise CommandError(
                "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())
            ) from None
        self.stdout.write(f"Imported {event} (event {event.pk}).")
