"""The literal replay: the engine as first written, kept as the oracle and the error writer.

The fast replay (``fast``/``adjudicate``) hands every record it does not accept to this module,
which writes the invalid verdict with its message; the tests check that both agree on
valid records. What follows is the original description.

Replaying a game record and judging it: the verdict of ``tantrix-game/1``.

The record lists placements only; the turn structure (forced stage, free move, forced stage) is
derived here as the replay goes, and each placement is judged against it. Checks are ordered by
cost: seat, hand, cell and colours first, the forced-play duty (a search of the mover's fills,
only when forced spaces exist) next, then R1/R2 around the cell and the R3 simulation last. A
full search for any legal placement is made only where it decides something the record does not
show by itself: whether an error is really a placement after a deadlock, and how a record that
stops early ended.
"""

from __future__ import annotations

from typing import Any, NoReturn

from . import errors as E
from .board import Board, Breach
from .errors import MalformedRecord
from .jsonio import number
from .lines import line_report
from .record import Placement, Record, parse_record
from .tables import BIT_NAME, NAME_BIT, WORDS

# How the placement being judged relates to the turn structure.
_FREE = "free move"
_FILL = "fill"
_MUST_FILL = "placement after the free move"
_SKIPPED = "placement by the next seat"


def adjudicate(record: Any) -> dict[str, Any]:
    """Judge a ``tantrix-game/1`` record; return the verdict dict of game-record.md.

    ``record`` may be JSON text, UTF-8 bytes or already-parsed data. Never raises for any
    input: whatever is wrong with the record is reported in the verdict.
    """
    try:
        parsed = parse_record(record)
    except MalformedRecord as exc:
        return invalid(E.MALFORMED, None, None, str(exc))
    return LiteralReplay(parsed).run()


def invalid(code: str, placement: int | None, player: int | None, message: str) -> dict[str, Any]:
    """An invalid verdict."""
    return {
        "valid": False,
        "error": {"code": code, "placement": placement, "player": player, "message": message},
    }


class ReplayStop(Exception):
    """Carries an invalid verdict out of the replay (control flow: `run` and the replay viewer
    catch it)."""

    def __init__(self, verdict: dict[str, Any]) -> None:
        super().__init__(verdict["error"]["code"])
        self.verdict = verdict


