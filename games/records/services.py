"""Writes of game records: a submission stored as sent, refused or queued for adjudication.

Submission answers in domain terms: the stored record and, when the envelope is refused
(`games/records/envelope.py` checks it), a `Refusal` (a code, the messages per field, whether the
actor may not do this at all). Status codes and links are the API layer's choice
(`games/records/http.py`); a repeated `Idempotency-Key` is answered by the idempotency middleware
(`tantrix_site/idempotency/`), which keeps the first answer, not by the record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import GameRecord, RecordSource, RecordStatus
from games.records.envelope import ReceivedBody, envelope_check
from games.records.queueing import enqueue_adjudication
from games.records.refusals import Refusal, Refused
from players.types import User


@dataclass(frozen=True)
class Submission:
    """What a submission produced: the stored record and, if it was refused, why."""

    record: GameRecord
    refusal: Refusal | None

    @property
    def accepted(self) -> bool:
        return self.refusal is None


def record_submit(
    *,
    actor: User,
    body: bytes | ReceivedBody,
    source: str = RecordSource.API,
    extensions: dict[str, Any] | None = None,
    check_participant: bool = True,
) -> Submission:
    """Store a submitted record as sent, check its envelope, and queue it for adjudication.

    The raw body is stored even when the envelope is refused (not JSON, too large, unknown
    player, not a participant): the record is then `invalid` with the reason and no task runs,
    and the submission carries the `Refusal`. A body over the size limit is kept in part: its
    first GAME_RECORD_MAX_BYTES, size and hash.
    """
    received = body if isinstance(body, ReceivedBody) else ReceivedBody.of(body)
    seat_player_ids: list[int] = []
    stored_extensions: dict[str, Any] = {}
    refusal: Refusal | None = None
    try:
        envelope = envelope_check(
            actor=actor,
            received=received,
            extensions=extensions or {},
            check_participant=check_participant,
        )
        seat_player_ids, stored_extensions = envelope.seat_player_ids, envelope.extensions
    except Refused as exc:
        refusal, seat_player_ids = exc.refusal, exc.seat_player_ids

    record = GameRecord(
        body=received.head,
        body_size=received.size,
        body_sha256=received.sha256,
        submitter=actor if getattr(actor, "is_authenticated", False) else None,
        source=source,
        seat_players=seat_player_ids,
        extensions=stored_extensions,
    )
    if refusal is not None:
        record.status = RecordStatus.INVALID
        record.error_code = refusal.code
        record.error_message = refusal.message
        record.verdict = {
            "valid": False,
            "error": {
                "code": refusal.code,
                "placement": None,
                "player": None,
                "message": refusal.message,
            },
        }
        record.adjudicated_at = timezone.now()
    # One INSERT, its id returned by it: no transaction of its own, no second write.
    record.save(force_insert=True)
    if refusal is None:
        record_id = record.pk
        # At once in autocommit; after the caller's commit inside a transaction.
        transaction.on_commit(lambda: enqueue_adjudication(record_id))
    return Submission(record, refusal)
