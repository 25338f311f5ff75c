"""Bulk import of game record files through the same path as the API."""

from __future__ import annotations

import time
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games import services
from games.models import GameRecord, RecordSource, RecordStatus
from games.records.envelope import body_receive


class Command(BaseCommand):
    help = "Import game record files (JSON) or folders of them, then wait for their verdicts."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="Record files, or folders of *.json files")
        parser.add_argument(
            "--as",
            dest="username",
            default="",
            help="Submit as this user (default: the operator, no participant check)",
        )
        parser.add_argument(
            "--wait",
            type=float,
            default=300.0,
            help="Seconds to wait for verdicts (0: do not wait)",
        )

    def handle(self, *args, paths, username, wait, **options):
        files = self._files(paths)
        if not files:
            raise CommandError("No record files found in the given paths.")
        actor = None
        if username:
            actor = get_user_model().objects.filter(username=username).first()
            if actor is None:
                raise CommandError(f"No user is named {username!r}.")
        ids, refused = [], 0
        for path in tqdm(files, desc="submitting", unit="record", disable=options["verbosity"] < 1):
            with path.open("rb") as stream:
                body = body_receive(stream, declared_size=path.stat().st_size)
            submission = services.record_submit(
                actor=actor,
                body=body,
                source=RecordSource.IMPORT,
                check_participant=actor is not None,
            )
            ids.append(submission.record.pk)
            if not submission.accepted:
                refused += 1
                self.stderr.write(f"{path}: refused ({submission.record.error_message})")
        counts = self._wait_for_verdicts(ids, wait)
        self.stdout.write(
            f"{len(ids)} records: {counts.get('valid', 0)} valid, "
            f"{counts.get('invalid', 0)} invalid"
            f" ({refused} refused at submission), "
            f"{counts.get('pending', 0) + counts.get('processing', 0)} still pending"
        )

    def _files(self, paths: list[str]) -> list[Path]:
        files: list[Path] = []
        for raw in paths:
            path = Path(raw)
            if path.is_dir():
                files.extend(sorted(path.rglob("*.json")))
            elif path.is_file():
                files.append(path)
            else:
                raise CommandError(f"{raw}: no such file or folder.")
        return files

    def _wait_for_verdicts(self, ids: list[int], wait: float) -> dict[str, int]:
        deadline = time.monotonic() + wait
        while True:
            counts: dict[str, int] = {}
            for status in GameRecord.objects.filter(pk__in=ids).values_list("status", flat=True):
                counts[status] = counts.get(status, 0) + 1
            open_ = counts.get(RecordStatus.PENDING, 0) + counts.get(RecordStatus.PROCESSING, 0)
            if not open_ or time.monotonic() >= deadline:
                return counts
            time.sleep(0.5)
