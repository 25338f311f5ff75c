"""Hypothesis against `games.services.record_submit`: whatever arrives, a record is kept.

Bodies are arbitrary bytes, or valid records (self-played, and the engine tests' flower) bent by
a few mutations: a value replaced, a key removed or added, a number or string spliced in as raw
JSON text (5,000 digits, 1e999, a lone surrogate), a byte-order mark, another encoding, a cut.
For a player and for staff, submitting must never raise, must answer 202, 400, 403 or 413, and
must store the record; with Celery eager the adjudication (and what listens to it) runs too, and
the record must end valid or invalid, never left pending or processing.
"""

from __future__ import annotations

import codecs
import copy
import json
from datetime import datetime, timedelta, timezone

import pytest
from django.conf import settings
from django.db import transaction
from django.test import TestCase
from hypothesis import given
from hypothesis import strategies as st

from games import services
from games.models import Game, GameRecord, GameReport, RecordSource, RecordStatus
from games.records.http import submission_answer
from tests.engine.support import flower_record
from tests.fuzz.conftest import MAX_EXAMPLES, Crash, fuzz_settings
from tests.games.helpers import selfplay_record

pytestmark = pytest.mark.django_db

# Each record example replays a whole game; they are cheap enough to run more of them.
EXAMPLES = MAX_EXAMPLES * 4
ANSWERS = {202, 400, 403, 413}
FINAL = {RecordStatus.VALID, RecordStatus.INVALID}

TEN_DAYS_AGO = (
    (datetime.now(timezone(timedelta(hours=1))) - timedelta(days=10))
    .replace(microsecond=0)
    .isoformat()
)
# Seated by display name, as the fuzz world seeds them (case does not matter).
BASE_RECORDS = [
    selfplay_record(11, ["Ingrid", "Tomas"]),
    selfplay_record(12, ["csilla", "INGRID", "Bela"], players="3"),
    selfplay_record(13, ["Ingrid", "Tomas", "Ana", "Dora"], players="4"),
    selfplay_record(14, ["Ingrid", "Tomas", "Ana", "Dora"], players="pairs"),
    # Within the age limit for records (GAME_RECORD_MAX_AGE_DAYS), with an offset.
    {**selfplay_record(15, ["Ingrid", "Carla"]), "played_at": TEN_DAYS_AGO},
    flower_record(),  # seated "ana" and "bela": the player actor is no participant
]
# Spliced into the JSON text as they are: values json.dumps cannot write or would escape.
RAW_TOKENS = [
    "1" * 5000,
    "-" + "9" * 400,
    "1e999",
    "-1e999",
    "1e-999",
    "NaN",
    "Infinity",
    "-0",
    "1.0",
    "123456789012345678901234567890",
    '"\\ud800"',
    '"\\udfff\\ud800x"',
    '"\\u0000"',
    '"ingrid\\u0000"',
    '"Ingrid"',
    '"9999-12-31T23:59:59-14:00"',
    '"0001-01-01T00:00:00+14:00"',
    "[" * 200 + "]" * 200,
]
TEXTS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        [
            "",
            " ",
            "ingrid",
            " INGRID ",
            "Tomas",
            "x" * 41,
            "\ud800",
            "a\x00b",
            "red",
            "resigned",
            "deadlock",
            "tantrix-game/1",
            "9999-12-31T23:59:59-14:00",
            "0001-01-01T00:00:00+14:00",
            "2026-02-30T10:00:00Z",
            "2026-03-01T18:30:00",
            "2999-01-01T00:00:00Z",
            "1970-01-01T00:00:00+25:00",
        ]
    ),
)
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-10, max_value=60),
    st.integers(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    TEXTS,
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXTS, inner, max_size=4),
    max_leaves=8,
)
# Keys a record has (or may have) at the top, in a seat, in a placement and in its end.
KEYS = st.sampled_from(
    ["format", "players", "hands", "bag", "placements", "end", "played_at", "clock", "name"]
    + ["colour", "player", "tile", "q", "r", "rotation", "reason", "claimed_scores", "extra"]
)


