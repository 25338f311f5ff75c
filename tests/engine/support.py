"""Test helpers for the rules engine, written independently of the engine's internals.

Colours, fits, the literal R3 simulation and the score recount are re-implemented here from
the words of rules.md (on ``(q, r)`` tuples and strings, no bit tricks), so that the engine's
precomputed tables and incremental bookkeeping are checked against something else.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from games.engine.tiles import TILE_DATA

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO.parent / "shared" / "spec"
EXAMPLES = SPEC / "examples"

COLOURS = {number: colours for number, colours, _, _ in TILE_DATA}
NAMES = {"R": "red", "Y": "yellow", "B": "blue", "G": "green"}
LETTERS = {name: letter for letter, name in NAMES.items()}
STEPS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))

Cell = tuple[int, int]
Board = dict[Cell, tuple[int, int]]  # (q, r) -> (tile, rotation)


def edges(tile: int, rotation: int) -> str:
    """The colour letter on edge i = 0..5 (rules.md: colours[(i - k) mod 6])."""
    colours = COLOURS[tile]
    return "".join(colours[(i - rotation) % 6] for i in range(6))


def neighbour(cell: Cell, edge: int) -> Cell:
    return cell[0] + STEPS[edge][0], cell[1] + STEPS[edge][1]


def required(board: Board, cell: Cell) -> dict[int, str]:
    """Colours the occupied neighbours of ``cell`` show towards it, by edge of ``cell``."""
    need = {}
    for edge in range(6):
        near = neighbour(cell, edge)
        if near in board:
            need[edge] = edges(*board[near])[(edge + 3) % 6]
    return need


def rotations(board: Board, cell: Cell, tile: int) -> list[int]:
    """Rotations of ``tile`` that match every occupied neighbour of ``cell``."""
    need = required(board, cell)
    return [k for k in range(6) if all(edges(tile, k)[e] == c for e, c in need.items())]


def fitting(board: Board, cell: Cell, tiles: Iterable[int]) -> set[int]:
    return {tile for tile in tiles if rotations(board, cell, tile)}


def sides(occupied: Iterable[Cell], cell: Cell) -> int:
    taken = set(occupied)
    return sum(neighbour(cell, edge) in taken for edge in range(6))


def frontier(occupied: Iterable[Cell]) -> set[Cell]:
    taken = set(occupied)
    return {neighbour(c, e) for c in taken for e in range(6)} - taken


def three_of_a_colour(board: Board, placed: Cell) -> bool:
    """R1 after the tile at ``placed`` went down: a neighbour with 3 sides of one colour."""
    for edge in range(6):
        space = neighbour(placed, edge)
        if space in board:
            continue
        need = required(board, space)
        if len(need) == 3 and len(set(need.values())) == 1:
            return True
    return False


def literal_r3(occupied: Iterable[Cell], placed: Cell, choose: Callable[[list[Cell]], Cell] = min):
    """R3 (with R2 as its first round) exactly as rules.md words it, on the whole board."""
    taken = set(occupied) | {placed}
    while True:
        counts: dict[Cell, int] = {}
        for cell in taken:
            for edge in range(6):
                near = neighbour(cell, edge)
                if near not in taken:
                    counts[near] = counts.get(near, 0) + 1
        if any(count >= 4 for count in counts.values()):
            return False
        candidates = sorted(cell for cell, count in counts.items() if count == 3)
        if not candidates:
            return True
        taken.add(choose(candidates))


def recount(board: Board, colour: str) -> tuple[int, int, list[tuple[str, int]]]:
    """(longest line, largest loop, every component) of one colour, by walking paths."""
    letter = LETTERS[colour]
    links: dict[Cell, list[Cell]] = {}
    for cell, (tile, rotation) in board.items():
        shown = edges(tile, rotation)
        if letter not in shown:
            continue
        links[cell] = []
        for edge in range(6):
            near = neighbour(cell, edge)
            if (
                shown[edge] == letter
                and near in board
                and edges(*board[near])[(edge + 3) % 6] == letter
            ):
                links[cell].append(near)
    seen: set[Cell] = set()
    components: list[tuple[str, int]] = []
    for start in links:
        if start in seen:
            continue
        group = {start}
        todo = [start]
        while todo:
            cell = todo.pop()
            for near in links[cell]:
                if near not in group:
                    group.add(near)
                    todo.append(near)
        seen |= group
        joins = sum(len(links[cell]) for cell in group) // 2
        components.append(("loop" if joins == len(group) else "line", len(group)))
    line = max((n for kind, n in components if kind == "line"), default=0)
    loop = max((n for kind, n in components if kind == "loop"), default=0)
    return line, loop, components


def board_of(record: dict[str, Any], upto: int | None = None) -> Board:
    placements = record["placements"][:upto]
    return {(p["q"], p["r"]): (p["tile"], p["rotation"]) for p in placements}


def position(board: Board | list[dict[str, int]], hand: list[int], bag_empty=False, free=False):
    if isinstance(board, dict):
        board = [
            {"tile": tile, "q": q, "r": r, "rotation": rotation}
            for (q, r), (tile, rotation) in board.items()
        ]
    return {
        "format": "tantrix-position/1",
        "board": board,
        "hand": hand,
        "bag_empty": bag_empty,
        "free_move_made": free,
    }


def random_blob(rng: random.Random, size: int) -> list[Cell]:
    """A random connected group of cells grown from (0, 0) (colours ignored)."""
    cells = [(0, 0)]
    taken = {(0, 0)}
    while len(cells) < size:
        base = rng.choice(cells)
        near = neighbour(base, rng.randrange(6))
        if near not in taken:
            taken.add(near)
            cells.append(near)
    return cells


class Script:
    """Builds a two-or-more-player record move by move, choosing matching tiles.

    Tiles that could fill any forced space the script makes are kept out of the hands and at
    the end of the bag (unless given to a seat on purpose), so that no forced-play duty arises
    that the test did not plan.
    """

    def __init__(self, colours: tuple[str, ...] = ("red", "blue")) -> None:
        self.colours = colours
        self.board: Board = {}
        self.moves: list[dict[str, int]] = []
        self.given: dict[int, list[int]] = {seat: [] for seat in range(len(colours))}
        self.dangerous: set[int] = set()

    def used(self) -> set[int]:
        return {move["tile"] for move in self.moves}

    def put(
        self,
        seat: int,
        q: int,
        r: int,
        tile: int | None = None,
        rotation: int | None = None,
        allow_r1: bool = False,
    ) -> tuple[int, int]:
        cell = (q, r)
        if tile is None:
            taken = self.used() | self.dangerous | {t for g in self.given.values() for t in g}
            for candidate in range(1, 57):
                if candidate in taken:
                    continue
                for k in rotations(self.board, cell, candidate):
                    trial = dict(self.board)
                    trial[cell] = (candidate, k)
                    if allow_r1 or not three_of_a_colour(trial, cell):
                        tile, rotation = candidate, k
                        break
                if tile is not None:
                    break
            assert tile is not None, f"no tile fits {cell}"
        elif rotation is None:
            rotation = rotations(self.board, cell, tile)[0]
        assert rotation is not None
        self.board[cell] = (tile, rotation)
        self.moves.append({"player": seat, "tile": tile, "q": q, "r": r, "rotation": rotation})
        self._note_forced()
        return tile, rotation

    def raw(self, seat: int, tile: int, q: int, r: int, rotation: int) -> None:
        """Append a placement as given, without touching the script's board."""
        self.moves.append({"player": seat, "tile": tile, "q": q, "r": r, "rotation": rotation})

    def _note_forced(self) -> None:
        for space in frontier(self.board):
            if sides(self.board, space) >= 3:
                self.dangerous |= fitting(self.board, space, range(1, 57)) - self.used()

    def give(self, seat: int, *tiles: int) -> None:
        self.given[seat].extend(tiles)
        self.dangerous -= set(tiles)

    def record(self, end: dict[str, Any] | None = None) -> dict[str, Any]:
        seats = len(self.colours)
        hands: list[list[int]] = [[] for _ in range(seats)]
        for move in self.moves:
            tile = move["tile"]
            seat = move["player"]
            if tile not in hands[seat] and not any(tile in hand for hand in hands):
                hands[seat].append(tile)
        for seat in range(seats):
            for tile in self.given[seat]:
                if tile not in hands[seat]:
                    hands[seat].append(tile)
        placed = {t for hand in hands for t in hand}
        safe = [t for t in range(1, 57) if t not in placed and t not in self.dangerous]
        risky = [t for t in range(1, 57) if t not in placed and t in self.dangerous]
        for hand in hands:
            assert len(hand) <= 6, "a scripted seat may use at most six tiles"
            while len(hand) < 6:
                hand.append(safe.pop(0))
        return {
            "format": "tantrix-game/1",
            "players": [
                {"name": f"player{seat}", "colour": colour}
                for seat, colour in enumerate(self.colours)
            ],
            "hands": hands,
            "bag": safe + risky,
            "placements": [dict(move) for move in self.moves],
            "end": end or {"reason": "resigned", "player": 0},
        }


