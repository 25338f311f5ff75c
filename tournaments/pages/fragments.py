"""The public parts of championship pages, rendered once and cached until a result changes.

Each fragment is the same for every viewer who may see the championship (the views check that
first) and reads it in the same language and time zone, so it is cached per championship and
event version, language and time zone, and per variant where viewers differ (the organisers'
entries table; pages/cache.py). Each runs a fixed number of queries whatever the size of the
event; the live ones are also what the pages poll while an event runs (static/js/live.js).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from itertools import groupby

from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import formats, selectors
from tournaments.forecasts import pages as forecast_pages
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    Championship,
    EntryKind,
    EntryStatus,
    Event,
    EventFormat,
    EventStatus,
    Match,
    MatchStatus,
    Round,
    sides_of,
)
from tournaments.pages import words
from tournaments.pages.bracket import bracket_columns
from tournaments.pages.cache import cached_fragment
from tournaments.standings import (
    criteria_labels,
    event_criteria,
    event_ranked,
    event_standings,
    event_started,
)


@dataclass(frozen=True)
class Fragment:
    html: str
    finished: bool  # nothing more will change: pages stop polling

    @cached_property
    def etag(self) -> str:
        """The live endpoints' validator: a digest of exactly this HTML, so it differs whenever
        anything the reader gets differs (a result, their language, their time zone), not only
        when the cache's version tokens do (they name neither language nor zone)."""
        return hashlib.blake2b(self.html.encode(), digest_size=12).hexdigest()


def is_running(event: Event) -> bool:
    return event.status == EventStatus.DRAWN


# --- Event ---------------------------------------------------------------------------------


def _match_rows(matches: Iterable[Match], rounds: int = 0) -> list[dict]:
    rows = []
    for m in matches:
        rows.append(
            {
                "match": m,
                "url": words.match_url(m.pk),
                "a": words.side_name(m, 0, {}, rounds),
                "b": words.side_name(m, 1, {}, rounds),
                "a_won": bool(m.winner_id) and m.winner_id == m.entry_a_id,
                "b_won": bool(m.winner_id) and m.winner_id == m.entry_b_id,
                "played": m.games_played > 0,
                "state": words.match_status_words(m),
                "title": words.match_title(m, rounds),
            }
        )
    return rows


def _round_rows(matches: list[Match]) -> list[dict]:
    """Each round with its deadline and, in words, where it stands."""
    rows = []
    for round_, group in groupby(matches, key=lambda m: m.round):
        group = list(group)
        open_ = [m for m in group if not m.is_final]
        if not open_:
            state = _("Finished")
        elif round_.deadline_processed:
            state = _("Deadline passed: a ruling is needed")
        elif any(m.status in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS) for m in open_):
            decided = len(group) - len(open_)
            # The noun (and the verb) agree with the matches decided: "решён 1 матч из 2".
            state = ngettext(
                "In play: %(decided)s of %(total)s matches decided",
                "In play: %(decided)s of %(total)s matches decided",
                decided,
            ) % {"decided": decided, "total": len(group)}
        else:
            state = _("Waiting for the previous round")
        rows.append({"round": round_, "state": state, "finished": not open_})
    return rows


def _event_matches(event: Event) -> list[Match]:
    """The event's matches with their rounds and players: only the columns the pages show
    (a 200-player group stage has 700 matches)."""
    return list(
        event.matches.select_related("round", *sides_of("entry_a"), *sides_of("entry_b"))
        .only(
            *MATCH_COLUMNS,
            "round__number",
            "round__name",
            "round__deadline",
            "round__deadline_processed",
            *(f"{side}__{f}" for side in ("entry_a", "entry_b") for f in ENTRY_COLUMNS),
        )
        .order_by("round__number", "group", "bracket_index", "id")
    )


MATCH_COLUMNS = (
    "event_id",
    "round_id",
    "bracket_index",
    "group",
    "entry_a_id",
    "entry_b_id",
    "is_bye",
    "status",
    "tps_a",
    "tps_b",
    "games_played",
    "winner_id",
    "next_match_id",
    "next_side",
)
ENTRY_COLUMNS = (
    "seed",
    "player_id",
    "pair_id",
    "team_id",
    "player__display_name",
    "pair__name",
    "team__name",
)


def _group_sections(event: Event, matches: list[Match]) -> tuple[list[dict], set[int]]:
    """Group tables with names and statuses, each with its matches; the projected qualifiers."""
    entries = {e.pk: e for e in selectors.entries_for_event(event)}
    tables = selectors.group_tables(event)
    projected: set[int] = set()
    following = next(iter(event.feeds.all()), None)
    if following is not None and following.qualifiers_count and is_running(event):
        try:
            chosen = formats.group_qualifiers(list(tables.values()), following.qualifiers_count)
            projected = {q.key for q in chosen}
        except formats.FormatError:
            projected = set()
    by_group: dict[int | None, list[Match]] = {}
    for m in matches:
        by_group.setdefault(m.group, []).append(m)
    sections = []
    for group, table in tables.items():
        rows = []
        for row in table:
            entry = entries[row.key]
            rows.append(
                {
                    "row": row,
                    "entry": entry,
                    "status": entry.get_status_display(),
                    "qualifies": entry.status == EntryStatus.QUALIFIED or row.key in projected,
                }
            )
        group_matches = by_group.get(group, [])
        sections.append(
            {
                "group": group,
                "rows": rows,
                "matches": _match_rows(group_matches),
                "decided": sum(m.is_final for m in group_matches),
                "total": len(group_matches),
            }
        )
    return sections, projected


