"""Reading an event: its entries and matches, the bracket, group tables and Swiss standings,
final places, whether a match takes games, and names for the audit trail."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db.models import Prefetch, QuerySet

from games.models import Game
from tournaments import formats
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    SIDES,
    Championship,
    Entry,
    EntryStatus,
    Event,
    EventFormat,
    Match,
    MatchGame,
    MatchStatus,
    sides_of,
)


def entries_for_event(event: Event) -> QuerySet[Entry]:
    return event.entries.select_related(*SIDES).order_by("seed", "created", "id")


def matches_for_event(event: Event) -> QuerySet[Match]:
    return (
        event.matches.select_related(
            "round", *sides_of("entry_a"), *sides_of("entry_b"), *sides_of("winner")
        )
        .prefetch_related(Prefetch("match_games", queryset=MatchGame.objects.order_by("number")))
        .order_by("round__number", "group", "bracket_index", "id")
    )


def bracket_rounds(event: Event) -> list[dict]:
    """A knockout's rounds, each with its matches top to bottom (for the bracket page)."""
    if event.format != EventFormat.KNOCKOUT:
        return []
    rounds: dict[int, dict] = {}
    for match in matches_for_event(event):
        slot = rounds.setdefault(match.round.number, {"round": match.round, "matches": []})
        slot["matches"].append(match)
    return [rounds[n] for n in sorted(rounds)]


def group_table_rows(event: Event) -> list[dict]:
    entries = {e.pk: e for e in entries_for_event(event)}
    result = []
    for group, table in group_tables(event).items():
        result.append(
            {
                "group": group,
                "rows": [
                    {
                        "entry": row.key,
                        "player": entries[row.key].name,
                        "player_id": entries[row.key].player_id,
                        "place": row.place,
                        "seed": row.seed,
                        "games": row.games,
                        "tps": row.tps,
                        "tps_available": row.tps_available,
                        "tp_percent": row.tp_percent,
                        "status": entries[row.key].status,
                    }
                    for row in table
                ],
            }
        )
    return result


def swiss_standings(event: Event) -> list[tuple[Entry, Decimal]]:
    """Active entries with their total TPs so far, best first (Tantrix Swiss ranks on TPs)."""
    totals: dict[int, Decimal] = {}
    for match in event.matches.filter(status__in=FINAL_MATCH_STATUSES):
        for entry_id, tps in ((match.entry_a_id, match.tps_a), (match.entry_b_id, match.tps_b)):
            if entry_id:
                totals[entry_id] = totals.get(entry_id, Decimal("0.0")) + tps
    entries = event.entries.filter(status__in=[EntryStatus.ACTIVE, EntryStatus.CHAMPION])
    rows = [(e, totals.get(e.pk, Decimal("0.0"))) for e in entries.select_related(*SIDES)]
    rows.sort(key=lambda row: (-row[1], row[0].seed or 0))
    return rows


def group_tables(event: Event) -> dict[int, tuple]:
    """Each group's table (formats.TableRow with entry ids as keys), by group number."""
    entries = list(event.entries.exclude(group=None))
    games: dict[int, list] = {}
    for mg in MatchGame.objects.filter(match__event=event).select_related("match"):
        games.setdefault(mg.match.group, []).append(
            formats.PlayedGame(mg.match.entry_a_id, mg.match.entry_b_id, mg.tps_a, mg.tps_b)
        )
    tables = {}
    for group in sorted({e.group for e in entries}):
        members = {e.pk: e.seed or 0 for e in entries if e.group == group}
        tables[group] = formats.group_table(members, games.get(group, []))
    return tables


def match_open_for_games(match: Match) -> bool:
    """Whether games may still be counted for this match (a table open's are typed
    from the score sheets by its controllers, never submitted: opens/services/score_sheets.py)."""
    return (
        not match.event.table_open
        and match.status in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)
        and match.entry_a_id is not None
        and match.entry_b_id is not None
    )


def unattached_tournament_games(*, since: dt.datetime) -> list[int]:
    """Valid games submitted for a match since `since` that were neither counted nor refused
    (their counting was lost, e.g. a worker died): the sweep counts them."""
    return list(
        Game.objects.filter(
            created__gte=since,
            record__extensions__has_key="match",
            match_game__isnull=True,
            uncounted__isnull=True,
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def championship_names(ids: set[int]) -> dict[int, str]:
    """Names for the audit trail's `championship_id`s (players.audit.registry)."""
    return {c.pk: str(c) for c in Championship.objects.filter(pk__in=ids)}


def event_names_for_audit(ids: set[int]) -> dict[int, str]:
    """Names for the audit trail's `event_id`s: the championship and the event."""
    events = Event.objects.filter(pk__in=ids).select_related("championship")
    return {e.pk: f"{e.championship} · {e.name}" for e in events}


def rounds_open_for_deadlines(event: Event) -> QuerySet:
    """The rounds whose deadline an organiser may still move: some match is not over."""
    open_statuses = [s for s in MatchStatus.values if s not in FINAL_MATCH_STATUSES]
    return event.rounds.filter(matches__status__in=open_statuses).distinct().order_by("number")


def final_places(event: Event) -> list[tuple[int, Entry]]:
    """The event's entries with their places as its format ranks them.

    A knockout: the champion 1, the runner-up 2, the semi-final losers 3 (shared), the
    quarter-final losers 5, ...; groups and round robins: by place in the group, then TP%,
    then seed; a Swiss: its standings. Withdrawn entries and pairs still awaiting a partner are
    left out."""
    entries = {
        e.pk: e
        for e in entries_for_event(event).exclude(
            status__in=[EntryStatus.WITHDRAWN, EntryStatus.PENDING]
        )
    }
    if event.format == EventFormat.KNOCKOUT:
        rounds = event.rounds.count()
        places: dict[int, int] = {}
        for match in event.matches.filter(status__in=FINAL_MATCH_STATUSES).select_related("round"):
            for entry_id in (match.entry_a_id, match.entry_b_id):
                if entry_id and entry_id != match.winner_id:
                    places[entry_id] = 2 ** (rounds - match.round.number) + 1
        if event.champion_id:
            places[event.champion_id] = 1
        ranked = [(place, entries[pk]) for pk, place in places.items() if pk in entries]
        return sorted(ranked, key=lambda row: (row[0], row[1].seed or 0, row[1].pk))
    if event.format == EventFormat.SWISS:
        rows = [e for e, _ in swiss_standings(event) if e.pk in entries]
        return list(enumerate(rows, start=1))
    rows = []
    for table in group_tables(event).values():
        for row in table:
            if row.key in entries:
                ratio = row.tps / row.tps_available if row.tps_available else Decimal(0)
                rows.append((row.place, -ratio, row.seed, entries[row.key]))
    rows.sort(key=lambda row: row[:3])
    return [(place, row[3]) for place, row in enumerate(rows, start=1)]
