"""Matches: winners, brackets and TP totals (``manage.py check_consistency``, see the package).

A table open's match has no counted game: its result is the score sheet a controller typed
(`TableResult`), so its TPs are the sheet's, over one game, and a drawn table (equal scores,
played to the end) is decided with no winner; a game lost by a drop-out is a walkover scored as
a bye (`services.table_opens.entry_drop`). Those are the table open's rules, held as strictly as
the online ones: a sheet whose match stands at other TPs, names another winner, or is still
open is a breach.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from django.db.models import Q

from games.consistency import Breach, chunks
from games.score_sheet import Ending, ScoreSheet
from tournaments import formats
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    EntryStatus,
    Match,
    MatchGame,
    MatchStatus,
)

WON = (MatchStatus.DECIDED, MatchStatus.WALKOVER, MatchStatus.RULED)


def entry_label(entry_id: int | None) -> str:
    return "nobody" if entry_id is None else f"entry {entry_id}"


SHEET_FIELDS = ("score_a", "score_b", "ending", "conceded_by")
SHEET_COLUMNS = tuple(f"table_result__{name}" for name in SHEET_FIELDS)


def _sheet(columns: list) -> ScoreSheet | None:
    """A table-open match's typed score sheet (None when it has none)."""
    score_a, score_b, ending, conceded_by = columns
    if score_a is None:
        return None
    return ScoreSheet(score_a, score_b, Ending(ending), conceded_by)


def winner_breaches() -> list[Breach]:
    out = []
    # In Python rather than SQL: a bye's empty side is NULL, which a SQL comparison would not
    # count as "not this entry".
    rows = (
        Match.objects.filter(
            Q(status__in=WON) | Q(winner__isnull=False) | Q(table_result__isnull=False)
        )
        .order_by("pk")
        .values_list("pk", "status", "winner_id", "entry_a_id", "entry_b_id", *SHEET_COLUMNS)
    )
    for match_id, status, winner, a, b, *sheet_columns in rows.iterator(chunk_size=5000):
        sheet = _sheet(sheet_columns)
        if sheet is not None and status not in FINAL_MATCH_STATUSES:
            why = f"has a typed score sheet ({sheet.describe()}) but is still {status}"
        elif sheet is not None and status == MatchStatus.DECIDED:
            # A table open's match is decided by its sheet: a draw has no winner (10-10).
            expected = None if sheet.is_draw else (a, b)[sheet.winner_seat]
            if winner == expected:
                continue
            result = "is a draw" if expected is None else f"{entry_label(expected)} won"
            why = (
                f"is decided by its score sheet ({sheet.describe()}), which {result}, but "
                f"names {entry_label(winner)} as winner"
            )
        elif status in WON and winner is None:
            why = f"is {status} but has no winner"
        elif status in WON and winner not in (a, b):
            why = (
                f"is {status} and won by entry {winner}, which is not one of its entries "
                f"({entry_label(a)}, {entry_label(b)})"
            )
        elif status not in WON and winner is not None:
            why = f"is {status} but names entry {winner} as winner"
        else:
            continue
        out.append(
            Breach("match_winner", f"match {match_id} {why}", {"match": match_id, "entry": winner})
        )
    return out


def bracket_breaches() -> list[Breach]:
    out = []
    feeders = (
        Match.objects.filter(next_match__isnull=False)
        .order_by("pk")
        .values_list(
            "pk",
            "status",
            "winner_id",
            "winner__status",
            "next_match_id",
            "next_side",
            "next_match__entry_a_id",
            "next_match__entry_b_id",
        )
    )
    finished_feeders: dict[int, list[bool]] = defaultdict(list)
    for match_id, status, winner, winner_status, following, side, next_a, next_b in feeders:
        slot = next_a if side == 0 else next_b
        final = status in FINAL_MATCH_STATUSES
        finished_feeders[following].append(final)
        ids = {"match": match_id, "next_match": following}
        if (
            final
            and slot != winner
            and not (slot is None and winner_status == EntryStatus.WITHDRAWN)
        ):
            out.append(
                Breach(
                    "winner_not_advanced",
                    f"match {match_id} is {status} with winner {entry_label(winner)}, but side "
                    f"{side} of the next match {following} holds {entry_label(slot)}",
                    {**ids, "entry": winner},
                )
            )
        elif not final and slot is not None:
            out.append(
                Breach(
                    "winner_not_advanced",
                    f"match {match_id} is not finished ({status}), but side {side} of the next "
                    f"match {following} already holds entry {slot}",
                    {**ids, "entry": slot},
                )
            )
    ready = [m for m, finals in finished_feeders.items() if len(finals) == 2 and all(finals)]
    waiting = set(
        Match.objects.filter(pk__in=ready, status=MatchStatus.WAITING).values_list("pk", flat=True)
    )
    for match_id in sorted(waiting):
        out.append(
            Breach(
                "bracket_stalled",
                f"match {match_id} is still waiting although both matches feeding it are finished",
                {"match": match_id},
            )
        )
    return out