def _ranked_context(event: Event) -> dict:
    """An online Swiss or round robin's one standings table, ranked on its tie-breaks (a table
    open's is the standings panel's, beside its controller's actions)."""
    if not event_ranked(event) or event.table_open or not event_started(event):
        return {}
    return {
        "lines": event_standings(event),
        "criteria": criteria_labels(event_criteria(event)),
    }


def _event_context(event: Event) -> dict:
    matches = _event_matches(event)
    context: dict = {"event": event, "rounds": _round_rows(matches), "running": is_running(event)}
    context.update(_ranked_context(event))
    if event.format == EventFormat.KNOCKOUT:
        context["columns"] = bracket_columns(event, matches)
        context.update(forecast_pages.event_context(event))
    elif event.format == EventFormat.SWISS:
        # Its standings are the standings panel's (tie-breaks, chances): not a second table.
        context.update(forecast_pages.event_context(event))
        context["match_rounds"] = [
            (round_, _match_rows(group)) for round_, group in groupby(matches, lambda m: m.round)
        ]
    elif event.status != EventStatus.REGISTRATION:
        context["groups"], context["projected"] = _group_sections(event, matches)
        context["ranked_above"] = event_ranked(event)
    return context


def event_live(event: Event) -> Fragment:
    """The event's state, its bracket, tables or standings, and its rounds."""
    html, _version = cached_fragment(
        forecast_pages.fragment_name("event", event),
        championship_id=event.championship_id,
        event_id=event.pk,
        build=lambda: render_to_string("tournaments/_event_live.html", _event_context(event)),
    )
    return Fragment(html, finished=not is_running(event))


def event_entries(event: Event, *, manage: bool) -> str:
    """The entries table (organisers' variant with withdraw links)."""

    def build() -> str:
        entries = list(selectors.entries_for_event(event))
        rows = [
            {
                "entry": e,
                "basis": str(words.SEEDING_BASIS.get(e.seeding_basis, "")),
                "points": e.seeding_points
                if e.seeding_basis in ("elo", "lobby") and e.seeding_points is not None
                else None,
            }
            for e in entries
        ]
        return render_to_string(
            "tournaments/_entries.html",
            {
                "event": event,
                "rows": rows,
                "active_count": sum(e.status == EntryStatus.ACTIVE for e in entries),
                "can_manage": manage,
            },
        )

    html, _version = cached_fragment(
        f"entries:{'manage' if manage else 'public'}",
        championship_id=event.championship_id,
        event_id=event.pk,
        build=build,
    )
    return html


# --- Match ---------------------------------------------------------------------------------


def match_heading(match: Match) -> dict:
    """The match's title (round and players) and its feeders' names, in two small queries."""
    rounds = (
        Round.objects.filter(event_id=match.event_id)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
        if match.event.format == EventFormat.KNOCKOUT
        else 0
    )
    feeders = {}
    if rounds and (match.entry_a_id is None or match.entry_b_id is None):
        feeders = words.feeders_of(list(match.feeders.select_related("round")))
    return {
        "title": words.match_title(match, rounds, feeders),
        "a": words.side_name(match, 0, feeders, rounds),
        "b": words.side_name(match, 1, feeders, rounds),
    }


def match_live(match: Match) -> Fragment:
    """The match's state, score and games."""

    def build() -> str:
        games = list(match.match_games.all())
        return render_to_string(
            "tournaments/_match_live.html",
            {
                "match": match,
                "event": match.event,
                "games": games,
                "boards": selectors.team_match_boards(match)
                if match.event.entry_kind == EntryKind.TEAM and match.entry_a and match.entry_b
                else None,
                "names": match_heading(match),
                "reason": words.reason_words(match.state_reason),
                "state": words.match_status_words(match),
                **forecast_pages.match_context(match),
            },
        )

    html, _version = cached_fragment(
        forecast_pages.fragment_name(f"match:{match.pk}", match.event),
        championship_id=match.event.championship_id,
        event_id=match.event_id,
        build=build,
    )
    return Fragment(html, finished=match.status in FINAL_MATCH_STATUSES)


# --- Championship --------------------------------------------------------------------------


def championship_events(championship: Championship, events: list[Event]) -> str:
    """The championship's events by stage, with their states and champions."""

    def build() -> str:
        stages = [(stage, list(group)) for stage, group in groupby(events, lambda e: e.stage)]
        return render_to_string(
            "tournaments/_championship_events.html",
            {"championship": championship, "stages": stages},
        )

    html, _version = cached_fragment(
        "events", championship_id=championship.pk, event_id=None, build=build
    )
    return html
