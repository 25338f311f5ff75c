"""Names of knockout rounds and bracket slots, as people say them.

Pure: a round is named by how many rounds are left after it, so a 128 knockout reads
"Round of 128, Round of 64, ..., Quarter-finals, Semi-finals, Final" and its slots
"Winner of QF 2" (the short name and the 1-based position in the round, top to bottom).

English by default. The Django layer passes its `gettext` (the parameter is named so the
catalogue extraction finds the names below) to get them in the reader's language, and the way
that language names the rounds before the last 16 (`style`, from the language's format module,
tantrix_site/i18n/formats): by the players left ("Round of 64", "Son 64 turu"), by the fraction of
the final ("1/32 финала") or by their number from the start ("2. kolo", "2. forduló").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

# How a language names a knockout's rounds before the last 16 (see the module's docstring).
EarlyRoundStyle = Literal["players", "fraction", "number"]


def _english(message: str) -> str:
    return message


@dataclass(frozen=True)
class RoundNames:
    plural: str  # a column heading: "Quarter-finals"
    singular: str  # one match of it: "Quarter-final"
    short: str  # in a waiting slot: "QF"


def knockout_round_names(
    number: int,
    rounds: int,
    *,
    gettext: Callable[[str], str] = _english,
    style: EarlyRoundStyle = "players",
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
    name, short = early_round_name(2 << left, number, gettext=gettext, style=style)
    return RoundNames(name, name, short)


def early_round_name(
    size: int,
    number: int,
    *,
    gettext: Callable[[str], str] = _english,
    style: EarlyRoundStyle = "players",
) -> tuple[str, str]:
    """The name and short name of the round of `size` players, round `number` of its knockout,
    in the language's `style`: ("Round of 64", "R64"), ("1/32 финала", "1/32"), ("2. kolo", ...).
    The round of 16 has a name of its own in every style ("1/8 финала", "osmifinále",
    "nyolcaddöntő", "Son 16 turu").
    """
    if size == 16:
        return gettext("Round of 16"), gettext("R16")
    if style == "fraction":
        fraction = {"fraction": size // 2}
        # Translators: a knockout round named by the fraction of the final, as Russian
        # tournaments do: the round of 64 players is the 1/32 final.
        return gettext("1/%(fraction)s of the final") % fraction, gettext(
            "1/%(fraction)s"
        ) % fraction
    if style == "number":
        numbered = {"number": number}
        # Translators: a knockout round named by its number from the start (Czech "2. kolo").
        return gettext("Round %(number)s") % numbered, gettext("Rd %(number)s") % numbered
    players = {"size": size}
    return gettext("Round of %(size)s") % players, gettext("R%(size)s") % players


def slot_name(
    number: int,
    rounds: int,
    index: int,
    *,
    gettext: Callable[[str], str] = _english,
    style: EarlyRoundStyle = "players",
) -> str:
    """One match of a knockout by its round and 0-based index: "QF 2", "Final"."""
    short = knockout_round_names(number, rounds, gettext=gettext, style=style).short
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
    style: EarlyRoundStyle = "players",
) -> str:
    """What a slot still waiting for a player shows: "Winner of QF 2"."""
    slot = slot_name(feeder_number, rounds, feeder_index, gettext=gettext, style=style)
    return gettext("Winner of %(slot)s") % {"slot": slot}