def _expected_totals(row: dict, counted: tuple) -> tuple[Decimal, Decimal, int, str]:
    """The TPs and games a match must stand at, and what they come from.

    Online, its counted games. At a table open, the score sheet a controller typed (there is
    no record, so nothing is counted: 1 game, the sheet's TPs), and for a game lost by a
    drop-out, a walkover scored as a bye (tournaments/services/table_opens.entry_drop)."""
    sheet = _sheet([row[f"table_result__{c}"] for c in SHEET_FIELDS])
    if sheet is not None and not counted[2]:
        tps_a, tps_b = formats.result_tps(
            sheet.score_a,
            sheet.score_b,
            conceded_by=sheet.conceded_by,
            scheme=row["event__tp_scheme"],
        )
        return tps_a, tps_b, 1, f"its score sheet ({sheet.describe()})"
    if (
        row["event__table_open"]
        and row["status"] == MatchStatus.WALKOVER
        and not counted[2]
        and row["winner_id"] is not None
    ):
        bye = formats.bye_tps(row["event__games_per_match"])
        won_by_a = row["winner_id"] == row["entry_a_id"]
        tps_a, tps_b = (bye, Decimal("0.0")) if won_by_a else (Decimal("0.0"), bye)
        return tps_a, tps_b, 0, "a walkover at a table open (scored as a bye)"
    return counted[0], counted[1], counted[2], "its counted games"


def match_total_breaches() -> list[Breach]:
    out = []
    matches = Match.objects.values(
        "id",
        "is_bye",
        "tps_a",
        "tps_b",
        "games_played",
        "status",
        "winner_id",
        "entry_a_id",
        "event__table_open",
        "event__tp_scheme",
        "event__games_per_match",
        *SHEET_COLUMNS,
    )
    for rows in chunks(matches):
        sums: dict[int, list] = defaultdict(lambda: [Decimal("0.0"), Decimal("0.0"), 0, []])
        for match_id, number, tps_a, tps_b in MatchGame.objects.filter(
            match_id__in=[row["id"] for row in rows]
        ).values_list("match_id", "number", "tps_a", "tps_b"):
            total = sums[match_id]
            total[0] += tps_a
            total[1] += tps_b
            total[2] += 1
            total[3].append(number)
        for row in rows:
            match_id = row["id"]
            nothing = (Decimal("0.0"), Decimal("0.0"), 0, [])
            tps_a, tps_b, count, numbers = sums.get(match_id, nothing)
            ids = {"match": match_id}
            if row["is_bye"]:
                if count:
                    out.append(
                        Breach(
                            "match_tps_differ",
                            f"match {match_id} is a bye but counts {count} game(s)",
                            ids,
                        )
                    )
                continue
            if row["table_result__score_a"] is not None and count:
                out.append(
                    Breach(
                        "match_tps_differ",
                        f"match {match_id} has a typed score sheet and also {count} counted "
                        "game(s)",
                        ids,
                    )
                )
            want_a, want_b, want_games, source = _expected_totals(row, (tps_a, tps_b, count))
            if (row["tps_a"], row["tps_b"], row["games_played"]) != (want_a, want_b, want_games):
                out.append(
                    Breach(
                        "match_tps_differ",
                        f"match {match_id} stands at {row['tps_a']}-{row['tps_b']} TPs over "
                        f"{row['games_played']} game(s), but {source} make(s) "
                        f"{want_a}-{want_b} over {want_games}",
                        ids,
                    )
                )
            if sorted(numbers) != list(range(1, count + 1)):
                out.append(
                    Breach(
                        "match_tps_differ",
                        f"match {match_id} numbers its games {sorted(numbers)}, not 1 to {count}",
                        ids,
                    )
                )
    return out
