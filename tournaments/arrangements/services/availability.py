"""A player's usual free times."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from players.models import Player
from players.roles import is_admin, player_of
from players.types import User
from tournaments.arrangements.times import zone_named
from tournaments.models import (
    AvailabilityWindow,
)

MAX_WINDOWS = 28


# --- Usual free times ----------------------------------------------------------------------


@transaction.atomic
def availability_set(
    *,
    actor: User,
    player: Player,
    windows: Sequence[tuple[int, dt.time, dt.time]],
    time_zone: str,
) -> list[AvailabilityWindow]:
    """Replace the player's usual free times (weekday, from, to; in `time_zone`)."""
    own = player_of(actor)
    if not (is_admin(actor) or (own is not None and own.pk == player.pk)):
        raise PermissionDenied(_("Only the player states when they are usually free."))
    zone_named(time_zone)
    if len(windows) > MAX_WINDOWS:
        raise ValidationError(
            {"windows": _("At most %(count)s free times.") % {"count": MAX_WINDOWS}}
        )
    for weekday, starts, ends in windows:
        if not 0 <= weekday <= 6:
            raise ValidationError({"windows": _("A weekday is from Monday to Sunday.")})
        if ends <= starts:
            raise ValidationError({"windows": _("A free time ends after it starts.")})
    Player.objects.select_for_update().filter(pk=player.pk).first()
    AvailabilityWindow.objects.filter(player=player).delete()
    return AvailabilityWindow.objects.bulk_create(
        AvailabilityWindow(player=player, weekday=w, starts=s, ends=e, time_zone=time_zone)
        for w, s, e in windows
    )
