"""Matching the lines of a list to the players the site knows."""

from __future__ import annotations

from dataclasses import dataclass, field

from django_countries import countries

from players.models import Player
from tournaments.bulk_entry.matching import Candidate, Line, folded, suggestions
from tournaments.models import Entry, Event


@dataclass(frozen=True)
class LineMatch:
    """A line with what the site knows of its name: the player of exactly that name, if any,
    and the closest others; whether that player is entered in the event already."""

    line: Line
    exact: Player | None
    suggested: list[Player] = field(default_factory=list)
    entered: bool = False

    @property
    def default_choice(self) -> str:
        """What the confirmation page ticks: the player of that name (not yet entered), a new
        player when nothing is close, else nothing: the organiser chooses."""
        if self.exact is not None:
            return "skip" if self.entered else f"p{self.exact.pk}"
        return "" if self.suggested else "new"


def country_codes() -> set[str]:
    """The ISO codes a line's country may be (a pasted "O'Neil, Jr" keeps its "Jr")."""
    return {code for code, _name in countries}


def _candidates() -> list[Candidate]:
    return [
        Candidate(pk, name, str(country or ""))
        for pk, name, country in Player.objects.values_list("pk", "display_name", "country")
    ]


def lines_matched(event: Event, lines: list[Line]) -> list[LineMatch]:
    candidates = _candidates()
    by_folded: dict[str, list[Candidate]] = {}
    for candidate in candidates:
        by_folded.setdefault(folded(candidate.name), []).append(candidate)
    wanted: dict[int, tuple[int | None, list[int]]] = {}
    for line in lines:
        same = [c for c in candidates if c.name.casefold() == line.name.casefold()]
        exact_id = same[0].id if same else None
        close = [c.id for c in suggestions(line, candidates) if c.id != exact_id]
        if exact_id is None:
            # Accents or spacing apart, the same name is the first suggestion.
            close = [c.id for c in by_folded.get(folded(line.name), [])] + close
        wanted[line.number] = (exact_id, list(dict.fromkeys(close))[:3])
    ids = {pk for exact, close in wanted.values() for pk in ([exact] if exact else []) + close}
    players = Player.objects.in_bulk(ids)
    entered = set(
        Entry.objects.filter(event=event, player_id__in=ids).values_list("player_id", flat=True)
    )
    matched = []
    for line in lines:
        exact_id, close = wanted[line.number]
        matched.append(
            LineMatch(
                line=line,
                exact=players.get(exact_id) if exact_id else None,
                suggested=[players[pk] for pk in close if pk in players],
                entered=exact_id in entered,
            )
        )
    return matched
