"""Reads for standings with tie-breaks and for table-open rounds (pages, API, exports).

Kept beside `selectors.py` (which serves the online formats) so the tie-break standings have
one home: `tournaments.formats.tiebreaks` ranks, this module loads the rows it needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from players.models import Player
from tournaments.format_words import tps_text
from tournaments.formats import tiebreaks
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    SIDES,
    Entry,
    EntryStatus,
    Event,
    EventFormat,
    EventStatus,
    Match,
    MatchStatus,
    Round,
    TableResult,
    sides_of,
)

IN_PLAY = (EntryStatus.ACTIVE, EntryStatus.CHAMPION, EntryStatus.QUALIFIED)


def player_named(text: str) -> Player | None:
    """The player a form's "name or id" names (an id only if it can be one)."""
    text = text.strip()
    if text.isdigit() and len(text) <= 18:
        found = Player.objects.filter(pk=int(text)).first()
        if found is not None:
            return found
    return Player.objects.filter(display_name__iexact=text).first()


def event_criteria(event: Event) -> tuple[str, ...]:
    """The event's tie-break list (its own, or the default for events that never chose)."""
    return tuple(event.tiebreaks) or tiebreaks.DEFAULT_CRITERIA


def criteria_labels(keys: tuple[str, ...] | list[str]) -> list[str]:
    """The criteria's names in the reader's language (pages, exports)."""
    return [_(label) for label in criteria_english(keys)]


def criteria_ranked_by(keys: tuple[str, ...] | list[str]) -> list[str]:
    """The criteria as a sentence names them ("by TP total", "by Buchholz"), in the reader's
    language: not the column headings, which a language may not decline."""
    return [_(tiebreaks.CRITERIA[k].ranked_by) for k in keys if k in tiebreaks.CRITERIA]


def criteria_english(keys: tuple[str, ...] | list[str]) -> list[str]:
    """The criteria's names in English, as the audit trail stores them."""
    return [tiebreaks.CRITERIA[k].label for k in keys if k in tiebreaks.CRITERIA]


def event_started(event: Event) -> bool:
    return event.status in (EventStatus.DRAWN, EventStatus.FINISHED)


# Criteria counted in tournament points (sums of TPs, or a share of them): one decimal place,
# like every TP a person reads (issue 28: "35 / 48.6 / 13.35" in one table read as three kinds
# of number). The counts (match points, wins, direct encounter) show as they are.
TP_CRITERIA = frozenset(
    {"tp_total", "tp_percent", "buchholz", "median_buchholz", "sonneborn_berger", "tp"}
)


def format_value(key: str, value: Decimal | None, *, localized: bool = True) -> str:
    """A criterion's value for people: TPs and TP% to one decimal place, ratings whole, counts
    without trailing zeros; with the reader's decimal mark (13,3 in Hungarian) unless
    `localized` is off (CSV files, read by programs as well as people)."""
    if value is None:
        return "–"
    if key in TP_CRITERIA:
        return tps_text(value, localized=localized)
    if key == "rating":
        text = f"{value:.0f}"
    else:
        text = f"{value.quantize(Decimal('0.01')):f}"
        text = text.rstrip("0").rstrip(".") if "." in text else text
    return number_format(Decimal(text)) if localized else text


@dataclass(frozen=True)
class StandingLine:
    place: int
    entry: Entry
    values: list[tuple[str, str]]  # (criterion key, value for people), in the event's order
    raw: dict[str, Decimal | None]
    separated_by: str  # the label of the criterion that placed it below the previous line
    games: int
    # The same criterion's key ("seed" when only the seed told them apart), or "".
    separated_by_key: str = ""

    @property
    def player_name(self) -> str:
        return self.entry.name


