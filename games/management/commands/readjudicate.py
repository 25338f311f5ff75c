"""`manage.py readjudicate`: judge stored records again with the current engine.

Reports every record whose verdict would change; with --apply opens a review for each instead
of rewriting history (staff approve or reject them on /games/verdict-reviews/). Resumable: run
it again with the same options and it goes on from its checkpoint (see
games.verdict_reviews.readjudication).
"""

from __future__ import annotations

import datetime as dt
import time

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games import engine
from games.models import Game
from games.verdict_reviews.readjudication import (
    Found,
    change_summary,
    describe,
    readjudicate,
    remaining,
    run_for,
)


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--since: expected a date as YYYY-MM-DD, got {text!r}") from None


class Command(BaseCommand):
    help = "Re-judge stored game records with the current engine and report changed verdicts."

    def add_arguments(self, parser):
        parser.add_argument("--since", help="Only records submitted on or after this date")
        parser.add_argument("--event", type=int, help="Only the games of this event (its id)")
        parser.add_argument("--workers", type=int, default=2, help="Engine processes (default 2)")
        parser.add_argument(
            "--apply", action="store_true", help="Open a review for each changed verdict"
        )
        parser.add_argument(
            "--fresh", action="store_true", help="Start over instead of resuming a stopped run"
        )
        parser.add_argument("--limit", type=int, help="Stop after this many records (resumable)")
        parser.add_argument("--no-progress", action="store_true", help="No progress bar")

    def handle(self, *args, **options):
        since = _date(options["since"]) if options["since"] else None
        workers = options["workers"]
        if workers < 1:
            raise CommandError("--workers: at least 1")
        limit = options["limit"]
        if limit is not None and limit < 1:
            raise CommandError("--limit: at least 1")
        event_id = options["event"]
        if event_id is not None and not Game.objects.filter(event_id=event_id).exists():
            # Checked before a run is recorded: a mistyped id should not leave a run behind.
            raise CommandError(
                f"--event: no stored game belongs to event {event_id} (the id is the number in "
                "the event's address)"
            )
        run = run_for(
            since=since, event_id=event_id, apply=options["apply"], fresh=options["fresh"]
        )
        left = remaining(run)
        verb = "Resuming" if run.checked else "Starting"
        self.stdout.write(
            f"{verb} re-adjudication {run.pk} with engine {engine.FULL_ENGINE_VERSION}: "
            f"{left} records to judge ({run.checked} already judged), {workers} processes"
            + (", opening reviews" if run.apply else ", report only")
        )
        total = left if limit is None else min(left, limit)
        bar = tqdm(total=total, unit="records", disable=options["no_progress"], file=self.stderr)

        def found(change: Found) -> None:
            # Written between redraws of the bar, by the command's own output (which ends the
            # line: tqdm.write's separate ``end`` came out as an empty line of its own).
            with bar.external_write_mode(file=self.stdout):
                self.stdout.write(
                    f"record {change.record_id}: {change_summary(change.kinds)}: "
                    f"{describe(change.old)} -> {describe(change.new)}"
                )

        judged = 0

        def progress(count: int) -> None:
            # Counted here, not read from the bar: a disabled bar (--no-progress) counts nothing.
            nonlocal judged
            judged += count
            bar.update(count)

        started = time.monotonic()
        try:
            run = readjudicate(
                run, workers=workers, limit=limit, on_found=found, on_progress=progress
            )
        except KeyboardInterrupt:
            bar.close()
            run.refresh_from_db()
            self.stdout.write(
                f"Interrupted after record {run.last_record_id}; run the same command to resume."
            )
            return
        bar.close()
        elapsed = max(time.monotonic() - started, 1e-9)
        self.stdout.write(
            f"Judged {run.checked} records ({judged / elapsed:.0f} records/s this time); "
            f"{run.changed} verdicts would change"
            + (" (reviews opened)" if run.apply else "")
            + ("." if run.status == run.Status.FINISHED else "; stopped early, resumable.")
        )
