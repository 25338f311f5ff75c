"""Writes for players: sign-up, creation by organisers, profile edits."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import FieldDoesNotExist, PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django_countries import countries

from players.audit.registry import register_audit_type
from players.audit.services import audit
from players.models import AuditAction, Player
from players.roles import is_admin, is_organiser, player_of
from players.types import User

EDITABLE_FIELDS = (
    "display_name",
    "country",
    "date_of_birth",
    "first_colour",
    "second_colour",
    "time_zone",
    "language",
)
# Private fields: seen and changed only by the player and staff (docs/roles.md).
PRIVATE_FIELDS = ("date_of_birth", "time_zone", "language")


def _check_display_name_free(display_name: str, *, exclude_pk: int | None = None) -> None:
    taken = Player.objects.filter(display_name__iexact=display_name.strip())
    if exclude_pk is not None:
        taken = taken.exclude(pk=exclude_pk)
    if taken.exists():
        raise ValidationError(
            {
                "display_name": _("The display name %(name)r is already taken.")
                % {"name": display_name}
            }
        )


def _clean_and_save(player: Player) -> Player:
    player.display_name = player.display_name.strip()
    player.full_clean(exclude=["user", "created_by"])
    player.save()
    return player


def new_user(*, username: str, password: str, email: str = "") -> Any:
    """Create a user account (no Player). Call inside the caller's transaction."""
    User = get_user_model()
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError(
            {"username": _("The username %(name)r is already taken.") % {"name": username}}
        )
    user = User(username=username, email=email)
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from None
    user.set_password(password)
    user.full_clean(exclude=["password", "last_login", "date_joined"])
    user.save()
    return user


@transaction.atomic
def player_signup(
    *,
    username: str,
    password: str,
    display_name: str,
    country: str,
    email: str = "",
    date_of_birth: dt.date | None = None,
) -> Player:
    """Create a user account and its Player in one transaction."""
    _check_display_name_free(display_name)
    user = new_user(username=username, password=password, email=email)
    player = Player(
        user=user, display_name=display_name, country=country, date_of_birth=date_of_birth
    )
    return _clean_and_save(player)


@transaction.atomic
def player_create(*, actor: User, display_name: str, country: str, **fields: Any) -> Player:
    """An organiser or admin enters a player who has no account yet.

    They may give the date of birth here (they are typing what they know); afterwards only the
    player and staff see or change it.
    """
    if not (is_organiser(actor) or is_admin(actor)):
        raise PermissionDenied(_("Only organisers and admins may create players."))
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValidationError({name: _("This field cannot be set.") for name in sorted(unknown)})
    _check_display_name_free(display_name)
    player = _clean_and_save(
        Player(display_name=display_name, country=country, created_by=actor, **fields)
    )
    audit(
        actor=actor,
        action=AuditAction.PLAYER_CREATE,
        subject_player=player,
        details={"country": player.country.code, "date_of_birth_given": bool(player.date_of_birth)},
    )
    return player


def can_edit_player(actor: User, player: Player) -> bool:
    if is_admin(actor):
        return True
    if player.user_id is None:
        # Accountless players are maintained, until claimed, by the organiser who entered them
        # (permissions are per object). Those entered before that was recorded: any organiser.
        if not is_organiser(actor):
            return False
        return player.created_by_id is None or player.created_by_id == actor.pk
    own = player_of(actor)
    return own is not None and own.pk == player.pk


def can_see_private(actor: User, player: Player) -> bool:
    """Private fields (the date of birth): the player themself and staff only."""
    if is_admin(actor):
        return True
    own = player_of(actor)
    return own is not None and own.pk == player.pk


@transaction.atomic
def player_language_set(*, player: Player, language: str) -> None:
    """The player's own choice from the header's switcher (a preference: not audited)."""
    Player.objects.filter(pk=player.pk).update(language=language)


@transaction.atomic
def player_update(*, actor: User, player: Player, **fields: Any) -> Player:
    if not can_edit_player(actor, player):
        raise PermissionDenied(_("You may edit only your own profile."))
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValidationError(
            {name: _("This field cannot be changed.") for name in sorted(unknown)}
        )
    # Refused whenever it is sent, whatever the value: accepting an unchanged value would tell
    # the sender they had guessed it.
    private = [name for name in PRIVATE_FIELDS if name in fields]
    if private and not can_see_private(actor, player):
        raise ValidationError(
            {name: _("Only the player and staff may change this.") for name in private}
        )
    player = Player.objects.select_for_update().get(pk=player.pk)
    if "display_name" in fields:
        _check_display_name_free(fields["display_name"], exclude_pk=player.pk)
    before = {name: getattr(player, name) for name in fields}
    for name, value in fields.items():
        setattr(player, name, value)
    player = _clean_and_save(player)
    changed = sorted(name for name in fields if getattr(player, name) != before[name])
    own = player_of(actor)
    if changed and not (own is not None and own.pk == player.pk):
        audit(
            actor=actor,
            action=AuditAction.PLAYER_UPDATE,
            subject_player=player,
            details={
                "fields": changed,
                # Private values stay out of the trail: it is read by more people.
                "before": {n: str(before[n]) for n in changed if n not in PRIVATE_FIELDS},
                "after": {n: str(getattr(player, n)) for n in changed if n not in PRIVATE_FIELDS},
            },
        )
    return player


# --- The profile actions as registered types (issue 27) ------------------------------------


def _changed_words(details: dict, _names: Any = None) -> str:
    """The fields changed, by their names ("display name, country"); the values stay on the
    entry (private ones were never written)."""
    names = []
    for name in details.get("fields") or []:
        try:
            names.append(str(Player._meta.get_field(name).verbose_name))
        except FieldDoesNotExist:  # a field since removed: its stored name
            names.append(str(name))
    return ", ".join(names)


def _entered_words(details: dict, _names: Any = None) -> str:
    """The country the player was entered with (its name)."""
    code = details.get("country") or ""
    return str(countries.name(code) or code)


register_audit_type(
    AuditAction.PLAYER_CREATE,
    details={"country": str, "date_of_birth_given": bool},
    describe=_entered_words,
)
register_audit_type(
    AuditAction.PLAYER_UPDATE,
    details={"fields": list, "before": dict, "after": dict},
    describe=_changed_words,
)
