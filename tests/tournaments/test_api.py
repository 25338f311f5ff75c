"""Every tournaments endpoint against owner, co-organiser, outsider, player and anonymous."""

import pytest

from players.models import AuditEntry
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tournaments import services
from tournaments.models import Championship, Match

pytestmark = pytest.mark.django_db

ROLES = ["owner", "co_organiser", "outsider", "player", "anonymous"]


@pytest.fixture
def world(organiser, co_organiser, outsider, user_player):
    championship = services.championship_create(
        actor=organiser, name="Europe", year=2026, category="continental", published=True
    )
    services.championship_staff_set(
        actor=organiser, championship=championship, user=co_organiser, role="organiser"
    )
    event = services.event_create(
        actor=organiser, championship=championship, name="KO", format="knockout", games_per_match=2
    )
    entrants = [user_player, *[PlayerFactory() for _ in range(3)]]
    for player in entrants:
        services.entry_register(actor=organiser, event=event, player=player)
    hidden = services.championship_create(
        actor=organiser, name="Secret", year=2026, category="open"
    )
    actors = {
        "owner": organiser,
        "co_organiser": co_organiser,
        "outsider": outsider,
        "player": user_player.user,
        "anonymous": None,
    }
    return {
        "championship": championship,
        "event": event,
        "hidden": hidden,
        "actors": actors,
        "entrants": entrants,
    }


def drawn(world):
    services.draw_generate(actor=world["actors"]["owner"], event=world["event"], draw_seed=1)
    return Match.objects.filter(event=world["event"], round__number=1).order_by("bracket_index")


@pytest.mark.parametrize("role", ROLES)
def test_reading_published_championships_is_public(world, role):
    client = client_for(world["actors"][role])
    listed = client.get("/api/championships/").json()
    names = {c["name"] for c in listed["results"]}
    assert "Europe" in names
    assert ("Secret" in names) == (role in ("owner",))
    event = world["event"]
    assert client.get(f"/api/events/{event.pk}/").status_code == 200
    assert client.get(f"/api/events/{event.pk}/entries/").json()["count"] == 4
    hidden_status = client.get(f"/api/championships/{world['hidden'].pk}/").status_code
    assert hidden_status == (200 if role == "owner" else 404)


@pytest.mark.parametrize(
    ("role", "expected"),
    [("owner", 201), ("co_organiser", 201), ("outsider", 403), ("player", 403), ("anonymous", 401)],
)
def test_create_championship(world, role, expected):
    response = client_for(world["actors"][role]).post(
        "/api/championships/",
        {"name": f"Open {role}", "year": 2027, "category": "open"},
        format="json",
    )
    assert response.status_code == expected
    assert Championship.objects.filter(name=f"Open {role}").exists() == (expected == 201)


@pytest.mark.parametrize(
    ("role", "expected"),
    [("owner", 200), ("co_organiser", 200), ("outsider", 403), ("player", 403), ("anonymous", 401)],
)
def test_update_championship(world, role, expected):
    response = client_for(world["actors"][role]).patch(
        f"/api/championships/{world['championship'].pk}/", {"name": "Europe Open"}, format="json"
    )
    assert response.status_code == expected


@pytest.mark.parametrize(
    ("role", "expected"),
    [("owner", 201), ("co_organiser", 201), ("outsider", 403), ("player", 403), ("anonymous", 401)],
)
def test_create_event(world, role, expected):
    response = client_for(world["actors"][role]).post(
        "/api/events/",
        {
            "championship": world["championship"].pk,
            "name": "Swiss",
            "format": "swiss",
            "swiss_rounds": 5,
        },
        format="json",
    )
    assert response.status_code == expected


def test_event_create_field_errors(world):
    response = client_for(world["actors"]["owner"]).post(
        "/api/events/",
        {
            "championship": world["championship"].pk,
            "name": "Groups",
            "format": "groups",
            "groups_count": 0,
            "format_typo": 1,
        },
        format="json",
    )
    assert response.status_code == 400
    assert "groups_count" in response.json()


@pytest.mark.parametrize(
    ("role", "expected"),
    [("owner", 200), ("co_organiser", 200), ("outsider", 403), ("player", 403), ("anonymous", 401)],
)
def test_seed_and_draw(world, role, expected):
    client = client_for(world["actors"][role])
    event = world["event"]
    assert client.post(f"/api/events/{event.pk}/seed/", {}, format="json").status_code == expected
    response = client.post(f"/api/events/{event.pk}/draw/", {"draw_seed": 5}, format="json")
    assert response.status_code == expected
    assert Match.objects.filter(event=event).exists() == (expected == 200)


