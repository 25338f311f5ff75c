"""Exports of an event: CSV for people and spreadsheets, JSON for a whole event (read back by
`manage.py import_event`, `tournaments.services.imports`).

The JSON holds the championship's name, the event's settings, its players (their public fields
only), entries, rounds, matches, the score sheets of a table open, every counted game with its
seats and its record exactly as submitted (the body in base64, with the verdict), and the
reports of those games and of the event's matches, every version. Users are not exported: who
organised, registered or typed something is the importing site's business, so those references
are left empty. An import into an empty database gives the same standings. What travels is
defined in `tournaments.services.event_format`.
"""

from __future__ import annotations

import base64
import datetime as dt
from decimal import Decimal
from typing import Any

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.models import Game, GameRecord, GameReport, GameSeat, ReportedGame
from players.models import Player
from tantrix_site.spreadsheets import csv_text
from tournaments.format_words import tps_text
from tournaments.models import (
    SIDES,
    Entry,
    Event,
    Match,
    MatchGame,
    Round,
    TableResult,
)
from tournaments.services.event_format import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    PLAYER_FIELDS,
    USER_FIELDS,
)
from tournaments.standings import (
    criteria_labels,
    event_criteria,
    event_standings,
    format_value,
    round_tables,
)


def standings_csv(event: Event) -> str:
    criteria = event_criteria(event)
    rows = [
        [
            line.place,
            line.player_name,
            line.entry.country_code or "",
            line.entry.get_status_display(),
            line.games,
            *(format_value(key, line.raw[key], localized=False) for key, _value in line.values),
            line.separated_by,
        ]
        for line in event_standings(event)
    ]
    header = [
        _("Place"),
        _("Player"),
        _("Country"),
        _("Status"),
        _("Games"),
        *criteria_labels(criteria),
        _("Placed below the previous by"),
    ]
    return csv_text(header, rows)


def _side(match: Match, side: str) -> str:
    entry = getattr(match, f"entry_{side}")
    return entry.name if entry else (pgettext("pairing", "bye") if match.is_bye else "")


def pairings_csv(round_: Round) -> str:
    rows = [
        [round_.number, t.number, _side(t.match, "a"), _side(t.match, "b"), t.outcome]
        for t in round_tables(round_)
    ]
    return csv_text(
        [
            pgettext("pairing", "Round"),
            pgettext("pairing", "Table"),
            _("Player A"),
            _("Player B"),
            pgettext("pairing", "Result"),
        ],
        rows,
    )


def results_csv(event: Event) -> str:
    """Every match (a table, in a table open) and every game counted for it."""
    games: dict[int, list[MatchGame]] = {}
    for mg in (
        MatchGame.objects.filter(match__event=event)
        .select_related("game")
        .prefetch_related("game__seats")
    ):
        games.setdefault(mg.match_id, []).append(mg)
    rows = []
    for round_ in event.rounds.order_by("number"):
        for t in round_tables(round_):
            m = t.match
            base = [round_.number, t.number, _side(m, "a"), _side(m, "b")]
            if t.result is not None:
                r = t.result
                who = ("A", "B")[r.conceded_by] if r.conceded_by is not None else ""
                rows.append(
                    [
                        *base,
                        _("sheet"),
                        r.score_a,
                        r.score_b,
                        tps_text(m.tps_a, localized=False),
                        tps_text(m.tps_b, localized=False),
                        r.get_ending_display(),
                        who,
                        m.get_status_display(),
                    ]
                )
            for mg in sorted(games.get(m.pk, []), key=lambda g: g.number):
                seats = {s.seat: s.score for s in mg.game.seats.all()}
                score_a, score_b = seats.get(mg.seat_a), seats.get(1 - mg.seat_a)
                rows.append(
                    [
                        *base,
                        _("game %(number)s") % {"number": mg.number},
                        score_a,
                        score_b,
                        tps_text(mg.tps_a, localized=False),
                        tps_text(mg.tps_b, localized=False),
                        mg.game.get_end_reason_display(),
                        "",
                        m.get_status_display(),
                    ]
                )
            if t.result is None and m.pk not in games:
                rows.append([*base, "", "", "", m.tps_a, m.tps_b, "", "", m.get_status_display()])
    header = [
        pgettext("pairing", "Round"),
        pgettext("pairing", "Table"),
        _("Player A"),
        _("Player B"),
        _("Game"),
        _("Score A"),
        _("Score B"),
        _("TPs A"),
        _("TPs B"),
        _("Ending"),
        _("Conceded by"),
        _("Match status"),
    ]
    return csv_text(header, rows)