class LiteralReplay:
    """One record replayed placement by placement and judged as it goes; the replay viewer's
    recorder (`replay.py`) extends it."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.seats = record.seats
        self.colour_bits = tuple(NAME_BIT[colour] for colour in record.colours)
        self.board = Board(colours=dict.fromkeys(self.colour_bits))
        self.hands: list[list[int]] = [list(hand) for hand in record.hands]
        self.bag = record.bag
        self.drawn = 0
        self.mover = 0
        self.free_done = False
        self.turn_used = False
        self.turns = 0
        self.over = False
        self.endgame_from: int | None = None
        self.last_seat: int | None = None
        self.placed_at: dict[int, int] = {}  # tile -> 1-based placement number
        self.step = 0
        self._fill_key: tuple[int, int] | None = None
        self._fill: tuple[int, int, int] | None = None

    # ------------------------------------------------------------------ turn structure
    @property
    def restricted(self) -> bool:
        # R1-R3 apply while the bag is not empty at the moment of the placement.
        return self.drawn < len(self.bag)

    def fill_for(self, seat: int) -> tuple[int, int, int] | None:
        """A legal fill (cell, tile, rotation) of a forced space from ``seat``'s hand, if any."""
        key = (self.step, seat)
        if self._fill_key != key:
            self._fill = self.board.first_forced_fill(self.hands[seat], self.restricted)
            self._fill_key = key
        return self._fill

    def next_with_tiles(self, seat: int) -> int | None:
        """The next seat in order (possibly ``seat`` itself, last) that holds tiles."""
        for step in range(1, self.seats + 1):
            candidate = (seat + step) % self.seats
            if self.hands[candidate]:
                return candidate
        return None

    def settle(self) -> None:
        """Pass the turn on while the mover's turn is over (or the mover has no tiles)."""
        while True:
            mover = self.mover
            if self.free_done:
                if self.hands[mover] and self.fill_for(mover) is not None:
                    return  # forced stage after the free move goes on
            elif self.hands[mover]:
                return
            following = self.next_with_tiles(mover)
            if following is None:
                self.over = True
                return
            self.mover = following
            self.free_done = False
            self.turn_used = False

    # ------------------------------------------------------------------ replay
    def run(self) -> dict[str, Any]:
        try:
            for number_, placement in enumerate(self.record.placements, 1):
                self.settle()
                self.judge(number_, placement)
            return self.finish()
        except ReplayStop as stop:
            return stop.verdict

    def judge(self, number_: int, placement: Placement) -> None:
        seat, tile, q, r, rotation = (
            placement.player,
            placement.tile,
            placement.q,
            placement.r,
            placement.rotation,
        )
        board = self.board
        mover = self.mover
        first = board.is_empty()
        cell = None if first else board.key(q, r)
        if seat == mover:
            if cell is not None and cell in board.forced:
                kind = _FILL
            elif self.free_done:
                kind = _MUST_FILL
            else:
                kind = _FREE
        elif seat == self.next_with_tiles(mover) and self.fill_for(mover) is not None:
            kind = _SKIPPED
        else:
            self.fail(E.WRONG_PLAYER, number_, placement, self.wrong_player(number_, placement))

        hand = self.hands[seat]
        if tile not in hand:
            self.fail(E.NOT_IN_HAND, number_, placement, self.not_in_hand(number_, placement))
        if first:
            board.set_origin(q, r)
            cell = board.key(q, r)
            assert cell is not None
        else:
            if cell is not None and board.occupied(cell):
                held = board.placed[cell][0]
                self.fail(
                    E.OCCUPIED,
                    number_,
                    placement,
                    f"{self.at(number_, placement)}: the cell already holds tile {held} "
                    f"(placement {self.placed_at[held]})",
                )
            if cell is None or board.neighbours(cell) == 0:
                self.fail(
                    E.NOT_ADJACENT,
                    number_,
                    placement,
                    f"{self.at(number_, placement)}: the cell touches no placed tile",
                )
            word = WORDS[tile][rotation]
            if board.mismatches(cell, word):
                self.fail(
                    E.COLOUR_MISMATCH,
                    number_,
                    placement,
                    f"{self.at(number_, placement, rotated=True)}: an edge colour differs from "
                    "the tile it touches",
                )
            # A fill attempt is judged by the rules it breaks; anything else with a legal fill
            # pending skips forced play.
            if kind != _FILL and (kind != _FREE or self.fill_for(mover) is not None):
                self.fail(
                    E.FORCED_PLAY_REQUIRED,
                    number_,
                    placement,
                    self.forced_play(number_, placement, kind),
                )
            if self.restricted:
                breach = board.breach(cell, word)
                if breach is not None:
                    self.fail(
                        breach.code, number_, placement, self.breach(number_, placement, breach)
                    )

        # The placement is legal: put it down, draw, and move the turn structure on.
        board.place(cell, tile, rotation)
        hand.remove(tile)
        if self.drawn < len(self.bag):
            hand.append(self.bag[self.drawn])
            self.drawn += 1
        elif self.endgame_from is None:
            self.endgame_from = number_
        self.step += 1
        self.placed_at[tile] = number_
        self.last_seat = seat
        if not self.turn_used:
            self.turns += 1
            self.turn_used = True
        if kind == _FREE:
            self.free_done = True

    def finish(self) -> dict[str, Any]:
        record = self.record
        self.settle()
        if self.over:
            # Every tile is placed: the game is complete, whatever the record's end says.
            end = "completed"
        else:
            mover = self.mover
            hand = self.hands[mover]
            fill = self.fill_for(mover)
            option = fill
            if option is None and not self.free_done:
                option = self.board.first_placement(hand, self.restricted)
            if option is None:
                # The free move is due and the mover holds tiles but cannot place: a deadlock,
                # whatever the record's end says (a deadlock ends the game at once).
                end = "deadlock"
            elif record.end_reason in ("resigned", "time"):
                end = record.end_reason
            else:
                last = len(record.placements)
                cell, tile, rotation = option
                where = self.cell_text(cell)
                if fill is not None:
                    still = (
                        f"must still fill the forced space at {where} "
                        f"(tile {tile} fits, rotation {rotation})"
                    )
                else:
                    still = f"could still place, e.g. tile {tile} at {where}, rotation {rotation}"
                if record.end_reason == "deadlock":
                    opening = "the record's end says deadlock, but"
                elif last:
                    opening = f"the record stops after placement {last} but the game is not over:"
                else:
                    opening = "the record has no placements but the game is not over:"
                message = f"{opening} {self.seat_text(mover)} {still}"
                return invalid(E.INCOMPLETE, None, mover, message)

        scores = [self.board.best(bit).score for bit in self.colour_bits]
        verdict: dict[str, Any] = {
            "valid": True,
            "scores": scores,
            "winner": self.winner(end, scores),
            "placements": len(record.placements),
            "turns": self.turns,
            "endgame_from": self.endgame_from,
            "end": end,
            "lines": self.lines(),
        }
        if record.claimed_scores is not None:
            verdict["claimed_scores_match"] = list(record.claimed_scores) == scores
        return verdict

    # ------------------------------------------------------------------ result
    def winner(self, end: str, scores: list[int]) -> int | None:
        record = self.record
        if end == "deadlock":
            return None
        if end in ("resigned", "time"):
            loser = record.end_player
            assert loser is not None
            if self.seats == 2:
                return 1 - loser
            if record.pairs:
                return 1 - loser % 2  # the lower seat of the other team
            contenders = [seat for seat in range(self.seats) if seat != loser]
        else:
            # In pairs both partners score the team colour, so seats 0 and 1 stand for the teams.
            contenders = [0, 1] if record.pairs else list(range(self.seats))
        best = max(scores[seat] for seat in contenders)
        leaders = [seat for seat in contenders if scores[seat] == best]
        return leaders[0] if len(leaders) == 1 else None

    def lines(self) -> dict[str, dict[str, Any]]:
        result: dict[str, dict[str, Any]] = {}
        for bit in dict.fromkeys(self.colour_bits):
            result[BIT_NAME[bit]] = line_report(self.board.best(bit))
        return result

    # ------------------------------------------------------------------ errors
    def fail(self, code: str, number_: int, placement: Placement, message: str) -> NoReturn:
        """Stop with an error, unless the game had already ended in a deadlock (GAME_OVER)."""
        if not self.free_done:
            mover = self.mover
            hand = self.hands[mover]
            if (
                self.fill_for(mover) is None
                and self.board.first_placement(hand, self.restricted) is None
            ):
                tiles = ", ".join(str(tile) for tile in sorted(hand))
                code = E.GAME_OVER
                message = (
                    f"{self.at(number_, placement)}: the game had already ended in a deadlock: "
                    f"{self.seat_text(mover)} held tiles {tiles} but had no legal placement"
                )
        raise ReplayStop(invalid(code, number_, placement.player, message))

    def cell_text(self, cell: int) -> str:
        q, r = self.board.coords(cell)
        return f"q={number(q)} r={number(r)}"

    def seat_text(self, seat: int) -> str:
        name = self.record.names[seat]
        if len(name) > 40:
            name = name[:37] + "..."
        return f"seat {seat} ({name})"

    def at(self, number_: int, placement: Placement, rotated: bool = False) -> str:
        where = f"tile {placement.tile} at q={number(placement.q)} r={number(placement.r)}"
        if rotated:
            where += f", rotation {placement.rotation}"
        return f"placement {number_} ({where})"

    def wrong_player(self, number_: int, placement: Placement) -> str:
        mover = self.mover
        text = (
            f"{self.at(number_, placement)}: it is {self.seat_text(mover)}'s turn, "
            f"not seat {placement.player}'s"
        )
        if placement.player == self.last_seat:
            if not self.hands[placement.player]:
                why = "they have no tiles left"
            else:
                why = "they had made the free move and could legally fill no forced space"
            text += f"; seat {placement.player}'s turn was over: {why}"
        elif self.turn_used and not self.free_done:
            text += ", who has not yet made the free move"
        return text

    def not_in_hand(self, number_: int, placement: Placement) -> str:
        tile = placement.tile
        seat = placement.player
        hand = ", ".join(str(held) for held in sorted(self.hands[seat])) or "empty"
        if tile in self.placed_at:
            where = f"it was already placed at placement {self.placed_at[tile]}"
        else:
            holder = next((s for s in range(self.seats) if tile in self.hands[s]), None)
            if holder is not None:
                where = f"it is in {self.seat_text(holder)}'s hand"
            else:
                where = "it is still in the bag"
        return (
            f"{self.at(number_, placement)}: tile {tile} is not in seat {seat}'s hand "
            f"({hand}); {where}"
        )

    def forced_play(self, number_: int, placement: Placement, kind: str) -> str:
        mover = self.mover
        fill = self.fill_for(mover)
        assert fill is not None
        cell, tile, rotation = fill
        space = f"the forced space at {self.cell_text(cell)}"
        fits = f"tile {tile} fits it, rotation {rotation}"
        at = self.at(number_, placement)
        if kind == _FREE:
            return f"{at}: a free move while {space} could be filled ({fits}); fill it first"
        if kind == _MUST_FILL:
            return (
                f"{at}: the free move was already made this turn, and {space} must be filled "
                f"({fits})"
            )
        return (
            f"{at}: {self.seat_text(mover)} must fill {space} ({fits}) before seat "
            f"{placement.player} plays"
        )

    def breach(self, number_: int, placement: Placement, breach: Breach) -> str:
        space = self.cell_text(breach.space)
        if breach.code == E.THREE_OF_A_COLOUR:
            return (
                f"{self.at(number_, placement, rotated=True)}: the space at {space} would have "
                f"three {BIT_NAME[breach.colour]} sides, which no tile can fill "
                "(R1, three of a colour)"
            )
        at = self.at(number_, placement)
        if breach.code == E.FOUR_SIDED_SPACE:
            sides = self.board.neighbours(breach.space) + 1
            return (
                f"{at}: the space at {space} would have {sides} occupied sides "
                "(R2, four-sided space: before the endgame no tile goes next to an unfilled "
                "forced space)"
            )
        origin = self.cell_text(breach.origin)
        if breach.existing:
            return (
                f"{at}: this side is controlled by the forced space at {origin}: filling the "
                f"forced spaces would leave the space at {space} with four sides "
                "(R3, controlled side)"
            )
        return (
            f"{at}: it makes a forced space at {origin} whose filling would leave the space at "
            f"{space} with four sides (R3, controlled side)"
        )