# A 7-tile "flower" (centre and ring) whose outer single sides all show yellow. Tiles without
# yellow fit nowhere around it, so a player holding only such tiles is in a deadlock.
FLOWER = [
    (0, 28, 0, 0, 4),
    (1, 22, 0, -1, 5),
    (0, 15, 1, -1, 3),
    (1, 18, 1, 0, 1),
    (0, 5, 0, 1, 4),
    (1, 43, -1, 1, 2),
    (1, 23, -1, 0, 0),  # fills the forced space the previous placement made
]
NO_YELLOW_DEAD = [26, 27, 29, 37, 38, 39, 40, 42]


def flower_record(end: dict[str, Any] | None = None, upto: int = 7) -> dict[str, Any]:
    """Seat 1 completes the flower; seat 0 then holds six tiles that fit nowhere."""
    hands = [[28, 15, 5, 26, 27, 29], [22, 18, 43, 23, 40, 42]]
    dealt = set(hands[0] + hands[1])
    # Seat 0 draws after placements 1, 3 and 5: give it dead tiles there too.
    bag = [37, 1, 38, 2, 39, 3] + [t for t in range(4, 57) if t not in dealt | {37, 38, 39}]
    return {
        "format": "tantrix-game/1",
        "players": [{"name": "ana", "colour": "red"}, {"name": "bela", "colour": "blue"}],
        "hands": hands,
        "bag": bag,
        "placements": [
            {"player": s, "tile": t, "q": q, "r": r, "rotation": k}
            for s, t, q, r, k in FLOWER[:upto]
        ],
        "end": end or {"reason": "deadlock"},
    }


