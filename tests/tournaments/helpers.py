from __future__ import annotations

import itertools

from games import services as game_services
from games.models import RecordSource
from tests.games.helpers import as_body, confirm_after_commit, selfplay_record
from tournaments.models import Match

_seeds = itertools.count(10_000)


def match_record_body(match: Match, seed: int | None = None) -> bytes:
    names = [match.entry_a.player.display_name, match.entry_b.player.display_name]
    return as_body(selfplay_record(next(_seeds) if seed is None else seed, names))


def submit_match_game(actor, match: Match, seed: int | None = None, *, confirm: bool = True):
    """Submit a self-played game between the match's two players, for that match.

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
