"""A knockout drawn as a bracket: columns of slots, each slot a match with its two sides.

One query whatever the size of the knockout (the matches with their rounds and players); the
waiting slots name the match they wait for from the same rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext, pgettext

from tournaments.format_words import early_round_style
from tournaments.formats.labels import RoundNames, knockout_round_names, slot_name
from tournaments.models import Event, Match, MatchStatus, Round
from tournaments.pages import words
from tournaments.pages.links import side_url


@dataclass(frozen=True)
class Side:
    name: str
    seed: int | None = None
    link: str = ""  # the side's page: the player's or the team's
    tps: Decimal | None = None
    winner: bool = False
    waiting: bool = False  # "Winner of QF 2": nobody there yet
    bye: bool = False


@dataclass(frozen=True)
class Slot:
    match: Match
    code: str  # "QF 2"
    title: str  # "Quarter-final: Ana v Bela"
    url: str
    sides: tuple[Side, Side]
    note: str  # a short state beside the score: "Live", "Walkover", "Bye", ...
    live: bool


@dataclass
class Column:
    round: Round
    names: RoundNames
    slots: list[Slot] = field(default_factory=list)
    current: bool = False

    @property
    def anchor(self) -> str:
        return f"round-{self.round.number}"


def _side(match: Match, side: int, feeders, rounds: int) -> Side:
    entry = match.entry_a if side == 0 else match.entry_b
    played = match.games_played > 0
    if entry is None:
        name = words.side_name(match, side, feeders, rounds)
        return Side(name=name, waiting=not match.is_bye, bye=match.is_bye)
    return Side(
        name=entry.name,
        seed=entry.seed,
        link=side_url(entry),
        tps=(match.tps_a if side == 0 else match.tps_b) if played else None,
        winner=match.winner_id is not None and match.winner_id == entry.pk,
    )


def _note(match: Match) -> str:
    if match.is_bye:
        return str(words.match_status_words(match))
    if match.status == MatchStatus.IN_PROGRESS:
        return pgettext("match state, in a bracket slot", "Live")
    # Short words: the slot is narrow, and the match page says the rest.
    notes = {
        MatchStatus.WALKOVER: gettext("Walkover"),
        MatchStatus.RULED: pgettext("match state, in a bracket slot", "Ruled"),
        MatchStatus.VOID: pgettext("match state, in a bracket slot", "Void"),
    }
    return notes.get(match.status, "")


def bracket_columns(event: Event, matches: list[Match]) -> list[Column]:
    """The knockout's rounds left to right, the current one (the first still in play) marked.

    `matches`: the event's matches with their rounds and players, by round and index."""
    if not matches:
        return []
    rounds = max(m.round.number for m in matches)
    style = early_round_style()
    feeders = words.feeders_of(matches)
    columns: dict[int, Column] = {}
    for match in matches:
        number = match.round.number
        column = columns.get(number)
        if column is None:
            names = knockout_round_names(number, rounds, gettext=gettext, style=style)
            column = columns[number] = Column(match.round, names)
        column.slots.append(
            Slot(
                match=match,
                code=slot_name(
                    number, rounds, match.bracket_index or 0, gettext=gettext, style=style
                ),
                title=words.match_title(match, rounds, feeders),
                url=words.match_url(match.pk),
                sides=(_side(match, 0, feeders, rounds), _side(match, 1, feeders, rounds)),
                note=_note(match),
                live=match.status == MatchStatus.IN_PROGRESS,
            )
        )
    ordered = [columns[n] for n in sorted(columns)]
    in_play = [c for c in ordered if any(not s.match.is_final for s in c.slots)]
    (in_play[0] if in_play else ordered[-1]).current = True
    return ordered
