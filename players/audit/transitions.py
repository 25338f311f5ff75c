"""States as transitions: a status moves only along its table, and only through `transition()`.

Each app declares a table per status next to its models (`StatusTable`: which status may follow
which, and which a new row may start in) and registers it for its model
(`register_status_table`, when the models module loads). Every place that changes that status
calls `transition()`, the one function that checks the table, writes the status (with the other
fields the move sets) and writes the move's audit entry.

A move the table does not allow is `IllegalTransition`, a domain error: a ValidationError, so
it is answered like any other refusal (HTTP 400, a form's error), and nothing is written.

A status that stays what it is is no move: always allowed. A move that is the consequence of an
audited change (a loser eliminated when a counted game decides the match) is written without an
entry of its own: the change that caused it carries the entry, as before.

The module lives beside the audit trail because a transition writes its audit entry; it names
no app's statuses, so games (report statuses) and the other apps adopt it the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from players.audit.services import audit as write_audit

M = TypeVar("M", bound=models.Model)


class IllegalTransition(ValidationError):
    """A status move its table does not allow."""

    def __init__(self, table: StatusTable, old: str, new: str) -> None:
        self.old, self.new = old, new
        words = {"what": table.what, "old": table.label(old), "new": table.label(new)}
        if old:
            message = _("%(what)s cannot go from “%(old)s” to “%(new)s”.") % words
        else:
            message = _("%(what)s cannot start as “%(new)s”.") % words
        super().__init__({table.field: message})


@dataclass(frozen=True)
class StatusTable:
    """Which status may follow which (`moves`), and which a new row may start in (`initial`)."""

    what: Any  # words for people: "This match", "This entry"
    choices: type[models.TextChoices]
    moves: Mapping[str, Iterable[str]]
    initial: Iterable[str]
    field: str = "status"
    _moves: dict[str, frozenset[str]] = dataclass_field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        known = set(self.choices.values)
        moves = {str(old): frozenset(str(new) for new in news) for old, news in self.moves.items()}
        named = set(moves) | {new for news in moves.values() for new in news} | set(self.initial)
        if not named <= known:
            raise ValueError(f"{self.choices.__name__}: unknown statuses {named - known}")
        object.__setattr__(self, "_moves", moves)
        object.__setattr__(self, "initial", frozenset(str(s) for s in self.initial))

    def label(self, status: str) -> str:
        try:
            return str(self.choices(status).label)
        except ValueError:
            return str(status)

    def allows(self, old: str, new: str) -> bool:
        return old == new or new in self._moves.get(old, frozenset())

    def check(self, old: str, new: str) -> None:
        if not self.allows(old, new):
            raise IllegalTransition(self, old, new)

    def sources(self, new: str) -> frozenset[str]:
        """The statuses that may move to `new` (itself included)."""
        return frozenset({new} | {old for old, news in self._moves.items() if new in news})

    def first(self, status: str) -> str:
        """The status a new row starts in, refused unless the table lets a row start there."""
        if status not in self.initial:
            raise IllegalTransition(self, "", status)  # no old status: a row that starts
        return status


_TABLES: dict[tuple[type[models.Model], str], StatusTable] = {}


def register_status_table(model: type[models.Model], table: StatusTable) -> None:
    """The table of `model`'s `table.field` (idempotent for the same table)."""
    key = (model, table.field)
    if _TABLES.get(key, table) is not table:
        raise ValueError(f"{model.__name__}.{table.field} has a status table already")
    _TABLES[key] = table


def status_table(model: type[models.Model], field: str = "status") -> StatusTable:
    return _TABLES[(model, field)]


def transition(
    subject: M | models.QuerySet[M],
    to: str,
    *,
    field: str = "status",
    from_: Iterable[str] | None = None,
    fields: Mapping[str, Any] | None = None,
    audit: Mapping[str, Any] | None = None,
    save: bool = True,
) -> M | int:
    """Move `subject`'s status to `to`: the one way a registered status changes.

    `subject` is a row (its other `fields` are set too and saved with the status; `save=False`
    for a row not stored yet) or a QuerySet (rows whose status is one of `from_` move in one
    UPDATE; without `from_`, every row, after checking the statuses they hold). `audit`: the
    keyword arguments of `players.audit.services.audit` for the entry this move writes, or None
    for a move that is the consequence of an audited change. Returns the row, or how many rows
    moved.
    """
    values = dict(fields or {})
    if isinstance(subject, models.QuerySet):
        table = status_table(subject.model, field)
        if from_ is not None:
            sources = list(from_)
            for old in sources:
                table.check(old, to)
            subject = subject.filter(**{f"{field}__in": sources})
        else:
            for old in set(subject.values_list(field, flat=True).distinct()):
                table.check(old, to)
        moved = subject.update(**{field: to}, **values)
        if audit is not None:
            write_audit(**audit)
        return moved
    table = status_table(type(subject), field)
    table.check(getattr(subject, field), to)
    setattr(subject, field, to)
    for name, value in values.items():
        setattr(subject, name, value)
    if save:
        subject.save(update_fields=[field, *values])
    if audit is not None:
        write_audit(**audit)
    return subject
