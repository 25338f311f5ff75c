"""The sweep: records left pending or processing longer than the stale window are queued again,
one task per record (`games.tasks.adjudicate_record`), published by name through
`tantrix_site.queueing` (nothing here imports `games.tasks`, which imports this module)."""

from __future__ import annotations

import logging

from django.db.models import Q

from games.adjudication.claims import stale_before
from games.models import GameRecord, RecordStatus
from tantrix_site.queueing import publish

logger = logging.getLogger(__name__)


def enqueue_record_adjudication(record_id: int) -> bool:
    """Publish the one-record task (the sweep's): it waits out a fresh claim, then takes over."""
    try:
        publish("games.tasks.adjudicate_record", record_id)
    except Exception:  # noqa: BLE001 - kombu raises many kinds; all mean "not published"
        logger.warning(
            "could not enqueue adjudication of record %s; the sweep will", record_id, exc_info=True
        )
        return False
    return True


def records_sweep_stale(*, limit: int = 1000) -> list[int]:
    """Re-enqueue records left pending or processing longer than the stale setting."""
    stale = stale_before()
    ids = list(
        GameRecord.objects.filter(
            Q(status=RecordStatus.PENDING, created__lt=stale)
            | Q(status=RecordStatus.PROCESSING, claimed_at__lt=stale)
        )
        .order_by("created")
        .values_list("pk", flat=True)[:limit]
    )
    for record_id in ids:
        enqueue_record_adjudication(record_id)
    return ids
