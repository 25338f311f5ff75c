from __future__ import annotations

import copy
import json
from pathlib import Path

from games.engine import selfplay

SPEC_EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "spec" / "examples"


def selfplay_record(seed: int, names: list[str], players: str = "2") -> dict:
    record = copy.deepcopy(selfplay(seed, players))
    for seat, name in zip(record["players"], names, strict=True):
        seat["name"] = name
    return record


def as_body(record: dict) -> bytes:
    return json.dumps(record).encode("utf-8")


def colour_mismatch_record(names: list[str]) -> dict:
    """A two-player game whose 2nd placement is rotated so an edge colour differs."""
    for seed in range(200):
        record = selfplay_record(seed, names)
        second = record["placements"][1]
        for rotation in range(6):
            if rotation == second["rotation"]:
                continue
            candidate = copy.deepcopy(record)
            candidate["placements"][1]["rotation"] = rotation
            from games.engine import adjudicate

            verdict = adjudicate(candidate)
            if not verdict["valid"] and verdict["error"]["code"] == "COLOUR_MISMATCH":
                return candidate
    raise AssertionError("no colour-mismatch mutation found")