# --- JSON: the whole event ----------------------------------------------------------------


def _dump(
    obj: models.Model, *, skip: tuple[str, ...] = (), only: tuple[str, ...] | None = None
) -> dict[str, Any]:
    """A row's own fields, relations as the raw ids the import maps to new rows."""
    out: dict[str, Any] = {"id": obj.pk}
    for f in obj._meta.concrete_fields:
        if f.primary_key or f.name in skip or f.name in USER_FIELDS:
            continue
        if only is not None and f.name not in only:
            continue
        if f.is_relation:
            out[f.name] = getattr(obj, f.attname)
        else:
            out[f.name] = _plain(f, obj)
    return out


def _plain(f: models.Field, obj: models.Model) -> Any:
    """JSON for one field, exact: full datetimes, Decimals as text, record bytes in base64."""
    value = f.value_from_object(obj)
    if isinstance(f, models.BinaryField):
        return base64.b64encode(bytes(value or b"")).decode()
    if (
        value is None
        or isinstance(value, bool | int | float | str)
        or isinstance(f, models.JSONField)
    ):
        return value
    if isinstance(value, dt.date | dt.time):  # datetimes too
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return f.value_to_string(obj)


def event_export(event: Event) -> dict[str, Any]:
    entries = list(Entry.objects.filter(event=event).select_related(*SIDES))
    matches = list(Match.objects.filter(event=event))
    match_games = list(MatchGame.objects.filter(match__event=event))
    games = list(Game.objects.filter(pk__in=[mg.game_id for mg in match_games]))
    # Reports: those of the counted games, and those still open or disputed for the matches.
    reported = list(
        ReportedGame.objects.filter(Q(game__in=games) | Q(match_id__in=[m.pk for m in matches]))
    )
    versions = list(GameReport.objects.filter(reported_game__in=reported))
    record_ids = {g.record_id for g in games} | {v.record_id for v in versions if v.record_id}
    records = list(GameRecord.objects.filter(pk__in=record_ids))
    # Every player the file names, so that each reference resolves inside it (the import
    # refuses one that does not).
    player_ids = (
        {e.player_id for e in entries}
        | set(GameSeat.objects.filter(game__in=games).values_list("player_id", flat=True))
        | {v.side_player_id for v in versions if v.side_player_id}
        | {p for r in [*reported, *records] for p in r.seat_players if isinstance(p, int)}
    )
    championship = event.championship
    data = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "championship": _dump(championship),
        "event": _dump(event, skip=("championship", "feeds_from", "champion"))
        | {"champion": event.champion_id},
        # Public fields only: the private ones stay on this site (event_format.PLAYER_FIELDS).
        "players": [_dump(p, only=PLAYER_FIELDS) for p in Player.objects.filter(pk__in=player_ids)],
        "entries": [_dump(e, skip=("event",)) for e in entries],
        "rounds": [_dump(r, skip=("event",)) for r in event.rounds.all()],
        "matches": [_dump(m, skip=("event",)) for m in matches],
        "table_results": [_dump(r) for r in TableResult.objects.filter(match__event=event)],
        "records": [_dump(r) for r in records],
        "games": [_dump(g) for g in games],
        "seats": [_dump(s) for s in GameSeat.objects.filter(game__in=games)],
        "match_games": [_dump(mg) for mg in match_games],
        "reported_games": [_dump(r) for r in reported],
        "reports": [_dump(v) for v in versions],
    }
    return data
