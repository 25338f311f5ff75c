"""Knockout draws: the seeded chart, byes, seeded sections, qualifiers, and advancing winners.

Vocabulary. A bracket of `size` (a power of two) has `size` *positions* (lines on the draw
sheet), numbered 0..size-1 from the top. Round 1 pairs positions 2i and 2i+1 as match i.
Draws here return, for each position, the *seed number* (1 = best) that goes there, or None for
a bye; the caller maps seed numbers to entries. Rounds are numbered from 1 as on the sheet;
matches within a round are indexed from 0, top to bottom.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Generic, NamedTuple, TypeVar

from .errors import FormatError, gettext_noop

T = TypeVar("T")


def bracket_size(entries: int) -> int:
    """The bracket size for this many entries: the next power of two (12 → 16, 100 → 128)."""
    if entries < 2:
        raise FormatError(
            gettext_noop("a knockout needs at least 2 entries (got %(entries)s)"), entries=entries
        )
    return 1 << (entries - 1).bit_length()


def round_count(entries: int) -> int:
    """Rounds needed to reduce this many entries to a champion (12 → 4, 128 → 7)."""
    return bracket_size(entries).bit_length() - 1


def _check_size(size: int) -> None:
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket size must be a power of two ≥ 2 (got {size})")


@lru_cache(maxsize=32)
def chart_order(size: int) -> tuple[int, ...]:
    """Seed numbers down the positions of the standard seeded chart of `size`.

    8 → 1, 8, 4, 5, 2, 7, 3, 6. Built by doubling: every seed s of the half-size chart becomes
    the pair (s, 2·half + 1 − s), so each round-1 match sums to size + 1 and, if all favourites
    win, seed s meets seed (roundsize + 1 − s) in every round.
    """
    _check_size(size)
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return tuple(order)


def seeded_draw(entries: int) -> tuple[int | None, ...]:
    """The standard chart for this many entries, None where a bye stands.

    The missing seeds (entries + 1 .. size) are byes, so the byes face the top seeds:
    12 of 16 gives seeds 1–4 a bye, 100 of 128 gives seeds 1–28 a bye.
    """
    size = bracket_size(entries)
    return tuple(s if s <= entries else None for s in chart_order(size))


def pair_positions(positions: Sequence[T | None]) -> tuple[tuple[T | None, T | None], ...]:
    """Round-1 matches (upper line, lower line) of a draw, in bracket order."""
    _check_size(len(positions))
    return tuple((positions[i], positions[i + 1]) for i in range(0, len(positions), 2))


def first_round_pairs(entries: int) -> tuple[tuple[int, int | None], ...]:
    """Round-1 matches of the standard chart as seed pairs, in bracket order (None = bye).

    The better seed is always on the upper line, so a bye is always the second element.
    """
    return pair_positions(seeded_draw(entries))  # type: ignore[return-value]


class BracketSlot(NamedTuple):
    """A line in a later round: match `match` of round `round`, upper (0) or lower (1) side."""

    round: int
    match: int
    side: int


def matches_in_round(round_no: int, rounds: int) -> int:
    """Matches in round `round_no` of a knockout with `rounds` rounds (the final has 1)."""
    if not 1 <= round_no <= rounds:
        raise ValueError(f"round {round_no} is outside 1..{rounds}")
    return 1 << (rounds - round_no)


def next_slot(round_no: int, match_index: int, *, rounds: int) -> BracketSlot | None:
    """Where the winner of a match goes: match i of round r feeds match i // 2 of round r + 1,
    on side i % 2. None for the final."""
    if not 0 <= match_index < matches_in_round(round_no, rounds):
        raise ValueError(f"round {round_no} has no match {match_index}")
    if round_no == rounds:
        return None
    return BracketSlot(round_no + 1, match_index // 2, match_index % 2)


def section_of(position: int, size: int, sections: int) -> int:
    """Which section (0-based, top to bottom) a position falls in."""
    _check_size(size)
    return position // (size // sections)


# --- Seeded sections -----------------------------------------------------------------------


def _seed_bands(size: int, sections: int) -> list[range]:
    """Seed bands whose chart positions fall one per section (or one per block above that).

    Doubling up to `sections` (1, 2, 3–4, 5–8, ...) and then `sections` wide (for 8 sections:
    9–16, 17–24, ...). The standard chart puts exactly one seed of each band in every block of
    matching size, so shuffling a band among its own positions keeps every section equally
    strong: that is the whole point of seeded sections.
    """
    bands = []
    low = 1
    while low <= size:
        high = max(low, 2 * (low - 1)) if low <= sections else low + sections - 1
        bands.append(range(low, high + 1))
        low = high + 1
    return bands


def _check_sections(size: int, sections: int) -> None:
    if sections < 1 or sections & (sections - 1) or sections > size // 2:
        raise FormatError(
            gettext_noop(
                "a bracket of %(size)s can be split into 1, 2, 4, ... up to %(most)s sections "
                "(got %(sections)s)"
            ),
            size=size,
            most=size // 2,
            sections=sections,
        )


def _draw_pools(
    entries: int, pools: Sequence[Sequence[int]], rng: random.Random
) -> tuple[int | None, ...]:
    """Start from the chart and shuffle each pool of seeds among that pool's chart positions.

    Each pool is first split into the seeds that face a bye on the chart and those that do not,
    so the byes stay with the top seeds whatever the draw does.
    """
    size = bracket_size(entries)
    byes = size - entries
    chart = chart_order(size)
    position_of = {s: p for p, s in enumerate(chart)}
    positions: list[int | None] = [s if s <= entries else None for s in chart]
    for pool in pools:
        for part in ([s for s in pool if s <= byes], [s for s in pool if s > byes]):
            if len(part) < 2:
                continue
            slots = [position_of[s] for s in part]
            drawn = list(part)
            rng.shuffle(drawn)
            for position, s in zip(slots, drawn, strict=True):
                positions[position] = s
    return tuple(positions)


def sections_draw(
    entries: int, *, sections: int, draw_seed: int, fixed: int | None = None
) -> tuple[int | None, ...]:
    """A knockout split into seeded sections with a reproducible random draw inside.

    The bracket is cut into `sections` equal blocks. The top `fixed` seeds (default: one per
    section) stay at their chart positions; every other seed is drawn at random, with
    `random.Random(draw_seed)`, among the chart positions of its seed band (see `_seed_bands`),
    so each section still gets one player from each band. Byes stay against the top seeds.
    The same `draw_seed` always gives the same draw; store it with the event.
    """
    size = bracket_size(entries)
    _check_sections(size, sections)
    fixed = sections if fixed is None else fixed
    if fixed < 0:
        raise FormatError(
            gettext_noop("the number of fixed seeds cannot be negative (got %(fixed)s)"),
            fixed=fixed,
        )
    pools = [[s for s in band if fixed < s <= entries] for band in _seed_bands(size, sections)]
    return _draw_pools(entries, pools, random.Random(draw_seed))


# --- Qualifiers into a main draw -----------------------------------------------------------


class QualifierPolicy(StrEnum):
    """How qualifiers from an earlier stage enter the main draw."""

    #: Qualifiers are seeded below every direct entrant, so the chart puts them against the
    #: top seeds (after any byes, which go to the very top).
    AGAINST_TOP_SEEDS = "against_top_seeds"
    #: Direct entrants are drawn into seeded sections; qualifiers are drawn at random among the
    #: remaining positions, which the chart spreads evenly over the sections.
    DRAWN_INTO_SECTIONS = "drawn_into_sections"


def place_qualifiers(
    direct: int,
    qualifiers: int,
    *,
    policy: QualifierPolicy,
    sections: int = 1,
    draw_seed: int | None = None,
    fixed: int | None = None,
) -> tuple[int | None, ...]:
    """Bracket positions for `direct` seeded entrants plus `qualifiers` qualifiers.

    Returns a seed number per position (None = bye): direct entrants are seeds 1..direct in
    their seeding order, qualifiers are direct + 1 .. direct + qualifiers in the order the
    qualifying stage ranked them (best first).

    AGAINST_TOP_SEEDS is deterministic: the best qualifier is seed direct + 1 and so meets the
    weakest of the top seeds it faces, the last qualifier meets the highest seed without a bye.
    With a `draw_seed`, the qualifiers are instead drawn at random among those same positions.
    DRAWN_INTO_SECTIONS needs `draw_seed` and `sections`; `fixed` is as in `sections_draw`.
    """
    if direct < 1 or qualifiers < 0:
        raise FormatError(
            gettext_noop(
                "a main draw needs direct entrants and a non-negative number of qualifiers "
                "(got %(direct)s direct, %(qualifiers)s qualifiers)"
            ),
            direct=direct,
            qualifiers=qualifiers,
        )
    entries = direct + qualifiers
    size = bracket_size(entries)
    qualifier_pool = list(range(direct + 1, entries + 1))
    if policy is QualifierPolicy.AGAINST_TOP_SEEDS:
        if draw_seed is None:
            return seeded_draw(entries)
        return _draw_pools(entries, [qualifier_pool], random.Random(draw_seed))
    if policy is QualifierPolicy.DRAWN_INTO_SECTIONS:
        if draw_seed is None:
            raise ValueError("drawing qualifiers into sections needs a draw_seed")
        _check_sections(size, sections)
        fixed = sections if fixed is None else fixed
        pools = [[s for s in band if fixed < s <= direct] for band in _seed_bands(size, sections)]
        pools.append(qualifier_pool)
        return _draw_pools(entries, pools, random.Random(draw_seed))
    raise ValueError(f"unknown qualifier policy {policy!r}")


# --- Advancing winners ---------------------------------------------------------------------


@dataclass(frozen=True)
class BracketMatch(Generic[T]):
    """One match of a knockout as far as the results so far determine it.

    `top` / `bottom` hold the entry on each line. In round 1 None means a bye (`bye` is True and
    the present entry is the `winner` without playing); in later rounds None means "winner of
    the feeding match, not known yet".
    """

    round: int
    index: int
    top: T | None
    bottom: T | None
    winner: T | None
    bye: bool = False

    @property
    def ready(self) -> bool:
        """Both entries known and no result yet: this match can be played now."""
        return (
            not self.bye
            and self.top is not None
            and self.bottom is not None
            and (self.winner is None)
        )


def advance_bracket(
    positions: Sequence[T | None], results: Mapping[tuple[int, int], int]
) -> tuple[tuple[BracketMatch[T], ...], ...]:
    """Every round of a knockout, filled in from the draw and the results recorded so far.

    `positions` is a draw (entries or seed numbers per position, None = bye). `results` maps
    (round, match index) to the winning side: 0 for the upper line, 1 for the lower. Winners are
    fed forward with `next_slot`. A result for a match whose entries are not both known yet,
    a result for a match that does not exist, or a bye against a bye is a `FormatError`.
    """
    _check_size(len(positions))
    rounds = len(positions).bit_length() - 1
    lines: list[list[T | None]] = [list(positions)] + [
        [None] * (2 * matches_in_round(r, rounds)) for r in range(2, rounds + 1)
    ]
    unused = dict(results)
    bracket: list[tuple[BracketMatch[T], ...]] = []
    for round_no in range(1, rounds + 1):
        row = lines[round_no - 1]
        matches = []
        for index in range(len(row) // 2):
            top, bottom = row[2 * index], row[2 * index + 1]
            side = unused.pop((round_no, index), None)
            if side not in (None, 0, 1):
                raise ValueError(f"round {round_no} match {index}: side must be 0 or 1")
            bye = round_no == 1 and (top is None or bottom is None)
            winner: T | None = None
            if bye:
                if top is None and bottom is None:
                    raise FormatError(
                        gettext_noop("round 1 match %(match)s has a bye on both lines"),
                        match=index + 1,
                    )
                present = 0 if bottom is None else 1
                if side is not None and side != present:
                    raise FormatError(
                        gettext_noop(
                            "round 1 match %(match)s is a bye; the result names the empty line"
                        ),
                        match=index + 1,
                    )
                winner = top if present == 0 else bottom
            elif side is not None:
                if top is None or bottom is None:
                    raise FormatError(
                        gettext_noop(
                            "round %(round)s match %(match)s has a result, but its players "
                            "are not both known yet"
                        ),
                        round=round_no,
                        match=index + 1,
                    )
                winner = top if side == 0 else bottom
            matches.append(BracketMatch(round_no, index, top, bottom, winner, bye))
            slot = next_slot(round_no, index, rounds=rounds)
            if slot is not None:
                lines[slot.round - 1][2 * slot.match + slot.side] = winner
        bracket.append(tuple(matches))
    if unused:
        (round_no, index), _ = min(unused.items())
        raise FormatError(
            gettext_noop(
                "a result was recorded for round %(round)s match %(match)s, "
                "which this bracket does not have"
            ),
            round=round_no,
            match=index + 1,
        )
    return tuple(bracket)