def _paths(document, prefix=()) -> list[tuple]:
    found = []
    if isinstance(document, dict):
        items = document.items()
    elif isinstance(document, list):
        items = enumerate(document)
    else:
        return found
    for key, value in items:
        found.append((*prefix, key))
        found.extend(_paths(value, (*prefix, key)))
    return found


def _parent(document, path: tuple):
    for key in path[:-1]:
        document = document[key]
    return document


def _apply(document: dict, mutation: tuple) -> dict:
    kind, path, value = mutation
    parent = _parent(document, path)
    key = path[-1]
    if not isinstance(parent, dict | list):
        return document
    if isinstance(parent, list) and not -len(parent) <= key < len(parent):
        return document
    if kind == "set":
        parent[key] = value
    elif kind == "delete" and (isinstance(parent, list) or key in parent):
        del parent[key]
    elif kind == "add" and isinstance(parent, dict):
        parent[value] = parent.get(value, 0)
    elif kind == "append" and isinstance(parent, dict) and isinstance(parent.get(key), list):
        parent[key].append(value)
    return document


# Values that have hurt before, or could: names the database cannot hold, times at the ends of
# the calendar, coordinates and numbers past every integer type.
AWKWARD_NAMES = ["\ud800", "a\x00b", "x" * 41, "", "   ", " INGRID ", "Ingrid\u200b", "İngrid"]
AWKWARD_TIMES = [
    "9999-12-31T23:59:59-14:00",
    "9999-12-31T23:59:59+14:00",
    "0001-01-01T00:00:00+14:00",
    "0001-01-01T00:00:00-14:00",
    "2026-02-30T10:00:00Z",
    "2999-01-01T00:00:00Z",
    "2026-03-01T18:30:00",
    "2026-03-01",
    "2026-03-01T18:30:00.123456789Z",
    0,
    None,
    [],
]
PLACEHOLDER = "\x00raw\x00"
HUGE_NUMBERS = [2**31, 2**63, -(2**63) - 1, 10**30, -(10**30), 10**100, 1e300, -0.5]


@st.composite
def awkward_mutations(draw, document: dict) -> tuple:
    """One (kind, path, value) aimed at where a record meets the database, the clock and ints."""
    seats = len(document.get("players") or []) or 1
    placements = len(document.get("placements") or []) or 1
    seat = draw(st.integers(min_value=0, max_value=seats - 1))
    placement = draw(st.integers(min_value=0, max_value=placements - 1))
    field = draw(st.sampled_from(["q", "r", "tile", "rotation", "player"]))
    return draw(
        st.sampled_from(
            [
                ("set", ("players", seat, "name"), st.sampled_from(AWKWARD_NAMES)),
                ("set", ("played_at",), st.sampled_from(AWKWARD_TIMES)),
                ("set", ("placements", placement, field), st.sampled_from(HUGE_NUMBERS)),
                ("set", ("end", "player"), st.sampled_from(HUGE_NUMBERS)),
                ("raw", ("placements", placement, field), st.sampled_from(RAW_TOKENS)),
                ("raw", ("players", seat, "name"), st.sampled_from(RAW_TOKENS)),
                ("raw", ("played_at",), st.sampled_from(RAW_TOKENS)),
            ]
        ).flatmap(lambda chosen: st.tuples(st.just(chosen[0]), st.just(chosen[1]), chosen[2]))
    )


@st.composite
def generic_mutations(draw, document: dict) -> tuple:
    """One (kind, path, value) anywhere in the record."""
    path = draw(st.sampled_from(_paths(document)))
    kind = draw(st.sampled_from(["set", "set", "delete", "add", "append", "raw"]))
    if kind == "raw":
        return kind, path, draw(st.sampled_from(RAW_TOKENS))
    return kind, path, draw(KEYS if kind == "add" else VALUES)


