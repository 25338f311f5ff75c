from __future__ import annotations

from celery import shared_task
from django.conf import settings

from games import services


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=20,
    name="games.tasks.adjudicate_record",
)
def adjudicate_record(self, record_id: int) -> str:
    """Adjudicate one record.

    Late acknowledgement plus rejection on worker loss means a killed worker's message is
    delivered again; the conditional claim in the service makes that (and any duplicate) a
    no-op once the work is done. When another worker holds a fresh claim we retry after the
    stale window, so a claim orphaned by a killed worker is taken over without waiting for beat.
    """
    outcome = services.record_adjudicate(record_id=record_id)
    if outcome == "busy" and not self.request.is_eager:
        raise self.retry(countdown=settings.GAME_RECORD_STALE_SECONDS + 1)
    return outcome


@shared_task(name="games.tasks.sweep_stale_records", acks_late=True)
def sweep_stale_records() -> int:
    """Beat task: re-enqueue stale records. Safe to run twice: adjudication is idempotent."""
    return len(services.records_sweep_stale())


@shared_task(name="games.tasks.confirm_overdue_reports", acks_late=True)
def confirm_overdue_reports() -> int:
    """Beat task: reports nobody answered in time stand. Safe to run twice: each version is
    settled under its game's row lock and only while it is still open."""
    from games.reports import reports_confirm_overdue

    return len(reports_confirm_overdue())
