"""A slow, literal adjudicator to cross-check the engine's fast one.

It reads rules.md and game-record.md as plainly as possible: (q, r) tuples, colours as letters,
R3 by the whole-board simulation of ``support.literal_r3``, forced fills and deadlocks by trying
every tile in every rotation on every cell, all recomputed from scratch at every step. It
shares no code with the engine but the tile data. Records must be well-formed (it does not
check the document).
"""

from __future__ import annotations

from typing import Any

from .support import (
    edges,
    frontier,
    literal_r3,
    neighbour,
    recount,
    required,
    sides,
)


class Reference:
    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.seats = len(record["players"])
        self.hands = [list(hand) for hand in record["hands"]]
        self.bag = list(record["bag"])
        self.board: dict[tuple[int, int], tuple[int, int]] = {}
        self.mover = 0
        self.free_done = False
        self.turn_used = False
        self.turns = 0
        self.endgame_from: int | None = None

    # -------------------------------------------------------------- the rules
    def restricted(self) -> bool:
        return bool(self.bag)

    def matches(self, cell, tile, k) -> bool:
        shown = edges(tile, k)
        return all(shown[e] == c for e, c in required(self.board, cell).items())

    def breach(self, cell, tile, k) -> str | None:
        trial = dict(self.board)
        trial[cell] = (tile, k)
        for edge in range(6):
            space = neighbour(cell, edge)
            if space not in trial:
                need = required(trial, space)
                if len(need) == 3 and len(set(need.values())) == 1:
                    return "THREE_OF_A_COLOUR"
        for edge in range(6):
            space = neighbour(cell, edge)
            if space not in trial and sides(trial, space) >= 4:
                return "FOUR_SIDED_SPACE"
        if not literal_r3(self.board, cell):
            return "CONTROLLED_SIDE"
        return None

    def legal(self, cell, tile, k) -> bool:
        if cell in self.board:
            return False
        if self.board and sides(self.board, cell) == 0:
            return False
        if not self.matches(cell, tile, k):
            return False
        return not self.restricted() or self.breach(cell, tile, k) is None

    def forced_spaces(self):
        return sorted(c for c in frontier(self.board) if sides(self.board, c) >= 3)

    def can_fill(self, seat) -> bool:
        return any(
            self.legal(cell, tile, k)
            for cell in self.forced_spaces()
            for tile in self.hands[seat]
            for k in range(6)
        )

    def can_place(self, seat) -> bool:
        cells = sorted(frontier(self.board)) if self.board else [(0, 0)]
        return any(
            self.legal(cell, tile, k)
            for cell in cells
            for tile in self.hands[seat]
            for k in range(6)
        )

    def next_with_tiles(self, seat):
        for step in range(1, self.seats + 1):
            if self.hands[(seat + step) % self.seats]:
                return (seat + step) % self.seats
        return None

    def settle(self) -> bool:
        """Pass the turn on while it is over; False when every hand is empty."""
        while True:
            if self.free_done:
                if self.hands[self.mover] and self.can_fill(self.mover):
                    return True
            elif self.hands[self.mover]:
                return True
            following = self.next_with_tiles(self.mover)
            if following is None:
                return False
            self.mover, self.free_done, self.turn_used = following, False, False

    # -------------------------------------------------------------- the replay
    def run(self) -> dict[str, Any]:
        for number, p in enumerate(self.record["placements"], 1):
            self.settle()
            code = self.judge(p)
            if code is not None:
                return {"valid": False, "code": code, "placement": number}
            self.put(number, p)
        return self.finish()

    def judge(self, p) -> str | None:
        mover = self.mover
        if not self.free_done and not self.can_fill(mover) and not self.can_place(mover):
            return "GAME_OVER"
        seat, tile, cell, k = p["player"], p["tile"], (p["q"], p["r"]), p["rotation"]
        forced_cell = cell not in self.board and bool(self.board) and sides(self.board, cell) >= 3
        if seat == mover:
            kind = "fill" if forced_cell else ("must fill" if self.free_done else "free")
        elif seat == self.next_with_tiles(mover) and self.can_fill(mover):
            kind = "skipped"
        else:
            return "WRONG_PLAYER"
        if tile not in self.hands[seat]:
            return "NOT_IN_HAND"
        if not self.board:
            return None
        if cell in self.board:
            return "OCCUPIED"
        if sides(self.board, cell) == 0:
            return "NOT_ADJACENT"
        if not self.matches(cell, tile, k):
            return "COLOUR_MISMATCH"
        if kind in ("must fill", "skipped") or (kind == "free" and self.can_fill(mover)):
            return "FORCED_PLAY_REQUIRED"
        if self.restricted():
            return self.breach(cell, tile, k)
        return None

    def put(self, number, p) -> None:
        forced_cell = bool(self.board) and sides(self.board, (p["q"], p["r"])) >= 3
        if not self.bag and self.endgame_from is None:
            self.endgame_from = number
        self.board[(p["q"], p["r"])] = (p["tile"], p["rotation"])
        hand = self.hands[p["player"]]
        hand.remove(p["tile"])
        if self.bag:
            hand.append(self.bag.pop(0))
        if not self.turn_used:
            self.turns += 1
            self.turn_used = True
        if not forced_cell:
            self.free_done = True

    def finish(self) -> dict[str, Any]:
        reason = self.record["end"]["reason"]
        if not self.settle():
            end = "completed"
        elif self.free_done or self.can_fill(self.mover) or self.can_place(self.mover):
            if reason not in ("resigned", "time"):
                return {"valid": False, "code": "INCOMPLETE", "placement": None}
            end = reason
        else:
            end = "deadlock"
        scores = []
        for player in self.record["players"]:
            line, loop, _ = recount(self.board, player["colour"])
            scores.append(max(line, 2 * loop))
        return {
            "valid": True,
            "scores": scores,
            "end": end,
            "turns": self.turns,
            "endgame_from": self.endgame_from,
        }


def reference_verdict(record: dict[str, Any]) -> dict[str, Any]:
    return Reference(record).run()
