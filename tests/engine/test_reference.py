"""The engine against a slow, literal adjudicator (``reference.py``) on perturbed games."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import adjudicate, selfplay

from .reference import reference_verdict
from .support import board_of, flower_record, frontier, rotations


def relocate(record: dict, i: int, rng: random.Random) -> None:
    """Move placement i to another cell where its tile matches colours (restrictions aside)."""
    moves = record["placements"]
    board = board_of(record, i)
    options = [
        (cell, k)
        for cell in sorted(frontier(board))
        for k in rotations(board, cell, moves[i]["tile"])
    ]
    if board and options:
        (q, r), k = rng.choice(options)
        moves[i].update(q=q, r=r, rotation=k)


def perturb(record: dict, rng: random.Random) -> None:
    moves = record["placements"]
    if not moves:  # an earlier perturbation cut every placement: nothing left to change
        return
    i = rng.randrange(len(moves))
    kind = rng.randrange(9)
    if kind >= 7:
        relocate(record, i, rng)
    elif kind == 0:
        j = rng.randrange(len(moves))
        moves[i], moves[j] = moves[j], moves[i]
    elif kind == 1:
        moves[i]["rotation"] = rng.randrange(6)
    elif kind == 2:
        moves[i][rng.choice(["q", "r"])] += rng.choice([-1, 1])
    elif kind == 3:
        moves[i]["player"] = rng.randrange(len(record["players"]))
    elif kind == 4:
        moves[i]["tile"] = rng.randrange(1, 57)
    elif kind == 5:
        del moves[i:]
    else:
        record["end"] = rng.choice(
            [{"reason": "completed"}, {"reason": "deadlock"}, {"reason": "time", "player": 1}]
        )
        del moves[i:]


def compare(record: dict) -> None:
    verdict = adjudicate(record)
    expected = reference_verdict(record)
    assert verdict["valid"] == expected["valid"], (verdict, expected)
    if verdict["valid"]:
        for key in ("scores", "end", "turns", "endgame_from"):
            assert verdict[key] == expected[key], key
    else:
        assert verdict["error"]["code"] == expected["code"], (verdict, expected)
        assert verdict["error"]["placement"] == expected["placement"]


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from(["2", "3", "4", "pairs"]),
    changes=st.integers(0, 2),
)
def test_engine_agrees_with_the_literal_reference(seed: int, players: str, changes: int) -> None:
    rng = random.Random(seed)
    record = selfplay(seed, players)
    for _ in range(changes):
        perturb(record, rng)
    compare(record)


def test_reference_agrees_on_the_deadlock_game() -> None:
    compare(flower_record())
    compare(flower_record(upto=6))
