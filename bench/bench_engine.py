"""Timing of the rules engine (pure Python, no database), before and after side by side.

Run with `python -m bench.bench_engine [--games N]` from the repository root. It plays N (default
200) two-player self-play games, then times adjudicating each complete game in this one process,
from the record as JSON text (what the worker receives) and from an already-parsed dict, and
times listing the legal moves of a mid-game position (about 20 tiles placed, free move due).

"before" is the literal engine the fast one replaced (games.engine.literal with the original
board and record reader, and position.literal_legal_moves), kept in the tree as the oracle;
"after" is the public games.engine. Both are timed on the same records in the same process, two
ways:

- each engine alone, game after game (the way this bench timed the engine before issue 16, so
  these are the figures the issue's "four times faster than today" compares), the two taking
  turns by whole rounds so that a change in the machine's load falls on both;
- alternating item by item: the load falls on both more evenly still, but each engine then finds
  the CPU's caches filled by the other's tables, which costs the small fast engine a larger share
  of its time than the literal one (docs/rules.md, "Fourth pass"): the stricter figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from games.engine import adjudicate, legal_moves, literal, selfplay
from games.engine.position import literal_legal_moves

MID_GAME = 20  # placements on the board in the legal-moves position


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _best_times(
    items: list, first, second, *, alternate: bool, rounds: int = 3
) -> tuple[list[float], list[float]]:
    """Per item and function, the best of ``rounds`` timings in milliseconds (the least
    disturbed run). ``alternate``: the two functions take turns item by item; otherwise each
    runs over all the items alone, the two taking turns round by round."""
    best = [[float("inf")] * len(items), [float("inf")] * len(items)]
    fns = list(enumerate((first, second)))
    for _ in range(rounds):
        passes = [fns] if alternate else [[pair] for pair in fns]
        for turn in passes:
            for i, item in enumerate(items):
                for which, fn in turn:
                    start = time.perf_counter()
                    fn(item)
                    best[which][i] = min(best[which][i], (time.perf_counter() - start) * 1000)
    return best[0], best[1]


def _line(label: str, before: list[float], after: list[float]) -> str:
    old, new = statistics.median(before), statistics.median(after)
    return (
        f"  {label:<34} before median {old:6.3f} p95 {_percentile(before, 0.95):6.3f} ms"
        f" | after median {new:6.3f} p95 {_percentile(after, 0.95):6.3f} ms"
        f" | {old / new:4.1f}x faster"
    )


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

    assert all(
        literal.adjudicate(text) == verdict for text, verdict in zip(texts, verdicts, strict=True)
    )

    positions = [_position(record) for record in records]
    counts = [len(legal_moves(position)) for position in positions]
    cases = (
        ("adjudicate a game from JSON text", texts, literal.adjudicate, adjudicate),
        ("adjudicate a game from a parsed dict", records, literal.adjudicate, adjudicate),
        (f"legal moves, mid-game (~{MID_GAME} tiles)", positions, literal_legal_moves, legal_moves),
    )
    alone = [
        (label, *_best_times(items, old, new, alternate=False)) for label, items, old, new in cases
    ]
    paired = [
        (label, *_best_times(items, old, new, alternate=True)) for label, items, old, new in cases
    ]

    # Games a second over whole passes, the best of three for each engine (one pass is about
    # 0.2 s; a single one moved by a tenth with the machine's other work).
    throughput = {"before": 0.0, "after": 0.0}
    for _ in range(3):
        for name, fn in (("before", literal.adjudicate), ("after", adjudicate)):
            start = time.perf_counter()
            for text in texts:
                fn(text)
            rate = len(texts) / (time.perf_counter() - start)
            throughput[name] = max(throughput[name], rate)

    print(f"Rules engine: {args.games} two-player self-play games, one CPython process")
    print(f"  self-play (generating the games)          {played / args.games * 1000:8.2f} ms/game")
    print("  each engine alone, game after game (as this bench timed the engine before issue 16):")
    for label, before, after in alone:
        print(_line(label, before, after))
    print(
        f"  games adjudicated per second (JSON text)   before {throughput['before']:6.0f}"
        f" | after {throughput['after']:6.0f} games/s"
        f" | {throughput['after'] / throughput['before']:4.1f}x"
    )
    print("  the two engines alternating item by item (each meets the other's cache footprint):")
    for label, before, after in paired:
        print(_line(label, before, after))
    print(f"  ({statistics.median(counts):.0f} legal moves median in those positions)")


if __name__ == "__main__":
    main()
