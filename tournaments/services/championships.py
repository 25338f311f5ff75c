"""Championships, their staff, and events (settings and registration status)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_countries import countries as country_registry

from players.audit.registry import register_audit_type
from players.audit.transitions import transition
from players.types import User
from tournaments import formats
from tournaments.format_words import format_error_text
from tournaments.formats.teams import team_tiebreaks_check
from tournaments.models import (
    AuditAction,
    Category,
    Championship,
    Eligibility,
    EntryKind,
    Event,
    EventFormat,
    EventStatus,
)
from tournaments.permissions import can_create_championship
from tournaments.services.access import require_manager
from tournaments.services.audit import audit, audit_entry
from tournaments.services.audit_words import key_value_words, yes_words


@transaction.atomic
def championship_create(
    *, actor: User, name: str, year: int, category: str = Category.OPEN, published: bool = False
) -> Championship:
    if not can_create_championship(actor):
        raise PermissionDenied(_("Only organisers may create championships."))
    if Championship.objects.filter(name__iexact=name.strip(), year=year).exists():
        raise ValidationError(
            {"name": _("%(name)s %(year)s already exists.") % {"name": name, "year": year}}
        )
    championship = Championship(
        name=name.strip(), year=year, category=category, published=published, created_by=actor
    )
    championship.full_clean()
    championship.save()
    championship.organisers.add(actor)
    audit(
        actor=actor,
        championship=championship,
        action=AuditAction.CHAMPIONSHIP_CREATE,
        target=str(championship),
        details={"category": category, "published": published},
    )
    return championship


@transaction.atomic
def championship_update(*, actor: User, championship: Championship, **fields: Any) -> Championship:
    require_manager(actor, championship)
    allowed = {"name", "year", "category", "published"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValidationError(
            {name: _("This field cannot be changed.") for name in sorted(unknown)}
        )
    changes = {k: v for k, v in fields.items() if getattr(championship, k) != v}
    for key, value in changes.items():
        setattr(championship, key, value)
    championship.full_clean()
    championship.save()
    if changes:
        audit(
            actor=actor,
            championship=championship,
            action=AuditAction.CHAMPIONSHIP_UPDATE,
            target=str(championship),
            details={k: str(v) for k, v in changes.items()},
        )
    return championship


@transaction.atomic
def championship_staff_set(
    *, actor: User, championship: Championship, user: User, role: str, present: bool = True
) -> None:
    """Add or remove a co-organiser or a controller."""
    require_manager(actor, championship)
    if role not in ("organiser", "controller"):
        raise ValidationError({"role": _("Choose organiser or controller.")})
    relation = championship.organisers if role == "organiser" else championship.controllers
    if (
        role == "organiser"
        and not present
        and championship.organisers.count() == 1
        and championship.organisers.filter(pk=user.pk).exists()
    ):
        raise ValidationError({"user": _("A championship keeps at least one organiser.")})
    (relation.add if present else relation.remove)(user)
    audit(
        actor=actor,
        championship=championship,
        action=AuditAction(f"{role}_{'add' if present else 'remove'}"),
        target=user.get_username(),
    )


# The settings an organiser gives an event (in the order forms and the API show them).
EVENT_FIELDS = (
    "name",
    "stage",
    "format",
    "entry_kind",
    "games_per_match",
    "extra_game_margin",
    "max_extra_games",
    "tp_scheme",
    "time_limit_seconds",
    "eligibility",
    "junior_age_limit",
    "cutoff_date",
    "countries",
    "minimum_ranking",
    "feeds_from",
    "qualifiers_count",
    "qualifier_policy",
    "sections",
    "groups_count",
    "double_round_robin",
    "swiss_rounds",
    "draw_seed",
    "round_days",
    "team_boards",
    "team_tiebreaks",
)


# A qualifying event of another kind of entry: one whole sentence per kind, so a translation
# can decline the kind as its grammar needs.
_OTHER_KIND = {
    EntryKind.SINGLE: gettext_lazy(
        "%(event)s is an event of singles (one player); its qualifiers can only enter an "
        "event of the same kind."
    ),
    EntryKind.PAIR: gettext_lazy(
        "%(event)s is an event of doubles (pairs); its qualifiers can only enter an event of "
        "the same kind."
    ),
    EntryKind.TEAM: gettext_lazy(
        "%(event)s is an event of teams; its qualifiers can only enter an event of the same kind."
    ),
}


def _validate_event(event: Event) -> None:
    errors: dict[str, str] = {}
    try:
        formats.tp_scheme(event.tp_scheme)
    except formats.FormatError as exc:
        errors["tp_scheme"] = format_error_text(exc)
    if event.max_extra_games and event.extra_game_margin <= 0:
        errors["extra_game_margin"] = _("Extra games need a positive TP margin to play for.")
    if event.format == EventFormat.GROUPS and event.groups_count < 1:
        errors["groups_count"] = _("A group stage needs at least one group.")
    if event.format == EventFormat.SWISS and event.swiss_rounds < 1:
        errors["swiss_rounds"] = _("A Swiss event needs at least one round.")
    if event.sections < 1 or event.sections & (event.sections - 1):
        errors["sections"] = _("Sections must be 1, 2, 4, 8, ...")
    if event.eligibility == Eligibility.JUNIOR and event.cutoff_date is None:
        errors["cutoff_date"] = _("A junior event needs the cut-off date for the age limit.")
    if event.countries is None:
        event.countries = []  # a form's "null": no countries
    countries = event.countries
    if not isinstance(countries, list) or not all(
        isinstance(code, str) and len(code) <= 3 for code in countries
    ):
        errors["countries"] = _('Give the countries as a list of ISO country codes, e.g. ["HU"].')
        countries = []
    elif len(countries) > len(country_registry):
        errors["countries"] = _("That is more countries than there are.")
        countries = []
    if event.eligibility == Eligibility.NATIONAL and "countries" not in errors:
        codes = [code.upper() for code in countries]
        bad = [c for c in codes if c not in dict(country_registry)]
        if not codes:
            errors["countries"] = _("A national event needs at least one country code.")
        elif bad:
            errors["countries"] = _("Unknown country codes: %(codes)s.") % {"codes": ", ".join(bad)}
        event.countries = codes
    if event.eligibility == Eligibility.MINIMUM_RANKING and not event.minimum_ranking:
        errors["minimum_ranking"] = _("Give the minimum ranking.")
    if event.feeds_from_id:
        source = event.feeds_from
        if source.championship_id != event.championship_id:
            errors["feeds_from"] = _("Qualifiers can only come from the same championship.")
        elif source.stage >= event.stage:
            errors["feeds_from"] = _("The qualifying event must be an earlier stage.")
        elif source.entry_kind != event.entry_kind:
            errors["feeds_from"] = _OTHER_KIND[source.entry_kind] % {"event": source.name}
        if not event.qualifiers_count:
            errors["qualifiers_count"] = _("Say how many players qualify.")
    if event.team_tiebreaks is None:
        event.team_tiebreaks = []
    if not isinstance(event.team_tiebreaks, list) or not all(
        isinstance(key, str) for key in event.team_tiebreaks
    ):
        errors["team_tiebreaks"] = _(
            'Give the tie-breaks as a list, e.g. ["boards_won", "board_1"].'
        )
    else:
        try:
            team_tiebreaks_check(event.team_tiebreaks)
        except formats.FormatError as exc:
            errors["team_tiebreaks"] = format_error_text(exc)
    if event.time_limit_seconds < 60:
        errors["time_limit_seconds"] = _("The time limit must be at least a minute.")
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def event_create(*, actor: User, championship: Championship, **config: Any) -> Event:
    require_manager(actor, championship)
    unknown = set(config) - set(EVENT_FIELDS)
    if unknown:
        raise ValidationError({name: _("Unknown event setting.") for name in sorted(unknown)})
    if config.get("time_limit_seconds") is None:
        # Not given: 15 minutes per player, 12 in pairs (docs/tournament-formats.md).
        config["time_limit_seconds"] = (
            formats.PAIRS_TIME_LIMIT
            if config.get("entry_kind") == EntryKind.PAIR
            else formats.SINGLES_TIME_LIMIT
        )
    event = Event(championship=championship, **config)
    event.clean_fields(exclude=["champion"])  # field errors, and strings into the fields' types
    _validate_event(event)
    event.full_clean(exclude=["champion"])
    event.save()
    audit(
        actor=actor,
        championship=championship,
        event=event,
        action=AuditAction.EVENT_CREATE,
        target=event.name,
        details={"format": event.format},
    )
    return event


@transaction.atomic
def event_registration_set(*, actor: User, event: Event, open_: bool) -> Event:
    require_manager(actor, event.championship)
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status not in (EventStatus.REGISTRATION, EventStatus.CLOSED):
        raise ValidationError({"status": _("The draw has been made; registration is over.")})
    transition(
        event,
        EventStatus.REGISTRATION if open_ else EventStatus.CLOSED,
        audit=audit_entry(
            actor=actor,
            championship=event.championship,
            event=event,
            action=AuditAction.REGISTRATION_OPEN if open_ else AuditAction.REGISTRATION_CLOSE,
            target=event.name,
        ),
    )
    return event


# --- Audit types: the actions this module writes, and their words ---------------------------


def _created_words(details: dict, names: Any) -> str:
    try:
        category = Category(details.get("category")).label
    except ValueError:
        category = ""
    published = yes_words(details.get("published"))
    if not category:
        return _("published: %(published)s") % {"published": published}
    return _("%(category)s; published: %(published)s") % {
        "category": category,
        "published": published,
    }


def _updated_words(details: dict, names: Any) -> str:
    return "; ".join(
        key_value_words(key, yes_words(value) if key == "published" else value)
        for key, value in details.items()
    )


def _event_created_words(details: dict, names: Any) -> str:
    try:
        return _("Format: %(format)s") % {"format": EventFormat(details.get("format")).label}
    except ValueError:
        return ""


register_audit_type(
    AuditAction.CHAMPIONSHIP_CREATE,
    details={"category": str, "published": bool},
    describe=_created_words,
)
register_audit_type(
    AuditAction.CHAMPIONSHIP_UPDATE,
    details={"name": str, "year": str, "category": str, "published": str},
    describe=_updated_words,
)
for _staff in (
    AuditAction.ORGANISER_ADD,
    AuditAction.ORGANISER_REMOVE,
    AuditAction.CONTROLLER_ADD,
    AuditAction.CONTROLLER_REMOVE,
    AuditAction.REGISTRATION_OPEN,
    AuditAction.REGISTRATION_CLOSE,
):
    register_audit_type(_staff)
register_audit_type(
    AuditAction.EVENT_CREATE, details={"format": str}, describe=_event_created_words
)
