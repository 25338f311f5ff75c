"""`event_import`: an event export, checked whole (`checks.import_check`), written in one
transaction. A refusal at any point, before or during the writing, leaves the database as it
was.

What an import may do (docs/organisers.md, "Exports and imports"):
- without an organiser (the operator at the shell, who holds the database anyway): create the
  championship, or add the event to the existing one of that name and year;
- with `--organiser` (`actor`): create the championship only if that user may create
  championships (the organiser role), and then they are its organiser; add to an existing one
  only if they already run it (one of its organisers, or staff). An import never makes anyone
  an organiser of a championship that exists.
- players are matched by display name (case-insensitive) or created with their public fields
  only; an existing player is never changed.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.utils.translation import gettext as _

from players.audit.registry import register_audit_type
from players.models import Player
from players.types import User
from tournaments.models import AuditAction, Championship, Event
from tournaments.permissions import can_create_championship, can_manage
from tournaments.services.audit import audit
from tournaments.services.event_format import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    SECTIONS,
    Section,
)
from tournaments.services.imports.checks import CleanExport, import_check
from tournaments.services.imports.values import EventImportError

#: References to rows of the same section, set once every row of it exists.
_SELF = {"next_match", "based_on"}

Ids = dict[str, dict[int, int]]  # section → the file's id → this database's id


def _insert(obj: models.Model, where: str) -> None:
    """One row; what the database still refuses (a clash with a row it holds) is named."""
    try:
        obj.save(force_insert=True)
    except DatabaseError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise EventImportError([(where, f"refused by the database: {first}")]) from None


def _mapped(name: str, value: Any, ids: Ids) -> Any:
    """A JSON column with the file's ids replaced by this database's (checked: they exist)."""
    if name == "seat_players":
        return [None if p is None else ids["players"][p] for p in value]
    if name == "extensions" and value.get("match") is not None:
        return {**value, "match": ids["matches"][value["match"]]}
    return value


def _build(section: Section, row: dict[str, Any], ids: Ids, fixed: dict[str, Any]) -> Any:
    obj = section.model()
    for name, value in row.items():
        if name == "id" or name in _SELF:
            continue
        if name in section.refs:
            target = ids[section.refs[name]]
            attname = section.model._meta.get_field(name).attname
            setattr(obj, attname, None if value is None else target[value])
        else:
            setattr(obj, name, _mapped(name, value, ids))
    for name, value in fixed.items():
        setattr(obj, name, value)
    return obj


def _save_section(section: Section, rows: list[dict], ids: Ids, fixed: dict[str, Any]) -> None:
    ids[section.name] = new = {}
    for i, row in enumerate(rows):
        obj = _build(section, row, ids, fixed)
        _insert(obj, f"{section.name}[{i}]")
        new[row["id"]] = obj.pk
    for name in _SELF & set(section.refs):
        attname = section.model._meta.get_field(name).attname
        for row in rows:
            if row.get(name) is not None:
                section.model.objects.filter(pk=new[row["id"]]).update(**{attname: new[row[name]]})


def _players(rows: list[dict], ids: Ids) -> None:
    ids["players"] = {}
    for i, row in enumerate(rows):
        found = Player.objects.filter(display_name__iexact=row["display_name"]).first()
        if found is None:
            found = Player(**{k: v for k, v in row.items() if k != "id"})
            _insert(found, f"players[{i}]")
        ids["players"][row["id"]] = found.pk


def _championship(clean: dict[str, Any], actor: User | None) -> Championship:
    name = clean["name"].strip()
    found = Championship.objects.filter(name__iexact=name, year=clean["year"]).first()
    if found is not None:
        if actor is not None and not can_manage(actor, found):
            raise EventImportError(
                [
                    (
                        "championship",
                        f"{found} exists and {actor.get_username()} does not organise it: an "
                        "import adds an event only to a championship the --organiser already "
                        "runs, and never makes anyone an organiser of one",
                    )
                ]
            )
        return found
    if actor is not None and not can_create_championship(actor):
        raise EventImportError(
            [
                (
                    "--organiser",
                    f"{actor.get_username()} may not create championships (give them the "
                    "organiser role first)",
                )
            ]
        )
    championship = Championship(**{**clean, "name": name}, created_by=actor)
    _insert(championship, "championship")
    if actor is not None:
        championship.organisers.add(actor)
    return championship


def _require_export(data: Any) -> None:
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
    event = data.get("event")
    if isinstance(event, dict) and event.get("entry_kind", "single") != "single":
        # Pairs and teams would need their rosters matched too: not in the export format yet.
        raise ValidationError(
            {"event": _("Only singles events can be imported; this export is of pairs or teams.")}
        )


@transaction.atomic
def event_import(*, data: Any, actor: User | None = None) -> Event:
    """Read an `event_export` back as a new event (see the module's doc for what it may do).

    Raises `EventImportError` (every problem with its path in the file) or `ValidationError`
    (not an export of this format and version, or the event exists); nothing is written then.
    """
    _require_export(data)
    clean: CleanExport = import_check(data)
    if actor is not None and not actor.is_authenticated:
        actor = None
    championship = _championship(clean.championship, actor)
    event_row = dict(clean.event)
    champion = event_row.pop("champion", None)
    if Event.objects.filter(championship=championship, name=event_row["name"]).exists():
        raise ValidationError(
            {
                "event": _("%(championship)s already has an event %(event)s.")
                % {"championship": championship, "event": event_row["name"]}
            }
        )
    event = Event(**event_row, championship=championship)
    _insert(event, "event")
    ids: Ids = {}
    _players(clean.sections["players"], ids)
    fixed = {"event": event, "event_id": event.pk}
    for section in SECTIONS[1:]:
        wanted = {k: v for k, v in fixed.items() if k in section.fixed}
        _save_section(section, clean.sections[section.name], ids, wanted)
    if champion is not None:
        event.champion_id = ids["entries"][champion]
        event.save(update_fields=["champion"])
    audit(
        actor=actor,
        championship=championship,
        event=event,
        action=AuditAction.EVENT_IMPORT,
        target=event.name,
        details={
            "entries": len(ids["entries"]),
            "matches": len(ids["matches"]),
            "games": len(ids["games"]),
        },
    )
    return event


register_audit_type(
    AuditAction.EVENT_IMPORT, details={"entries": int, "matches": int, "games": int}
)
