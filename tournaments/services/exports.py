"""Exports of an event (CSV for people and spreadsheets, JSON for a whole event) and the import
that reads the JSON back (`manage.py import_event`).

The JSON holds the championship's name, the event's settings, its players, entries, rounds,
matches, the score sheets of a table open, every counted game with its seats and its record
exactly as submitted (the body in base64, with the verdict), and the reports of those games and
of the event's matches, every version. Users are not exported:
who organised, registered or typed something is the importing site's business, so those
references are left empty. An import into an empty database gives the same standings.
"""

from __future__ import annotations

import base64
import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.models import Game, GameRecord, GameReport, GameSeat, ReportedGame
from players.models import Player
from players.types import User
from tantrix_site.spreadsheets import csv_text
from tournaments.models import (
    SIDES,
    AuditAction,
    Championship,
    Entry,
    EntryKind,
    Event,
    Match,
    MatchGame,
    Round,
    TableResult,
)
from tournaments.services.audit import audit
from tournaments.standings import (
    criteria_labels,
    event_criteria,
    event_standings,
    format_value,
    round_tables,
)

EXPORT_FORMAT = "tantrix-event"
EXPORT_VERSION = 1
_USER_FIELDS = {
    "registered_by",
    "entered_by",
    "submitter",
    "created_by",
    "user",
    "author",
    "answered_by",
    "disputed_by",
}


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
                        m.tps_a,
                        m.tps_b,
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
                        mg.tps_a,
                        mg.tps_b,
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


def _dump(obj: models.Model, *, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """A row's own fields, relations as the raw ids the import maps to new rows."""
    out: dict[str, Any] = {"id": obj.pk}
    for f in obj._meta.concrete_fields:
        if f.primary_key or f.name in skip or f.name in _USER_FIELDS:
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
    player_ids = (
        {e.player_id for e in entries}
        | set(GameSeat.objects.filter(game__in=games).values_list("player_id", flat=True))
        | {v.side_player_id for v in versions if v.side_player_id}
        | {p for r in reported for p in r.seat_players if isinstance(p, int)}
    )
    championship = event.championship
    data = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "championship": _dump(championship),
        "event": _dump(event, skip=("championship", "feeds_from", "champion"))
        | {"champion": event.champion_id},
        "players": [
            _dump(p, skip=("date_of_birth",)) for p in Player.objects.filter(pk__in=player_ids)
        ],
        "entries": [_dump(e, skip=("event",)) for e in entries],
        "rounds": [_dump(r, skip=("event",)) for r in event.rounds.all()],
        "matches": [_dump(m, skip=("event",)) for m in matches],
        "table_results": [_dump(r) for r in TableResult.objects.filter(match__event=event)],
        "records": [_dump(r) for r in GameRecord.objects.filter(pk__in=record_ids)],
        "games": [_dump(g) for g in games],
        "seats": [_dump(s) for s in GameSeat.objects.filter(game__in=games)],
        "match_games": [_dump(mg) for mg in match_games],
        "reported_games": [_dump(r) for r in reported],
        "reports": [_dump(v) for v in versions],
    }
    return data


def _build(model: type[models.Model], row: dict[str, Any], refs: dict[str, dict]) -> Any:
    obj = model()
    for f in model._meta.concrete_fields:
        if f.primary_key or f.name not in row:
            continue
        value = row[f.name]
        if f.is_relation:
            target = refs.get(f.name)
            if target is None or value is None:
                setattr(obj, f.attname, None)
                continue
            if value not in target:
                raise ValidationError(
                    {
                        f.name: _("%(model)s refers to an unknown %(value)s.")
                        % {"model": model.__name__, "value": value}
                    }
                )
            setattr(obj, f.attname, target[value])
        elif isinstance(f, models.BinaryField):
            setattr(obj, f.attname, base64.b64decode(value or ""))
        else:
            setattr(obj, f.attname, f.to_python(value) if value is not None else None)
    return obj


def _save_all(model, rows, refs, *, fixed: dict | None = None) -> dict[Any, int]:
    """Create the rows in order and return old id → new id."""
    new_ids: dict[Any, int] = {}
    for row in rows:
        obj = _build(model, row, refs)
        for name, value in (fixed or {}).items():
            setattr(obj, name, value)
        obj.save(force_insert=True)
        new_ids[row["id"]] = obj.pk
    return new_ids


