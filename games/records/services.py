"""Writes of game records: a submission stored as sent, refused or queued for adjudication.

Submission answers in domain terms: the stored record and, when the envelope is refused
(`games/records/envelope.py` checks it), a `Refusal` (a code, the messages per field, whether the
actor may not do this at all). Status codes and links are the API layer's choice
(`games/records/http.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games.models import GameRecord, RecordSource, RecordStatus
from games.records.envelope import ReceivedBody, envelope_check
from games.records.queueing import enqueue_adjudication
from games.records.refusals import Refusal, Refused
from players.types import User


@dataclass(frozen=True)
class Submission:
    """What a submission produced: the stored record and, if it was refused, why.

    `created` is False for a repeated Idempotency-Key: the record is then the first
    submission's, and its refusal (if any) carries only the code; the first answer, field
    messages included, is stored on the record (`response_status`, `response_body`).
    """

    record: GameRecord
    refusal: Refusal | None
    created: bool

    @property
    def accepted(self) -> bool:
        return self.refusal is None


# How a submitter is first answered is the API layer's choice (`records.http.submission_answer`,
# wired in GamesConfig.ready). The service stores that answer with the record in the same
# transaction, so a repeated Idempotency-Key finds exactly the first answer, whoever called.
FirstAnswer = Callable[[Submission], tuple[int, dict]]
_first_answer: FirstAnswer | None = None


def first_answer_register(answer: FirstAnswer) -> None:
    global _first_answer
    _first_answer = answer


def _existing_submission(actor: User, idempotency_key: str) -> Submission | None:
    if not (idempotency_key and actor is not None):
        return None
    record = GameRecord.objects.filter(submitter=actor, idempotency_key=idempotency_key).first()
    if record is None:
        return None
    # Only a record refused at submission is final without a claim.
    refused = record.status == RecordStatus.INVALID and record.attempts == 0
    return Submission(record, Refusal(record.error_code, {}) if refused else None, False)


def record_submit(
    *,
    actor: User,
    body: bytes | ReceivedBody,
    source: str = RecordSource.API,
    idempotency_key: str = "",
    extensions: dict[str, Any] | None = None,
    check_participant: bool = True,
) -> Submission:
    """Store a submitted record as sent, check its envelope, and queue it for adjudication.

    The raw body is stored even when the envelope is refused (not JSON, too large, unknown
    player, not a participant): the record is then `invalid` with the reason and no task runs,
    and the submission carries the `Refusal`. A body over the size limit is kept in part: its
    first GAME_RECORD_MAX_BYTES, size and hash. The first answer (see `first_answer_register`)
    is stored with the record, in its transaction.
    """
    received = body if isinstance(body, ReceivedBody) else ReceivedBody.of(body)
    # Printable characters only: the key is stored and compared as text.
    idempotency_key = "".join(ch for ch in (idempotency_key or "") if ch.isprintable())
    idempotency_key = idempotency_key.strip()[:128]
    previous = _existing_submission(actor, idempotency_key)
    if previous is not None:
        return previous

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
        idempotency_key=idempotency_key,
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
    submission = Submission(record, refusal, True)
    try:
        record.pk = _next_record_id()
        if record.pk is not None:
            # The id is taken first, so the record and its first answer (which names the id)
            # are one INSERT: no transaction of its own, no second write. Inside a caller's
            # transaction a savepoint keeps a repeated key's IntegrityError from breaking it.
            _store_first_answer(submission)
            with transaction.atomic() if connection.in_atomic_block else nullcontext():
                record.save(force_insert=True)
        else:
            with transaction.atomic():
                record.save()
                _store_first_answer(submission)
                record.save(update_fields=["response_status", "response_body"])
    except IntegrityError:
        # Two requests with one Idempotency-Key raced: the first one stored wins.
        previous = _existing_submission(actor, idempotency_key)
        if previous is None:
            raise
        return previous
    if refusal is None:
        record_id = record.pk
        # At once in autocommit; after the caller's commit inside a transaction.
        transaction.on_commit(lambda: enqueue_adjudication(record_id))
    return submission


def _store_first_answer(submission: Submission) -> None:
    if _first_answer is not None:
        record = submission.record
        record.response_status, record.response_body = _first_answer(submission)


def _next_record_id() -> int | None:
    """A record id from its sequence (PostgreSQL), or None where the database assigns it on
    insert (SQLite, the zero-setup `make run`)."""
    if connection.vendor != "postgresql":
        return None
    table = GameRecord._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id'))", [table])
        return cursor.fetchone()[0]
