"""Celery beat's scheduler for this project: a damaged schedule file never stops beat.

Why Celery's own file rather than a library's schedule in Redis or in the database:
docs/operations.md, "Beat"."""

from __future__ import annotations

from pathlib import Path

from celery.beat import PersistentScheduler


class SelfHealingScheduler(PersistentScheduler):
    """Celery's file-backed scheduler, but a truncated or corrupt file is removed and started
    afresh instead of failing at start ("pickle data was truncated"): all it holds is when each
    periodic task last ran, and every task here is safe to run again."""

    def _open_schedule(self):
        Path(self.schedule_filename).parent.mkdir(parents=True, exist_ok=True)
        return super()._open_schedule()

    def _create_schedule(self) -> None:
        try:
            self._store["entries"]
        except (KeyError, UnicodeDecodeError, TypeError):
            pass  # a new file: Celery creates the entries below
        except Exception as exc:  # noqa: BLE001 - any unreadable entry means a damaged file
            self._store = self._destroy_open_corrupted_schedule(exc)
        super()._create_schedule()
