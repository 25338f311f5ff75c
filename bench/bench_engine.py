"""Timing of the rules engine (pure Python, no database).

Run with `python -m bench.bench_engine [--games N]` from the repository root. It plays N (default
200) two-player self-play games, then times adjudicating each complete game in this one process,
from the record as JSON text (what the worker receives) and from an already-parsed dict, and
times listing the legal moves of a mid-game position (about 20 tiles placed, free move due).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from games.engine import adjudicate, legal_moves, selfplay

MID_GAME = 20  # placements on the board in the legal-moves position


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _time_each(items: list, fn, rounds: int = 3) -> list[float]:
    """Per item, the best of ``rounds`` timings in milliseconds (the least disturbed run)."""
    best = [float("inf")] * len(items)
    for _ in range(rounds):
        for i, item in enumerate(items):
            start = time.perf_counter()
            fn(item)
            best[i] = min(best[i], (time.perf_counter() - start) * 1000)
    return best


def _sides(cells: set[tuple[int, int]], cell: tuple[int, int]) -> int:
    steps = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
    return sum((cell[0] + dq, cell[1] + dr) in cells for dq, dr in steps)


def _position(record: dict) -> dict:
    """A mid-game position with the free move due, as a tantrix-position/1 of the mover.

    The first free move of a turn from MID_GAME placements on: the first placement of a turn
    that is not into a forced space (the forced fills before it, if any, stay on the board).
    The record shows the mover then had no legal fill, so every legal placement is listed.
    """
    placements = record["placements"]
    cut = 0
    free_made = False
    for cut in range(1, 44):
        if placements[cut]["player"] != placements[cut - 1]["player"]:
            free_made = False
        cells = {(p["q"], p["r"]) for p in placements[:cut]}
        following = placements[cut]
        if _sides(cells, (following["q"], following["r"])) < 3:
            if not free_made and cut >= MID_GAME:
                break
            free_made = True
    hands = [list(hand) for hand in record["hands"]]
    bag = list(record["bag"])
    for p in placements[:cut]:
        hands[p["player"]].remove(p["tile"])
        if bag:
            hands[p["player"]].append(bag.pop(0))
    return {
        "format": "tantrix-position/1",
        "board": [
            {"tile": p["tile"], "q": p["q"], "r": p["r"], "rotation": p["rotation"]}
            for p in placements[:cut]
        ],
        "hand": hands[placements[cut]["player"]],
        "bag_empty": not bag,
        "free_move_made": False,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_engine")
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args(argv)

    start = time.perf_counter()
    records = [selfplay(seed) for seed in range(args.games)]
    played = time.perf_counter() - start
    texts = [json.dumps(record) for record in records]
    verdicts = [adjudicate(text) for text in texts]
    assert all(verdict["valid"] for verdict in verdicts), "a self-play game was not valid"

    from_text = _time_each(texts, adjudicate)
    from_dict = _time_each(records, adjudicate)
    positions = [_position(record) for record in records]
    moves = _time_each(positions, legal_moves)
    counts = [len(legal_moves(position)) for position in positions]

    start = time.perf_counter()
    for text in texts:
        adjudicate(text)
    throughput = len(texts) / (time.perf_counter() - start)

    print(f"Rules engine: {args.games} two-player self-play games, one CPython process")
    print(f"  self-play (generating the games)          {played / args.games * 1000:8.2f} ms/game")
    for label, times in (("from JSON text", from_text), ("from a parsed dict", from_dict)):
        print(
            f"  adjudicate one complete game, {label:<19}"
            f" median {statistics.median(times):6.3f} ms   p95 {_percentile(times, 0.95):6.3f} ms"
        )
    print(f"  games adjudicated per second (JSON text)  {throughput:8.0f} games/s")
    print(
        f"  legal moves, mid-game free move (~{MID_GAME} tiles) median "
        f"{statistics.median(moves):6.3f} ms   p95 {_percentile(moves, 0.95):6.3f} ms"
        f"   ({statistics.median(counts):.0f} moves median)"
    )


if __name__ == "__main__":
    main()
