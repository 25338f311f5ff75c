"""Words, not codes, where people read (issue 28): a pairs game's sides and winner, the match a
refused record was for, the team tie-breaks of the event form, an event's extra games."""

from __future__ import annotations

from html import unescape
from types import SimpleNamespace

import pytest
from django.urls import reverse

from games.models import Game
from games.replays.sides import game_sides
from tests.tournaments.helpers import submit_match_game
from tests.tournaments.test_doubles import doubles_event, enter_pairs
from tournaments import services
from tournaments.forms import team_tiebreak_choices
from tournaments.models import Match, MatchGame


@pytest.fixture
def championship(organiser):
    return services.championship_create(
        actor=organiser, name="Words Cup", year=2026, category="open", published=True
    )


def _seats(*names: str) -> list:
    return [
        SimpleNamespace(seat=i, player=SimpleNamespace(display_name=n)) for i, n in enumerate(names)
    ]


def test_a_pairs_game_has_two_sides_of_two_partners():
    seats = _seats("Lucas", "Tomas", "Noah", "Aroha")  # one pair in seats 1 and 3
    sides = game_sides(is_pairs=True, winner_seat=2, seats=seats)
    assert sides.names == ["Lucas & Noah", "Tomas & Aroha"]
    assert sides.winner == "Lucas & Noah"
    assert game_sides(is_pairs=True, winner_seat=3, seats=seats).winner == "Tomas & Aroha"
    assert game_sides(is_pairs=True, winner_seat=None, seats=seats).winner is None
    two = game_sides(is_pairs=False, winner_seat=1, seats=_seats("Lucas", "Tomas"))
    assert two.names == ["Lucas", "Tomas"] and two.winner == "Tomas"


def test_the_team_tiebreaks_are_offered_in_words():
    choices = dict(team_tiebreak_choices())
    assert choices[""].startswith("More boards won → The better result on board 1 → Extra games")
    assert choices["board_1,boards_won"] == "The better result on board 1 → More boards won"
    assert "extra_games,board_1" not in choices  # extra games come last, or not at all
    assert not any("_" in label for label in choices.values())
    assert len(choices) == 9


@pytest.mark.django_db
def test_a_pairs_game_page_reads_pair_v_pair(
    client, organiser, championship, django_capture_on_commit_callbacks
):
    event = doubles_event(organiser, championship, games_per_match=2)
    enter_pairs(organiser, event, 2)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        submit_match_game(organiser, match)
    game = Game.objects.get(pk=MatchGame.objects.get(match=match).game_id)
    seats = sorted(game.seats.select_related("player"), key=lambda s: s.seat)
    names = [s.player.display_name for s in seats]
    first, second = f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"
    page = unescape(client.get(reverse("game-detail", args=[game.pk])).content.decode())
    assert f"<h1>{first} v {second}</h1>" in page
    if not game.is_draw:
        winner = first if game.winner_seat % 2 == 0 else second
        assert f"Won by {winner}" in page and "and partner" not in page
    listing = unescape(client.get(reverse("game-list")).content.decode())
    assert f"{first} v {second}" in listing


@pytest.mark.django_db
def test_a_refused_record_names_the_match_in_words(organiser, championship):
    from games import services as game_services
    from games.models import RecordSource
    from tests.games.helpers import as_body, selfplay_record

    event = doubles_event(organiser, championship, games_per_match=1, name="Harbour Doubles")
    enter_pairs(organiser, event, 2)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    a, b = match.entry_a.pair, match.entry_b.pair
    names = [p.display_name for p in (a.player_a, a.player_b, b.player_a, b.player_b)]
    submission = game_services.record_submit(
        actor=a.player_a.user,
        body=as_body(selfplay_record(5, names, players="pairs")),  # partners side by side
        source=RecordSource.API,
        extensions={"match": match.pk},
    )
    refusal = str(submission.refusal)
    assert "This match (Harbour Doubles, Final) is " in refusal, refusal
    assert f"Match {match.pk}" not in refusal


@pytest.mark.django_db
def test_extra_games_under_a_tenth_of_a_tp_read_if_level(client, organiser, championship):
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Level Cup",
        format="knockout",
        max_extra_games=3,
        extra_game_margin="0.1",
    )
    page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    assert "if level, up to 3 extra games" in page and "lead is under" not in page
    event.extra_game_margin = "5"
    event.save(update_fields=["extra_game_margin"])
    page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    assert "up to 3 extra games while the lead is under 5.0 TPs" in page
