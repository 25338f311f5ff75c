"""Names of knockout rounds and bracket slots, as people say them.

Pure: a round is named by how many rounds are left after it, so a 128 knockout reads
"Round of 128, Round of 64, ..., Quarter-finals, Semi-finals, Final" and its slots
"Winner of QF 2" (the short name and the 1-based position in the round, top to bottom).

English by default. The Django layer passes its `gettext` (the parameter is named so the
catalogue extraction finds the names below) to get them in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


def _english(message: str) -> str:
    return message


@dataclass(frozen=True)
class RoundNames:
    plural: str  # a column heading: "Quarter-finals"
    singular: str  # one match of it: "Quarter-final"
    short: str  # in a waiting slot: "QF"


def knockout_round_names(
    number: int, rounds: int, *, gettext: Callable[[str], str] = _english
) -> RoundNames:
    """Round `number` (1 = the first) of a knockout of `rounds` rounds."""
    if not 1 <= number <= rounds:
        raise ValueError(f"round {number} is outside 1..{rounds}")
    left = rounds - number
    if left == 0:
        final = gettext("Final")
        return RoundNames(final, final, final)
    if left == 1:
        return RoundNames(gettext("Semi-finals"), gettext("Semi-final"), gettext("SF"))
    if left == 2:
        return RoundNames(gettext("Quarter-finals"), gettext("Quarter-final"), gettext("QF"))
    size = {"size": 2 << left}
    return RoundNames(
        gettext("Round of %(size)s") % size,
        gettext("Round of %(size)s") % size,
        gettext("R%(size)s") % size,
    )


def slot_name(
    number: int, rounds: int, index: int, *, gettext: Callable[[str], str] = _english
) -> str:
    """One match of a knockout by its round and 0-based index: "QF 2", "Final"."""
    short = knockout_round_names(number, rounds, gettext=gettext).short
    if number == rounds:
        return short
    # Translators: a knockout match by its round's short name and its place in it: "QF 2".
    return gettext("%(round)s %(match)s") % {"round": short, "match": index + 1}


def waiting_slot(
    feeder_number: int,
    rounds: int,
    feeder_index: int,
    *,
    gettext: Callable[[str], str] = _english,
) -> str:
    """What a slot still waiting for a player shows: "Winner of QF 2"."""
    slot = slot_name(feeder_number, rounds, feeder_index, gettext=gettext)
    return gettext("Winner of %(slot)s") % {"slot": slot}
