"""The Celery app: autodiscovers each app's tasks.py; beat schedules are declared here, in code."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tantrix_site.settings")

app = Celery("tantrix_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Beat schedules are declared in code, in tantrix_site/beat_schedule.py (read by settings as
# CELERY_BEAT_SCHEDULE); each interval comes from its own environment variable.
