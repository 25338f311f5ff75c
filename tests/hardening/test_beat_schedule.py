"""Regression: beat's schedule lives in the project's state folder and survives a damaged file."""

from __future__ import annotations

import dbm
import pickle
from pathlib import Path

import pytest
from django.conf import settings

from tantrix_site.beat import SelfHealingScheduler
from tantrix_site.celery import app
from tantrix_site.queueing import registered_task


def test_the_schedule_file_is_in_the_project_state_folder_not_tmp():
    assert app.conf.beat_schedule_filename == settings.CELERY_BEAT_SCHEDULE_FILENAME
    schedule = Path(settings.CELERY_BEAT_SCHEDULE_FILENAME)
    assert schedule.is_relative_to(Path(settings.BASE_DIR) / "var")
    assert app.conf.beat_scheduler == "tantrix_site.beat:SelfHealingScheduler"


def test_a_truncated_schedule_file_is_replaced_and_beat_starts(tmp_path: Path):
    filename = tmp_path / "state" / "celerybeat-schedule"
    filename.parent.mkdir()
    with dbm.open(str(filename), "c") as damaged:  # what two beats writing at once leave
        damaged[b"entries"] = pickle.dumps({"x": list(range(1000))})[:40]
    scheduler = SelfHealingScheduler(app=app, schedule_filename=str(filename), lazy=True)
    scheduler.setup_schedule()
    assert set(settings.CELERY_BEAT_SCHEDULE) <= set(scheduler.schedule)
    scheduler.close()


def test_the_state_folder_is_made_when_missing(tmp_path: Path):
    filename = tmp_path / "new" / "folder" / "celerybeat-schedule"
    scheduler = SelfHealingScheduler(app=app, schedule_filename=str(filename), lazy=True)
    scheduler.setup_schedule()
    scheduler.close()
    assert filename.parent.is_dir()


@pytest.mark.django_db
def test_a_beat_killed_after_sending_neither_repeats_nor_loses_a_send(tmp_path: Path):
    """Restarted, beat finds every send of the killed one on file (docs/operations.md, Beat)."""
    registered_task("games.tasks.sweep_stale_records")  # as `celery beat` imports the tasks
    filename = str(tmp_path / "celerybeat-schedule")
    killed = SelfHealingScheduler(app=app, schedule_filename=filename, lazy=True)
    killed.setup_schedule()
    sweep = "games-sweep-stale-records"
    for _ in range(2):  # two sends, a sweep period apart (eager: the sweep runs here)
        killed.apply_async(killed.schedule[sweep])
    sent = killed.schedule[sweep]
    assert sent.total_run_count == 2
    # Killed: what is not on file yet (the shelf's unwritten cache) is lost with the process.
    killed._store.cache.clear()
    killed._store.close()

    restarted = SelfHealingScheduler(app=app, schedule_filename=filename, lazy=True)
    restarted.setup_schedule()
    on_file = restarted.schedule[sweep]
    assert (on_file.total_run_count, on_file.last_run_at) == (2, sent.last_run_at)
    restarted.close()
