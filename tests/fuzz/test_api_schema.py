"""Schemathesis against the API's own OpenAPI schema, for every operation and every role.

Each operation is called as anonymous, player, organiser, controller and staff with cases
Schemathesis generates from `/api/schema/`: Hypothesis-drawn valid and invalid data (the fuzzing
phase) and a slice of its boundary values (the coverage phase). Every response must be no server
error, have a documented status code and content type, and a body valid against the schema.

Ids in paths, queries and bodies are steered onto the seeded world (see conftest) so that object
endpoints are reached, not only their 404s; ids too large for any table are kept as drawn.
A test runs all its cases and then fails once, listing each distinct problem with the request
that shows it, so that one common problem never hides the others.
"""

from __future__ import annotations

import itertools
import json

import pytest
import schemathesis
from django.core.cache import cache
from django.db import transaction
from drf_spectacular.generators import SchemaGenerator
from hypothesis import given
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.generation.drivers import CoverageGenerator
from schemathesis.generation.feedback import FeedbackSources
from schemathesis.generation.overrides import Override
from schemathesis.openapi.checks import JsonSchemaError
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.fuzz.conftest import (
    DERANDOMIZE,
    MAX_EXAMPLES,
    ROLES,
    Crash,
    InProcessDjango,
    fuzz_settings,
)

pytestmark = pytest.mark.django_db

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
METHODS = ("get", "put", "post", "patch", "delete")
# Boundary-value cases per operation and role; each role takes different ones, so the five
# roles together see five times as many.
COVERAGE_EXAMPLES = 8 if DERANDOMIZE else MAX_EXAMPLES
# Not in any table: ids from 2**31 on are kept as drawn, smaller ones are steered to seeded ones.
MISSING_ID = 2**31 - 1
STEERED_BELOW = 10**6
# The seeded objects a path's `{id}` names (longest prefix first).
PATH_KINDS = [
    ("/api/claim-requests/", "claim"),
    ("/api/games/records/", "record"),
    ("/api/ratings/players/", "player"),
    ("/api/ratings/changes/", "change"),
    ("/api/ratings/reviews/", "review"),
    ("/api/ratings/titles/", "title"),
    ("/api/championships/", "championship"),
    ("/api/entries/", "entry"),
    ("/api/events/", "event"),
    ("/api/matches/", "match"),
    ("/api/rounds/", "round"),
    ("/api/games/", "game"),
    ("/api/players/", "player"),
]
# Query and body fields holding ids of seeded objects.
FIELD_KINDS = {
    "championship": "championship",
    "event": "event",
    "feeds_from": "event",
    "match": "match",
    "player": "player",
    "winner": "entry",
    "order": "entry",
}


def _operation_labels() -> list[str]:
    document = SchemaGenerator().get_schema(request=None, public=True)
    return [
        f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method in item
        if method in METHODS
    ]


OPERATIONS = _operation_labels()


@pytest.fixture(scope="package")
def api_app(fuzz_world) -> InProcessDjango:
    return InProcessDjango()


@pytest.fixture(scope="package")
def api_schema(api_app):
    """The schema as the site serves it, bound to the in-process app."""
    return schemathesis.openapi.from_wsgi("/api/schema/", api_app)


def test_the_served_schema_lists_every_operation(api_schema):
    served = sorted(result.ok().label for result in api_schema.get_all_operations())
    assert served == sorted(OPERATIONS)


def _steer(value, pool: list[int]):
    """A small non-negative integer becomes one of ``pool`` (or a missing id), chosen by value."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < STEERED_BELOW:
        return value
    choices = [*pool, MISSING_ID]
    return choices[value % len(choices)]


def _steer_fields(values, ids: dict[str, list[int]]):
    if not isinstance(values, dict):
        return values
    steered = dict(values)
    for name, kind in FIELD_KINDS.items():
        if name not in steered:
            continue
        value = steered[name]
        if isinstance(value, list):
            steered[name] = [_steer(item, ids[kind]) for item in value]
        else:
            steered[name] = _steer(value, ids[kind])
    return steered


def _prepare(case, role: str, world) -> dict[str, str]:
    """Point the case at seeded objects, drop generated credentials; the role's auth headers."""
    if "id" in case.path_parameters:
        kinds = [kind for prefix, kind in PATH_KINDS if case.path.startswith(prefix)]
        value = case.path_parameters["id"]
        if isinstance(value, bool) or not isinstance(value, int):
            # A path the URL patterns cannot match is Django's routing, not this API's answer.
            value = len(str(value))
        # Objects the world does not seed (yet) are named by a missing id or a huge drawn one.
        pool = world.ids[kinds[0]] if kinds else []
        case.path_parameters = {**case.path_parameters, "id": _steer(value, pool)}
    case.query = _steer_fields(case.query, world.ids)
    case.body = _steer_fields(case.body, world.ids)
    # Generated "Authorization" and "sessionid" values would make every role someone else.
    case.headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"}
    case.cookies = {}
    token = world.tokens.get(role)
    return {"Authorization": f"Token {token}"} if token else {}


