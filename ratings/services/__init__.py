"""Writes for ratings: applying games, reverting, adjusting, recomputing, the Elo and titles.

Every write is one ``transaction.atomic`` block that first takes the PostgreSQL advisory lock of
each table it touches (``pg_advisory_xact_lock``, released at commit), always in the same order
so two writers cannot deadlock. Under the lock a table has one writer at a time: the ratings a
game is computed from are the latest committed ones, and "is this game already applied?" is
answered by committed data. The unique constraint ``rating_change_once_per_game_system`` backs
exactly-once in the database as well. Why advisory locks rather than row locks: a player's first
game has no Rating row to lock, and game order is a property of the whole table.

The maths is ``ratings.systems`` (pure); these modules only feed it rows and store the results.
One module per responsibility:

- ``locks``: the tables' advisory locks (``lock_tables``) and ``RatingsBusy``;
- ``audit``: who made a write and why (the acting user, the required note, the audit line);
- ``changes``: writing one change and the Rating row it moves; a table's start value;
- ``rated_games``: games as plain data, loaded in bulk, and as the facts a timeline replays;
- ``apply``: announcing games and applying them in batches, in game order;
- ``flags``: review flags written with the changes (swings, repeated results, invalidated games);
- ``scheduling``: at most one apply task queued or running, at most one Elo recalculation
  queued per event (published through ``tantrix_site.queueing``, never importing the tasks);
- ``sweep``: the beat sweep (missed games, invalidated games);
- ``corrections``: reverts and manual adjustments;
- ``reviews``: an admin's review actions, a repeated-results series reverted in one;
- ``titles``: Master titles;
- ``elo``: the tournament Elo of an event, anchoring;
- ``recompute``: recomputing tables from the whole history;
- ``timeline``: the game-by-game tables as timelines in game order (insert, void, replay);
- ``stored``: a timeline's stored rows as the replay reads them back;
- ``versions``: storing what a replay computed (new versions, the Rating rows);
- ``staff``: a recompute as a task with progress, an event's Elo now.

Reads live in ``ratings.selectors``. This package exports the public names, so callers keep
importing ``ratings.services``; a module's helpers that other modules need are public names of
that module, imported from it.
"""

from ratings import params as rating_params
from ratings.selectors import current_period, elo_events_changed, game_period
from ratings.services.apply import (
    AppliedBatch,
    game_ratings_announce,
    game_ratings_apply,
    games_ratings_announce,
    games_ratings_apply_announced,
)
from ratings.services.changes import start_value
from ratings.services.corrections import (
    change_revert,
    game_ratings_revert,
    game_result_replay,
    games_ratings_revert,
    rating_adjust,
)
from ratings.services.elo import EloRecalculation, elo_event_recalculate, elo_recalculate_changed
from ratings.services.flags import game_review_flag
from ratings.services.locks import LOCK_NOT_AVAILABLE, RatingsBusy
from ratings.services.recompute import Recompute, SystemRecompute, ratings_recompute
from ratings.services.reviews import (
    SeriesGame,
    review_approve,
    review_revert,
    review_revert_series,
    review_series,
)
from ratings.services.scheduling import (
    elo_event_release,
    enqueue_event_elo,
    enqueue_game_ratings,
    enqueue_games_ratings,
    enqueue_pending_ratings,
    ratings_apply_continue,
)
from ratings.services.staff import (
    event_elo_recalculate_now,
    recompute_progress,
    recompute_request,
    recompute_run,
)
from ratings.services.sweep import (
    games_flag_invalidated,
    games_ratings_apply_pending,
    ratings_sweep,
)
from ratings.services.titles import (
    ELIGIBILITY_MESSAGES,
    title_award,
    title_withdraw,
    titles_check_lapses,
)
from ratings.systems import duel_move, duel_tuple

__all__ = [
    "ELIGIBILITY_MESSAGES",
    "LOCK_NOT_AVAILABLE",
    "AppliedBatch",
    "EloRecalculation",
    "RatingsBusy",
    "Recompute",
    "SystemRecompute",
    "change_revert",
    "current_period",
    "duel_move",
    "duel_tuple",
    "elo_event_recalculate",
    "elo_events_changed",
    "elo_recalculate_changed",
    "elo_event_release",
    "enqueue_event_elo",
    "enqueue_game_ratings",
    "enqueue_games_ratings",
    "enqueue_pending_ratings",
    "game_period",
    "game_ratings_announce",
    "games_ratings_announce",
    "game_ratings_apply",
    "game_ratings_revert",
    "game_result_replay",
    "games_ratings_revert",
    "event_elo_recalculate_now",
    "recompute_progress",
    "recompute_request",
    "recompute_run",
    "review_revert_series",
    "review_series",
    "SeriesGame",
    "game_review_flag",
    "games_flag_invalidated",
    "games_ratings_apply_announced",
    "games_ratings_apply_pending",
    "rating_adjust",
    "rating_params",
    "ratings_apply_continue",
    "ratings_recompute",
    "ratings_sweep",
    "review_approve",
    "review_revert",
    "start_value",
    "title_award",
    "title_withdraw",
    "titles_check_lapses",
]
