"""Verdicts in words, time zone fallbacks, and pages whose queries do not grow with the data."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.engine import ERROR_CODES
from games.records import verdicts
from players.models import Player
from players.preferences.timezones import zone_for
from ratings import services as rating_services
from tests.factories import PlayerFactory
from tests.pages.helpers import game_row
from tests.ratings.helpers import make_game


def test_every_engine_code_has_words_and_a_rule():
    for code in ERROR_CODES:
        assert verdicts.code_label(code) != "The record was refused", code
        assert code not in verdicts.code_label(code)
    for code in set(ERROR_CODES) - {"MALFORMED"}:
        assert verdicts.rule_text(code), code


def test_error_text_drops_envelope_field_names_only():
    assert verdicts.error_text("detail: You did not play in this game.") == (
        "You did not play in this game."
    )
    assert verdicts.error_text("record: not JSON; match: You have no match 4") == (
        "Not JSON. You have no match 4."
    )
    assert verdicts.error_text("placements[3].tile: expected a tile number 1..56") == (
        "Placements[3].tile: expected a tile number 1..56."
    )


def test_an_unknown_stored_zone_falls_back_to_the_sites():
    assert zone_for("") is None
    assert zone_for("Atlantis/Capital") is None
    assert str(zone_for("Europe/Paris")) == "Europe/Paris"


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.django_db
def test_player_page_queries_do_not_grow_with_games_and_ratings(client):
    ingrid, tomas = (PlayerFactory(display_name=n, with_user=True) for n in ("Ingrid", "Tomas"))
    base = timezone.now() - dt.timedelta(days=30)

    def play(count: int, start: int) -> None:
        for i in range(start, start + count):
            game = make_game(
                [ingrid, tomas], [20, 10 + i % 5], played_at=base + dt.timedelta(hours=i)
            )
            rating_services.game_ratings_apply(game_id=game.pk)

    play(2, 0)
    few = _queries(client, f"/players/{ingrid.pk}/")
    play(15, 2)
    many = _queries(client, f"/players/{ingrid.pk}/")
    assert many == few


@pytest.mark.django_db
def test_game_page_queries_are_bounded_and_the_replay_cached(client):
    pair = [PlayerFactory(with_user=True) for _ in range(2)]
    game = game_row(pair)
    first = _queries(client, f"/games/{game.pk}/")
    again = _queries(client, f"/games/{game.pk}/")
    assert again <= first <= 10


@pytest.mark.django_db
def test_signed_in_reader_in_another_zone_sees_local_times(client):
    player = PlayerFactory(with_user=True)
    Player.objects.filter(pk=player.pk).update(time_zone="America/New_York")
    client.force_login(player.user)
    game = game_row(
        [player, PlayerFactory(with_user=True)],
        played_at=dt.datetime(2026, 7, 1, 12, 0, tzinfo=dt.UTC),
    )
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "1 Jul 2026, 08:00 EDT" in html
