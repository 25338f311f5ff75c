"""What a submission sent, and whether its envelope can be accepted before adjudication.

Reads a submitted body within bounds (`body_receive`) and checks the envelope: size, strict JSON
(the engine's reader), a plausible `played_at`, the seated players, the extension fields, and
that the actor may submit the game. A refusal is a domain result (`Refusal`: a code, the
messages per field, whether the actor is forbidden); the API layer picks the status code.
Reads only: `games.services.record_submit` stores the record, refused or not.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone, translation
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from games import engine
from games.engine import jsonio
from games.hooks import submission_extensions
from games.stored_texts import reader_number
from players.models import Player
from players.roles import is_controller_anywhere, is_organiser, may_submit_any_game, player_of
from players.selectors import players_by_names
from players.types import User

PLAYER_NAME_MAX_LENGTH = Player._meta.get_field("display_name").max_length

# Clocks disagree; a day covers every time zone mistake without letting a record jump ahead.
PLAYED_AT_FUTURE_TOLERANCE = dt.timedelta(days=1)

# The language of the refusal stored with a record: a stored text is never in the language of
# whoever happened to submit it (docs/translations.md); the answer itself is translated.
STORED_LANGUAGE = "en"

# A refusal's message: a lazily translated text, or one already translated (an extension's).
Message = str | Promise


# The refusals with a number or a name in them. Their English templates are kept here (not
# only in gettext_lazy calls) so a stored refusal can be read back in another language
# (games.verdicts.error_text).
TOO_LARGE_TEXT = gettext_noop(
    "The record is %(size)s bytes; the limit is %(limit)s bytes. "
    "Only its first %(limit)s bytes are kept."
)
TOO_OLD_TEXT = gettext_noop(
    "The game was played more than %(days)s days ago; only an organiser or "
    "controller may enter so old a game, for their event."
)
UNKNOWN_PLAYER_TEXT = gettext_noop(
    "No registered player is named %(name)s: names must match a "
    "player's display name (case does not matter)."
)
# The fixed ones, read back the same way.
EMPTY_TEXT = gettext_noop("The record is empty.")
NOT_OBJECT_TEXT = gettext_noop("A game record must be a JSON object.")
FUTURE_TEXT = gettext_noop("The game cannot have been played in the future.")
NO_SEATS_TEXT = gettext_noop("Expected a list of 2 to 4 seats, each with a player 'name'.")
SAME_PLAYER_TEXT = gettext_noop("The same player cannot take two seats.")
NOT_PARTICIPANT_TEXT = gettext_noop("You may submit only games you played in.")
NOT_ACCEPTED_TEXT = gettext_noop("This field is not accepted.")
NOT_ALLOWED_TEXT = gettext_noop("Not allowed.")
FIXED_TEXTS = (
    EMPTY_TEXT,
    NOT_OBJECT_TEXT,
    FUTURE_TEXT,
    NO_SEATS_TEXT,
    SAME_PLAYER_TEXT,
    NOT_PARTICIPANT_TEXT,
    NOT_ACCEPTED_TEXT,
    NOT_ALLOWED_TEXT,
)
STORED_TEXTS = (*FIXED_TEXTS, TOO_LARGE_TEXT, TOO_OLD_TEXT, UNKNOWN_PLAYER_TEXT)


def _message(template: str | Promise, **params: Any) -> Promise:
    """`template % params`, translated only when read: the same refusal answers the submitter
    in their language and is stored in English."""
    return lazy(
        lambda: gettext(str(template)) % {k: reader_number(v) for k, v in params.items()}, str
    )()


def _error_messages(exc: ValidationError) -> list[Message]:
    """An extension's messages, kept lazy when the extension marked them with gettext_lazy."""
    return [
        _message(error.message, **(error.params or {})) if error.params else error.message
        for error in exc.error_list
    ]


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
    errors: dict[str, list[Message]]
    forbidden: bool = False

    @property
    def message(self) -> str:
        """The messages in one line, in English: what the record stores."""
        with translation.override(STORED_LANGUAGE):
            return "; ".join(
                f"{field}: {' '.join(str(m) for m in msgs)}" for field, msgs in self.errors.items()
            )

    def answer_errors(self) -> dict[str, list[str]]:
        """The messages per field in the active language, as the submitter is answered."""
        return {field: [str(m) for m in msgs] for field, msgs in self.errors.items()}


class Refused(Exception):
    """Raised by the envelope checks; carries the `Refusal`, and the seated players' ids when
    they were resolved before the refusal (the record still names them: they may see it)."""

    def __init__(self, code: RefusalCode, errors: dict[str, list[Message]], *, forbidden=False):
        super().__init__(code)
        self.refusal = Refusal(code, errors, forbidden)
        self.seat_player_ids: list[int] = []


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
                    _message(
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
                _message(
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
                    _message(
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


def _validate_extensions(
    actor: User, values: dict[str, Any], seated: list
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
            raise Refused(RefusalCode.UNKNOWN_FIELD, {name: [_(NOT_ACCEPTED_TEXT)]})
        try:
            stored[name] = extension.validate(actor=actor, value=value, seat_players=seated)
        except ValidationError as exc:
            raise Refused(RefusalCode.REJECTED, {name: _error_messages(exc)}) from None
        except PermissionDenied as exc:
            raise Refused(
                RefusalCode.REJECTED, {name: [str(exc) or _(NOT_ALLOWED_TEXT)]}, forbidden=True
            ) from None
        vouched = vouched or extension.vouches_for_submitter
    return stored, vouched


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
        stored, vouched = _validate_extensions(actor, extensions, seated)
        if check_participant and names is not None:
            _check_participant(actor, seated, vouched=vouched)
        _check_played_at_age(document, actor, vouched=vouched)
    except Refused as exc:
        exc.seat_player_ids = [p.pk for p in seated]
        raise
    return Envelope([p.pk for p in seated], stored)
