"""Bulk entry (issue 28, item 3b): lines matched with suggestions; unknown names created only on
confirmation; everyone registered through the registration service, all or nothing."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from players.models import Player
from tests.factories import PlayerFactory, make_organiser
from tournaments import services
from tournaments.bulk_entry import selectors
from tournaments.bulk_entry.matching import Line
from tournaments.bulk_entry.services import Choice, LinesRefused, bulk_enter

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organiser):
    championship = services.championship_create(
        actor=organiser, name="Bulk Cup", year=2026, category="open", published=True
    )
    return services.event_create(
        actor=organiser, championship=championship, name="Main draw", format="knockout"
    )


@pytest.fixture
def known(db):
    return {
        "matilda": PlayerFactory(display_name="Matilda Thompson", country="NZ"),
        "noah": PlayerFactory(display_name="Noah Williams", country="NZ"),
        "lena": PlayerFactory(display_name="Lena Vogel", country="DE"),
    }


def test_lines_are_matched_exactly_then_by_close_names(event, known, organiser):
    services.entry_register(actor=organiser, event=event, player=known["lena"])
    matched = selectors.lines_matched(
        event,
        [
            Line(1, "noah williams", ""),
            Line(2, "Matilda Tompson", "NZ"),
            Line(3, "Completely New", "FR"),
            Line(4, "Lena Vogel", ""),
        ],
    )
    assert matched[0].exact == known["noah"] and matched[0].default_choice == f"p{known['noah'].pk}"
    assert matched[1].exact is None and matched[1].suggested[0] == known["matilda"]
    assert matched[1].default_choice == ""  # a close name: the organiser chooses
    assert matched[2].suggested == [] and matched[2].default_choice == "new"
    assert matched[3].entered and matched[3].default_choice == "skip"


def test_confirming_creates_the_new_players_and_enters_everyone(event, known, organiser):
    done = bulk_enter(
        actor=organiser,
        event=event,
        choices=[
            Choice(1, "Noah Williams", player_id=known["noah"].pk),
            Choice(2, "Matilda Tompson", player_id=known["matilda"].pk),
            Choice(3, "Completely New", "FR", create=True),
            Choice(4, "Someone Else"),  # left out
        ],
    )
    assert len(done.entries) == 3 and [p.display_name for p in done.created] == ["Completely New"]
    new = Player.objects.get(display_name="Completely New")
    assert new.user_id is None and new.country.code == "FR" and new.created_by == organiser
    assert set(event.entries.values_list("player_id", flat=True)) == {
        known["noah"].pk,
        known["matilda"].pk,
        new.pk,
    }


def test_one_bad_line_stores_nothing_and_says_which(event, known, organiser):
    services.entry_register(actor=organiser, event=event, player=known["lena"])
    with pytest.raises(LinesRefused) as refused:
        bulk_enter(
            actor=organiser,
            event=event,
            choices=[
                Choice(1, "Noah Williams", player_id=known["noah"].pk),
                Choice(2, "Brand New", "FR", create=True),
                Choice(3, "Lena Vogel", player_id=known["lena"].pk),
                Choice(4, "No Country", create=True),
                Choice(5, "Noah again", player_id=known["noah"].pk),
            ],
        )
    assert set(refused.value.lines) == {3, 4, 5}
    assert "already entered" in refused.value.lines[3][0]
    assert "country" in refused.value.lines[4][0]
    assert "line 1 already" in refused.value.lines[5][0]
    assert not Player.objects.filter(display_name="Brand New").exists()
    assert list(event.entries.values_list("player_id", flat=True)) == [known["lena"].pk]


def test_eligibility_is_the_registration_services(organiser, known):
    championship = services.championship_create(
        actor=organiser, name="Kiwi Cup", year=2026, category="national", published=True
    )
    national = services.event_create(
        actor=organiser,
        championship=championship,
        name="NZ only",
        format="knockout",
        eligibility="national",
        countries=["NZ"],
    )
    with pytest.raises(LinesRefused) as refused:
        bulk_enter(
            actor=organiser,
            event=national,
            choices=[
                Choice(1, "Noah Williams", player_id=known["noah"].pk),
                Choice(2, "Lena Vogel", player_id=known["lena"].pk),
            ],
        )
    assert list(refused.value.lines) == [2]
    assert not national.entries.exists()


def test_only_the_championships_organisers(event, known, user_player):
    for outsider in (make_organiser(), user_player.user):
        with pytest.raises(PermissionDenied):
            bulk_enter(
                actor=outsider,
                event=event,
                choices=[Choice(1, "Noah Williams", player_id=known["noah"].pk)],
            )


def test_the_page_matches_a_pasted_list_and_a_csv_then_confirms(client, event, known, organiser):
    client.force_login(organiser)
    url = reverse("event-bulk-entry", args=[event.pk])
    assert url in client.get(reverse("event-page", args=[event.pk])).content.decode()
    page = client.post(url, {"step": "match", "names": "Noah Williams\nMatilda Tompson, NZ\n"})
    body = page.content.decode()
    assert page.status_code == 200 and "Matilda Thompson (NZ): a close name" in body
    upload = SimpleUploadedFile("list.csv", b"name,country\nNew Person,FR\n", "text/csv")
    page = client.post(url, {"step": "match", "csv_file": upload})
    assert "New Person" in page.content.decode()
    rows = {
        "step": "confirm",
        "count": "3",
        **{"line_0": "1", "name_0": "Noah Williams", "choice_0": f"p{known['noah'].pk}"},
        **{"line_1": "2", "name_1": "Matilda Tompson", "country_1": "NZ"},
        **{"line_2": "3", "name_2": "New Person", "country_2": "FR", "choice_2": "new"},
    }
    unanswered = client.post(url, rows)
    assert unanswered.status_code == 400 and "Some lines have no choice yet" in (
        unanswered.content.decode()
    )
    assert not event.entries.exists()
    rows["choice_1"] = f"p{known['matilda'].pk}"
    done = client.post(url, rows, follow=True)
    text = done.content.decode()
    assert "3 players are entered in Main draw." in text and "1 new player without" in text
    assert event.entries.count() == 3


def test_the_api_matches_and_confirms_all_or_nothing(event, known, organiser):
    api = APIClient()
    api.force_authenticate(organiser)
    matched = api.post(
        f"/api/events/{event.pk}/bulk-entry/match/",
        {"names": "Noah Williams\nMatilda Tompson, NZ\nNew Person, FR"},
        format="json",
    )
    assert matched.status_code == 200, matched.data
    assert matched.data[0]["exact"]["id"] == known["noah"].pk
    assert matched.data[1]["suggestions"][0]["name"] == "Matilda Thompson"
    assert matched.data[2]["default"] == "new"
    bad = api.post(
        f"/api/events/{event.pk}/bulk-entry/",
        {
            "lines": [
                {"line": 1, "name": "Noah Williams", "player": known["noah"].pk},
                {"line": 3, "name": "New Person", "create": True},
            ]
        },
        format="json",
    )
    assert bad.status_code == 400 and list(bad.data["lines"]) == ["3"]
    assert not event.entries.exists()
    good = api.post(
        f"/api/events/{event.pk}/bulk-entry/",
        {
            "lines": [
                {"line": 1, "name": "Noah Williams", "player": known["noah"].pk},
                {"line": 3, "name": "New Person", "country": "fr", "create": True},
            ]
        },
        format="json",
    )
    assert good.status_code == 201, good.data
    assert len(good.data["entries"]) == 2 and len(good.data["created"]) == 1
    outsider = APIClient()
    outsider.force_authenticate(make_organiser())
    assert (
        outsider.post(
            f"/api/events/{event.pk}/bulk-entry/match/", {"names": "x"}, format="json"
        ).status_code
        == 403
    )
