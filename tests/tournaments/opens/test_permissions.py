"""Who may use each new page and endpoint: controller, organiser, player, outsider, anonymous."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import client_for
from tests.factories import PlayerFactory, make_organiser
from tests.tournaments.opens.helpers import open_championship, table_open
from tournaments.models import Event
from tournaments.opens.services.table_opens import table_open_start
from tournaments.services import entry_register

pytestmark = pytest.mark.django_db

ROLES = ("organiser", "controller", "player", "outsider", "anonymous")


@pytest.fixture
def world():
    organiser = make_organiser()
    championship, controller = open_championship(organiser)
    event = table_open(organiser, championship, 5, swiss_rounds=3, start=False)
    player = PlayerFactory(with_user=True)
    entry_register(actor=player.user, event=event, player=player)
    waiting = table_open(organiser, championship, 4, start=False, name_suffix=" (next)")
    event = table_open_start(actor=organiser, event=event, draw_seed=3)
    users = {
        "organiser": organiser,
        "controller": controller,
        "player": player.user,
        "outsider": PlayerFactory(with_user=True).user,
        "anonymous": None,
    }
    late = PlayerFactory()
    return {
        "championship": championship,
        "event": event,
        "waiting": waiting,
        "round": event.rounds.get(number=1),
        "entry": event.entries.exclude(player=player).first(),
        "late": late,
        "users": users,
    }


def _web(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


MANAGE = {"organiser": 200, "controller": 403, "player": 403, "outsider": 403, "anonymous": 302}
RULE = {"organiser": 200, "controller": 200, "player": 403, "outsider": 403, "anonymous": 302}
PUBLIC = dict.fromkeys(ROLES, 200)

WEB_PAGES = [
    ("open-new", "championship", MANAGE),
    ("open-start", "waiting", MANAGE),
    ("open-late-entry", "event", RULE),
    ("event-tiebreaks", "event", MANAGE),
    ("event-standings-csv", "event", PUBLIC),
    ("event-results-csv", "event", PUBLIC),
    ("event-export-json", "event", RULE),
    ("open-entry-drop", "entry", RULE),
    ("open-round-pairings", "round", PUBLIC),
    ("open-round-pairings-csv", "round", PUBLIC),
    ("open-round-sheets", "round", RULE),
    ("open-round-results", "round", RULE),
]


@pytest.mark.parametrize("role", ROLES)
def test_web_pages_by_role(world, role):
    client = _web(world["users"][role])
    for name, obj, expected in WEB_PAGES:
        response = client.get(reverse(name, args=[world[obj].pk]))
        assert response.status_code == expected[role], (name, role, response.status_code)


API_WRITE = {"organiser": (200, 201), "controller": (403,), "player": (403,), "outsider": (403,)}
API_RULE = {"organiser": (200, 201), "controller": (200, 201), "player": (403,), "outsider": (403,)}


def _api_calls(world):
    round_ = world["round"]
    table = next(t for t in round_.matches.order_by("bracket_index") if not t.is_bye)
    number = table.bracket_index + 1
    return [
        (
            "post",
            f"/api/championships/{world['championship'].pk}/table-opens/",
            {"name": "Sunday Open", "system": "round_robin", "stage": 3},
            API_WRITE,
        ),
        ("post", f"/api/events/{world['waiting'].pk}/open/start/", {}, API_WRITE),
        (
            "put",
            f"/api/events/{world['event'].pk}/tiebreaks/",
            {"tiebreaks": ["tp_total", "wins"], "confirm": True},
            API_WRITE,
        ),
        (
            "post",
            f"/api/events/{world['event'].pk}/late-entries/",
            {"player": world["late"].display_name},
            API_RULE,
        ),
        ("get", f"/api/events/{world['event'].pk}/export/", None, API_RULE),
        (
            "post",
            f"/api/rounds/{round_.pk}/results/",
            {"results": [{"table": number, "score_a": 20, "score_b": 11}]},
            API_RULE,
        ),
        ("post", f"/api/entries/{world['entry'].pk}/drop/", {"reason": "ill"}, API_RULE),
    ]


@pytest.mark.parametrize("role", ROLES)
def test_api_endpoints_by_role(world, role):
    user = world["users"][role]
    client = client_for(user)
    for method, url, data, expected in _api_calls(world):
        response = getattr(client, method)(url, data, format="json")
        allowed = (401, 403) if user is None else expected[role]
        assert response.status_code in allowed, (url, role, response.status_code, response.data)
    for url in (
        f"/api/events/{world['event'].pk}/ranked-standings/",
        f"/api/events/{world['event'].pk}/tiebreaks/",
        f"/api/rounds/{world['round'].pk}/tables/",
    ):
        assert client.get(url).status_code == 200, (url, role)


def test_an_unpublished_open_is_not_found_by_outsiders(world):
    championship = world["championship"]
    championship.published = False
    championship.save(update_fields=["published"])
    outsider = world["users"]["outsider"]
    event = world["event"]
    assert _web(outsider).get(reverse("event-standings-csv", args=[event.pk])).status_code == 404
    assert (
        _web(outsider).get(reverse("open-round-pairings", args=[world["round"].pk])).status_code
        == 404
    )
    assert client_for(outsider).get(f"/api/events/{event.pk}/ranked-standings/").status_code == 404
    assert client_for(None).get(f"/api/rounds/{world['round'].pk}/tables/").status_code == 404
    assert (
        _web(world["users"]["controller"])
        .get(reverse("open-round-pairings", args=[world["round"].pk]))
        .status_code
        == 200
    )
    assert Event.objects.filter(pk=event.pk).exists()