def matching_board(cells: list[Cell], skip: Iterable[int] = ()) -> Board:
    """Tiles (lowest numbers first) on ``cells`` so that every touching edge matches."""
    board: Board = {}
    used = set(skip)
    for cell in cells:
        for tile in range(1, 57):
            if tile in used:
                continue
            found = rotations(board, cell, tile)
            if found:
                board[cell] = (tile, found[0])
                used.add(tile)
                break
        else:
            raise AssertionError(f"no tile fits {cell}")
    return board


def spot(board: Board, tile: int, exclude: Iterable[Cell] = ()) -> tuple[int, int, int]:
    """Some empty cell next to the group where ``tile`` matches colours: (q, r, rotation)."""
    skip = set(exclude)
    for cell in sorted(frontier(board)):
        if cell in skip:
            continue
        found = rotations(board, cell, tile)
        if found:
            return cell[0], cell[1], found[0]
    raise AssertionError(f"tile {tile} fits nowhere")


def pick(board: Board, cell: Cell, need: dict[int, str], avoid: Iterable[int] = ()):
    """A (tile, rotation) matching the neighbours of ``cell`` and showing ``need`` on edges."""
    skip = {tile for tile, _ in board.values()} | set(avoid)
    for tile in range(1, 57):
        if tile in skip:
            continue
        for k in rotations(board, cell, tile):
            if all(edges(tile, k)[e] == c for e, c in need.items()):
                return tile, k
    raise AssertionError(f"no tile for {cell} with {need}")


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
