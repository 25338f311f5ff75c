"""The player page's games section reads its data here: the players app only includes the
template (GamesConfig.player_page_sections), it never imports games."""

from __future__ import annotations

from django import template

from games.replays import selectors
from games.replays.sides import game_sides

register = template.Library()

RECENT_GAMES = 10


@register.simple_tag(takes_context=True)
def recent_games(context, player) -> list[dict]:
    """The player's latest games this viewer may see, each with the opponents and the result."""
    request = context.get("request")
    viewer = getattr(request, "user", None)
    games = selectors.game_list(viewer=viewer, player_id=player.pk)[:RECENT_GAMES]
    rows = []
    for game in games:
        seats = list(game.seats.all())
        mine = next((seat for seat in seats if seat.player_id == player.pk), None)
        if mine is None:
            continue
        if game.is_draw:
            result = "draw"
        elif game.winner_seat is None:
            result = ""
        elif game.winner_seat == mine.seat or (
            game.is_pairs and game.winner_seat % 2 == mine.seat % 2
        ):
            result = "won"
        else:
            result = "lost"
        rows.append(
            {
                "game": game,
                "mine": mine,
                "others": [seat for seat in seats if seat.player_id != player.pk],
                "result": result,
            }
        )
    return rows


@register.filter
def side_names(game) -> list[str]:
    """The game's sides as people name them: a pairs game's partners together
    ("Lucas & Noah", "Tomas & Aroha"), otherwise each player."""
    return game_sides(
        is_pairs=game.is_pairs, winner_seat=game.winner_seat, seats=list(game.seats.all())
    ).names
