"""How a game's sides are named for people: "Lucas v Tomas", and for a pairs game the partners
together, "Lucas & Noah v Tomas & Aroha", won by "Lucas & Noah" (issue 28: the page listed all
four names as four sides and said "Won by Lucas and partner").

A pairs game seats one pair in its first and third seats and the other in its second and fourth
(docs/game-records.md), so a seat's side is its number's parity."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Sides:
    names: list[str]  # one per side: a player, or a pair's two players joined
    winner: str | None  # the winning side's name, None for a draw or no winner


def game_sides(*, is_pairs: bool, winner_seat: int | None, seats: Sequence) -> Sides:
    """`seats`: the game's seats (each with `seat` and `player.display_name`)."""
    ordered = sorted(seats, key=lambda s: s.seat)
    if not is_pairs:
        names = [s.player.display_name for s in ordered]
        seat_names = zip(ordered, names, strict=True)
        winner = next((name for s, name in seat_names if s.seat == winner_seat), None)
        return Sides(names, winner)
    # "&" in every language, as the pairs' own names are stored ("Ana & Bela",
    # tournaments/models/sides.py): the game page names a pair as its match page does.
    names = [
        " & ".join(s.player.display_name for s in ordered if s.seat % 2 == side) for side in (0, 1)
    ]
    winner = names[winner_seat % 2] if winner_seat is not None else None
    return Sides(names, winner)
