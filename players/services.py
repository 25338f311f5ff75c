"""Writes for players: sign-up, creation by organisers, profile edits."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from players.models import Player
from players.roles import is_admin, is_organiser, player_of

EDITABLE_FIELDS = ("display_name", "country", "date_of_birth", "first_colour", "second_colour")


def _check_display_name_free(display_name: str, *, exclude_pk: int | None = None) -> None:
    taken = Player.objects.filter(display_name__iexact=display_name)
    if exclude_pk is not None:
        taken = taken.exclude(pk=exclude_pk)
    if taken.exists():
        raise ValidationError(
            {"display_name": f"The display name {display_name!r} is already taken."}
        )


def _clean_and_save(player: Player) -> Player:
    player.display_name = player.display_name.strip()
    player.full_clean(exclude=["user"])
    player.save()
    return player


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
    User = get_user_model()
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": f"The username {username!r} is already taken."})
    user = User(username=username, email=email)
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from None
    _check_display_name_free(display_name)
    user.set_password(password)
    user.save()
    player = Player(
        user=user, display_name=display_name, country=country, date_of_birth=date_of_birth
    )
    return _clean_and_save(player)


@transaction.atomic
def player_create(*, actor: Any, display_name: str, country: str, **fields: Any) -> Player:
    """An organiser or admin enters a player who has no account yet."""
    if not (is_organiser(actor) or is_admin(actor)):
        raise PermissionDenied("Only organisers and admins may create players.")
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValidationError({name: "This field cannot be set." for name in sorted(unknown)})
    _check_display_name_free(display_name)
    return _clean_and_save(Player(display_name=display_name, country=country, **fields))


def can_edit_player(actor: Any, player: Player) -> bool:
    if is_admin(actor):
        return True
    if player.user_id is None:
        # Accountless players are maintained by organisers until they claim their profile.
        return is_organiser(actor)
    own = player_of(actor)
    return own is not None and own.pk == player.pk


@transaction.atomic
def player_update(*, actor: Any, player: Player, **fields: Any) -> Player:
    if not can_edit_player(actor, player):
        raise PermissionDenied("You may edit only your own profile.")
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValidationError({name: "This field cannot be changed." for name in sorted(unknown)})
    player = Player.objects.select_for_update().get(pk=player.pk)
    if "display_name" in fields:
        _check_display_name_free(fields["display_name"], exclude_pk=player.pk)
    for name, value in fields.items():
        setattr(player, name, value)
    return _clean_and_save(player)
