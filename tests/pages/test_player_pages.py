"""Player page (recent games, rating charts), rating pages, the time zone setting and dates."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone

from players.models import Player
from ratings import services as rating_services
from tests.pages.helpers import game_row
from tests.ratings.helpers import make_game

pytestmark = pytest.mark.django_db

DATE = re.compile(r"\b\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} [A-Z+\-0-9]+")


def _rated_games(pair, count=3):
    base = timezone.now() - dt.timedelta(days=count)
    for i in range(count):
        game = make_game(pair, [20 + i, 10], played_at=base + dt.timedelta(days=i))
        rating_services.game_ratings_apply(game_id=game.pk)


def test_player_page_lists_recent_games_with_links_and_results(client, pair):
    game = game_row(pair)
    html = client.get(f"/players/{pair[0].pk}/").content.decode()
    assert "Recent games" in html
    assert f'href="/games/{game.pk}/"' in html
    assert f'href="/players/{pair[1].pk}/">Tomas</a>' in html
    won = game.winner_seat == 0
    assert ("Won" if won else "Lost") in html
    assert f"/games/?player={pair[0].pk}" in html


def test_player_page_has_a_chart_with_axes_and_dates_for_each_ranking(client, pair):
    _rated_games(pair)
    html = client.get(f"/players/{pair[0].pk}/").content.decode()
    charts = re.findall(r'<svg class="rating-chart".*?</svg>', html, re.S)
    assert charts, "a chart for the lobby ranking"
    chart = charts[0]
    assert chart.count('class="axis"') == 2
    assert chart.count("<circle") == 3  # the rating at each point
    titles = re.findall(r"<title>([^<]+)</title>", chart)
    assert all(re.match(r"\d{1,2} [A-Z][a-z]{2} \d{4}: \d+\.\d", t) for t in titles), titles
    assert len(re.findall(r'text-anchor="end" dominant-baseline="middle">\d', chart)) >= 2


def test_rating_history_names_the_game_and_uses_the_site_date(client, pair):
    _rated_games(pair)
    html = client.get(f"/rankings/players/{pair[0].pk}/").content.decode()
    assert "the game</a>" in html and not re.search(r">game \d+<", html)
    assert DATE.search(html)
    assert not re.search(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}", html)


def test_empty_ranking_does_not_speak_of_the_top_0(client):
    html = client.get("/rankings/").content.decode()
    assert "The top 0" not in html


def test_dates_carry_the_time_zone_and_follow_the_players_setting(client, pair):
    game = game_row(pair, played_at=dt.datetime(2026, 1, 15, 12, 0, tzinfo=dt.UTC))
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "15 Jan 2026, 12:00 UTC" in html
    assert "Times are in UTC" in html

    Player.objects.filter(pk=pair[0].pk).update(time_zone="Europe/Paris")
    client.force_login(pair[0].user)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "15 Jan 2026, 13:00 CET" in html
    assert "Times are in Europe/Paris" in html


def test_time_zone_is_set_on_the_profile_page(client, pair):
    player = pair[0]
    client.force_login(player.user)
    form = client.get(f"/players/{player.pk}/edit/").content.decode()
    assert 'name="time_zone"' in form and "The site&#x27;s time zone (UTC)" in form
    response = client.post(
        f"/players/{player.pk}/edit/",
        {"display_name": "Ingrid", "country": player.country.code, "time_zone": "Asia/Tokyo"},
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.time_zone == "Asia/Tokyo"
    response = client.post(
        f"/players/{player.pk}/edit/",
        {"display_name": "Ingrid", "country": player.country.code, "time_zone": "Mars/Base"},
    )
    assert response.status_code == 200 and "Mars/Base" in response.content.decode()
    player.refresh_from_db()
    assert player.time_zone == "Asia/Tokyo"


def test_time_zone_through_the_api_is_private_and_checked(api_client, pair):
    player, other = pair
    api_client.force_authenticate(player.user)
    response = api_client.patch(f"/api/players/{player.pk}/", {"time_zone": "Europe/Oslo"})
    assert response.status_code == 200 and response.json()["time_zone"] == "Europe/Oslo"
    response = api_client.patch(f"/api/players/{player.pk}/", {"time_zone": "Nowhere/Land"})
    assert response.status_code == 400 and "time_zone" in response.json()
    api_client.force_authenticate(other.user)
    assert "time_zone" not in api_client.get(f"/api/players/{player.pk}/").json()
    response = api_client.patch(f"/api/players/{player.pk}/", {"time_zone": "UTC"})
    assert response.status_code == 403
    player.refresh_from_db()
    assert player.time_zone == "Europe/Oslo"
