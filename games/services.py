"""Writes for game records: submission, adjudication, and the stale-record sweep.

Submission answers in domain terms: the stored record and, when the envelope is refused, a
`Refusal` (a code, the messages per field, whether the actor may not do this at all). Status
codes and links are the API layer's choice (`games/http.py`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from games import engine
from games.engine import jsonio
from games.hooks import submission_extensions
from games.models import Game, GameRecord, GameSeat, RecordSource, RecordStatus
from games.signals import game_adjudicated
from players.models import Player
from players.roles import may_submit_any_game, player_of
from players.selectors import players_by_names

logger = logging.getLogger(__name__)

PLAYER_NAME_MAX_LENGTH = Player._meta.get_field("display_name").max_length

# Clocks disagree; a day covers every time zone mistake without letting a record jump ahead.
PLAYED_AT_FUTURE_TOLERANCE = dt.timedelta(days=1)


class RefusalCode(StrEnum):
    """Why a submission was refused before adjudication (stored as the record's error code)."""

    TOO_LARGE = "TOO_LARGE"
    MALFORMED = "MALFORMED"
    UNKNOWN_PLAYER = "UNKNOWN_PLAYER"
    DUPLICATE_PLAYER = "DUPLICATE_PLAYER"
    NOT_PARTICIPANT = "NOT_PARTICIPANT"
    UNKNOWN_FIELD = "UNKNOWN_FIELD"
    REJECTED = "REJECTED"


@dataclass(frozen=True)
class Refusal:
    """A submission refused before adjudication; its record is still stored, marked invalid.

    `errors` holds the messages per field (a record field, an extension such as `match`, or
    `detail`); `forbidden` says the actor may not submit this at all, as opposed to having sent
    a record that cannot be accepted.
    """

    code: RefusalCode | str
    errors: dict[str, list[str]]
    forbidden: bool = False

    @property
    def message(self) -> str:
        return "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in self.errors.items())


class _Refused(Exception):
    def __init__(self, code: RefusalCode, errors: dict[str, list[str]], *, forbidden=False):
        super().__init__(code)
        self.refusal = Refusal(code, errors, forbidden)


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

    # The first answer stored with the record, for callers written before the service stopped
    # choosing it; new code reads `accepted` and `refusal`, and the API builds the answer
    # (games/http.py).
    @property
    def status_code(self) -> int | None:
        return self.record.response_status

    @property
    def body(self) -> dict | None:
        return self.record.response_body


# How a submitter is first answered is the API layer's choice (`games.http.submission_answer`,
# wired in GamesConfig.ready). The service stores that answer with the record in the same
# transaction, so a repeated Idempotency-Key finds exactly the first answer, whoever called.
FirstAnswer = Callable[[Submission], tuple[int, dict]]
_first_answer: FirstAnswer | None = None


def first_answer_register(answer: FirstAnswer) -> None:
    global _first_answer
    _first_answer = answer


@dataclass(frozen=True)
class ReceivedBody:
    """What a client sent: the whole body, or only the first bytes of one too large to keep.

    `size` and `sha256` describe everything that arrived; `sha256` is empty when the body was
    too large to be read at all (over REQUEST_MAX_BYTES).
    """

    head: bytes
    size: int
    sha256: str

    @classmethod
    def of(cls, data: bytes) -> ReceivedBody:
        return cls(head=data, size=len(data), sha256=hashlib.sha256(data).hexdigest())

    @property
    def complete(self) -> bool:
        return len(self.head) == self.size


def body_receive(stream: Any, *, declared_size: int | None = None) -> ReceivedBody:
    """Read a submitted body from a file-like object without ever holding more than the limit.

    Keeps the first GAME_RECORD_MAX_BYTES, measures and hashes the rest in chunks, and does not
    read at all past REQUEST_MAX_BYTES (the declared size is then taken as the size).
    """
    limit = settings.GAME_RECORD_MAX_BYTES
    ceiling = settings.REQUEST_MAX_BYTES
    if declared_size is not None and declared_size > ceiling:
        return ReceivedBody(head=stream.read(limit) or b"", size=declared_size, sha256="")
    digest = hashlib.sha256()
    head = bytearray()
    size = 0
    while True:
        chunk = stream.read(64 * 1024)
        if not chunk:
            break
        size += len(chunk)
        digest.update(chunk)
        if len(head) <= limit:
            head += chunk[: limit + 1 - len(head)]
        if size > ceiling:
            return ReceivedBody(head=bytes(head[:limit]), size=size, sha256="")
    if size > limit:
        head = head[:limit]
    return ReceivedBody(head=bytes(head), size=size, sha256=digest.hexdigest())


def _parse_envelope(received: ReceivedBody) -> dict:
    limit = settings.GAME_RECORD_MAX_BYTES
    if received.size > limit:
        raise _Refused(
            RefusalCode.TOO_LARGE,
            {
                "record": [
                    f"The record is {received.size:,} bytes; the limit is {limit:,} bytes. "
                    f"Only its first {limit:,} bytes are kept."
                ]
            },
        )
    if not received.head.strip():
        raise _Refused(RefusalCode.MALFORMED, {"record": ["The record is empty."]})
    try:
        # The engine's reader: a byte-order mark is tolerated, and every way of failing (not
        # UTF-8, not JSON, a number too long to read, a duplicate key) is a readable message.
        document = jsonio.load(received.head)
    except jsonio.JsonProblem as exc:
        message = str(exc)
        raise _Refused(
            RefusalCode.MALFORMED, {"record": [message[0].upper() + message[1:] + "."]}
        ) from None
    if not isinstance(document, dict):
        raise _Refused(RefusalCode.MALFORMED, {"record": ["A game record must be a JSON object."]})
    _check_played_at(document)
    return document


def _check_played_at(document: dict) -> None:
    """A game from the future would sit after every later game in the rating order."""
    try:
        played_at = engine.parse_played_at(document["played_at"])
    except (KeyError, engine.MalformedRecord):
        return  # absent, or the engine will name exactly what is wrong with it
    latest = timezone.now() + PLAYED_AT_FUTURE_TOLERANCE
    if played_at > latest:
        raise _Refused(
            RefusalCode.MALFORMED,
            {"played_at": ["The game cannot have been played in the future."]},
        )


def _seat_names(document: dict) -> list[str] | None:
    """The seated players' names, or None when the record is too malformed to say.

    A record whose players cannot be read still goes to the engine, which names exactly what is
    wrong with it (MALFORMED with the field); the envelope only resolves what it can read.
    """
    players = document.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        return None
    names = []
    for seat in players:
        if not isinstance(seat, dict) or not isinstance(seat.get("name"), str):
            return None
        names.append(seat["name"].strip())
    return names


def _may_be_player_name(name: str) -> bool:
    """Whether a name could be a display name at all; the others never reach the database.

    A lone surrogate or a NUL cannot be stored or even compared by PostgreSQL, and a name longer
    than a display name can be matches nobody.
    """
    if not 0 < len(name) <= PLAYER_NAME_MAX_LENGTH or "\x00" in name:
        return False
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _resolve_players(actor: Any, names: list[str] | None, *, check_participant: bool) -> list:
    if names is None:
        if check_participant and not may_submit_any_game(actor):
            raise _Refused(
                RefusalCode.MALFORMED,
                {"players": ["Expected a list of 2 to 4 seats, each with a player 'name'."]},
            )
        return []
    found = players_by_names([name for name in names if _may_be_player_name(name)])
    unknown = [name for name in names if name.lower() not in found]
    if unknown:
        raise _Refused(
            RefusalCode.UNKNOWN_PLAYER,
            {
                "players": [
                    f"No registered player is named {jsonio.describe(name)}: names must match a "
                    "player's display name (case does not matter)."
                    for name in unknown
                ]
            },
        )
    seated = [found[name.lower()] for name in names]
    if len({p.pk for p in seated}) != len(seated):
        raise _Refused(
            RefusalCode.DUPLICATE_PLAYER, {"players": ["The same player cannot take two seats."]}
        )
    return seated


def _check_participant(actor: Any, seated: list, *, vouched: bool) -> None:
    if vouched or may_submit_any_game(actor):
        return
    own = player_of(actor)
    if own is None or own.pk not in {p.pk for p in seated}:
        raise _Refused(
            RefusalCode.NOT_PARTICIPANT,
            {"detail": ["You may submit only games you played in."]},
            forbidden=True,
        )


def _validate_extensions(
    actor: Any, values: dict[str, Any], seated: list
) -> tuple[dict[str, Any], bool]:
    """What to store of the extension fields, and whether one of them vouched for the actor."""
    known = submission_extensions()
    stored: dict[str, Any] = {}
    vouched = False
    for name, value in values.items():
        if value in (None, ""):
            continue
        extension = known.get(name)
        if extension is None:
            raise _Refused(RefusalCode.UNKNOWN_FIELD, {name: ["This field is not accepted."]})
        try:
            stored[name] = extension.validate(actor=actor, value=value, seat_players=seated)
        except ValidationError as exc:
            raise _Refused(RefusalCode.REJECTED, {name: exc.messages}) from None
        except PermissionDenied as exc:
            raise _Refused(
                RefusalCode.REJECTED, {name: [str(exc) or "Not allowed."]}, forbidden=True
            ) from None
        vouched = vouched or extension.vouches_for_submitter
    return stored, vouched


def _existing_submission(actor: Any, idempotency_key: str) -> Submission | None:
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
    actor: Any,
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
        document = _parse_envelope(received)
        names = _seat_names(document)
        seated = _resolve_players(actor, names, check_participant=check_participant)
        seat_player_ids = [p.pk for p in seated]
        stored_extensions, vouched = _validate_extensions(actor, extensions or {}, seated)
        if check_participant and names is not None:
            _check_participant(actor, seated, vouched=vouched)
    except _Refused as exc:
        refusal = exc.refusal

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
        )
        if not written:
            return "superseded"
        if not valid:
            return "invalid"
        game = _game_create(record, verdict, document)
        game_id, extensions = game.pk, dict(record.extensions or {})
        transaction.on_commit(lambda: _announce(game_id, record_id, extensions))
    return "valid"


def _announce(game_id: int, record_id: int, extensions: dict) -> None:
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


def _game_create(record: GameRecord, verdict: dict, document: dict) -> Game:
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
