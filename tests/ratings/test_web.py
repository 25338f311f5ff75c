"""The ratings web pages: public rankings, histories and titles; the admins' review page."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from players.models import AuditEntry
from ratings import services
from ratings.models import EloStanding, Rating, Review, Title
from tests.factories import PlayerFactory
from tests.ratings.helpers import make_game, value

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(settings):
    settings.RATINGS_REVIEW_SWING_POINTS = 3.0
    a = PlayerFactory(display_name="Ingrid", country="DE")
    b = PlayerFactory(display_name="Tomas", country="CZ")
    # Played seconds ago, so the monthly table lists them whatever the day of the month.
    now = timezone.now()
    for i, scores in enumerate(([19, 10], [12, 20], [25, 24])):
        played = now - dt.timedelta(seconds=3 - i)
        services.game_ratings_apply(game_id=make_game([a, b], scores, played_at=played).pk)
    return a, b


@pytest.mark.parametrize("system", ["lobby", "monthly", "doubles", "master", "elo", "bogus"])
def test_ranking_page_for_every_table(client, rated, system):
    response = client.get(reverse("ranking-list"), {"system": system})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="ranking"' in html
    if system in ("lobby", "monthly", "bogus"):  # an unknown table falls back to the lobby
        assert "Ingrid" in html and "Tomas" in html


def test_ranking_page_filters_by_country_and_name(client, rated):
    html = client.get(reverse("ranking-list"), {"country": "cz"}).content.decode()
    assert "Tomas" in html and "Ingrid" not in html
    html = client.get(reverse("ranking-list"), {"q": "ingr"}).content.decode()
    assert "Ingrid" in html and "Tomas" not in html


def test_history_page_draws_the_chart(client, rated):
    a, _ = rated
    response = client.get(reverse("rating-history", args=[a.pk]), {"system": "lobby"})
    html = response.content.decode()
    assert response.status_code == 200
    assert '<svg class="rating-chart"' in html and "<polyline points=" in html
    assert html.count("<tr>") >= 4  # header and three changes
    assert f"{value(a):.2f}" in html


def test_player_page_shows_ratings_titles_and_a_history_link(client, rated, admin_user):
    a, _ = rated
    Title.objects.create(player=a, awarded_by=admin_user)
    html = client.get(reverse("player-detail", args=[a.pk])).content.decode()
    assert 'id="ratings"' in html
    assert "Lobby ranking" in html and "Master" in html
    assert reverse("rating-history", args=[a.pk]) in html


def test_titles_page(client, rated, admin_user):
    a, _ = rated
    Title.objects.create(player=a, awarded_by=admin_user)
    html = client.get(reverse("title-list")).content.decode()
    assert "Ingrid" in html and "Tomas" not in html


def test_review_page_is_for_admins_only(client, rated, user_player, organiser, admin_user):
    url = reverse("review-queue")
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
    for user in (user_player.user, organiser):
        client.force_login(user)
        assert client.get(url).status_code == 403
        assert client.post(reverse("rating-adjust"), {}).status_code == 403
    client.force_login(admin_user)
    html = client.get(url).content.decode()
    assert 'id="reviews"' in html and "Large swing" in html
    assert client.get(reverse("rating-audit")).status_code == 200


def test_review_page_leads_staff_to_the_verdict_reviews(client, admin_user):
    """Staff reached the verdict reviews (games/verdict-reviews/) only by typing the address
    (issue 26, found by the walks): the review page links to them."""
    client.force_login(admin_user)
    html = client.get(reverse("review-queue")).content.decode()
    assert f'href="{reverse("verdict-review-list")}"' in html


def test_admin_resolves_reviews_and_adjusts_on_the_web(client, rated, admin_user):
    a, _ = rated
    client.force_login(admin_user)
    first, second = Review.objects.order_by("id")[:2]
    client.post(reverse("review-action", args=[first.pk, "approve"]), {"note": "fine"})
    first.refresh_from_db()
    assert first.status == "approved" and first.reviewer == admin_user
    before = value(a)
    response = client.post(
        reverse("review-action", args=[second.pk, "revert"]), {"note": "farming"}
    )
    assert response.status_code == 302
    assert value(a) != before

    bad = client.post(
        reverse("rating-adjust"),
        {"player": "Nobody", "system": "lobby", "delta": "5", "reason": "x"},
    )
    assert bad.status_code == 400 and "No player is named" in bad.content.decode()
    ok = client.post(
        reverse("rating-adjust"),
        {"player": "ingrid", "system": "lobby", "value": "600", "reason": "restored"},
    )
    assert ok.status_code == 302 and value(a) == 600.0
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"review_approve", "review_revert", "adjustment"} <= actions
    html = client.get(reverse("rating-audit")).content.decode()
    assert "restored" in html and "farming" in html


def test_admin_awards_and_withdraws_a_title_on_the_web(client, admin_user):
    star = PlayerFactory(display_name="Star")
    Rating.objects.create(player=star, system="lobby", value=970.0, games=300)
    client.force_login(admin_user)
    refused = client.post(reverse("title-award"), {"player": "Star", "note": "ready"})
    assert refused.status_code == 400 and "no Elo-rated tournament" in refused.content.decode()
    EloStanding.objects.create(
        event_id=3,
        player=star,
        rating_before=1850,
        games_before=0,
        rating_after=1900,
        games_after=6,
        games=6,
        share=0.6,
        expected_share=0.5,
        performance=1900,
        opposition_average=1850,
    )
    assert (
        client.post(reverse("title-award"), {"player": "star", "note": "ready"}).status_code == 302
    )
    title = Title.objects.get(player=star)
    assert title.is_active and title.awarded_by == admin_user
    client.post(reverse("title-withdraw", args=[title.pk]), {"note": "retired", "lapsed": ""})
    title.refresh_from_db()
    assert title.status == "withdrawn" and title.end_note == "retired"
