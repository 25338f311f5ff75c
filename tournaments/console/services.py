"""Reminding a match's players (the round console): a notice and its email, through the
notices service, in each player's language and time zone; audited; at most one per match an
hour (the audit trail answers "reminded within the hour": no column of its own)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.dateformat import format as date_format
from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.audit.registry import register_audit_type
from players.models import Player
from players.notices.services import notice_send
from players.preferences.timezones import zone_for
from players.types import User
from tournaments.console.selectors import REMIND_EVERY, ConsoleRow, console_row, round_console
from tournaments.models import FINAL_MATCH_STATUSES, AuditAction, Match, Round
from tournaments.permissions import STAFF_REFUSAL, can_rule
from tournaments.services.audit import audit

# What reminder notices are about: a match (its page is registered in TournamentsConfig.ready).
NOTICE_ABOUT = "match"


@dataclass(frozen=True)
class Reminded:
    """What a bulk reminder did."""

    reminded: list[ConsoleRow]
    skipped: list[ConsoleRow]  # reminded within the hour, or no player with an account


def _require_staff(actor: User, round_: Round) -> None:
    if not can_rule(actor, round_.event.championship):
        raise PermissionDenied(str(STAFF_REFUSAL))


def _when(moment, user_zone: str) -> str:
    """A moment in the reader's zone and language (a notice is read far from any page)."""
    zone = zone_for(user_zone) or timezone.get_default_timezone()
    return date_format(timezone.localtime(moment, zone), get_format("DATETIME_FORMAT"))


def _players_to_tell(match: Match) -> list[Player]:
    ids = [pid for entry in (match.entry_a, match.entry_b) if entry for pid in entry.members()]
    return list(
        Player.objects.filter(pk__in=ids, user__isnull=False, user__is_active=True).select_related(
            "user"
        )
    )


def _text(match: Match, player: Player) -> str:
    words = {
        "championship": match.event.championship.name,
        "event": match.event.name,
        "round": str(match.round),
        "a": match.entry_a.name,
        "b": match.entry_b.name,
    }
    if match.round.deadline is None:
        return (
            _(
                "Reminder from the organisers of %(championship)s: your match %(a)s v %(b)s "
                "(%(event)s, %(round)s) is waiting to be played."
            )
            % words
        )
    return _(
        "Reminder from the organisers of %(championship)s: please play your match %(a)s v "
        "%(b)s (%(event)s, %(round)s) by %(deadline)s."
    ) % {**words, "deadline": _when(match.round.deadline, player.time_zone)}


def _remind(actor: User, match: Match) -> int:
    """Tell the match's players (those with an account); how many were told."""
    told = 0
    for player in _players_to_tell(match):
        with translation.override(player.language or settings.LANGUAGE_CODE):
            sent = notice_send(
                user=player.user,
                text=_text(match, player),
                about=NOTICE_ABOUT,
                about_id=match.pk,
                subject=_("Reminder: your match in %(event)s") % {"event": match.event.name},
            )
        told += sent is not None
    audit(
        actor=actor,
        championship=match.event.championship,
        event=match.event,
        action=AuditAction.MATCH_REMIND,
        target=f"{match.entry_a.name} v {match.entry_b.name}",
        details={"match": match.pk, "round": match.round.number, "told": told},
    )
    return told


def _refusal(row: ConsoleRow) -> str | None:
    """Why this match's players may not be reminded now, in a whole sentence; None if they may."""
    if row.played:
        return _("This match is played: there is nobody to remind.")
    if row.side_a is None or row.side_b is None:
        return _("This match waits for its players: there is nobody to remind yet.")
    after = row.remind_after()
    if after is not None:
        return _(
            "Its players were reminded at %(time)s: one reminder an hour per match. You may "
            "remind them again from %(after)s."
        ) % {
            "time": date_format(timezone.localtime(row.reminded_at), get_format("TIME_FORMAT")),
            "after": date_format(timezone.localtime(after), get_format("TIME_FORMAT")),
        }
    return None


def _locked(match: Match) -> Match:
    """The match row locked, so two reminders of one match cannot both pass the hour's check."""
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("round", "event__championship")
        .get(pk=match.pk)
    )


@transaction.atomic
def match_remind(*, actor: User, match: Match) -> int:
    """Remind one match's players (a notice and an email each); how many were told."""
    _require_staff(actor, match.round)
    locked = _locked(match)
    row = console_row(locked)
    refusal = _refusal(row)
    if refusal is None and not _players_to_tell(row.match):
        refusal = _("No player of this match has an account: tell them another way.")
    if refusal is not None:
        raise ValidationError({"match": refusal})
    return _remind(actor, row.match)


@transaction.atomic
def round_remind_unplayed(*, actor: User, round_: Round) -> Reminded:
    """Remind the players of every unplayed match of the round, except those reminded within
    the hour (skipped, and said so)."""
    _require_staff(actor, round_)
    open_ids = list(
        Match.objects.filter(round=round_, is_bye=False)
        .exclude(status__in=FINAL_MATCH_STATUSES)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for pk in open_ids:  # locked in one order, as match_remind locks each
        _locked(Match(pk=pk))
    reminded, skipped = [], []
    for row in round_console(round_).unplayed:
        if _refusal(row) is None and _players_to_tell(row.match):
            _remind(actor, row.match)
            reminded.append(row)
        else:
            skipped.append(row)
    return Reminded(reminded=reminded, skipped=skipped)


def remind_words(done: Reminded) -> str:
    """What a bulk reminder did, for the page's message."""
    words = ngettext(
        "The players of %(count)s match are reminded.",
        "The players of %(count)s matches are reminded.",
        len(done.reminded),
    ) % {"count": len(done.reminded)}
    if done.skipped:
        words += " " + ngettext(
            "%(count)s match is left out (reminded within the hour, or no player has an account).",
            "%(count)s matches are left out (reminded within the hour, or no player has an "
            "account).",
            len(done.skipped),
        ) % {"count": len(done.skipped)}
    return words


# --- Audit type -------------------------------------------------------------------------------


def _remind_words(details: dict, names: Any) -> str:
    told = details.get("told") if isinstance(details.get("told"), int) else 0
    return ngettext(
        "%(count)s player told (notice and email)",
        "%(count)s players told (notice and email)",
        told,
    ) % {"count": told}


register_audit_type(
    AuditAction.MATCH_REMIND,
    details={"match": int, "round": int, "told": int},
    describe=_remind_words,
)

__all__ = ["REMIND_EVERY", "Reminded", "match_remind", "remind_words", "round_remind_unplayed"]
