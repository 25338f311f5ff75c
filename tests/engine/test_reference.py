"""The engine against a slow, literal adjudicator (``reference.py``) on perturbed games."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import adjudicate, selfplay

from .reference import reference_verdict
from .support import flower_record, perturb


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
