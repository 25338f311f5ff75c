"""Profile edits outside the test-wrapping transaction, as a server runs them (issue 26).

`player_update` locks the player row; when it lost its `@transaction.atomic` every edit answered
500 on PostgreSQL (select_for_update outside a transaction) while the suite, running each test in
a transaction, stayed green. Here no transaction surrounds the request: the web form and the API,
as the player, the organiser who entered an accountless player, and staff.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from tests.conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)

WHO = ["player", "organiser", "staff"]


@pytest.fixture
def edited(user_player, entered):
    """Whom each editor edits: the player their own profile, the others the entered player."""
    return {"player": user_player, "organiser": entered, "staff": entered}


@pytest.mark.parametrize("who", WHO)
def test_web_profile_edit_is_saved(client, people, edited, who):
    player = edited[who]
    client.force_login(people[who])
    fields = {"display_name": f"{player.display_name} Jr", "country": "CZ"}
    if who != "organiser":  # private fields: the player and staff only
        fields |= {"date_of_birth": "2011-03-04", "time_zone": "Europe/Prague", "language": "cs"}
    response = client.post(reverse("player-edit", args=[player.pk]), fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    player.refresh_from_db()
    assert (player.display_name, player.country.code) == (fields["display_name"], "CZ")
    if who != "organiser":
        assert player.date_of_birth == dt.date(2011, 3, 4)
        assert (player.time_zone, player.language) == ("Europe/Prague", "cs")


@pytest.mark.parametrize("who", WHO)
def test_api_profile_patch_is_saved(people, edited, who):
    player = edited[who]
    body = {"country": "HU"}
    if who != "organiser":
        body |= {"date_of_birth": "2010-05-06", "time_zone": "Europe/Budapest"}
    response = client_for(people[who]).patch(f"/api/players/{player.pk}/", body, format="json")
    assert response.status_code == 200, response.content.decode()[:2000]
    player.refresh_from_db()
    assert player.country.code == "HU"
    if who != "organiser":
        assert (player.date_of_birth, player.time_zone) == (dt.date(2010, 5, 6), "Europe/Budapest")
