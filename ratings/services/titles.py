"""Master titles: award, withdraw, and flag lapses."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from players.models import Player
from players.types import User
from ratings import params as rating_params
from ratings.models import (
    AuditAction,
    ChangeReason,
    Rating,
    RatingChange,
    RatingSystem,
    Review,
    ReviewKind,
    ReviewStatus,
    Title,
)
from ratings.selectors import elo_tournaments_played
from ratings.services.audit import acting_user, rating_audit, required_note
from ratings.services.changes import start_value
from ratings.services.locks import lock_tables
from ratings.systems import (
    title_eligibility,
    title_lapse,
)
from ratings.systems.titles import BELOW_LOBBY, CAP_REACHED, NO_ELO_TOURNAMENT

# --- Titles ------------------------------------------------------------------------------------

# The English templates, translated when a refusal is raised (the codes come from the pure core).
ELIGIBILITY_MESSAGES = {
    BELOW_LOBBY: gettext_noop("The player's lobby ranking is below %(min_lobby)s."),
    NO_ELO_TOURNAMENT: gettext_noop("The player has played no Elo-rated tournament."),
}


def eligibility_message(code: str, params: Any) -> str:
    """Why a player cannot get the title, in the reader's language; the cap counts titles."""
    if code == CAP_REACHED:
        return ngettext(
            "The cap of %(cap)s Master title is reached.",
            "The cap of %(cap)s Master titles is reached.",
            params.cap,
        ) % {"cap": params.cap}
    return _(ELIGIBILITY_MESSAGES[code]) % {"min_lobby": f"{params.min_lobby:g}"}


def title_award(*, actor: User, player_id: int, note: str) -> Title:
    """Award the Master title to an eligible player, within the cap (counted under a lock)."""
    note = required_note(note)
    params = rating_params.title_params()
    with transaction.atomic():
        lock_tables("titles")
        if not Player.objects.filter(pk=player_id).exists():
            raise ValidationError({"player": _("No such player.")})
        if Title.objects.filter(
            player_id=player_id, kind=Title.Kind.MASTER, status=Title.Status.ACTIVE
        ).exists():
            raise ValidationError({"player": _("The player already holds the Master title.")})
        lobby = (
            Rating.objects.filter(player_id=player_id, system=RatingSystem.LOBBY)
            .values_list("value", flat=True)
            .first()
        )
        verdict = title_eligibility(
            lobby_rating=lobby if lobby is not None else start_value(RatingSystem.LOBBY),
            elo_tournaments=elo_tournaments_played(player_id),
            titles_held=Title.objects.filter(
                kind=Title.Kind.MASTER, status=Title.Status.ACTIVE
            ).count(),
            params=params,
        )
        if not verdict.eligible:
            raise ValidationError(
                {"player": [eligibility_message(code, params) for code in verdict.reasons]}
            )
        title = Title.objects.create(
            player_id=player_id, kind=Title.Kind.MASTER, awarded_by=acting_user(actor), note=note
        )
        rating_audit(
            actor=actor,
            action=AuditAction.TITLE_AWARD,
            reason=note,
            player_id=player_id,
            title=title,
            details={"lobby": lobby},
        )
    return title


def title_withdraw(*, actor: User, title_id: int, note: str, lapsed: bool = False) -> Title:
    """End a held title (as lapsed, or withdrawn); its open lapse reviews close as approved."""
    note = required_note(note)
    with transaction.atomic():
        lock_tables("titles")
        title = Title.objects.select_for_update().filter(pk=title_id).first()
        if title is None:
            raise ValidationError({"title": _("No such title.")})
        if not title.is_active:
            raise ValidationError(
                {
                    "title": _("This title is already lapsed.")
                    if title.status == Title.Status.LAPSED
                    else _("This title is already withdrawn.")
                }
            )
        now = timezone.now()
        title.status = Title.Status.LAPSED if lapsed else Title.Status.WITHDRAWN
        title.ended_at = now
        title.ended_by = acting_user(actor)
        title.end_note = note
        title.save(update_fields=["status", "ended_at", "ended_by", "end_note"])
        Review.objects.filter(
            title=title, kind=ReviewKind.TITLE_LAPSE, status=ReviewStatus.OPEN
        ).update(
            status=ReviewStatus.APPROVED, reviewer=acting_user(actor), note=note, resolved_at=now
        )
        rating_audit(
            actor=actor,
            action=AuditAction.TITLE_WITHDRAW,
            reason=note,
            player_id=title.player_id,
            title=title,
            details={"status": title.status},
        )
    return title


def titles_check_lapses(*, today: dt.date | None = None) -> list[Review]:
    """Flag for review every held title not kept by enough Master games (beat task).

    A Master game is one the Master table rated (and that was not reverted).
    """
    today = today or timezone.localdate()
    params = rating_params.title_params()
    flagged = []
    for title in Title.objects.filter(kind=Title.Kind.MASTER, status=Title.Status.ACTIVE):
        dates = [
            timezone.localtime(played).date()
            for played in RatingChange.objects.filter(
                player_id=title.player_id,
                system=RatingSystem.MASTER,
                reason=ChangeReason.GAME,
                reverted_by__isnull=True,
            ).values_list("game__played_at", flat=True)
        ]
        verdict = title_lapse(
            awarded_on=timezone.localtime(title.awarded_at).date(),
            master_game_dates=dates,
            today=today,
            params=params,
        )
        if not verdict.lapsed:
            continue
        with transaction.atomic():
            if Review.objects.filter(
                title=title, kind=ReviewKind.TITLE_LAPSE, status=ReviewStatus.OPEN
            ).exists():
                continue
            flagged.append(
                Review.objects.create(
                    kind=ReviewKind.TITLE_LAPSE,
                    title=title,
                    player_id=title.player_id,
                    detail={
                        "lapsed_on": verdict.lapsed_on.isoformat(),
                        "games_to_keep": params.games_to_keep,
                        "window_months": params.window_months,
                    },
                )
            )
    return flagged
