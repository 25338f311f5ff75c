"""The arrangement services' shared steps: the match row locked, who acts, a time checked,
the words of a match and a moment, who is told and how, the audit entry of a match."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from players.models import Player
from players.notices.services import notice_send
from players.preferences.timezones import zone_for
from players.roles import player_of
from players.types import User
from tournaments import selectors as tournament_selectors
from tournaments.models import (
    ArrangementStatus,
    Entry,
    Match,
    MatchArrangement,
    sides_of,
)
from tournaments.permissions import arranging_side
from tournaments.services.audit import audit

# What notices about an arrangement link to (the match page; registered in apps.ready).
NOTICE_ABOUT = "match_arrangement"
# How far ahead a time may be proposed when the round has no deadline.
FURTHEST = dt.timedelta(days=366)


# --- Helpers -------------------------------------------------------------------------------


def locked(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related(
            "event__championship",
            "event__arrangement",
            "round",
            *sides_of("entry_a"),
            *sides_of("entry_b"),
        )
        .get(pk=match.pk)
    )


def require_side(actor: User, match: Match) -> int:
    side = arranging_side(actor, match)
    if side is None:
        raise PermissionDenied(
            _("Only the match's players (for a team, its captain or deputy) may arrange its time.")
        )
    return side


def require_open(match: Match) -> None:
    if not tournament_selectors.match_open_for_games(match) or match.is_bye:
        raise ValidationError({"match": _("Only an open match with both sides known is arranged.")})


def check_time(match: Match, starts_at: dt.datetime, *, field: str, now: dt.datetime) -> None:
    """A time must be ahead of now and within the round (by its deadline)."""
    if timezone.is_naive(starts_at):
        raise ValueError("times reach services aware (the forms and the API read the zone)")
    if starts_at <= now:
        raise ValidationError({field: _("That time has passed: propose a time still to come.")})
    deadline = match.round.deadline
    if deadline is not None and starts_at > deadline:
        raise ValidationError(
            {
                field: _("That time is after the round's deadline (%(deadline)s).")
                % {"deadline": moment_words(deadline)}
            }
        )
    if starts_at > now + FURTHEST:
        raise ValidationError({field: _("A match is arranged at most a year ahead.")})


def moment_words(moment: dt.datetime) -> str:
    """A moment in the active zone and language, the site's one format."""
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def speakers(entry: Entry | None) -> list[User]:
    """The accounts that speak for an entry (who is told about its arrangements)."""
    if entry is None:
        return []
    if entry.team_id is not None:
        ids = [entry.team.captain_id, entry.team.deputy_id]
    else:
        ids = entry.members()
    return [
        p.user
        for p in Player.objects.filter(pk__in=[i for i in ids if i]).select_related("user")
        if p.user
    ]


def side_entry(match: Match, side: int) -> Entry:
    return match.entry_a if side == 0 else match.entry_b


def tell(users: Iterable[User], text: Callable[[], str], match: Match) -> None:
    """A notice (and its e-mail) to each user in their language and time zone: `text` words
    it in the active ones."""
    for user in {u.pk: u for u in users if u is not None}.values():
        player = player_of(user)
        language = (player and player.language) or settings.LANGUAGE_CODE
        zone = zone_for(player.time_zone) if player else None
        with (
            translation.override(language),
            timezone.override(zone or timezone.get_default_timezone()),
        ):
            notice_send(user=user, text=text(), about=NOTICE_ABOUT, about_id=match.pk)


def match_words(match: Match) -> dict[str, str]:
    return {
        "a": match.entry_a.name if match.entry_a else "",
        "b": match.entry_b.name if match.entry_b else "",
        "round": str(match.round),
        "event": match.event.name,
    }


def audit_match(
    actor: User | None, match: Match, action: str, *, reason: str = "", **details: Any
) -> None:
    audit(
        actor=actor,
        championship=match.event.championship,
        event=match.event,
        action=action,
        target=f"match {match.pk}",
        reason=reason,
        details=details,
    )


def agreement_of(match: Match) -> MatchArrangement | None:
    return MatchArrangement.objects.filter(match=match, status=ArrangementStatus.AGREED).first()