def _extensions(value: Any, matches: dict[Any, int]) -> dict:
    """A submission's extensions with the match id of this database."""
    extensions = dict(value or {})
    if extensions.get("match") in matches:
        extensions["match"] = matches[extensions["match"]]
    return extensions


def _reports_import(
    data: dict[str, Any], *, players: dict, matches: dict, records: dict, games: dict
) -> None:
    rows = data.get("reported_games", [])
    reported = _save_all(ReportedGame, rows, {"game": games})
    for row in rows:
        ReportedGame.objects.filter(pk=reported[row["id"]]).update(
            seat_players=[players.get(p, p) for p in row.get("seat_players") or []],
            extensions=_extensions(row.get("extensions"), matches),
            match_id=matches.get(row.get("match_id")),
        )
    versions = data.get("reports", [])
    refs = {"reported_game": reported, "side_player": players, "record": records}
    new_ids = _save_all(GameReport, versions, refs)
    for row in versions:
        if row.get("based_on") is not None:
            GameReport.objects.filter(pk=new_ids[row["id"]]).update(
                based_on_id=new_ids[row["based_on"]]
            )


@transaction.atomic
def event_import(*, data: dict[str, Any], actor: User | None = None) -> Event:
    """Read an `event_export` back; players are matched by display name or created."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ValidationError(
            {"format": _("Not a Tantrix event export (%(format)s).") % {"format": EXPORT_FORMAT}}
        )
    if data.get("version") != EXPORT_VERSION:
        raise ValidationError(
            {
                "version": _("Only version %(version)s exports can be read.")
                % {"version": EXPORT_VERSION}
            }
        )
    c = data["championship"]
    championship = Championship.objects.filter(name__iexact=c["name"], year=c["year"]).first()
    if championship is None:
        championship = _build(Championship, c, {})
        championship.save(force_insert=True)
    if actor is not None and actor.is_authenticated:
        championship.organisers.add(actor)
    players: dict[Any, int] = {}
    for row in data["players"]:
        found = Player.objects.filter(display_name__iexact=row["display_name"]).first()
        if found is None:
            found = _build(Player, row, {})
            found.save(force_insert=True)
        players[row["id"]] = found.pk
    event = _build(Event, data["event"], {})
    if event.entry_kind != EntryKind.SINGLE:
        # Pairs and teams would need their rosters matched too: not in the export format yet.
        raise ValidationError(
            {"event": _("Only singles events can be imported; this export is of pairs or teams.")}
        )
    event.championship = championship
    event.champion_id = None
    if Event.objects.filter(championship=championship, name=event.name).exists():
        raise ValidationError(
            {
                "event": _("%(championship)s already has an event %(event)s.")
                % {"championship": championship, "event": event.name}
            }
        )
    event.save(force_insert=True)
    entries = _save_all(Entry, data["entries"], {"player": players}, fixed={"event": event})
    rounds = _save_all(Round, data["rounds"], {}, fixed={"event": event})
    # Matches point at each other (the next knockout match): create them, then link.
    refs = {
        "round": rounds,
        "entry_a": entries,
        "entry_b": entries,
        "winner": entries,
        "walkover_claimed_by": entries,
    }
    matches = _save_all(Match, data["matches"], refs, fixed={"event": event})
    for row in data["matches"]:
        if row.get("next_match") is not None:
            Match.objects.filter(pk=matches[row["id"]]).update(
                next_match_id=matches[row["next_match"]]
            )
    _save_all(TableResult, data["table_results"], {"match": matches})
    records = _save_all(GameRecord, data["records"], {})
    for row in data["records"]:
        GameRecord.objects.filter(pk=records[row["id"]]).update(
            seat_players=[players.get(p, p) for p in row.get("seat_players") or []],
            extensions=_extensions(row.get("extensions"), matches),
        )
    games = _save_all(Game, data["games"], {"record": records}, fixed={"event_id": event.pk})
    _save_all(GameSeat, data["seats"], {"game": games, "player": players})
    _save_all(MatchGame, data["match_games"], {"match": matches, "game": games})
    _reports_import(data, players=players, matches=matches, records=records, games=games)
    if data["event"].get("champion") is not None:
        event.champion_id = entries[data["event"]["champion"]]
        event.save(update_fields=["champion"])
    audit(
        actor=actor,
        championship=championship,
        event=event,
        action=AuditAction.EVENT_IMPORT,
        target=event.name,
        details={"entries": len(entries), "matches": len(matches), "games": len(games)},
    )
    return event
