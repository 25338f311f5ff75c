"""Writes for game records: submission, adjudication, and the stale-record sweep.

Submission answers in domain terms: the stored record and, when the envelope is refused
(`games/envelope.py` checks it), a `Refusal` (a code, the messages per field, whether the actor
may not do this at all). Status codes and links are the API layer's choice (`games/http.py`).
"""

from __future__ import annotations

import datetime as dt
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from games import engine
from games.engine import jsonio
from games.envelope import ReceivedBody, Refusal, Refused, envelope_check
from games.models import Game, GameRecord, GameSeat, RecordSource, RecordStatus
from games.reports import report_from_record
from games.signals import game_adjudicated
from players.types import User

logger = logging.getLogger(__name__)


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


# How a submitter is first answered is the API layer's choice (`games.http.submission_answer`,
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
        with transaction.atomic():
            record.save()
            if _first_answer is not None:
                # The answer names the record (its id and links), so it is written second.
                record.response_status, record.response_body = _first_answer(submission)
                record.save(update_fields=["response_status", "response_body"])
            if refusal is None:
                record_id = record.pk
                transaction.on_commit(lambda: enqueue_adjudication(record_id))
    except IntegrityError:
        # Two requests with one Idempotency-Key raced: the first one stored wins.
        previous = _existing_submission(actor, idempotency_key)
        if previous is None:
            raise
        return previous
    return submission


def enqueue_adjudication(record_id: int) -> bool:
    """Publish the adjudication task; a broker outage is logged, never raised.

    The record stays `pending` and the periodic sweep enqueues it again once the broker is back.
    """
    from games.tasks import adjudicate_record

    try:
        adjudicate_record.delay(record_id)
    except Exception:  # noqa: BLE001 - kombu raises many kinds; all mean "not published"
        logger.warning(
            "could not enqueue adjudication of record %s; the sweep will", record_id, exc_info=True
        )
        return False
    return True


def _stale_before() -> dt.datetime:
    return timezone.now() - dt.timedelta(seconds=settings.GAME_RECORD_STALE_SECONDS)


def record_claim(*, record_id: int) -> uuid.UUID | None:
    """Claim a record for adjudication with one conditional UPDATE; None if not claimable.

    A record is claimable while pending, or while processing under a claim older than the stale
    setting (its worker died). The token makes a late finisher's write a no-op.
    """
    token = uuid.uuid4()
    claimed = (
        GameRecord.objects.filter(pk=record_id)
        .filter(
            Q(status=RecordStatus.PENDING)
            | Q(status=RecordStatus.PROCESSING, claimed_at__lt=_stale_before())
        )
        .update(
            status=RecordStatus.PROCESSING,
            claim_token=token,
            claimed_at=timezone.now(),
            attempts=F("attempts") + 1,
        )
    )
    return token if claimed else None


def record_adjudicate(*, record_id: int) -> str:
    """Replay one record through the engine and store the verdict, exactly once.

    Returns what happened: "valid", "invalid", "done" (already final), "busy" (another worker
    holds a fresh claim), "missing", or "superseded" (our claim was taken over meanwhile).
    """
    token = record_claim(record_id=record_id)
    if token is None:
        status = GameRecord.objects.filter(pk=record_id).values_list("status", flat=True).first()
        if status is None:
            return "missing"
        return "busy" if status == RecordStatus.PROCESSING else "done"

    record = GameRecord.objects.get(pk=record_id)
    delay = getattr(settings, "GAME_ADJUDICATION_DELAY_SECONDS", 0)
    if delay:
        time.sleep(delay)  # fault-injection knob for the worker-kill tests; 0 in production
    # Parsed once, by the engine's reader: the verdict and the Game row read the same document.
    try:
        document = jsonio.load(record.body_bytes)
    except jsonio.JsonProblem:
        document = record.body_bytes  # the engine's verdict says what is wrong with it
    verdict = engine.adjudicate(document)
    valid = bool(verdict.get("valid"))
    error = verdict.get("error") or {}
    with transaction.atomic():
        written = GameRecord.objects.filter(
            pk=record_id, claim_token=token, status=RecordStatus.PROCESSING
        ).update(
            status=RecordStatus.VALID if valid else RecordStatus.INVALID,
            verdict=verdict,
            error_code=error.get("code", "") or "",
            error_placement=error.get("placement"),
            error_message=error.get("message", "") or "",
            adjudicated_at=timezone.now(),
            engine_version=engine.FULL_ENGINE_VERSION,
        )
        if not written:
            return "superseded"
        if not valid:
            return "invalid"
        # A version of its game's result: it stands now only if nobody else need agree.
        report_from_record(record=record, verdict=verdict, document=document)
    return "valid"


def announce_game(game_id: int, record_id: int, extensions: dict) -> None:
    for receiver, result in game_adjudicated.send_robust(
        sender=Game, game_id=game_id, record_id=record_id, extensions=extensions
    ):
        if isinstance(result, Exception):
            logger.error(
                "game_adjudicated receiver %r failed for game %s",
                receiver,
                game_id,
                exc_info=result,
            )


def _played_at(document: dict, fallback: dt.datetime) -> dt.datetime:
    """The record's own time (the engine accepted it, so it is in range), else its arrival."""
    if "played_at" not in document:
        return fallback
    return engine.parse_played_at(document["played_at"])


def game_from_record(record: GameRecord, verdict: dict, document: dict) -> Game:
    seats = document["players"]
    colours = [seat["colour"] for seat in seats]
    is_pairs = len(seats) == 4 and colours[0] == colours[2] and colours[1] == colours[3]
    winner = verdict.get("winner")
    game = Game.objects.create(
        record=record,
        players_count=len(seats),
        is_pairs=is_pairs,
        winner_seat=winner,
        is_draw=winner is None,
        end_reason=verdict["end"],
        placements=document["placements"],
        placements_count=verdict["placements"],
        turns=verdict["turns"],
        endgame_from=verdict.get("endgame_from"),
        clock=document.get("clock"),
        played_at=_played_at(document, record.created),
    )
    GameSeat.objects.bulk_create(
        GameSeat(
            game=game,
            seat=index,
            player_id=player_id,
            colour=colours[index],
            score=verdict["scores"][index],
        )
        for index, player_id in enumerate(record.seat_players)
    )
    return game


def records_sweep_stale(*, limit: int = 1000) -> list[int]:
    """Re-enqueue records left pending or processing longer than the stale setting."""
    stale = _stale_before()
    ids = list(
        GameRecord.objects.filter(
            Q(status=RecordStatus.PENDING, created__lt=stale)
            | Q(status=RecordStatus.PROCESSING, claimed_at__lt=stale)
        )
        .order_by("created")
        .values_list("pk", flat=True)[:limit]
    )
    for record_id in ids:
        enqueue_adjudication(record_id)
    return ids
