from __future__ import annotations

import itertools

from games import services as game_services
from games.models import RecordSource
from tests.games.helpers import as_body, confirm_after_commit, selfplay_record
from tournaments.models import Match

_seeds = itertools.count(10_000)


def match_record_body(match: Match, seed: int | None = None) -> bytes:
    """A self-played game between the match's two sides: two players, or two pairs (a pairs
    record: side A's partners in seats 0 and 2, side B's in 1 and 3)."""
    seed = next(_seeds) if seed is None else seed
    a, b = match.entry_a, match.entry_b
    if a.pair_id is not None:
        names = [
            a.pair.player_a.display_name,
            b.pair.player_a.display_name,
            a.pair.player_b.display_name,
            b.pair.player_b.display_name,
        ]
        return as_body(selfplay_record(seed, names, players="pairs"))
    names = [a.player.display_name, b.player.display_name]
    return as_body(selfplay_record(seed, names))


def submit_match_game(actor, match: Match, seed: int | None = None, *, confirm: bool = True):
    """Submit a self-played game between the match's two sides, for that match.

    A player's game is a report until the other side agrees: with `confirm` (the default) the
    opponent confirms it once it is adjudicated (on commit), so the match counts it as before.
    The championship's staff's games stand at once.
    """
    submission = game_services.record_submit(
        actor=actor,
        body=match_record_body(match, seed),
        source=RecordSource.API,
        extensions={"match": match.pk},
    )
    if confirm and submission.accepted:
        confirm_after_commit(submission.record.pk)
    return submission
