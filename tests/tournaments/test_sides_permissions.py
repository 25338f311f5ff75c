"""Who may use each doubles and team endpoint, role by role (web and API).

Roles: the championship's organiser; for doubles the player who asked for a pair and the
partner named in it; for teams the captain, the deputy, a team member and another team's
captain; a player with no part in it (outsider); the anonymous visitor."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.conftest import client_for
from tests.factories import PlayerFactory
from tournaments import selectors, services
from tournaments.models import Entry, EntryStatus

pytestmark = pytest.mark.django_db

OK, DENIED, BAD = "ok", "denied", "bad"


def outcome(response) -> str:
    code = response.status_code
    if code in (401, 403):
        return DENIED
    if code == 302 and "/login" in response.get("Location", ""):
        return DENIED
    if code == 400:
        return BAD
    if code in (200, 201, 204, 302):
        return OK
    return str(code)


def web(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def championship(organiser):
    return services.championship_create(
        actor=organiser, name="Sides", year=2026, category="open", published=True
    )


# --- Doubles ----------------------------------------------------------------------------------


@pytest.fixture
def doubles(organiser, championship):
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Doubles",
        format="knockout",
        entry_kind="pair",
    )
    asker = PlayerFactory(with_user=True)
    partner = PlayerFactory(with_user=True)
    entry = services.pair_register(actor=asker.user, event=event, partner=partner)
    return {
        "event": event,
        "entry": entry,
        "organiser": organiser,
        "asker": asker.user,
        "partner": partner.user,
        "outsider": PlayerFactory(with_user=True).user,
        "anonymous": None,
    }


PAIR_ROLES = ["organiser", "asker", "partner", "outsider", "anonymous"]


@pytest.mark.parametrize(
    "role,expected",
    zip(PAIR_ROLES, [OK, OK, OK, DENIED, DENIED], strict=True),
)
def test_confirming_a_pair(doubles, role, expected):
    response = client_for(doubles[role]).post(f"/api/entries/{doubles['entry'].pk}/confirm-pair/")
    # The asker cannot confirm for the partner: a 403, never an entry.
    if role == "asker":
        expected = DENIED
    assert outcome(response) == expected, response.content
    status = Entry.objects.get(pk=doubles["entry"].pk).status
    assert (status == EntryStatus.ACTIVE) == (expected == OK)


@pytest.mark.parametrize(
    "role,expected",
    zip(PAIR_ROLES, [OK, OK, OK, DENIED, DENIED], strict=True),
)
def test_calling_a_pair_off(doubles, role, expected):
    response = client_for(doubles[role]).post(f"/api/entries/{doubles['entry'].pk}/decline-pair/")
    assert outcome(response) == expected, response.content
    # The web button does the same.
    if expected == DENIED and doubles[role] is not None:
        answer = web(doubles[role]).post(
            reverse("pair-answer", args=[doubles["entry"].pk, "decline"])
        )
        assert outcome(answer) == DENIED


@pytest.mark.parametrize(
    "role,expected",
    zip(PAIR_ROLES, [OK, BAD, BAD, OK, DENIED], strict=True),
)
def test_registering_a_pair(doubles, role, expected):
    """Everyone signed in may register a pair they play in (the asker and the partner are in
    one already: refused with the reason); the organiser names both players."""
    other = PlayerFactory()
    body = {"partner": other.pk}
    if role == "organiser":
        body["player"] = PlayerFactory().pk
    response = client_for(doubles[role]).post(
        f"/api/events/{doubles['event'].pk}/register-pair/", body, format="json"
    )
    assert outcome(response) == expected, response.content
    page = web(doubles[role]).get(reverse("pair-register", args=[doubles["event"].pk]))
    assert outcome(page) == (DENIED if role == "anonymous" else OK)


# --- Teams ------------------------------------------------------------------------------------


@pytest.fixture
def teams(organiser, championship):
    def team(name, country, size=5):
        roster = [PlayerFactory(with_user=True, country=country) for _ in range(size)]
        return services.team_create(
            actor=organiser,
            championship=championship,
            name=name,
            country=country,
            captain=roster[0],
            deputy=roster[1],
            roster=roster,
        )

    gb, de = team("GB", "GB", 6), team("DE", "DE")
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Teams",
        format="knockout",
        entry_kind="team",
    )
    return {
        "gb": gb,
        "de": de,
        "event": event,
        "organiser": organiser,
        "captain": gb.captain.user,
        "deputy": gb.deputy.user,
        "member": gb.members.get(board=4).player.user,
        "other_captain": de.captain.user,
        "outsider": PlayerFactory(with_user=True, country="GB").user,
        "anonymous": None,
    }


TEAM_ROLES = ["organiser", "captain", "deputy", "member", "other_captain", "outsider", "anonymous"]


@pytest.mark.parametrize(
    "role,expected",
    zip(TEAM_ROLES, [OK, OK, OK, DENIED, DENIED, DENIED, DENIED], strict=True),
)
def test_the_team_page_roster_form(teams, role, expected):
    gb = teams["gb"]
    assert outcome(web(teams[role]).get(reverse("team-page", args=[gb.pk]))) == OK
    names = [m.player.display_name for m in selectors.team_roster(gb)]
    response = web(teams[role]).post(
        reverse("team-page", args=[gb.pk]), {"roster": "\n".join(reversed(names))}
    )
    assert outcome(response) == expected
    assert (selectors.team_roster(gb)[0].player.display_name == names[-1]) == (expected == OK)


@pytest.mark.parametrize(
    "role,expected",
    zip(TEAM_ROLES, [OK, DENIED, DENIED, DENIED, DENIED, DENIED, DENIED], strict=True),
)
def test_naming_the_captain_on_the_web(teams, role, expected):
    gb = teams["gb"]
    new_captain = gb.members.get(board=3).player
    response = web(teams[role]).post(
        reverse("team-officers", args=[gb.pk]), {"captain": new_captain.display_name}
    )
    assert outcome(response) == expected
    gb.refresh_from_db()
    assert (gb.captain_id == new_captain.pk) == (expected == OK)
    if role == "organiser":
        response = web(teams[role]).post(
            reverse("team-officers", args=[gb.pk]), {"captain": "Nobody Named So"}
        )
        assert response.status_code == 200 and "No player is named" in response.content.decode()


@pytest.mark.parametrize(
    "role,expected",
    zip(TEAM_ROLES, [OK, DENIED, DENIED, DENIED, DENIED, DENIED, DENIED], strict=True),
)
def test_new_team_and_lineup_deadline_pages(teams, organiser, role, expected):
    championship = teams["gb"].championship
    assert outcome(web(teams[role]).get(reverse("team-new", args=[championship.pk]))) == expected
    for team in (teams["gb"], teams["de"]):
        services.team_enter(actor=organiser, event=teams["event"], team=team)
    services.draw_generate(actor=organiser, event=teams["event"], draw_seed=1)
    round_ = teams["event"].rounds.get()
    url = reverse("round-lineup-deadline-set", args=[round_.pk])
    assert outcome(web(teams[role]).get(url)) == expected
    when = (timezone.now() + dt.timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    response = web(teams[role]).post(url, {"lineup_deadline": when})
    assert outcome(response) == expected
    # A bad date is a form error for the organiser, never a 500.
    if role == "organiser":
        response = web(organiser).post(url, {"lineup_deadline": "soon"})
        assert response.status_code == 200 and "Enter a valid date" in response.content.decode()
        api = client_for(organiser).post(
            f"/api/rounds/{round_.pk}/lineup-deadline/", {"lineup_deadline": "soon"}
        )
        assert api.status_code == 400 and "lineup_deadline" in api.json()


@pytest.mark.parametrize(
    "role,expected",
    zip(TEAM_ROLES, [OK, OK, OK, DENIED, BAD, DENIED, DENIED], strict=True),
)
def test_the_enter_a_team_page(teams, role, expected):
    """Organisers and GB's captain and deputy enter GB. DE's captain may open the page (to
    enter DE) but its form offers only DE: naming GB shows the form again (bad)."""
    url = reverse("team-enter", args=[teams["event"].pk])
    assert outcome(web(teams[role]).get(url)) == (OK if expected == BAD else expected)
    response = web(teams[role]).post(url, {"team": teams["gb"].pk})
    if expected == BAD:
        assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    else:
        assert outcome(response) == expected
    entered = Entry.objects.filter(event=teams["event"], team=teams["gb"]).exists()
    assert entered == (expected == OK)