def test_draw_twice_is_a_clear_error(world):
    client = client_for(world["actors"]["owner"])
    event = world["event"]
    assert client.post(f"/api/events/{event.pk}/draw/", {}, format="json").status_code == 200
    again = client.post(f"/api/events/{event.pk}/draw/", {}, format="json")
    assert again.status_code == 400 and "already been made" in again.json()["event"][0]


@pytest.mark.parametrize(
    ("role", "expected"),
    [("owner", 201), ("co_organiser", 201), ("outsider", 403), ("player", 403), ("anonymous", 401)],
)
def test_register_someone_else(world, role, expected):
    newcomer = PlayerFactory()
    response = client_for(world["actors"][role]).post(
        f"/api/events/{world['event'].pk}/register/", {"player": newcomer.pk}, format="json"
    )
    assert response.status_code == expected


def test_player_registers_themselves(world, other_player):
    client = client_for(other_player.user)
    response = client.post(f"/api/events/{world['event'].pk}/register/", {}, format="json")
    assert response.status_code == 201 and response.json()["player"] == other_player.pk
    again = client.post(f"/api/events/{world['event'].pk}/register/", {}, format="json")
    assert again.status_code == 400 and "already entered" in again.json()["player"][0]


@pytest.mark.parametrize(
    ("role", "expected"),
    [("owner", 200), ("co_organiser", 200), ("outsider", 403), ("player", 403), ("anonymous", 401)],
)
def test_rule_on_a_match(world, role, expected):
    match = drawn(world).last()
    response = client_for(world["actors"][role]).post(
        f"/api/matches/{match.pk}/rule/",
        {"winner": match.entry_a_id, "reason": "no-show"},
        format="json",
    )
    assert response.status_code == expected
    assert AuditEntry.objects.filter(action="match_rule").exists() == (expected == 200)


def test_rule_requires_reason_field(world):
    match = drawn(world).first()
    response = client_for(world["actors"]["owner"]).post(
        f"/api/matches/{match.pk}/rule/", {"winner": match.entry_a_id}, format="json"
    )
    assert response.status_code == 400 and "reason" in response.json()


@pytest.mark.parametrize(
    ("role", "expected"), [("owner", 403), ("outsider", 403), ("player", 200), ("anonymous", 401)]
)
def test_claim_walkover_only_by_a_player_of_the_match(world, role, expected):
    matches = drawn(world)
    own_match = next(
        m for m in matches if world["entrants"][0].pk in (m.entry_a.player_id, m.entry_b.player_id)
    )
    response = client_for(world["actors"][role]).post(
        f"/api/matches/{own_match.pk}/claim-walkover/", {}, format="json"
    )
    assert response.status_code == expected


@pytest.mark.parametrize(
    ("role", "expected"),
    [("owner", 200), ("co_organiser", 200), ("outsider", 403), ("player", 403), ("anonymous", 401)],
)
def test_set_round_deadline(world, role, expected):
    drawn(world)
    round_ = world["event"].rounds.get(number=1)
    response = client_for(world["actors"][role]).post(
        f"/api/rounds/{round_.pk}/deadline/",
        {"deadline": "2026-12-31T18:00:00Z", "reason": "holidays"},
        format="json",
    )
    assert response.status_code == expected


@pytest.mark.parametrize(
    ("role", "expected"),
    [("owner", 200), ("co_organiser", 200), ("outsider", 403), ("player", 403), ("anonymous", 401)],
)
def test_audit_log(world, role, expected):
    response = client_for(world["actors"][role]).get(
        f"/api/championships/{world['championship'].pk}/audit/"
    )
    assert response.status_code == expected
    if expected == 200:
        actions = {row["action"] for row in response.json()["results"]}
        assert {"championship_create", "event_create", "entry_register"} <= actions


@pytest.mark.parametrize(
    ("role", "expected"),
    [("owner", 200), ("co_organiser", 200), ("outsider", 403), ("player", 200), ("anonymous", 401)],
)
def test_withdraw(world, role, expected):
    entry = world["event"].entries.get(player=world["entrants"][0])
    response = client_for(world["actors"][role]).post(
        f"/api/entries/{entry.pk}/withdraw/", {}, format="json"
    )
    assert response.status_code == expected


def test_matches_and_standings_are_public(api_client, world):
    drawn(world)
    event = world["event"]
    matches = api_client.get(f"/api/events/{event.pk}/matches/").json()
    assert matches["count"] == 3
    assert api_client.get(f"/api/matches/?event={event.pk}").json()["count"] == 3
    assert api_client.get(f"/api/events/{event.pk}/standings/").status_code == 200
