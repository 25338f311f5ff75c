"""Pure-maths recompute of the lobby ranking over a long synthetic history.

Run: ``python -m bench.bench_ratings_math [--games N] [--players N] [--seed N]``.

The history is generated first (not timed) with a seeded random: each player has a hidden
strength, a game's winner is drawn from the strengths, margins are 1 to 30 tiles with small
margins commoner, one game in ten is against a robot and one in fifty is a draw. Then
``recompute_lobby`` replays it, without and with per-game history, and the games per second are
printed. The database-backed recompute has its own bench.
"""

from __future__ import annotations

import argparse
import random
import time

from ratings.systems import recompute_lobby

Game = tuple[int, int, int, bool] | tuple[int, int, int, int, bool]


def synthetic_history(games: int, players: int, seed: int) -> list[Game]:
    rnd = random.Random(seed)
    strength = [rnd.lognormvariate(0.0, 1.0) for _ in range(players)]
    history: list[Game] = []
    append = history.append
    for _ in range(games):
        a = rnd.randrange(players)
        b = rnd.randrange(players - 1)
        if b >= a:
            b += 1
        robot = rnd.random() < 0.1
        if rnd.random() < 0.02:
            score = rnd.randrange(5, 40)
            append((a, b, score, score, robot))
            continue
        margin = min(30, 1 + int(rnd.expovariate(1 / 7)))
        if rnd.random() * (strength[a] + strength[b]) < strength[a]:
            append((a, b, margin, robot))
        else:
            append((b, a, margin, robot))
    return history


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500_000)
    parser.add_argument("--players", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args(argv)

    history = synthetic_history(args.games, args.players, args.seed)
    print(f"lobby recompute: {len(history):,} games, {args.players:,} players, seed {args.seed}")
    for with_history in (False, True):
        began = time.perf_counter()
        result = recompute_lobby(history, history=with_history)
        elapsed = time.perf_counter() - began
        label = "with per-game history" if with_history else "final ratings only"
        print(
            f"  {label:24} {elapsed:6.2f} s  {len(history) / elapsed:12,.0f} games/s"
            f"  (top rating {max(result.ratings.values()):.1f},"
            f" mean {sum(result.ratings.values()) / len(result.ratings):.1f})"
        )


if __name__ == "__main__":
    main()
