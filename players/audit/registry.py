"""The one registry of audited actions, with the words people read.

Every app declares its actions as a `TextChoices` next to its models (`players.AuditAction`,
`tournaments.AuditAction`, `ratings.AuditAction`) and registers it here, with the area's name,
when its models module loads; `players.AuditEntry.action` takes its choices from this registry
(a callable, so a new action needs no migration), and pages show `get_action_display()`. Two apps
may not declare the same value: the second registration is refused at start-up.

Entries name objects of higher apps by plain id (`championship_id`, `rating_change_id`, ...), since
`players` imports no higher app; those apps register how to name them (`register_audit_names`,
in `AppConfig.ready`), so the staff page shows names, never ids.

A reason is stored as it was written, in English when an app wrote it itself; the app registers
how to show such reasons in the reader's language (`register_audit_reasons`), and a reason a
person typed is shown as typed.

An action may also be registered as a type (`register_audit_type`, beside the service that writes
it): the shape of its details (each key and the JSON type of its value; `audit()` refuses an
entry that does not fit, a bug) and how an entry of it describes itself for people (`describe`,
called by the app's own page with the entry's details and the names the page looked up).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

_LABELS: dict[str, Any] = {}
_OWNERS: dict[str, str] = {}
_AREAS: dict[str, tuple[Any, list[str]]] = {}
# id field of AuditEntry -> (what it is, for people; ids -> {id: name})
_NAMERS: dict[str, tuple[Any, Callable[[set[int]], dict[int, str]]]] = {}
# Each app's reader of its own stored reasons: a reason -> the words shown (the same when not its).
_REASON_READERS: list[Callable[[str], str]] = []
_TARGET_NAMERS: list[Callable[[list[Any]], dict[int, str]]] = []
# The ids the staff audit page filters on, and their query parameter.
FILTERS = {"championship_id": "championship", "rating_change_id": "rating_change"}


def register_audit_actions(choices: type[models.TextChoices], *, area: str, label: Any) -> None:
    """Add an app's actions to the registry (idempotent for the same class)."""
    owner = f"{choices.__module__}.{choices.__qualname__}"
    for value, text in zip(choices.values, choices.labels, strict=True):
        if _OWNERS.get(value, owner) != owner:
            raise ValueError(f"audit action {value!r} declared twice: {_OWNERS[value]}, {owner}")
        _OWNERS[value] = owner
        _LABELS[value] = text
    _AREAS[area] = (label, list(choices.values))


@dataclass(frozen=True)
class AuditType:
    """An audited action as a type: its label, its details' shape, how it describes itself."""

    action: str
    # key -> the type(s) its value may have (None always fits: a detail may be empty).
    details: Mapping[str, type | tuple[type, ...]]
    # (details, names) -> the entry's details in words; `names` is the app page's lookup.
    describe: Callable[[dict, Any], str] | None = None

    @property
    def label(self) -> Any:
        return _LABELS[self.action]

    def check(self, details: Mapping[str, Any]) -> None:
        """Refuse details that do not fit the shape (a bug in the service that writes them)."""
        for key, value in details.items():
            if key not in self.details:
                raise ValueError(f"audit action {self.action!r} has no detail {key!r}")
            if value is not None and not isinstance(value, self.details[key]):
                raise ValueError(
                    f"audit action {self.action!r}: detail {key!r} is a {type(value).__name__}"
                )


_TYPES: dict[str, AuditType] = {}


def register_audit_type(
    action: str,
    *,
    details: Mapping[str, type | tuple[type, ...]] | None = None,
    describe: Callable[[dict, Any], str] | None = None,
) -> AuditType:
    """Register a registered action's type (idempotent for the same declaration)."""
    if not is_audit_action(action):
        raise ValueError(f"unregistered audit action {action!r}")
    declared = AuditType(str(action), dict(details or {}), describe)
    known = _TYPES.get(declared.action)
    if known is not None and known != declared:
        raise ValueError(f"audit action {action!r} has a type already")
    _TYPES[declared.action] = declared
    return declared


def audit_type(action: str) -> AuditType | None:
    return _TYPES.get(action)


def audit_action_choices() -> list[tuple[str, Any]]:
    """Every registered action and its label: the choices of `AuditEntry.action`."""
    return list(_LABELS.items())


def is_audit_action(value: str) -> bool:
    return value in _LABELS


def audit_areas() -> list[tuple[str, Any]]:
    """(area, label) for a filter: players, tournaments, ratings."""
    return [(area, label) for area, (label, _values) in _AREAS.items()]


def audit_area_actions(area: str) -> list[str]:
    return list(_AREAS[area][1]) if area in _AREAS else []


def register_audit_names(
    field: str, kind: Any, names: Callable[[set[int]], dict[int, str]]
) -> None:
    """Say how entries' `field` ids are named (one query for a page of entries)."""
    _NAMERS[field] = (kind, names)


def register_audit_reasons(shown: Callable[[str], str]) -> None:
    """Say how the reasons an app writes itself are shown (translated); idempotent."""
    if shown not in _REASON_READERS:
        _REASON_READERS.append(shown)


def audit_reason_shown(reason: str) -> str:
    """A stored reason in the reader's language when an app wrote it, else as typed."""
    for shown in _REASON_READERS:
        text = shown(reason)
        if text != reason:
            return text
    return reason


def register_audit_targets(name_targets: Callable[[list[Any]], dict[int, str]]) -> None:
    """Say how the targets an app stores itself (in English: "Round 2", "match 12") are shown:
    `name_targets(entries)` answers {entry id: words} for the entries it knows, in one go for a
    page (a match is named by its round and players, which takes a query)."""
    if name_targets not in _TARGET_NAMERS:
        _TARGET_NAMERS.append(name_targets)


def audit_target_shown(entry: Any) -> str:
    """An entry's target as `audit_name_objects` put it into words, else as stored."""
    return getattr(entry, "target_shown", None) or entry.target or ""


def audit_name_objects(entries: Iterable[Any]) -> None:
    """Set `entry.named_objects` to [{kind, name, filter}, ...] for the ids an entry holds, and
    `entry.target_shown` to its target in words (`register_audit_targets`).

    One query per kind of object on the page. `filter` is the staff audit page's query string
    for that object (championships and rating changes), else "".

    An object deleted since is named "(deleted)".
    """
    entries = list(entries)
    for entry in entries:
        entry.named_objects = []
        entry.target_shown = entry.target or ""
    by_id = {entry.pk: entry for entry in entries}
    for name_targets in _TARGET_NAMERS:
        for entry_id, words in name_targets([e for e in entries if e.target]).items():
            by_id[entry_id].target_shown = words
    for field, (kind, names) in _NAMERS.items():
        ids = {getattr(e, field) for e in entries if getattr(e, field) is not None}
        if not ids:
            continue
        found = names(ids)
        for entry in entries:
            value = getattr(entry, field)
            if value is not None:
                entry.named_objects.append(
                    {
                        "kind": kind,
                        "name": found.get(value) or _("(deleted)"),
                        "filter": f"{FILTERS[field]}={value}" if field in FILTERS else "",
                    }
                )
