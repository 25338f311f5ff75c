"""Regression: beat's schedule lives in the project's state folder and survives a damaged file."""

from __future__ import annotations

import dbm
import pickle
from pathlib import Path

from django.conf import settings

from tantrix_site.beat import SelfHealingScheduler
from tantrix_site.celery import app


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