def _results(matches: list[Match]) -> dict[int, list[tiebreaks.RoundResult]]:
    out: dict[int, list[tiebreaks.RoundResult]] = {}
    for m in matches:
        if m.is_bye or m.entry_b_id is None or m.entry_a_id is None:
            if m.entry_a_id or m.entry_b_id:
                out.setdefault(m.entry_a_id or m.entry_b_id, []).append(
                    tiebreaks.RoundResult(None, m.tps_a if m.entry_a_id else m.tps_b, played=False)
                )
            continue
        played = m.games_played > 0 and m.status not in (MatchStatus.WALKOVER, MatchStatus.VOID)
        for me, other, mine, theirs in (
            (m.entry_a_id, m.entry_b_id, m.tps_a, m.tps_b),
            (m.entry_b_id, m.entry_a_id, m.tps_b, m.tps_a),
        ):
            if m.winner_id is None:
                points = tiebreaks.DRAW if played and mine == theirs else tiebreaks.LOSS
            else:
                points = tiebreaks.WIN if m.winner_id == me else tiebreaks.LOSS
            out.setdefault(me, []).append(
                tiebreaks.RoundResult(other, mine, theirs, points, played=played)
            )
    return out


def _games_played(matches: list[Match]) -> dict[int, int]:
    """Games each entry played over the table: a match of three games counts three (issue 28:
    the column counted matches). Byes and walkovers play none."""
    played: dict[int, int] = {}
    for m in matches:
        if m.is_bye or m.status in (MatchStatus.WALKOVER, MatchStatus.VOID):
            continue
        for entry_id in (m.entry_a_id, m.entry_b_id):
            if entry_id:
                played[entry_id] = played.get(entry_id, 0) + m.games_played
    return played


def event_ranked(event: Event) -> bool:
    """Whether the event's page ranks it on its tie-breaks (the standings panel's table): Swiss
    and round robin events, and every table open. Such a page shows that one table only."""
    return event.format in (EventFormat.SWISS, EventFormat.ROUND_ROBIN) or event.table_open


def event_standings(event: Event) -> list[StandingLine]:
    """Every entry that is in play or has played, ranked on the event's tie-breaks."""
    criteria = event_criteria(event)
    matches = list(
        Match.objects.filter(event=event, status__in=FINAL_MATCH_STATUSES).order_by(
            "round__number", "bracket_index", "id"
        )
    )
    results = _results(matches)
    games = _games_played(matches)
    entries = {
        e.pk: e
        for e in Entry.objects.filter(event=event)
        .filter(Q(status__in=IN_PLAY) | Q(pk__in=list(results)))
        .select_related(*SIDES)
    }
    rows = tiebreaks.ranked_standings(
        [
            tiebreaks.Competitor(
                key=e.pk,
                seed=e.seed or 10**6 + e.pk,
                results=tuple(results.get(e.pk, ())),
                rating=e.seeding_points,
            )
            for e in entries.values()
        ],
        criteria,
    )
    labels = {k: _(c.label) for k, c in tiebreaks.CRITERIA.items()} | {
        "seed": pgettext("tie-break", "Seed")
    }
    return [
        StandingLine(
            place=row.place,
            entry=entries[row.key],
            values=[(k, format_value(k, row.values[k])) for k in criteria],
            raw=dict(row.values),
            separated_by=labels.get(row.separated_by or "", ""),
            games=games.get(row.key, 0),
            separated_by_key=row.separated_by or "",
        )
        for row in rows
    ]


@dataclass(frozen=True)
class Table:
    number: int
    match: Match
    result: TableResult | None

    @property
    def outcome(self) -> str:
        m = self.match
        if m.is_bye:
            return pgettext("pairing", "bye")
        if self.result is not None:
            return f"{self.result.score_a} – {self.result.score_b}"
        if m.status in FINAL_MATCH_STATUSES:
            return m.get_status_display()
        return ""


def round_tables(round_: Round) -> list[Table]:
    """A round's tables in order, with the score sheet typed for each (if any)."""
    matches = list(
        round_.matches.select_related(
            *sides_of("entry_a"), *sides_of("entry_b"), "winner"
        ).order_by("is_bye", "bracket_index", "id")
    )
    results = {r.match_id: r for r in TableResult.objects.filter(match__round=round_)}
    return [
        Table(
            number=(m.bracket_index if m.bracket_index is not None else i) + 1,
            match=m,
            result=results.get(m.pk),
        )
        for i, m in enumerate(matches)
    ]
