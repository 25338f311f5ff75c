"""Claiming records for adjudication: one conditional UPDATE gives a record to one worker.

A record is claimed (pending → processing, a token, a time) by one conditional UPDATE, and its
verdict is written only under that token while it is still processing
(`games/adjudication/services.py`). A claim older than GAME_RECORD_STALE_SECONDS (its worker
died) may be taken over, by the sweep's one-record task; the late finisher's write then matches
nothing.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games.models import GameRecord, RecordStatus


def stale_before() -> dt.datetime:
    """Claims made before this time are stale (their worker died), and so are records pending
    since before it: the sweep enqueues them again."""
    return timezone.now() - dt.timedelta(seconds=settings.GAME_RECORD_STALE_SECONDS)


def _claimable() -> Q:
    return Q(status=RecordStatus.PENDING) | Q(
        status=RecordStatus.PROCESSING, claimed_at__lt=stale_before()
    )


def _claim_fields(token: uuid.UUID) -> dict[str, Any]:
    return {
        "status": RecordStatus.PROCESSING,
        "claim_token": token,
        "claimed_at": timezone.now(),
        "attempts": F("attempts") + 1,
    }


def record_claim(*, record_id: int) -> uuid.UUID | None:
    """Claim a record for adjudication with one conditional UPDATE; None if not claimable.

    A record is claimable while pending, or while processing under a claim older than the stale
    setting (its worker died). The token makes a late finisher's write a no-op.
    """
    token = uuid.uuid4()
    claimed = (
        GameRecord.objects.filter(pk=record_id).filter(_claimable()).update(**_claim_fields(token))
    )
    return token if claimed else None


def records_claim_pending(
    *, token: uuid.UUID, limit: int, orphans: bool = False
) -> list[GameRecord]:
    """Claim up to `limit` pending records, oldest first, skipping rows another worker is
    claiming right now; returns them with their submitters (and their players).

    With `orphans`, records still processing under this very token are claimed again: a task
    that is delivered again after its worker died uses its own id as the token
    (`games.tasks.adjudicate_pending`), so what it had claimed is taken over at once instead of
    after the stale window.
    """
    # Pending records only: taking over a dead worker's stale claim is the sweep's task
    # (`adjudicate_record`), so a batch never races the recovery the sweep reports on.
    claimable = Q(status=RecordStatus.PENDING)
    if orphans:
        claimable |= Q(status=RecordStatus.PROCESSING, claim_token=token)
    with transaction.atomic():
        ids = list(
            GameRecord.objects.filter(claimable)
            .order_by("pk")
            .select_for_update(skip_locked=True)
            .values_list("pk", flat=True)[:limit]
        )
        if not ids:
            return []
        GameRecord.objects.filter(pk__in=ids).update(**_claim_fields(token))
    return list(
        GameRecord.objects.filter(pk__in=ids, claim_token=token, status=RecordStatus.PROCESSING)
        .select_related("submitter__player")
        .order_by("pk")
    )
