"""Entering a player in junior events does not find their birthday (issue 26, defect 5).

An organiser chose the cut-off date of their own junior events freely and registered a player
in each: 201 or 400 gave one bit of the player's private date of birth, and a binary search over
cut-off dates gave the exact day in about a dozen tries. Now a junior event's age check answers
from the date of birth only to those who may know it (the player, staff, the organiser who
entered a player without an account); anyone else (an organiser, a controller adding a late
entry, a captain, a partner) is answered from the player's own confirmation of the event's rule,
and without it gets the same refusal whatever the date of birth.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse

from players import services as player_services
from tests.conftest import client_for
from tests.factories import PlayerFactory, UserFactory, make_organiser
from tournaments import services
from tournaments.models import AgeConfirmation, Entry, EntryStatus
from tournaments.opens.services.table_opens import (
    entry_late_add,
    table_open_create,
    table_open_start,
)

pytestmark = pytest.mark.django_db

EARLIEST, LATEST = dt.date(2024, 1, 1), dt.date(2030, 12, 31)  # cut-offs the search tries


@pytest.fixture
def championship(organiser):
    return services.championship_create(
        actor=organiser, name="Junior Cup", year=2026, category="junior", published=True
    )


def _junior(organiser, championship, cutoff: dt.date, **config):
    return services.event_create(
        actor=organiser,
        championship=championship,
        name=f"U16 {cutoff}",
        format="knockout",
        eligibility="junior",
        junior_age_limit=16,
        cutoff_date=cutoff,
        **config,
    )


def _anonymised(response, player) -> tuple[int, str]:
    """An answer as the organiser reads it, without what they already know (the player's name
    and id, the cut-off they chose, the new entry's id)."""
    text = response.content.decode().replace(player.display_name, "<player>")
    text = re.sub(r"\d{2} \w+ \d{4}", "<cut-off>", text)
    text = re.sub(r'"id":\s*\d+', '"id": <id>', text)
    return response.status_code, text


def _binary_search(organiser, championship, player) -> tuple[dt.date, list]:
    """The organiser's search for the first cut-off date on which the player is no longer
    under 16 (their sixteenth birthday): one new junior event and one registration a try."""
    lo, hi = EARLIEST, LATEST
    answers = []
    while lo < hi:
        cutoff = lo + (hi - lo) // 2
        event = _junior(organiser, championship, cutoff)
        response = client_for(organiser).post(
            f"/api/events/{event.pk}/register/", {"player": player.pk}, format="json"
        )
        answers.append(_anonymised(response, player))
        if response.status_code == 201:  # under 16 that day: the birthday is later
            lo = cutoff + dt.timedelta(days=1)
        else:
            hi = cutoff
    sixteenth = lo
    return sixteenth.replace(year=sixteenth.year - 16), answers


def test_an_organisers_binary_search_over_cutoff_dates_learns_nothing(organiser, championship):
    march = PlayerFactory(with_user=True, date_of_birth=dt.date(2011, 3, 14))
    september = PlayerFactory(with_user=True, date_of_birth=dt.date(2012, 9, 2))
    found_march, answers_march = _binary_search(organiser, championship, march)
    found_september, answers_september = _binary_search(organiser, championship, september)
    # Ten or more tries each, and every answer the same for both players: the search ends on
    # the same day for both, which is neither's birthday.
    assert len(answers_march) >= 10
    assert answers_march == answers_september
    assert found_march == found_september
    assert found_march not in (march.date_of_birth, september.date_of_birth)
    status, text = answers_march[0]
    assert status == 400 and "has not confirmed" in text and "not eligible" not in text
    assert not Entry.objects.filter(player__in=[march, september]).exists()


def test_the_players_confirmation_lets_an_organiser_enter_them_under_that_rule_only(
    organiser, championship
):
    player = PlayerFactory(with_user=True, date_of_birth=dt.date(2011, 3, 14))
    july = _junior(organiser, championship, dt.date(2026, 7, 1))
    confirmed = client_for(player.user).post(f"/api/events/{july.pk}/confirm-age/")
    assert confirmed.status_code == 201, confirmed.content
    assert confirmed.json() == {"age_limit": 16, "cutoff_date": "2026-07-01"}
    response = client_for(organiser).post(
        f"/api/events/{july.pk}/register/", {"player": player.pk}, format="json"
    )
    assert response.status_code == 201, response.content
    # Another event with the same rule takes the same confirmation; another rule does not.
    same_rule = _junior(organiser, championship, dt.date(2026, 7, 1), stage=2)
    services.entry_register(actor=organiser, event=same_rule, player=player)
    other_rule = _junior(organiser, championship, dt.date(2027, 3, 1))
    response = client_for(organiser).post(
        f"/api/events/{other_rule.pk}/register/", {"player": player.pk}, format="json"
    )
    assert response.status_code == 400 and "has not confirmed" in response.json()["player"][0]


def test_a_player_too_old_is_told_why_when_confirming_and_nobody_else_is(organiser, championship):
    player = PlayerFactory(with_user=True, display_name="Oldie", date_of_birth=dt.date(2009, 5, 5))
    event = _junior(organiser, championship, dt.date(2026, 7, 1))
    response = client_for(player.user).post(f"/api/events/{event.pk}/confirm-age/")
    assert response.status_code == 400
    assert "not eligible for this junior event" in response.json()["player"][0]
    assert not AgeConfirmation.objects.exists()
    # Not a junior event: nothing to confirm.
    open_event = services.event_create(
        actor=organiser, championship=championship, name="Open", format="knockout", stage=3
    )
    response = client_for(player.user).post(f"/api/events/{open_event.pk}/confirm-age/")
    assert response.status_code == 400 and "event" in response.json()
    # The web button says the same to the player, on the event's page.
    web = Client()
    web.force_login(player.user)
    page = web.get(reverse("event-page", args=[event.pk])).content.decode()
    assert "Confirm my age" in page
    page = web.post(reverse("event-age-confirm", args=[event.pk]), follow=True).content.decode()
    assert "not eligible for this junior event" in page


def test_who_is_told_from_the_date_of_birth(organiser, championship, admin_user):
    """The organiser who entered a player without an account (with the date of birth they
    gave) and staff are answered from it; another organiser is not."""
    ghost = player_services.player_create(
        actor=organiser, display_name="Ghost", country="DE", date_of_birth=dt.date(2009, 5, 5)
    )
    event = _junior(organiser, championship, dt.date(2026, 7, 1))
    other = make_organiser()
    other_championship = services.championship_create(
        actor=other, name="Other Cup", year=2026, category="junior", published=True
    )
    other_event = _junior(other, other_championship, dt.date(2026, 7, 1))
    young_ghost = player_services.player_create(
        actor=organiser, display_name="Young Ghost", country="DE", date_of_birth=dt.date(2012, 1, 1)
    )

    def refusal(actor, event_, player) -> str:
        response = client_for(actor).post(
            f"/api/events/{event_.pk}/register/", {"player": player.pk}, format="json"
        )
        assert response.status_code == 400, response.content
        return response.json()["player"][0]

    assert "not eligible" in refusal(organiser, event, ghost)
    assert "not eligible" in refusal(admin_user, event, ghost)
    other_words = refusal(other, other_event, ghost)
    assert "has not confirmed" in other_words
    assert refusal(other, other_event, young_ghost) == other_words.replace("Ghost", "Young Ghost")
    services.entry_register(actor=organiser, event=event, player=young_ghost)


def test_a_partner_or_captain_learns_nothing_either(organiser, championship):
    """A pair's asker is answered alike for an eligible and an ineligible partner (the partner's
    own confirmation checks it), an organiser naming two players is refused alike, and so is a
    captain entering a team, or a controller adding a late entry."""
    eligible = PlayerFactory(with_user=True, display_name="Eli", date_of_birth=dt.date(2012, 2, 2))
    too_old = PlayerFactory(with_user=True, display_name="Old", date_of_birth=dt.date(2008, 2, 2))
    cutoff = dt.date(2026, 7, 1)

    def pair_answers(partner):
        asker = PlayerFactory(with_user=True, date_of_birth=dt.date(2012, 6, 6))
        doubles = _junior(organiser, championship, cutoff, entry_kind="pair", stage=4)
        asked = client_for(asker.user).post(
            f"/api/events/{doubles.pk}/register-pair/", {"partner": partner.pk}, format="json"
        )
        other_doubles = _junior(organiser, championship, cutoff, entry_kind="pair", stage=6)
        named = client_for(organiser).post(
            f"/api/events/{other_doubles.pk}/register-pair/",
            {
                "player": PlayerFactory(created_by=organiser, date_of_birth=dt.date(2012, 1, 1)).pk,
                "partner": partner.pk,
            },
            format="json",
        )
        return _anonymised(asked, partner)[0], _anonymised(named, partner)

    assert pair_answers(eligible) == pair_answers(too_old)
    assert pair_answers(eligible)[0] == 201  # the request waits for the partner

    def team_answer(member):
        teams_event = _junior(organiser, championship, cutoff, entry_kind="team", stage=5)
        others = PlayerFactory.create_batch(4, with_user=True, date_of_birth=dt.date(2012, 3, 3))
        for player in others:  # everyone else on the roster has confirmed their age
            confirmed = client_for(player.user).post(f"/api/events/{teams_event.pk}/confirm-age/")
            assert confirmed.status_code == 201
        team = services.team_create(
            actor=organiser,
            championship=championship,
            name=f"Team {member.display_name}",
            country="DE",
            captain=others[0],
            roster=[*others, member],
        )
        response = client_for(others[0].user).post(
            f"/api/events/{teams_event.pk}/enter-team/", {"team": team.pk}, format="json"
        )
        return _anonymised(response, member)

    refused = team_answer(eligible)
    assert refused == team_answer(too_old)
    assert refused[0] == 400 and "has not confirmed" in refused[1]

    controller = UserFactory()
    championship.controllers.add(controller)
    opens = []
    for member in (eligible, too_old):
        event = table_open_create(
            actor=organiser,
            championship=championship,
            name=f"Open {member.pk}",
            system="swiss",
            swiss_rounds=3,
            eligibility="junior",
            junior_age_limit=16,
            cutoff_date=cutoff,
        )
        for _ in range(4):
            services.entry_register(
                actor=organiser,
                event=event,
                player=PlayerFactory(created_by=organiser, date_of_birth=dt.date(2012, 5, 5)),
            )
        event = table_open_start(actor=organiser, event=event, draw_seed=1)
        with pytest.raises(Exception) as late:
            entry_late_add(actor=controller, event=event, player=member)
        opens.append(str(late.value).replace(member.display_name, "<player>"))
    assert opens[0] == opens[1] and "has not confirmed" in opens[0]


def test_the_partner_confirms_the_pair_and_their_age_with_it(organiser, championship):
    asker = PlayerFactory(with_user=True, date_of_birth=dt.date(2012, 6, 6))
    partner = PlayerFactory(with_user=True, date_of_birth=dt.date(2011, 6, 6))
    doubles = _junior(organiser, championship, dt.date(2026, 7, 1), entry_kind="pair")
    asked = client_for(asker.user).post(
        f"/api/events/{doubles.pk}/register-pair/", {"partner": partner.pk}, format="json"
    )
    assert asked.status_code == 201
    # The organiser may not confirm it for the partner: they may not know the partner's age.
    by_organiser = client_for(organiser).post(f"/api/entries/{asked.json()['id']}/confirm-pair/")
    assert by_organiser.status_code == 400
    assert "has not confirmed" in by_organiser.json()["entry"][0]
    confirmed = client_for(partner.user).post(f"/api/entries/{asked.json()['id']}/confirm-pair/")
    assert confirmed.status_code == 200, confirmed.content
    assert Entry.objects.get(pk=asked.json()["id"]).status == EntryStatus.ACTIVE
    # Both have now said, in their own names, that they meet the rule.
    assert AgeConfirmation.objects.filter(player__in=[asker, partner]).count() == 2
