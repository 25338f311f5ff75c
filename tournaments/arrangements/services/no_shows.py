"""No-show claims: a side says the other did not appear at the agreed time; the other answers."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from players.types import User
from tournaments.arrangements.services.common import (
    agreement_of,
    audit_match,
    locked,
    match_words,
    moment_words,
    require_open,
    require_side,
    side_entry,
    speakers,
    tell,
)
from tournaments.models import (
    AuditAction,
    Match,
    NoShowClaim,
)
from tournaments.permissions import leads_entry

# --- No-show claims ------------------------------------------------------------------------


@transaction.atomic
def no_show_claim(*, actor: User, match: Match, message: str) -> NoShowClaim:
    """A side says the other did not appear at the agreed time. The claim keeps the agreement
    and the message for the controller; it is also the side's walkover claim (when the other
    side has not claimed one), so the deadline settles it if nobody rules first."""
    match = locked(match)
    side = require_side(actor, match)
    require_open(match)
    message = message.strip()
    if not message:
        raise ValidationError({"message": _("Say what happened at the agreed time.")})
    arrangement = agreement_of(match)
    now = timezone.now()
    if arrangement is None or arrangement.starts_at > now:
        raise ValidationError(
            {"match": _("A no-show is claimed only after the agreed time has passed.")}
        )
    if match.games_played:
        raise ValidationError({"match": _("A game of this match has been played.")})
    if NoShowClaim.objects.filter(arrangement=arrangement, side=side).exists():
        raise ValidationError(
            {"match": _("Your side has claimed a no-show for this time already.")}
        )
    claim = NoShowClaim.objects.create(
        match=match,
        arrangement=arrangement,
        side=side,
        claimed_by=actor,
        message=message[:2000],
        created=now,
    )
    if match.walkover_claimed_by_id is None:
        entry = side_entry(match, side)
        if entry.team_id is None or leads_entry(actor, entry):
            match.walkover_claimed_by = entry
            match.save(update_fields=["walkover_claimed_by"])
            audit_match(actor, match, AuditAction.WALKOVER_CLAIM)
    audit_match(
        actor,
        match,
        AuditAction.NO_SHOW_CLAIM,
        reason=message,
        side=side,
        starts_at=arrangement.starts_at.isoformat(),
    )
    claimant = side_entry(match, side).name

    def text() -> str:
        return _(
            "%(a)s v %(b)s (%(round)s, %(event)s): %(claimant)s says the other side did not "
            "appear at the agreed time, %(when)s. Answer on the match page."
        ) % {
            **match_words(match),
            "claimant": claimant,
            "when": moment_words(arrangement.starts_at),
        }

    tell([*speakers(side_entry(match, 1 - side)), *_rulers(match)], text, match)
    return claim


@transaction.atomic
def no_show_reply(*, actor: User, claim: NoShowClaim, message: str) -> NoShowClaim:
    """The other side answers a no-show claim, once, before a ruling."""
    match = locked(claim.match)
    claim = NoShowClaim.objects.select_for_update().get(pk=claim.pk)
    side = require_side(actor, match)
    if side == claim.side:
        raise PermissionDenied(_("The other side answers a no-show claim."))
    if match.is_final:
        raise ValidationError({"match": _("The match is decided.")})
    message = message.strip()
    if not message:
        raise ValidationError({"message": _("Say what happened at the agreed time.")})
    if claim.reply:
        raise ValidationError({"message": _("Your side has answered this claim already.")})
    claim.reply = message[:2000]
    claim.replied_by = actor
    claim.replied_at = timezone.now()
    claim.save(update_fields=["reply", "replied_by", "replied_at"])
    audit_match(actor, match, AuditAction.NO_SHOW_REPLY, reason=message, side=side)

    def text() -> str:
        return _("%(a)s v %(b)s (%(round)s, %(event)s): the no-show claim is answered.") % (
            match_words(match)
        )

    tell([*speakers(side_entry(match, claim.side)), *_rulers(match)], text, match)
    return claim


def _rulers(match: Match) -> list[User]:
    championship = match.event.championship
    return [*championship.controllers.all(), *championship.organisers.all()]
