"""Cross-check of the fast engine against the literal one on many self-play games.

Outside the suite (it takes minutes): ``python -m tests.engine.crosscheck --games 1000`` plays
that many games for each of 2, 3, 4 players and pairs, and for each game compares the verdicts
of the game itself, of a perturbed copy (tests/engine/support.perturb), of a copy cut short by
a resignation, and the legal moves of a position taken from it. Exit status 1 on any difference.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from games.engine import adjudicate, legal_moves, literal, selfplay
from games.engine.position import literal_legal_moves

from .support import board_of, perturb, position


def check_game(seed: int, players: str) -> list[str]:
    """The differences found on one game and its variants (empty: none)."""
    rng = random.Random(seed)
    record = selfplay(seed, players)
    found = []
    variants = [("game", record)]
    perturbed = json.loads(json.dumps(record))
    for _ in range(rng.randint(1, 3)):
        perturb(perturbed, rng)
    variants.append(("perturbed", perturbed))
    short = json.loads(json.dumps(record))
    del short["placements"][rng.randrange(len(short["placements"]) + 1) :]
    short["end"] = {"reason": "resigned", "player": rng.randrange(len(short["players"]))}
    short.pop("claimed_scores")
    variants.append(("resigned", short))
    for name, variant in variants:
        text = json.dumps(variant)
        if adjudicate(text) != literal.adjudicate(text):
            found.append(f"{players} seed {seed}: {name} verdicts differ")
    upto = rng.randrange(len(record["placements"]) + 1)
    board = board_of(record, upto)
    rest = [tile for tile in range(1, 57) if tile not in {t for t, _ in board.values()}]
    if rest:
        doc = position(board, rng.sample(rest, min(6, len(rest))), rng.random() < 0.3)
        if legal_moves(doc) != literal_legal_moves(doc):
            found.append(f"{players} seed {seed}: legal moves differ at {upto}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.engine.crosscheck")
    parser.add_argument("--games", type=int, default=1000, help="games per player count")
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args(argv)
    started = time.monotonic()
    differences: list[str] = []
    games = 0
    for players in ("2", "3", "4", "pairs"):
        for seed in range(args.first_seed, args.first_seed + args.games):
            differences += check_game(seed, players)
            games += 1
    print(
        f"{games} self-play games (x3 records: complete, perturbed, resigned; and one position"
        f" each): {len(differences)} differences, {time.monotonic() - started:.0f} s"
    )
    for line in differences[:20]:
        print(" ", line)
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
