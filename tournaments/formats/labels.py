"""Names of knockout rounds and bracket slots, as people say them.

Pure: a round is named by how many rounds are left after it, so a 128 knockout reads
"Round of 128, Round of 64, ..., Quarter-finals, Semi-finals, Final" and its slots
"Winner of QF 2" (the short name and the 1-based position in the round, top to bottom).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RoundNames:
    plural: str  # a column heading: "Quarter-finals"
    singular: str  # one match of it: "Quarter-final"
    short: str  # in a waiting slot: "QF"


def knockout_round_names(number: int, rounds: int) -> RoundNames:
    """Round `number` (1 = the first) of a knockout of `rounds` rounds."""
    if not 1 <= number <= rounds:
        raise ValueError(f"round {number} is outside 1..{rounds}")
    left = rounds - number
    if left == 0:
        return RoundNames("Final", "Final", "Final")
    if left == 1:
        return RoundNames("Semi-finals", "Semi-final", "SF")
    if left == 2:
        return RoundNames("Quarter-finals", "Quarter-final", "QF")
    size = 2 << left
    return RoundNames(f"Round of {size}", f"Round of {size}", f"R{size}")


def slot_name(number: int, rounds: int, index: int) -> str:
    """One match of a knockout by its round and 0-based index: "QF 2", "Final"."""
    short = knockout_round_names(number, rounds).short
    return short if number == rounds else f"{short} {index + 1}"


def waiting_slot(feeder_number: int, rounds: int, feeder_index: int) -> str:
    """What a slot still waiting for a player shows: "Winner of QF 2"."""
    return f"Winner of {slot_name(feeder_number, rounds, feeder_index)}"
