"""The championship audit log in words: what each entry did, naming matches and players.

The trail stores what the services wrote at the time: a target such as "match 12" and details
such as {"before": {...}, "winner": 10} (10 an entry id). People read "Semi-final: Ana v Bela"
and "Winner: Ana (before: Decided, winner Bela)". A page of entries costs three queries
whatever it holds (the matches, the entries and the events they name).

Each action describes its own details: its registered type (`players.audit.registry`, declared
beside the service that writes it) is asked with the entry's details and the names this page
looked up (`AuditNames`); a type with no words of its own shows its details as "Key: value".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, override

from players.audit.registry import audit_type
from players.models import AuditEntry
from tantrix_site.i18n.grammar import lowercase
from tournaments.format_words import round_name_text
from tournaments.models import (
    AuditAction,
    Entry,
    Event,
    EventFormat,
    Match,
    MatchStatus,
    Round,
)
from tournaments.pages import words
from tournaments.services.audit_words import describe_plainly

_MATCH_TARGET = re.compile(r"^match (\d+)(?: game (\d+))?$")
_GAME_TARGET = re.compile(r"^game (\d+)$")
_TABLE_TARGET = re.compile(r"^(.+), table (\d+)$")
# Actions whose target is a round's stored English name ("Round 3", "Semi-finals").
_ROUND_TARGETS = {
    AuditAction.DEADLINE_SET,
    AuditAction.TABLE_RESULTS_ENTER,
    AuditAction.LINEUP_DEADLINE_SET,
}


@dataclass(frozen=True)
class AuditLine:
    entry: AuditEntry
    target: str
    details: str
    reason: str  # the entry's reason in the reader's language when the site wrote it


# The reasons the tournament services write themselves, stored in English (the services mark
# them with gettext_noop where they write them; the same msgids here).
_WRITTEN_REASONS = frozenset(
    {
        gettext_noop("level at the deadline"),
        gettext_noop("recounted after a new ruling on the game's result"),
        gettext_noop("the match no longer exists"),
        gettext_noop("the game's players are not this match's players"),
        gettext_noop("a doubles match counts pairs games only (partners share a colour)"),
    }
)
# Reasons written with a name or a state in them: (stored English, its msgid, the placeholder).
_WRITTEN_PATTERNS = (
    (re.compile(r"^late entry: (.+)$"), gettext_noop("late entry: %(player)s"), "player"),
    (re.compile(r"^drop-out: (.+)$"), gettext_noop("drop-out: %(player)s"), "player"),
)
_ALREADY = re.compile(r"^the match was already (.+)$")


def reason_shown(reason: str) -> str:
    """A stored reason in the reader's language when the tournaments wrote it, else as typed
    (registered for the staff audit page too, in TournamentsConfig.ready)."""
    if reason in _WRITTEN_REASONS:
        return _(reason)
    for pattern, msgid, name in _WRITTEN_PATTERNS:
        if found := pattern.match(reason):
            return _(msgid) % {name: found.group(1)}
    if found := _ALREADY.match(reason):
        for status in MatchStatus:
            with override(None):
                english = str(status.label).lower()
            if english == found.group(1):
                return _("the match was already %(status)s") % {"status": lowercase(status.label)}
    return reason


def _ids(entries: list[AuditEntry]) -> tuple[set[int], set[int], set[int]]:
    matches, entry_ids, events = set(), set(), set()
    for e in entries:
        found = _MATCH_TARGET.match(e.target or "")
        if found:
            matches.add(int(found.group(1)))
        details = e.details if isinstance(e.details, dict) else {}
        if isinstance(details.get("match_id"), int):
            matches.add(details["match_id"])
        for key in ("winner",):
            if isinstance(details.get(key), int):
                entry_ids.add(details[key])
        before = details.get("before")
        if isinstance(before, dict) and isinstance(before.get("winner"), int):
            entry_ids.add(before["winner"])
        if isinstance(details.get("order"), list):
            entry_ids.update(i for i in details["order"][:3] if isinstance(i, int))
        if isinstance(details.get("from"), int):
            events.add(details["from"])
    return matches, entry_ids, events


SIDE_KINDS = ("player", "pair__player_a", "pair__player_b", "team")


class AuditNames:
    """The names a page of entries needs, looked up at once; `about(match_id)` binds them to
    one entry's match, for a description that names a side of it."""

    def __init__(self, entries: list[AuditEntry]) -> None:
        match_ids, entry_ids, event_ids = _ids(entries)
        matches = list(
            Match.objects.filter(pk__in=match_ids).select_related(
                "event",
                "round",
                *(f"{side}__{kind}" for side in ("entry_a", "entry_b") for kind in SIDE_KINDS),
            )
        )
        event_ids_of_matches = {m.event_id for m in matches}
        # Knockout round names need the number of rounds of each event (a round named from the
        # start, "2. kolo", as well): one grouped query, for the matches' events and for the
        # events of entries that name a round.
        round_events = {e.event_id for e in entries if e.action in _ROUND_TARGETS}
        rounds: dict[int, int] = {}
        for event_id, number in Round.objects.filter(
            event_id__in=event_ids_of_matches | round_events, event__format=EventFormat.KNOCKOUT
        ).values_list("event_id", "number"):
            rounds[event_id] = max(rounds.get(event_id, 0), number)
        self.matches = {m.pk: m for m in matches}
        self.rounds = rounds
        # Entry.name: a doubles pair or a team has no player of its own.
        self.entries = {
            e.pk: e.name for e in Entry.objects.filter(pk__in=entry_ids).select_related(*SIDE_KINDS)
        }
        self.events = {e.pk: e.name for e in Event.objects.filter(pk__in=event_ids)}

    def match(self, match_id: int) -> str:
        match = self.matches.get(match_id)
        if match is None:
            return _("a match since deleted")
        return words.match_title(match, self.rounds.get(match.event_id, 0))

    def entry(self, entry_id: Any) -> str:
        if entry_id is None:
            return _("nobody")
        return self.entries.get(entry_id, _("a player since removed"))

    def event(self, event_id: Any) -> str | None:
        return self.events.get(event_id)

    def side_of(self, match_id: int | None, side: Any) -> str:
        match = self.matches.get(match_id) if match_id else None
        if match is None or side not in (0, 1):
            return _("one side")
        entry = match.entry_a if side == 0 else match.entry_b
        return entry.player.display_name if entry else _("one side")

    def about(self, match_id: int | None) -> EntryNames:
        return EntryNames(self, match_id)


