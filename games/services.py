"""Writes for game records: submission, the Game row of a valid record, and the stale-record
sweep. Claiming and judging records is `games/adjudication.py` (re-exported here).

Submission answers in domain terms: the stored record and, when the envelope is refused
(`games/envelope.py` checks it), a `Refusal` (a code, the messages per field, whether the actor
may not do this at all). Status codes and links are the API layer's choice (`games/http.py`).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from games import engine
from games.adjudication import (  # noqa: F401 - the app's write API
    _stale_before,
    record_adjudicate,
    record_claim,
    records_adjudicate_pending,
)
from games.envelope import ReceivedBody, Refusal, Refused, envelope_check
from games.models import Game, GameRecord, GameSeat, RecordSource, RecordStatus
from games.signals import game_adjudicated, games_adjudicated
from players.types import User
from tantrix_site.queueing import QueuedKey, publish, publish_once

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


def enqueue_adjudication(record_id: int) -> bool:
    """See that an adjudication task will run for a newly stored record.

    One batch task (`games.tasks.adjudicate_pending`) is queued at a time: the submission
    publishes it only when it takes the "queued" key (`cache.add`, SET NX on Redis), and the
    task gives the key back before it claims anything, so a record stored before that is
    claimed by it, and one stored after publishes the next task. A busy site therefore queues a
    task per batch, not per record. A broker outage is logged, never raised: the record stays
    `pending` and the periodic sweep enqueues it once the broker is back.
    """
    return publish_once(adjudication_queued(), "games.tasks.adjudicate_pending", record_id)


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


# The "a batch task is queued" key: shared by every web and worker process (the "tasks" cache,
# settings). It expires by itself, so a queued task lost with the broker delays the next one at
# most this long (and the sweep covers the rest); a task that waits longer in the queue than
# this lets a second one be queued, which then finds nothing to claim.
ADJUDICATION_QUEUED_SECONDS = 30


def adjudication_queued() -> QueuedKey:
    return QueuedKey(
        cache="tasks", name="games:adjudication-queued", seconds=ADJUDICATION_QUEUED_SECONDS
    )


def adjudication_schedule_release() -> None:
    """Called by the batch task before it claims: records stored from now on queue a new task."""
    adjudication_queued().release()


def announce_games(games: list[tuple[int, int, dict]]) -> None:
    """`announce_game` for games whose results stood together: one signal for them all."""
    for receiver, result in games_adjudicated.send_robust(sender=Game, games=games):
        if isinstance(result, Exception):
            logger.error(
                "games_adjudicated receiver %r failed for games %s",
                receiver,
                [game_id for game_id, _r, _e in games],
                exc_info=result,
            )


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


def game_for_record(record: GameRecord, verdict: dict, document: dict) -> Game:
    """The Game row a valid record makes, unsaved; its seats wait in `unsaved_seats`."""
    seats = document["players"]
    colours = [seat["colour"] for seat in seats]
    is_pairs = len(seats) == 4 and colours[0] == colours[2] and colours[1] == colours[3]
    winner = verdict.get("winner")
    game = Game(
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
    game.unsaved_seats = [
        GameSeat(
            game=game,
            seat=index,
            player_id=player_id,
            colour=colours[index],
            score=verdict["scores"][index],
        )
        for index, player_id in enumerate(record.seat_players)
    ]
    return game


def game_from_record(record: GameRecord, verdict: dict, document: dict) -> Game:
    game = game_for_record(record, verdict, document)
    game.save(force_insert=True)
    GameSeat.objects.bulk_create(game.unsaved_seats)
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
        enqueue_record_adjudication(record_id)
    return ids
