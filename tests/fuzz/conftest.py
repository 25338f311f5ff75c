"""The fuzz suite's world: a small championship seeded once, and a way to call the API in-process.

The world is seeded once for the whole package inside a transaction that stays open (and is
rolled back at the end); each test then runs in its own savepoint, as pytest-django's ``db``
does, so whatever one fuzz test creates never leaks into the next.

``FUZZ_MAX_EXAMPLES`` sets the examples per operation and role. Unset (``make test``), the run
is small and derandomized, so it finds the same things every time; set (``make fuzz``), Hypothesis
explores randomly.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import sys
import traceback
from collections.abc import Iterator

import hypothesis
import pytest
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections, transaction
from django.test import TestCase

from tests.factories import PlayerFactory, UserFactory, make_organiser
from tests.games.helpers import colour_mismatch_record, selfplay_record

DEFAULT_MAX_EXAMPLES = 12
MAX_EXAMPLES = int(os.environ.get("FUZZ_MAX_EXAMPLES") or DEFAULT_MAX_EXAMPLES)
# The long run (make fuzz) explores; the bounded one inside make test must not be flaky.
DERANDOMIZE = not os.environ.get("FUZZ_MAX_EXAMPLES")

ROLES = ("anonymous", "player", "organiser", "controller", "staff")


def fuzz_settings(max_examples: int = MAX_EXAMPLES) -> hypothesis.settings:
    return hypothesis.settings(
        max_examples=max_examples,
        derandomize=DERANDOMIZE,
        database=None,
        deadline=None,
        print_blob=False,
        suppress_health_check=list(hypothesis.HealthCheck),
    )


@dataclasses.dataclass
class World:
    """The seeded objects, as ids by kind, and the user each role acts as."""

    users: dict[str, object]
    tokens: dict[str, str]
    ids: dict[str, list[int]]


def _submit(actor, record: dict, **kwargs):
    from games import services as game_services
    from games.models import RecordSource

    return game_services.record_submit(
        actor=actor,
        body=json.dumps(record).encode("utf-8"),
        source=kwargs.pop("source", RecordSource.API),
        **kwargs,
    )


def _seed() -> World:
    from games.models import Game, GameRecord
    from players.services.claims import claim_request_create
    from players.tokens.services import api_token_issue
    from ratings import services as ratings_services
    from ratings.models import RatingChange, Review, Title
    from tournaments import services
    from tournaments.models import Entry, Match, Round

    staff = UserFactory(username="fuzz-staff", is_staff=True)
    organiser = make_organiser(username="fuzz-organiser")
    controller = PlayerFactory(display_name="Carla", country="NZ", with_user=True)
    player = PlayerFactory(display_name="Ingrid", country="DE", with_user=True)
    others = [
        PlayerFactory(display_name=name, country=country, with_user=index % 2 == 0)
        for index, (name, country) in enumerate(
            [("Tomas", "CZ"), ("Csilla", "HU"), ("Bela", "HU"), ("Ana", "ES"), ("Dora", "DE")]
        )
    ]
    tomas, csilla, bela, ana, dora = others

    open_ = services.championship_create(
        actor=organiser, name="Fuzz Open", year=2026, category="open", published=True
    )
    services.championship_staff_set(
        actor=organiser, championship=open_, user=controller.user, role="controller"
    )
    hidden = services.championship_create(
        actor=organiser, name="Fuzz Nationals", year=2026, category="national"
    )
    knockout = services.event_create(
        actor=organiser,
        championship=open_,
        name="Knockout",
        format="knockout",
        games_per_match=1,
        max_extra_games=2,
        extra_game_margin="0.1",
    )
    for entrant in (player, tomas, csilla, bela):
        services.entry_register(actor=organiser, event=knockout, player=entrant)
    services.draw_generate(actor=organiser, event=knockout, draw_seed=2026)
    groups = services.event_create(
        actor=organiser, championship=open_, name="Groups", format="groups", groups_count=1, stage=2
    )
    for entrant in (player, ana, dora):
        services.entry_register(actor=organiser, event=groups, player=entrant)
    final = services.event_create(
        actor=organiser,
        championship=open_,
        name="Final",
        format="round_robin",
        stage=3,
        feeds_from=groups,
        qualifiers_count=2,
    )
    swiss = services.event_create(
        actor=organiser,
        championship=hidden,
        name="Swiss",
        format="swiss",
        swiss_rounds=3,
        eligibility="national",
        countries=["DE"],
    )
    services.entry_register(actor=organiser, event=swiss, player=dora)

    with TestCase.captureOnCommitCallbacks(execute=True):
        first = Match.objects.filter(event=knockout, round__number=1).order_by("bracket_index")[0]
        names = [first.entry_a.player.display_name, first.entry_b.player.display_name]
        _submit(organiser, selfplay_record(301, names), extensions={"match": first.pk})
        _submit(player.user, selfplay_record(302, ["Ingrid", "Tomas"]))
        _submit(staff, selfplay_record(303, ["Csilla", "Carla"]))
        _submit(staff, selfplay_record(304, ["Bela", "Ana", "Dora"], players="3"))
        _submit(player.user, colour_mismatch_record(["Ingrid", "Carla"]))
    game = Game.objects.order_by("pk").first()
    review = ratings_services.game_review_flag(game_id=game.pk, note="fuzz", actor=staff)
    assert review is not None, "the seeded games moved no rating"
    ratings_services.rating_adjust(
        actor=staff, player_id=ana.pk, system="lobby", reason="fuzz world", delta=5.0
    )
    Title.objects.create(player=dora, awarded_by=staff, note="fuzz world")
    # Someone with an account and no player asks to take over an accountless one.
    claim = claim_request_create(
        requester=UserFactory(username="fuzz-claimant"), player=csilla, message="It is me."
    )

    users = {
        "anonymous": None,
        "player": player.user,
        "organiser": organiser,
        "controller": controller.user,
        "staff": staff,
    }
    tokens = {role: api_token_issue(user=user).key for role, user in users.items() if user}
    events = [knockout, groups, final, swiss]

    def pks(queryset, limit: int = 8) -> list[int]:
        return list(queryset.order_by("pk").values_list("pk", flat=True)[:limit])

    from players.models import Player

    ids = {
        "championship": [open_.pk, hidden.pk],
        "event": [e.pk for e in events],
        "entry": pks(Entry.objects.filter(event__in=events)),
        "match": pks(Match.objects.filter(event=knockout)),
        "round": pks(Round.objects.filter(event=knockout)),
        "game": pks(Game.objects.all()),
        "record": pks(GameRecord.objects.all()),
        "player": pks(Player.objects.all()),
        "change": pks(RatingChange.objects.all()),
        "review": pks(Review.objects.all()),
        "title": pks(Title.objects.all()),
        "claim": [claim.pk],
    }
    assert all(ids.values()), {kind: found for kind, found in ids.items() if not found}
    return World(
        users=users,
        tokens=tokens,
        ids=ids,
    )


@pytest.fixture(scope="package")
def fuzz_world(django_db_setup, django_db_blocker) -> Iterator[World]:
    from tantrix_site.celery import app

    eager = app.conf.CELERY_TASK_ALWAYS_EAGER
    app.conf.CELERY_TASK_ALWAYS_EAGER = True
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
    try:
        with django_db_blocker.unblock():
            world = _seed()
        yield world
    finally:
        app.conf.CELERY_TASK_ALWAYS_EAGER = eager
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture(autouse=True)
def _quiet_request_log():
    """Thousands of expected 4xx would bury the report; 5xx tracebacks are kept by the tests."""
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    yield
    logger.setLevel(level)


@dataclasses.dataclass(frozen=True)
class Crash:
    """An exception the site did not handle: what it was, where in the project, its traceback."""

    kind: str
    where: str
    text: str

    @classmethod
    def current(cls) -> Crash:
        kind, exc, tb = sys.exc_info()
        frames = traceback.extract_tb(tb)
        ours = [f for f in frames if f.filename.startswith(PROJECT) and "/.venv/" not in f.filename]
        last = (ours or frames)[-1]
        return cls(
            kind=f"{kind.__module__}.{kind.__qualname__}" if kind else "?",
            where=f"{os.path.relpath(last.filename, PROJECT)}:{last.lineno} in {last.name}",
            text="".join(traceback.format_exception(kind, exc, tb)),
        )

    def summary(self, lines: int = 8) -> str:
        return "\n".join(self.text.strip().splitlines()[-lines:])


PROJECT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class InProcessDjango:
    """Django's WSGI handler, callable inside the test transaction.

    A real WSGI server closes the database connection at the end of each request; in a test
    that would roll back the test's transaction, so (like Django's test client) the connection
    housekeeping is switched off around the call. An unhandled exception still becomes Django's
    500 response, and what it was is kept for the report.
    """

    def __init__(self) -> None:
        self.handler = WSGIHandler()
        self.crash: Crash | None = None

    def _keep(self, sender, request=None, **kwargs) -> None:
        self.crash = Crash.current()

    def __call__(self, environ, start_response):
        self.crash = None
        signals.request_started.disconnect(close_old_connections)
        signals.request_finished.disconnect(close_old_connections)
        signals.got_request_exception.connect(self._keep)
        try:
            result = self.handler(environ, start_response)
            try:
                body = b"".join(result)
            finally:
                result.close()
        finally:
            signals.got_request_exception.disconnect(self._keep)
            signals.request_started.connect(close_old_connections)
            signals.request_finished.connect(close_old_connections)
        return [body]