@dataclass(frozen=True)
class EntryNames:
    """The page's names, as one entry's description asks for them."""

    names: AuditNames
    match_id: int | None

    def entry(self, entry_id: Any) -> str:
        return self.names.entry(entry_id)

    def match(self, match_id: int) -> str:
        return self.names.match(match_id)

    def event(self, event_id: Any) -> str | None:
        return self.names.event(event_id)

    def side(self, side: Any) -> str:
        """A side of the entry's own match, by the player's name."""
        return self.names.side_of(self.match_id, side)


def details_text(entry: AuditEntry, names: EntryNames) -> str:
    """The entry's details in words, as its type describes them."""
    details = entry.details if isinstance(entry.details, dict) else {}
    declared = audit_type(entry.action)
    describe = declared.describe if declared and declared.describe else describe_plainly
    return describe(details, names)


def stored_target(entry: AuditEntry, rounds: int | None = None) -> str:
    """A target the services stored in English (a round's name, "no champion"), in words of the
    reader's language; a name (a player's, an event's) as it is. `rounds`: how many rounds the
    entry's knockout has, for a language that numbers its rounds from the start."""
    target = entry.target or ""
    if entry.action in _ROUND_TARGETS:
        return round_name_text(target, rounds=rounds)
    if entry.action == AuditAction.TABLE_RESULT_CORRECT and (table := _TABLE_TARGET.match(target)):
        return _("%(round)s, table %(table)s") % {
            "round": round_name_text(table.group(1), rounds=rounds),
            "table": table.group(2),
        }
    if entry.action == AuditAction.CHAMPION and target == "no champion":
        return _("no champion")
    return target


def audit_lines(entries: Iterable[AuditEntry]) -> list[AuditLine]:
    """A page of the championship's trail, each entry with its target and details in words."""
    entries = list(entries)
    names = AuditNames(entries)
    lines = []
    for entry in entries:
        target, match_id = _target_text(entry, names)
        details = details_text(entry, names.about(match_id))
        lines.append(AuditLine(entry, target, details, reason_shown(entry.reason or "")))
    return lines


def audit_targets_named(entries: list[AuditEntry]) -> dict[int, str]:
    """The targets of the tournaments' lines on a page of the staff audit trail, in words: a
    match by its round and players (one query for the page), a round in the reader's language
    (registered in TournamentsConfig.ready)."""
    ours = [e for e in entries if e.action in AuditAction.values]
    names = AuditNames(ours)
    return {entry.pk: _target_text(entry, names)[0] for entry in ours}


def _target_text(entry: AuditEntry, names: AuditNames) -> tuple[str, int | None]:
    """The entry's target in words, and the match it names (if any)."""
    found = _MATCH_TARGET.match(entry.target or "")
    if found:
        match_id = int(found.group(1))
        target = names.match(match_id)
        if found.group(2):
            target = _("%(match)s, game %(game)s") % {"match": target, "game": found.group(2)}
        return target, match_id
    if game := _GAME_TARGET.match(entry.target or ""):
        return _("Game %(game)s") % {"game": game.group(1)}, None
    return stored_target(entry, names.rounds.get(entry.event_id)), None
