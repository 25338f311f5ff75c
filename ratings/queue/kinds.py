"""Which actions work for which item of the review queue: offered only there (pages, API) and
refused everywhere else (services), so no button ever answers "cannot".

- every open item: **acknowledge** (the ratings stay as they are; a note is optional);
- a large swing in a game-by-game table, a game ruled on or invalidated later, repeated results:
  **revert** (the game in every table it counts in);
- repeated results: **revert the series** (every game of it at once);
- a large swing in the tournament Elo: **revert games behind it** (the Elo is the event's games,
  so one of them is taken out of the ratings and the event recalculated without it);
- a large swing, in any table: **adjust** (a manual adjustment of that player in that table);
- a Master title lapse while the title is held: **end the title as lapsed**.
"""

from __future__ import annotations

from ratings.models import RatingSystem, Review, ReviewKind

ACKNOWLEDGE = "acknowledge"
REVERT = "revert"
REVERT_SERIES = "revert_series"
REVERT_GAMES = "revert_games"
ADJUST = "adjust"
END_TITLE = "end_title"
ACTIONS = (ACKNOWLEDGE, REVERT, REVERT_SERIES, REVERT_GAMES, ADJUST, END_TITLE)


def is_elo_swing(review: Review) -> bool:
    """A large swing of a tournament Elo change: it follows from an event's games."""
    change = review.change
    return (
        review.kind == ReviewKind.LARGE_SWING
        and change is not None
        and change.system == RatingSystem.ELO
        and change.event_id is not None
    )


def review_table(review: Review) -> str:
    """The table the item is about ("" for a title lapse, which is about a title)."""
    return review.change.system if review.change is not None else ""


def review_actions(review: Review, *, games_counting: bool = True) -> tuple[str, ...]:
    """The actions that work for this item now, in the order a page offers them; none once it is
    closed. ``games_counting``: an Elo swing still has a game behind it that counts."""
    if not review.is_open:
        return ()
    actions = [ACKNOWLEDGE]
    if review.kind == ReviewKind.TITLE_LAPSE:
        if review.title is not None and review.title.is_active:
            actions.append(END_TITLE)
        return tuple(actions)
    if is_elo_swing(review):
        if games_counting:
            actions.append(REVERT_GAMES)
    elif review.change_id is not None or review.game_id is not None:
        actions.append(REVERT)
        if review.kind == ReviewKind.REPEATED_RESULTS:
            actions.append(REVERT_SERIES)
    if review.kind == ReviewKind.LARGE_SWING and review.change is not None:
        actions.append(ADJUST)
    return tuple(actions)
