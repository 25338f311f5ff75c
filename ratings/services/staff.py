"""Staff tools: a recompute as a Celery task with readable progress, and an event's Elo now."""

from __future__ import annotations

from functools import partial

from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from players.types import User
from ratings.models import (
    RatingSystem,
    RecomputeRun,
)
from ratings.selectors import elo_event_state
from ratings.services.audit import acting_user
from ratings.services.elo import EloRecalculation, elo_event_recalculate
from ratings.services.recompute import ratings_recompute
from ratings.services.scheduling import SCHEDULE_CACHE
from tantrix_site.queueing import publish

# --- A recompute as a task ---------------------------------------------------------------------

PROGRESS_SECONDS = 24 * 3600


def _progress_key(run_id: int) -> str:
    return f"tantrix:ratings:recompute-progress:{run_id}"


def recompute_request(*, actor: User, systems: list[str] | None = None) -> RecomputeRun:
    """Queue a recompute of these tables (all of them by default) for the worker."""
    wanted = list(dict.fromkeys(systems or RatingSystem.values))
    unknown = [s for s in wanted if s not in RatingSystem.values]
    if unknown:
        raise ValidationError(
            {"systems": [_("Unknown table %(table)s.") % {"table": repr(s)} for s in unknown]}
        )
    run = RecomputeRun.objects.create(systems=wanted, requested_by=acting_user(actor))

    transaction.on_commit(partial(publish, "ratings.tasks.recompute_ratings", run.pk))
    return run


def recompute_run(*, run_id: int) -> RecomputeRun | None:
    """The task's work: claim the run (a redelivered message finds it claimed), recompute,
    record the outcome. Progress goes to the cache as each table advances."""
    claimed = RecomputeRun.objects.filter(pk=run_id, status=RecomputeRun.Status.QUEUED).update(
        status=RecomputeRun.Status.RUNNING, started_at=timezone.now()
    )
    if not claimed:
        return None
    run = RecomputeRun.objects.select_related("requested_by").get(pk=run_id)
    cache = caches[SCHEDULE_CACHE]

    def on_progress(system: str, events: int) -> None:
        progress = cache.get(_progress_key(run_id)) or {}
        progress[system] = events
        cache.set(_progress_key(run_id), progress, timeout=PROGRESS_SECONDS)

    try:
        result = ratings_recompute(
            systems=run.systems, actor=run.requested_by, on_progress=on_progress
        )
    except Exception as exc:  # noqa: BLE001 - recorded for staff to read, then re-raised
        run.status, run.error = RecomputeRun.Status.FAILED, str(exc)[:2000]
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "error", "finished_at"])
        raise
    run.status = RecomputeRun.Status.DONE
    run.finished_at = timezone.now()
    run.summary = {
        "seconds": round(result.seconds, 3),
        "systems": {
            s: {"events": r.games, "players": r.players, "corrected": r.corrected, "steps": r.steps}
            for s, r in result.systems.items()
        },
    }
    run.save(update_fields=["status", "finished_at", "summary"])
    return run


def recompute_progress(run: RecomputeRun) -> dict[str, int]:
    """Events replayed so far, per table (while running; the summary says it once done)."""
    return caches[SCHEDULE_CACHE].get(_progress_key(run.pk)) or {}


# --- An event's Elo now ------------------------------------------------------------------------


def event_elo_recalculate_now(*, actor: User, event_id: int) -> EloRecalculation:
    """Recalculate an event's tournament Elo at once (staff), rather than after the gathering
    delay or the hourly beat."""
    if elo_event_state(event_id) is None:
        raise ValidationError({"event": _("This event has no Elo-rated games.")})
    return elo_event_recalculate(event_id=event_id, actor=actor)