@st.composite
def near_valid_bodies(draw) -> bytes:
    """A valid record with a few things wrong with it, as the bytes a client would send."""
    document = copy.deepcopy(draw(st.sampled_from(BASE_RECORDS)))
    raws: dict[str, str] = {}
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        if not _paths(document):
            break
        kind, path, value = draw(
            st.one_of(awkward_mutations(document), generic_mutations(document))
        )
        if not _reachable(document, path):
            continue
        if kind == "raw":
            # A placeholder string now, replaced by the raw JSON text once serialised.
            placeholder = f"\x00raw{len(raws)}\x00"
            raws[placeholder] = value
            kind, value = "set", placeholder
        document = _apply(document, (kind, path, value))
    text = json.dumps(document, ensure_ascii=draw(st.booleans()))
    for placeholder, raw in raws.items():
        text = text.replace(json.dumps(placeholder), raw)
    encoding = draw(st.sampled_from(["utf-8"] * 6 + ["utf-8-sig", "utf-16", "latin-1"]))
    data = text.encode(encoding, errors="replace" if encoding == "latin-1" else "surrogatepass")
    if draw(st.integers(min_value=0, max_value=9)) == 0:
        data = data[: draw(st.integers(min_value=0, max_value=len(data)))]
    return data


def _reachable(document, path: tuple) -> bool:
    try:
        parent = _parent(document, path)
    except (KeyError, IndexError, TypeError):
        return False
    return isinstance(parent, dict | list)


def oversized_bodies() -> st.SearchStrategy[bytes]:
    limit = settings.GAME_RECORD_MAX_BYTES
    record = json.dumps(BASE_RECORDS[0]).encode()
    return st.sampled_from(
        [b"x" * (limit + 1), record + b" " * (limit + 1 - len(record)), b"{" * (limit + 1)]
    )


ARBITRARY_BODIES = st.one_of(st.binary(max_size=2048), oversized_bodies())


def _problem(actor, body: bytes) -> tuple[tuple, str] | None:
    """Submit ``body``; what is wrong with how it was handled (a key and a line), or None."""
    crash = None
    point = transaction.savepoint()
    try:
        with TestCase.captureOnCommitCallbacks(execute=True):
            submission = services.record_submit(actor=actor, body=body, source=RecordSource.API)
    except Exception:
        crash = Crash.current()
    if crash is not None:
        # Keep the test's transaction usable for the examples Hypothesis runs next.
        transaction.savepoint_rollback(point)
        where = f"{crash.kind} at {crash.where}"
        return ("raised", crash.kind, crash.where), f"{where}:\n{crash.summary()}"
    transaction.savepoint_commit(point)
    status_code, answer = submission_answer(submission)
    if status_code not in ANSWERS:
        return ("answer", status_code), f"answered {status_code}"
    record = GameRecord.objects.filter(pk=submission.record.pk).first()
    if record is None:
        return ("not stored",), "no record was stored"
    if record.status not in FINAL:
        return ("left", record.status), f"record left {record.status}"
    if record.body_size != len(body):
        return ("size",), f"body_size {record.body_size}, sent {len(body)} bytes"
    if len(body) <= settings.GAME_RECORD_MAX_BYTES and bytes(record.body) != body:
        return ("body",), "the body was not stored as sent"
    if status_code != 202 and not (
        record.status == RecordStatus.INVALID
        and record.error_code == submission.refusal.code
        and answer["submission"]["id"] == record.pk
    ):
        return ("refusal",), f"refused with {status_code} but {record.status}"
    if record.status == RecordStatus.VALID:
        point = transaction.savepoint()
        try:
            # Loads every column: a value the database took but cannot give back shows here.
            game = Game.objects.filter(record=record).first()
        except Exception:
            crash = Crash.current()
            transaction.savepoint_rollback(point)
            return ("unreadable game", crash.kind), f"cannot read the game:\n{crash.summary()}"
        transaction.savepoint_commit(point)
        # A player's valid record is a report until the other side agrees (games/reports).
        if game is None and not GameReport.objects.filter(record=record).exists():
            return ("no game",), "valid, and neither a game nor a report of one was made"
    return None


