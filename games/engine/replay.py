"""A record replayed step by step, for the replay viewer: what the verdict does not keep.

The verdict says who won and where a record broke a rule; a person stepping through the game
also wants each player's hand after every placement, which placements filled a forced space,
where the endgame began and, at the end, which tiles make each colour's scoring line or loop.
This module replays the record with the adjudicator itself (so the viewer and the verdict can
never disagree) and writes those facts down as plain data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import MalformedRecord
from .lines import line_report
from .literal import LiteralReplay, ReplayStop
from .record import Placement, Record, parse_record
from .tables import BIT_NAME


@dataclass(frozen=True)
class Step:
    """One legal placement and the state just after it."""

    seat: int
    tile: int
    q: int
    r: int
    rotation: int
    forced: bool  # it filled a forced space
    endgame: bool  # the first placement made with the bag empty
    hands: tuple[tuple[int, ...], ...]  # every seat's hand after the placement (and the draw)


@dataclass(frozen=True)
class Illegal:
    """The first placement that broke a rule, as the record gave it."""

    number: int
    seat: int
    tile: int
    q: int
    r: int
    rotation: int
    code: str
    message: str


@dataclass(frozen=True)
class Replay:
    names: tuple[str, ...]
    colours: tuple[str, ...]
    start_hands: tuple[tuple[int, ...], ...]
    steps: tuple[Step, ...]
    illegal: Illegal | None
    verdict: dict[str, Any]
    # colour name -> {"kind": "line" | "loop", "tiles": n, "cells": [(q, r), ...]}; only for a
    # valid game, describing the board after the last placement.
    lines: dict[str, dict[str, Any]] = field(default_factory=dict)


class _Recorder(LiteralReplay):
    """The adjudicator's replay, writing down each legal placement as it goes."""

    def __init__(self, record: Record) -> None:
        super().__init__(record)
        self.steps: list[Step] = []

    def judge(self, number_: int, placement: Placement) -> None:
        board = self.board
        cell = None if board.is_empty() else board.key(placement.q, placement.r)
        forced = cell is not None and cell in board.forced
        super().judge(number_, placement)  # raises ReplayStop when illegal
        self.steps.append(
            Step(
                seat=placement.player,
                tile=placement.tile,
                q=placement.q,
                r=placement.r,
                rotation=placement.rotation,
                forced=forced,
                endgame=self.endgame_from == number_,
                hands=tuple(tuple(hand) for hand in self.hands),
            )
        )

    def scoring_cells(self) -> dict[str, dict[str, Any]]:
        """Each colour's reported line or loop with the cells it runs through."""
        result: dict[str, dict[str, Any]] = {}
        for bit in dict.fromkeys(self.colour_bits):
            report = line_report(self.board.best(bit))
            path = self.board.path_cells(
                bit, loop=report["kind"] == "loop", tiles=int(report["tiles"])
            )
            cells = [self.board.coords(cell) for cell in path]
            result[BIT_NAME[bit]] = {**report, "cells": cells}
        return result


def replay(record: Any) -> Replay | None:
    """Replay a ``tantrix-game/1`` record; None when it cannot be read at all (MALFORMED).

    Never raises for a readable record: an illegal placement ends the steps and is described in
    ``illegal``; a record that stops early is replayed as far as it goes.
    """
    try:
        parsed = parse_record(record)
    except MalformedRecord:
        return None
    recorder = _Recorder(parsed)
    illegal = None
    try:
        for number_, placement in enumerate(parsed.placements, 1):
            recorder.settle()
            recorder.judge(number_, placement)
        verdict = recorder.finish()
    except ReplayStop as stop:
        verdict = stop.verdict
        error = verdict["error"]
        bad = parsed.placements[error["placement"] - 1]
        illegal = Illegal(
            number=error["placement"],
            seat=bad.player,
            tile=bad.tile,
            q=bad.q,
            r=bad.r,
            rotation=bad.rotation,
            code=error["code"],
            message=error["message"],
        )
    return Replay(
        names=parsed.names,
        colours=parsed.colours,
        start_hands=tuple(tuple(hand) for hand in parsed.hands),
        steps=tuple(recorder.steps),
        illegal=illegal,
        verdict=verdict,
        lines=recorder.scoring_cells() if verdict.get("valid") else {},
    )