def _shown(data, limit: int = 500) -> str:
    """One line of at most ``limit`` characters."""
    if data is None:
        return "(none)"
    if isinstance(data, bytes):
        data = data.decode("utf-8", "backslashreplace")
    text = data if isinstance(data, str) else json.dumps(data, default=str)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _key(failure: Failure, response, crash: Crash | None) -> tuple:
    if crash is not None:
        return ("server error", crash.kind, crash.where)
    if isinstance(failure, JsonSchemaError):
        return (failure.title, response.status_code, tuple(failure.schema_path))
    # A JSON 404 from the API and an HTML one from Django's URL resolver are different problems.
    media_type = (response.headers.get("content-type") or [""])[0].split(";")[0]
    return (failure.title, response.status_code, media_type)


def _report(role: str, response, failures: list[Failure], crash: Crash | None) -> str:
    request = response.request
    headers = {
        name: value
        for name, value in request.headers.items()
        if name.lower() in ("content-type", "idempotency-key")
    }
    lines = [
        f"as {role}: {request.method} {request.url.removeprefix('http://localhost')}",
        f"  request headers: {headers}",
        f"  request body: {_shown(request.body)}",
        f"  answered {response.status_code}: {_shown(response.content, 300)}",
    ]
    for failure in failures:
        if crash is not None and failure.title in ("Server error", "Undocumented status code"):
            continue
        message = "\n    ".join(failure.message.strip().splitlines()[:14])
        lines.append(f"  {failure.title}:\n    {message}")
    if crash is not None:
        lines.append(f"  {crash.kind} at {crash.where}:")
        lines.append("    " + crash.summary().replace("\n", "\n    "))
    return "\n".join(lines)


def _coverage_cases(operation, role: str) -> list:
    config = operation.schema.config.generation_for(operation=operation, phase="coverage")
    cases = CoverageGenerator(
        operation=operation,
        generation_modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
        generation_config=config,
        auth_storage=None,
        override=Override(),
        feedback=FeedbackSources(),
    )
    # Generated lazily: the roles share out the first few, without making all the rest.
    start = ROLES.index(role)
    return list(itertools.islice(cases, start, COVERAGE_EXAMPLES * len(ROLES), len(ROLES)))


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("label", OPERATIONS)
def test_operation_answers_as_documented(label, role, fuzz_world, api_schema, api_app):
    operation = api_schema.find_operation_by_label(label)
    problems: dict[tuple, str] = {}
    sent = []

    def exchange(case) -> None:
        auth = _prepare(case, role, fuzz_world)
        cache.clear()  # the throttle is not under test; 429s would hide everything else
        # Every case meets the seeded world as it was (a drawn event stays undrawn for the next
        # case), and a database error in one request cannot abort the transaction for the rest.
        point = transaction.savepoint()
        try:
            response = case.call(headers=auth)
        finally:
            transaction.savepoint_rollback(point)
        sent.append(response.status_code)
        try:
            case.validate_response(response, checks=CHECKS)
        except FailureGroup as group:
            failures = list(group.exceptions)
        except Failure as failure:
            failures = [failure]
        else:
            return
        crash = api_app.crash if response.status_code >= 500 else None
        for failure in failures:
            key = _key(failure, response, crash)
            problems.setdefault(key, _report(role, response, failures, crash))

    for case in _coverage_cases(operation, role):
        exchange(case)

    strategy = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    )

    @fuzz_settings(MAX_EXAMPLES)
    @given(case=strategy)
    def fuzz(case) -> None:
        exchange(case)

    fuzz()
    assert sent, "no request was sent"
    if problems:
        pytest.fail(
            f"{len(problems)} distinct problem(s):\n\n" + "\n\n".join(problems.values()),
            pytrace=False,
        )
