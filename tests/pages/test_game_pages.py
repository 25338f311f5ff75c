"""Game, record and game-list pages: the replay, human words, the match named by its players."""

from __future__ import annotations

import json
import re

import pytest
from django.core.cache import cache

from games.models import GameRecord
from games.replays import viewer as replays
from tests.factories import PlayerFactory
from tests.games.helpers import colour_mismatch_record, selfplay_record
from tests.pages.helpers import game_row, record_row
from tournaments import services
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def _replay_data(html: str) -> dict:
    start = html.index('<script id="replay-data" type="application/json">') + 49
    return json.loads(html[start : html.index("</script>", start)])


def test_game_page_has_the_replay_with_hands_and_marks(client, pair):
    record = selfplay_record(3, ["Ingrid", "Tomas"])
    game = game_row(pair, seed=3)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "<h1>Ingrid v Tomas</h1>" in html
    assert html.count('<g class="tile') == len(record["placements"])
    assert 'id="replay-step"' in html and "js/replay.js" in html
    assert "<script>" not in html  # the CSP allows no inline script
    data = _replay_data(html)
    assert data["names"] == ["Ingrid", "Tomas"]
    assert len(data["steps"]) == len(record["placements"])
    assert data["start_hands"] == record["hands"]
    assert any(step["forced"] for step in data["steps"])
    assert sum(step["endgame"] for step in data["steps"]) == 1
    assert "endgame from placement" in html and "forced placement" in html
    assert 'id="tile-56"' in html and "No tiles" in html  # every tile is placed at the end
    assert "best-" in html  # each colour's scoring line or loop is marked


def test_the_replay_is_computed_once_and_cached(client, pair, monkeypatch):
    cache.clear()
    game = game_row(pair)
    built = []
    original = replays._build
    monkeypatch.setattr(
        replays, "_build", lambda record: built.append(record.pk) or original(record)
    )
    first = client.get(f"/games/{game.pk}/").content
    second = client.get(f"/games/{game.pk}/").content
    assert built == [game.record_id]
    # Equal but for the CSRF token of the header's language form (masked afresh each time).
    token = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"')
    assert token.sub(b"", first) == token.sub(b"", second)


def test_invalid_record_shows_the_board_up_to_the_illegal_placement(client, pair):
    record = record_row(colour_mismatch_record(["Ingrid", "Tomas"]), pair)
    client.force_login(pair[0].user)
    html = client.get(f"/games/records/{record.pk}/").content.decode()
    assert record.status == "invalid"
    assert "The colours do not match" in html  # the rule in words, not COLOUR_MISMATCH
    assert "COLOUR_MISMATCH" not in html.split('id="replay-data"')[0].split("<details>")[0]
    assert "Where two tiles touch" in html
    assert 'class="tile illegal" data-step="2"' in html
    assert _replay_data(html)["illegal"]["number"] == 2


def test_a_malformed_record_has_no_board_and_no_field_prefix(client, pair):
    client.force_login(pair[0].user)
    client.post("/games/submit/", {"record": json.dumps(selfplay_record(5, ["Ingrid", "Nobody"]))})
    record = GameRecord.objects.get()
    html = client.get(f"/games/records/{record.pk}/").content.decode()
    assert "replay-board" not in html
    assert "A player in the record is not known here" in html
    verdict = html.split('id="verdict"')[1].split("</div>")[0]
    assert "record:" not in verdict and "detail:" not in verdict and "players:" not in verdict


def test_record_and_game_are_named_apart(client, pair):
    game = game_row(pair)
    record = game.record
    client.force_login(pair[0].user)
    html = client.get(f"/games/records/{record.pk}/").content.decode()
    assert f"Submitted record {record.pk}" in html
    assert f'href="/games/{game.pk}/">See the game' in html
    listing = client.get("/games/").content.decode()
    assert "Ingrid v Tomas" in listing and f'href="/games/{game.pk}/"' in listing


def test_match_games_link_back_to_the_match_by_players_and_round(client, organiser, admin_user):
    championship = services.championship_create(
        actor=organiser, name="Spring Open", year=2026, category="open", published=True
    )
    event = services.event_create(
        actor=organiser, championship=championship, name="Main", format="knockout"
    )
    for name in ("Ana", "Bela"):
        services.entry_register(
            actor=organiser, event=event, player=PlayerFactory(display_name=name)
        )
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    game = game_row([match.entry_a.player, match.entry_b.player], extensions={"match": match.pk})
    html = client.get(f"/games/{game.pk}/").content.decode()
    names = sorted([match.entry_a.player.display_name, match.entry_b.player.display_name])
    assert f'href="/championships/matches/{match.pk}/"' in html
    label = html.split(f'href="/championships/matches/{match.pk}/">')[1].split("<")[0]
    assert sorted(label.split(" (")[0].split(" v ")) == names
    assert "Round 1" in label or str(match.round) in label
    assert f"match {match.pk}" not in html

    client.force_login(organiser)
    submit_page = client.get(f"/games/submit/?match={match.pk}").content.decode()
    assert "This game will count for" in submit_page and label in submit_page
    client.force_login(admin_user)
    record_page = client.get(f"/games/records/{game.record_id}/").content.decode()
    assert label in record_page
