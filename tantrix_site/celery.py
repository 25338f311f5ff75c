"""The Celery app: autodiscovers each app's tasks.py; beat schedules are declared here, in code."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tantrix_site.settings")

app = Celery("tantrix_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

app.conf.beat_schedule = {
    # Covers a broker outage at submission time and a worker killed mid-task.
    "games-sweep-stale-records": {
        "task": "games.tasks.sweep_stale_records",
        "schedule": 60.0,
    },
}
