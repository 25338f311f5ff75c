"""Nobody judges their own game (issue 26): a controller or organiser who plays in a match or
at a table neither rules on it nor reopens its ruling; another of the championship's rulers
does, or staff. The same rule as for game reports (tests/reports/test_authority.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import client_for
from tests.factories import PlayerFactory, UserFactory
from tests.tournaments.opens.helpers import open_championship
from tournaments import services
from tournaments.models import Match, TableResult
from tournaments.opens.services.score_sheets import table_results_enter
from tournaments.opens.services.table_disputes import table_result_dispute, table_result_rule
from tournaments.opens.services.table_opens import table_open_create, table_open_start
from tournaments.standings import round_tables

pytestmark = pytest.mark.django_db

PARTY = "You take part in it"


@pytest.fixture
def rulers(organiser):
    """A published championship with two controllers, the first of whom also plays."""
    championship, playing = open_championship(organiser)
    other = UserFactory()
    PlayerFactory(user=other)
    championship.controllers.add(other)
    return championship, playing, other


def test_a_controller_playing_in_a_match_does_not_rule_it(organiser, rulers):
    championship, playing, other = rulers
    event = services.event_create(
        actor=organiser, championship=championship, name="KO", format="knockout"
    )
    opponent = PlayerFactory(with_user=True)
    for player in (playing.player, opponent):
        services.entry_register(actor=organiser, event=event, player=player)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    body = {"winner": match.entry_a_id, "reason": "Seen it."}
    refused = client_for(playing).post(f"/api/matches/{match.pk}/rule/", body, format="json")
    assert refused.status_code == 403 and PARTY in refused.json()["detail"]
    web = Client()
    web.force_login(playing)
    page = web.get(reverse("match-page", args=[match.pk])).content.decode()
    assert reverse("match-rule-form", args=[match.pk]) not in page
    assert web.post(reverse("match-rule-form", args=[match.pk]), body).status_code == 403
    match.refresh_from_db()
    assert match.winner_id is None
    ruled = client_for(other).post(f"/api/matches/{match.pk}/rule/", body, format="json")
    assert ruled.status_code == 200, ruled.content


def test_a_controller_playing_at_a_table_does_not_rule_its_dispute(organiser, rulers):
    championship, playing, other = rulers
    event = table_open_create(
        actor=organiser, championship=championship, name="Open", system="swiss", swiss_rounds=3
    )
    field = [playing.player, *(PlayerFactory(with_user=True) for _ in range(3))]
    for player in field:
        services.entry_register(actor=organiser, event=event, player=player)
    event = table_open_start(actor=organiser, event=event, draw_seed=2)
    round_ = event.rounds.get(number=1)
    table_results_enter(
        actor=other,
        round_=round_,
        sheets={t.number: {"score_a": 20, "score_b": 11} for t in round_tables(round_)},
    )
    match = next(
        t.match
        for t in round_tables(round_)
        if playing.player.pk in (t.match.entry_a.player_id, t.match.entry_b.player_id)
    )
    opponent = (
        match.entry_b.player if match.entry_a.player == playing.player else match.entry_a.player
    )
    table_result_dispute(actor=opponent.user, match_id=match.pk, reason="I had 24.")
    url = f"/api/tables/{match.pk}/rule/"
    refused = client_for(playing).post(url, {"reason": "It stands."}, format="json")
    assert refused.status_code == 403 and PARTY in refused.json()["detail"]
    web = Client()
    web.force_login(playing)
    page_url = reverse("open-table-result", args=[match.pk])
    assert 'value="rule"' not in web.get(page_url).content.decode()
    assert web.post(page_url, {"action": "rule", "rule-reason": "It stands."}).status_code == 403
    assert TableResult.objects.get(match=match).state == "disputed"
    table_result_rule(actor=other, match_id=match.pk, reason="It stands.")
    # The organiser may reopen it (no party); a playing organiser could not.
    championship.organisers.add(playing)
    refused = client_for(playing).post(
        f"/api/tables/{match.pk}/reopen/", {"reason": "Again."}, format="json"
    )
    assert refused.status_code == 403 and PARTY in refused.json()["detail"]
    reopened = client_for(organiser).post(
        f"/api/tables/{match.pk}/reopen/", {"reason": "Again."}, format="json"
    )
    assert reopened.status_code == 200, reopened.content
