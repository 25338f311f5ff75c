"""What a submission sent, and whether its envelope can be accepted before adjudication.

Reads a submitted body within bounds (`body_receive`) and checks the envelope: size, strict JSON
(the engine's reader), a plausible `played_at`, the seated players, the extension fields, and
that the actor may submit the game. A refusal is raised as `Refused`, carrying the domain
result (`games/records/refusals.py`); the API layer picks the status code. Reads only:
`games.records.services.record_submit` stores the record, refused or not.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import engine
from games.engine import jsonio
from games.records.extensions import validate_extensions
from games.records.refusals import (
    EMPTY_TEXT,
    FUTURE_TEXT,
    NO_SEATS_TEXT,
    NOT_OBJECT_TEXT,
    NOT_PARTICIPANT_TEXT,
    SAME_PLAYER_TEXT,
    TOO_LARGE_TEXT,
    TOO_OLD_TEXT,
    UNKNOWN_PLAYER_TEXT,
    RefusalCode,
    Refused,
    refusal_message,
)
from players.models import Player
from players.roles import is_controller_anywhere, is_organiser, may_submit_any_game, player_of
from players.selectors import players_by_names
from players.types import User

PLAYER_NAME_MAX_LENGTH = Player._meta.get_field("display_name").max_length

# Clocks disagree; a day covers every time zone mistake without letting a record jump ahead.
PLAYED_AT_FUTURE_TOLERANCE = dt.timedelta(days=1)


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
        raise Refused(
            RefusalCode.TOO_LARGE,
            {
                "record": [
                    refusal_message(
                        TOO_LARGE_TEXT,
                        size=f"{received.size:,}",
                        limit=f"{limit:,}",
                    )
                ]
            },
        )
    if not received.head.strip():
        raise Refused(RefusalCode.MALFORMED, {"record": [_(EMPTY_TEXT)]})
    try:
        # The engine's reader: a byte-order mark is tolerated, and every way of failing (not
        # UTF-8, not JSON, a number too long to read, a duplicate key) is a readable message.
        document = jsonio.load(received.head)
    except jsonio.JsonProblem as exc:
        message = str(exc)
        raise Refused(
            RefusalCode.MALFORMED, {"record": [message[0].upper() + message[1:] + "."]}
        ) from None
    if not isinstance(document, dict):
        raise Refused(RefusalCode.MALFORMED, {"record": [_(NOT_OBJECT_TEXT)]})
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
        raise Refused(
            RefusalCode.MALFORMED,
            {"played_at": [_(FUTURE_TEXT)]},
        )


def _check_played_at_age(document: dict, actor: User, *, vouched: bool) -> None:
    """An old game is inserted in its place in the ratings and replays every later game of the
    table, so a player may not enter one older than GAME_RECORD_MAX_AGE_DAYS; an organiser or
    controller entering it for their event (vouched for by `match`) may."""
    try:
        played_at = engine.parse_played_at(document["played_at"])
    except (KeyError, engine.MalformedRecord):
        return
    days = settings.GAME_RECORD_MAX_AGE_DAYS
    if played_at >= timezone.now() - dt.timedelta(days=days):
        return
    if vouched and (is_organiser(actor) or is_controller_anywhere(actor)):
        return
    raise Refused(
        RefusalCode.MALFORMED,
        {
            "played_at": [
                refusal_message(
                    TOO_OLD_TEXT,
                    days=days,
                )
            ]
        },
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


def _resolve_players(actor: User, names: list[str] | None, *, check_participant: bool) -> list:
    if names is None:
        if check_participant and not may_submit_any_game(actor):
            raise Refused(
                RefusalCode.MALFORMED,
                {"players": [_(NO_SEATS_TEXT)]},
            )
        return []
    found = players_by_names([name for name in names if _may_be_player_name(name)])
    unknown = [name for name in names if name.lower() not in found]
    if unknown:
        raise Refused(
            RefusalCode.UNKNOWN_PLAYER,
            {
                "players": [
                    refusal_message(
                        UNKNOWN_PLAYER_TEXT,
                        name=jsonio.describe(name),
                    )
                    for name in unknown
                ]
            },
        )
    seated = [found[name.lower()] for name in names]
    if len({p.pk for p in seated}) != len(seated):
        raise Refused(RefusalCode.DUPLICATE_PLAYER, {"players": [_(SAME_PLAYER_TEXT)]})
    return seated


def _check_participant(actor: User, seated: list, *, vouched: bool) -> None:
    if vouched or may_submit_any_game(actor):
        return
    own = player_of(actor)
    if own is None or own.pk not in {p.pk for p in seated}:
        raise Refused(
            RefusalCode.NOT_PARTICIPANT,
            {"detail": [_(NOT_PARTICIPANT_TEXT)]},
            forbidden=True,
        )


@dataclass(frozen=True)
class Envelope:
    """What an accepted envelope resolved: the seated players' ids and the extensions to store."""

    seat_player_ids: list[int]
    extensions: dict[str, Any]


def envelope_check(
    *,
    actor: User,
    received: ReceivedBody,
    extensions: dict[str, Any],
    check_participant: bool,
) -> Envelope:
    """Check a submission's envelope; raise `Refused` with the reason when it cannot be taken."""
    document = _parse_envelope(received)
    names = _seat_names(document)
    seated = _resolve_players(actor, names, check_participant=check_participant)
    try:
        stored, vouched = validate_extensions(actor, extensions, seated)
        if check_participant and names is not None:
            _check_participant(actor, seated, vouched=vouched)
        _check_played_at_age(document, actor, vouched=vouched)
    except Refused as exc:
        exc.seat_player_ids = [p.pk for p in seated]
        raise
    return Envelope([p.pk for p in seated], stored)
