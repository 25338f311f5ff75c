"""`import_check`: a whole event export checked, every row and every reference, before
`event_import` writes any of it.

It returns the export cleaned (`CleanExport`: Python values, the file's ids kept for the
references) or raises `EventImportError` listing every problem found, up to `MAX_PROBLEMS`,
each with its path in the file (``matches[5].status: "x" is not one of scheduled, ...``):

- the whole document first (`values.document_check`); a broken document stops there;
- every row of every section (`event_format.SECTIONS`): an object with a whole-number `id`,
  unique in its section, and each field the file carries checked (`values.field_value`,
  `values.JSON_SHAPES`); a field the site needs and the file lacks is named;
- every reference resolves to a row of the same file: an entry's player is one of the file's
  players, a match's entries are the file's entries, a record's seat players and its match are
  the file's, and so on. A reference the file cannot resolve is refused, never looked up in
  this database, so an import never points at an unrelated player or match.

The messages are for the operator running `manage.py import_event` at a shell, in English like
the other management commands' output (docs/organisers.md, "Exports and imports").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db import models

from tournaments.models import EntryKind
from tournaments.services.event_format import (
    CHAMPIONSHIP,
    EVENT,
    OPTIONAL,
    SECTIONS,
    USER_FIELDS,
    Section,
)
from tournaments.services.imports.values import (
    JSON_SHAPES,
    EventImportError,
    Problems,
    document_check,
    field_value,
    kind,
    shown,
)


@dataclass
class CleanExport:
    """The export's rows with Python values: plain fields under their attribute names,
    references under their field names, still holding the file's ids."""

    championship: dict[str, Any]
    event: dict[str, Any]
    sections: dict[str, list[dict[str, Any]]]


def read_fields(section: Section) -> Iterator[models.Field]:
    """The model's fields the file may carry for this section."""
    for f in section.model._meta.concrete_fields:
        if f.primary_key or f.name in USER_FIELDS or f.name in section.fixed:
            continue
        if section.only is not None and f.name not in section.only:
            continue
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
            continue  # the database's own time of writing
        yield f


def _required(f: models.Field) -> bool:
    if f.null or f.has_default():
        return False
    return not (f.empty_strings_allowed and f.blank)


def _reference(f: models.Field, value: Any) -> int | None:
    if value is None:
        if not f.null:
            raise ValueError("must not be null")
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"must be the id (a whole number) of a row of the file, not {kind(value)}")
    return value


def _row(section: Section, row: Any, path: str, problems: Problems) -> dict[str, Any] | None:
    if not isinstance(row, dict):
        problems.add(path, f"must be an object, not {kind(row)}")
        return None
    clean: dict[str, Any] = {}
    if section not in (CHAMPIONSHIP, EVENT):
        if isinstance(row.get("id"), bool) or not isinstance(row.get("id"), int):
            problems.add(f"{path}.id", "must be a whole number, the row's id in the file")
        clean["id"] = row.get("id")
    for f in read_fields(section):
        where = f"{path}.{f.name}"
        if f.name not in row:
            if _required(f):
                problems.add(where, "is missing")
            continue
        value = row[f.name]
        try:
            if f.name in section.refs:
                clean[f.name] = _reference(f, value)
            elif f.is_relation:
                raise ValueError("cannot be imported")  # a new relation: decide its section
            elif isinstance(f, models.JSONField):
                JSON_SHAPES[(section.model, f.name)](value)
                clean[f.attname] = value
            else:
                clean[f.attname] = field_value(f, value)
        except ValueError as exc:
            problems.add(where, str(exc))
    return clean


def _rows(data: dict, section: Section, problems: Problems) -> list[dict[str, Any]]:
    rows = data.get(section.name)
    if rows is None and section.name in OPTIONAL:
        return []
    if not isinstance(rows, list):
        problems.add(section.name, f"must be a list, not {kind(rows)}")
        return []
    clean = []
    for i, row in enumerate(rows):
        got = _row(section, row, f"{section.name}[{i}]", problems)
        if got is not None:
            clean.append(got)
        if problems.full:
            break
    return clean


def _unique(name: str, rows: list[dict], key: str, problems: Problems, *, what: str) -> None:
    seen: dict[Any, int] = {}
    for i, row in enumerate(rows):
        value = row.get(key)
        if value is None:
            continue
        marker = value.casefold() if isinstance(value, str) else value
        if marker in seen:
            problems.add(
                f"{name}[{i}].{key}", f"{shown(value)} is also {what} of {name}[{seen[marker]}]"
            )
        else:
            seen[marker] = i


def _resolve(value: Any, target: str, ids: dict[str, set], where: str, problems: Problems) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        problems.add(where, f"must be the id (a whole number) of one of the file's {target}")
    elif value not in ids[target]:
        problems.add(where, f"{shown(value)} is not the id of any of the file's {target}")


def _references(export: CleanExport, problems: Problems) -> None:
    sections = export.sections
    ids = {name: {row["id"] for row in rows} for name, rows in sections.items()}
    for section in SECTIONS:
        rows = sections[section.name]
        _unique(section.name, rows, "id", problems, what="the id")
        for f in read_fields(section):
            if f.one_to_one:
                _unique(section.name, rows, f.name, problems, what="the " + f.name)
        for i, row in enumerate(rows):
            path = f"{section.name}[{i}]"
            for name, target in section.refs.items():
                _resolve(row.get(name), target, ids, f"{path}.{name}", problems)
            for name in ("seat_players",):
                for seat, player in enumerate(row.get(name) or ()):
                    _resolve(player, "players", ids, f"{path}.{name}[{seat}]", problems)
            extensions = row.get("extensions")
            if isinstance(extensions, dict):
                for key in sorted(set(extensions) - {"match"}, key=str):
                    problems.add(f"{path}.extensions.{key}", "is not something an import reads")
                _resolve(
                    extensions.get("match"), "matches", ids, f"{path}.extensions.match", problems
                )
    _unique("players", sections["players"], "display_name", problems, what="the name")
    for i, entry in enumerate(sections["entries"]):
        if entry.get("player") is None:
            problems.add(
                f"entries[{i}].player",
                "is missing: every entry of a singles event names its player",
            )
    for i, match in enumerate(sections["matches"]):
        winner = match.get("winner")
        if winner is not None and winner not in (match.get("entry_a"), match.get("entry_b")):
            problems.add(
                f"matches[{i}].winner", f"entry {winner} is not one of the match's two entries"
            )
    for i, row in enumerate(sections["match_games"]):
        if row.get("board") is not None:
            problems.add(f"match_games[{i}].board", "a board game belongs to a team event")
    _resolve(export.event.get("champion"), "entries", ids, "event.champion", problems)


def import_check(data: Any) -> CleanExport:
    """The export cleaned, or `EventImportError` with every problem (see the module's doc)."""
    problems = Problems()
    document_check(data, problems)
    if not problems.found and not isinstance(data, dict):
        problems.add("the file", f"must be an object, not {kind(data)}")
    if problems.found:
        raise EventImportError(problems.found)  # the rest would only repeat the same faults
    export = CleanExport(
        championship=_row(CHAMPIONSHIP, data.get("championship"), "championship", problems) or {},
        event=_row(EVENT, data.get("event"), "event", problems) or {},
        sections={section.name: _rows(data, section, problems) for section in SECTIONS},
    )
    if export.event.get("entry_kind", EntryKind.SINGLE) != EntryKind.SINGLE:
        problems.add("event.entry_kind", "only singles events can be imported")
    if not problems.found:
        _references(export, problems)
    if problems.found:
        raise EventImportError(problems.found)
    return export