def _ends(body: bytes, each: int = 300) -> str:
    if len(body) <= 2 * each:
        return repr(body)
    return f"{body[:each]!r} ... {body[-each:]!r}"


class Problems:
    """Distinct problems, each with the shortest body that shows it."""

    def __init__(self, actor) -> None:
        self.actor = actor
        self.found: dict[tuple, tuple[bytes, str]] = {}

    def submit(self, body: bytes) -> None:
        found = _problem(self.actor, body)
        if found is None:
            return
        key, text = found
        if key not in self.found or len(body) < len(self.found[key][0]):
            self.found[key] = (body, text)

    def check(self) -> None:
        if not self.found:
            return
        pytest.fail(
            f"{len(self.found)} distinct problem(s):\n\n"
            + "\n\n".join(
                f"body {_ends(body)} ({len(body)} bytes)\n  {text}".replace("\n", "\n  ")
                for body, text in self.found.values()
            ),
            pytrace=False,
        )


def _fuzz(actor, bodies: st.SearchStrategy[bytes]) -> None:
    """Every example runs; then one failure lists each distinct problem."""
    problems = Problems(actor)

    @fuzz_settings(EXAMPLES)
    @given(body=bodies)
    def submit(body: bytes) -> None:
        problems.submit(body)

    submit()
    problems.check()


def awkward_bodies() -> list[bytes]:
    """Each awkward value once, in the first seat, placement and end of a two-player record."""
    base = BASE_RECORDS[0]
    targets = [
        (("players", 0, "name"), AWKWARD_NAMES, RAW_TOKENS),
        (("played_at",), AWKWARD_TIMES, RAW_TOKENS),
        (("end", "player"), HUGE_NUMBERS, []),
        *((("placements", 0, field), HUGE_NUMBERS, RAW_TOKENS) for field in ("q", "tile")),
        *((("placements", 1, field), HUGE_NUMBERS, []) for field in ("r", "rotation", "player")),
    ]
    bodies = []
    for path, values, raws in targets:
        for value in values:
            document = _apply(copy.deepcopy(base), ("set", path, value))
            bodies.append(json.dumps(document, ensure_ascii=False).encode("utf-8", "surrogatepass"))
        for raw in raws:
            document = _apply(copy.deepcopy(base), ("set", path, PLACEHOLDER))
            bodies.append(json.dumps(document).replace(json.dumps(PLACEHOLDER), raw).encode())
    text = json.dumps(base)
    bodies += [codecs.BOM_UTF8 + text.encode(), text.encode("utf-16"), text.encode()[:-1]]
    return bodies


@pytest.fixture(params=["player", "staff"])
def actor(request, fuzz_world):
    return fuzz_world.users[request.param]


def test_arbitrary_bytes_are_stored_and_answered(actor):
    _fuzz(actor, ARBITRARY_BODIES)


def test_near_valid_records_are_stored_and_adjudicated(actor):
    _fuzz(actor, near_valid_bodies())


def test_awkward_values_are_stored_and_adjudicated(actor):
    problems = Problems(actor)
    for body in awkward_bodies():
        problems.submit(body)
    problems.check()


def test_the_base_records_are_valid_for_staff(fuzz_world):
    """The mutations start from records the engine accepts, or they test nothing."""
    staff = fuzz_world.users["staff"]
    for document in BASE_RECORDS:
        with TestCase.captureOnCommitCallbacks(execute=True):
            submission = services.record_submit(
                actor=staff, body=json.dumps(document).encode(), source=RecordSource.API
            )
        assert submission.accepted, submission.refusal
        record = GameRecord.objects.get(pk=submission.record.pk)
        assert record.status == RecordStatus.VALID, record.error_message
