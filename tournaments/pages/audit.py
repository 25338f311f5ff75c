"""The championship audit log in words: what each entry did, naming matches and players.

The trail stores what the services wrote at the time: a target such as "match 12" and details
such as {"before": {...}, "winner": 10} (10 an entry id). People read "Semi-final: Ana v Bela"
and "Winner: Ana (before: Decided, winner Bela)". A page of entries costs three queries
whatever it holds (the matches, the entries and the events they name).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.formats import get_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import (
    gettext_lazy,
    gettext_noop,
    ngettext,
    override,
    pgettext_lazy,
)

from players.models import AuditEntry
from tantrix_site.i18n.grammar import lowercase
from tournaments.format_words import round_name_text
from tournaments.models import (
    AuditAction,
    Category,
    Entry,
    Event,
    EventFormat,
    Match,
    MatchStatus,
    Round,
)
from tournaments.pages import words

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


class _Names:
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

    def side(self, match_id: int | None, side: Any) -> str:
        match = self.matches.get(match_id) if match_id else None
        if match is None or side not in (0, 1):
            return _("one side")
        entry = match.entry_a if side == 0 else match.entry_b
        return entry.player.display_name if entry else _("one side")


def _when(value: Any) -> str:
    if not value:
        return _("none")
    try:
        moment = dt.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return str(value)
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return date_format(moment, get_format("DATETIME_FORMAT"))


def _status(value: Any) -> str:
    try:
        return MatchStatus(value).label
    except ValueError:
        return str(value)


def _yes(value: Any) -> str:
    return _("yes") if value in (True, "True", "true") else _("no")


# The fields a championship_update entry names, in words (an unknown one: its key, capitalised).
_CHAMPIONSHIP_FIELDS = {
    "name": pgettext_lazy("the name of a championship, an event or a team", "Name"),
    "year": gettext_lazy("Year"),
    "category": gettext_lazy("Category"),
    "published": gettext_lazy("Published"),
}


def _key_value(key: Any, value: Any) -> str:
    label = _CHAMPIONSHIP_FIELDS.get(key) or str(key).replace("_", " ").capitalize()
    # Translators: one detail of an audit entry, "Published: yes".
    return _("%(label)s: %(value)s") % {"label": label, "value": value}


def _describe(entry: AuditEntry, names: _Names, match_id: int | None) -> str:
    d = entry.details if isinstance(entry.details, dict) else {}
    action = entry.action
    if action == "match_rule":
        before = d.get("before") if isinstance(d.get("before"), dict) else {}
        if d.get("winner"):
            text = _("Winner: %(winner)s") % {"winner": names.entry(d.get("winner"))}
        else:
            text = _("Void: no winner")
        if before:
            was = _status(before.get("status"))
            if before.get("winner"):
                was = _("%(status)s, winner %(winner)s") % {
                    "status": was,
                    "winner": names.entry(before["winner"]),
                }
            text = _("%(ruling)s (before: %(was)s)") % {"ruling": text, "was": was}
        return text
    if action in ("deadline_leader", "deadline_walkover", "deadline_both_out", "deadline_level"):
        winner = d.get("winner")
        if winner:
            return _("Winner: %(winner)s") % {"winner": names.entry(winner)}
        return _status(d.get("status", ""))
    if action == "game_counted":
        tps = d.get("tps") or []
        if len(tps) == 2:
            return _("Game %(game)s: %(tps_a)s–%(tps_b)s tournament points") % {
                "game": d.get("game_id"),
                "tps_a": number_format(tps[0]),
                "tps_b": number_format(tps[1]),
            }
        return _("Game %(game)s") % {"game": d.get("game_id")}
    if action == "game_not_counted":
        where = names.match(d["match_id"]) if isinstance(d.get("match_id"), int) else _("its match")
        return _("Game %(game)s stays a casual game; it was sent for %(match)s") % {
            "game": d.get("game_id"),
            "match": where,
        }
    if action == "time_penalty":
        penalty = d.get("penalty", 0)
        side = names.side(match_id, d.get("side"))
        if not isinstance(penalty, int):
            return _("%(side)s loses %(penalty)s TPs") % {"side": side, "penalty": penalty}
        return ngettext(
            "%(side)s loses %(penalty)s TP", "%(side)s loses %(penalty)s TPs", penalty
        ) % {
            "side": side,
            "penalty": penalty,
        }
    if action == "deadline_set":
        return _("%(after)s (was %(before)s)") % {
            "after": _when(d.get("after")),
            "before": _when(d.get("before")),
        }
    if action == "draw_generate":
        entries = d.get("entries") if isinstance(d.get("entries"), int) else 0
        return ngettext(
            "Draw seed %(seed)s, %(entries)s entry",
            "Draw seed %(seed)s, %(entries)s entries",
            entries,
        ) % {"seed": d.get("draw_seed"), "entries": entries}
    if action == "event_seed":
        order = d.get("order") or []
        top = ", ".join(names.entry(i) for i in order[:3])
        if d.get("by") == "organiser":
            seeded = ngettext(
                "%(count)s entries seeded by the organiser's order",
                "%(count)s entries seeded by the organiser's order",
                len(order),
            )
        else:
            seeded = ngettext(
                "%(count)s entries seeded by ratings",
                "%(count)s entries seeded by ratings",
                len(order),
            )
        seeded %= {"count": len(order)}
        if not top:
            return seeded
        return _("%(seeded)s; top seeds %(top)s") % {"seeded": seeded, "top": top}
    if action == "qualifiers_advance":
        source = names.events.get(d.get("from"))
        count = len(d.get("qualifiers") or [])
        if source is None:
            return ngettext(
                "%(count)s qualifier from the earlier stage",
                "%(count)s qualifiers from the earlier stage",
                count,
            ) % {"count": count}
        return ngettext(
            "%(count)s qualifier from %(source)s", "%(count)s qualifiers from %(source)s", count
        ) % {"count": count, "source": source}
    if action == "championship_create":
        try:
            category = Category(d.get("category")).label
        except ValueError:
            category = ""
        published = _yes(d.get("published"))
        if not category:
            return _("published: %(published)s") % {"published": published}
        return _("%(category)s; published: %(published)s") % {
            "category": category,
            "published": published,
        }
    if action == "event_create":
        try:
            return _("Format: %(format)s") % {"format": EventFormat(d.get("format")).label}
        except ValueError:
            return ""
    if action == "championship_update":
        parts = []
        for key, value in d.items():
            parts.append(_key_value(key, _yes(value) if key == "published" else value))
        return "; ".join(parts)
    # Anything else (a new action): its details as "Key: value" lines, never a dict.
    return "; ".join(_key_value(k, v) for k, v in d.items() if not isinstance(v, dict | list))


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
    names = _Names(entries)
    lines = []
    for entry in entries:
        target, match_id = _target_text(entry, names)
        details = _describe(entry, names, match_id)
        lines.append(AuditLine(entry, target, details, reason_shown(entry.reason or "")))
    return lines


def audit_targets_named(entries: list[AuditEntry]) -> dict[int, str]:
    """The targets of the tournaments' lines on a page of the staff audit trail, in words: a
    match by its round and players (one query for the page), a round in the reader's language
    (registered in TournamentsConfig.ready)."""
    ours = [e for e in entries if e.action in AuditAction.values]
    names = _Names(ours)
    return {entry.pk: _target_text(entry, names)[0] for entry in ours}


def _target_text(entry: AuditEntry, names: _Names) -> tuple[str, int | None]:
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
