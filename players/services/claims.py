"""Claiming a profile: a person takes over a player an organiser entered without an account.

Two ways in: a one-time claim link that staff or the entering organiser hand out, or a claim
request the person makes, which staff or the entering organiser approve or refuse. Every path
locks the player row first (then the account), so two claims of one player, or one person
claiming two players, queue in PostgreSQL and exactly one wins.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from players.audit.registry import register_audit_type
from players.audit.services import audit
from players.models import AuditAction, ClaimLink, ClaimRequest, ClaimStatus, Player
from players.roles import is_admin, is_organiser
from players.services.profiles import new_user
from players.types import User

CLAIM_LINK_LIFETIME = dt.timedelta(days=14)


class ClaimLinkError(Exception):
    """A claim link that cannot be used. `code` is for programs, the message for people."""

    code = "invalid"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


class ClaimLinkUnknown(ClaimLinkError):
    """No such link (mistyped, or never made)."""


class ClaimLinkGone(ClaimLinkError):
    """The link existed but no longer works: expired, used, replaced, or the player is taken."""


def can_manage_claims(actor: User, player: Player) -> bool:
    """Staff, and the organiser who entered the player (while they are an organiser)."""
    if is_admin(actor):
        return True
    return bool(
        is_organiser(actor)
        and player.created_by_id is not None
        and player.created_by_id == actor.pk
    )


def hash_token(token: str) -> str:
    # The token carries 256 random bits, so a plain SHA-256 is enough: nothing to brute-force.
    return hashlib.sha256(token.encode()).hexdigest()


def _lock_player(pk: int) -> Player:
    return Player.objects.select_for_update().get(pk=pk)


def _lock_user(user: User) -> Any:
    return get_user_model().objects.select_for_update().get(pk=user.pk)


def _require_claimable(player: Player) -> None:
    if player.is_robot:
        raise ValidationError(_("A robot cannot be claimed."))
    if player.user_id is not None:
        raise ValidationError(
            _("%(name)s already belongs to an account.") % {"name": player.display_name}
        )


def _require_without_player(user: User) -> None:
    own = Player.objects.filter(user=user).first()
    if own is not None:
        raise ValidationError(
            _("Your account already has a player profile (%(name)s).") % {"name": own.display_name}
        )


def _link(*, player: Player, user: User, now: dt.datetime, why: str) -> list[int]:
    """Join the locked player to the locked account; close the requests that no longer make sense.

    Returns the ids of the requests it closed (for the audit entry).
    """
    player.user = user
    player.save(update_fields=["user", "updated"])
    # Anyone else's request for this player, and this person's request for another player.
    stale = ClaimRequest.objects.filter(Q(player=player) | Q(requester=user), status="pending")
    closed = sorted(stale.values_list("pk", flat=True))
    ClaimRequest.objects.filter(pk__in=closed).update(
        status=ClaimStatus.CANCELLED, decided_at=now, decision_reason=why
    )
    return closed


# --- Claim links ---------------------------------------------------------------------------


@transaction.atomic
def claim_link_create(*, actor: User, player: Player) -> tuple[ClaimLink, str]:
    """A new one-time link for an accountless player; earlier unused links stop working.

    Returns the link and its token: the token is not stored, so show it now or never.
    """
    if not can_manage_claims(actor, player):
        raise PermissionDenied(
            _("Only staff and the organiser who entered this player may make a claim link.")
        )
    player = _lock_player(player.pk)
    _require_claimable(player)
    now = timezone.now()
    replaced = list(
        ClaimLink.objects.filter(
            player=player, used_at__isnull=True, revoked_at__isnull=True, expires__gt=now
        ).values_list("pk", flat=True)
    )
    ClaimLink.objects.filter(pk__in=replaced).update(revoked_at=now)
    token = secrets.token_urlsafe(32)
    link = ClaimLink.objects.create(
        player=player,
        token_hash=hash_token(token),
        created_by=actor,
        created=now,
        expires=now + CLAIM_LINK_LIFETIME,
    )
    audit(
        actor=actor,
        action=AuditAction.CLAIM_LINK_CREATE,
        subject_player=player,
        details={"link": link.pk, "expires": link.expires, "replaced": replaced},
    )
    return link, token


def _check_link(link: ClaimLink | None, *, now: dt.datetime) -> ClaimLink:
    if link is None:
        raise ClaimLinkUnknown(_("This claim link is not valid. Check that it was copied whole."))
    if link.used_at is not None:
        raise ClaimLinkGone(_("This claim link has already been used."), code="used")
    if link.player.user_id is not None:
        raise ClaimLinkGone(
            _("%(name)s already belongs to an account.") % {"name": link.player.display_name},
            code="claimed",
        )
    if link.revoked_at is not None:
        raise ClaimLinkGone(
            _("This claim link was replaced by a newer one. Ask for the latest link."),
            code="replaced",
        )
    if link.expires <= now:
        raise ClaimLinkGone(
            _("This claim link expired on %(date)s. Ask the organiser for a new one.")
            % {"date": formats.date_format(timezone.localtime(link.expires).date())},
            code="expired",
        )
    return link


def claim_link_usable(*, token: str) -> ClaimLink:
    """The link for this token if it can be used now; else ClaimLinkUnknown or ClaimLinkGone."""
    link = (
        ClaimLink.objects.select_related("player")
        .filter(token_hash=hash_token(token or ""))
        .first()
    )
    return _check_link(link, now=timezone.now())


def _redeem(*, token: str, user: User, new_account: bool) -> Player:
    found = ClaimLink.objects.filter(token_hash=hash_token(token or "")).first()
    if found is None:
        raise ClaimLinkUnknown(_("This claim link is not valid. Check that it was copied whole."))
    player = _lock_player(found.player_id)
    link = ClaimLink.objects.select_related("player").get(pk=found.pk)
    link.player = player
    now = timezone.now()
    _check_link(link, now=now)
    _require_claimable(player)
    user = _lock_user(user)
    _require_without_player(user)
    closed = _link(
        player=player, user=user, now=now, why=_("The profile was claimed with a claim link.")
    )
    link.used_at = now
    link.used_by = user
    link.save(update_fields=["used_at", "used_by"])
    audit(
        actor=user,
        action=AuditAction.CLAIM_LINK_USE,
        subject_user=user,
        subject_player=player,
        details={
            "link": link.pk,
            "link_created_by": link.created_by_id,
            "new_account": new_account,
            "closed_requests": closed,
        },
    )
    return player


@transaction.atomic
def claim_link_redeem(*, token: str, user: User) -> Player:
    """A logged-in person without a player takes over the link's player."""
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied(_("Log in or sign up to use a claim link."))
    return _redeem(token=token, user=user, new_account=False)


@transaction.atomic
def claim_link_signup(*, token: str, username: str, password: str, email: str = "") -> Player:
    """A person signs up through the link: a new account that owns the link's player."""
    claim_link_usable(token=token)  # say "expired" before "choose another username"
    user = new_user(username=username, password=password, email=email)
    return _redeem(token=token, user=user, new_account=True)


# --- Claim requests ------------------------------------------------------------------------


@transaction.atomic
def claim_request_create(*, requester: User, player: Player, message: str = "") -> ClaimRequest:
    """A logged-in person without a player says "this is me" about an accountless player."""
    if not getattr(requester, "is_authenticated", False):
        raise PermissionDenied(_("Log in or sign up to ask for a profile."))
    player = _lock_player(player.pk)
    _require_claimable(player)
    requester = _lock_user(requester)
    _require_without_player(requester)
    waiting = ClaimRequest.objects.filter(requester=requester, status=ClaimStatus.PENDING).first()
    if waiting is not None:
        raise ValidationError(
            _("You already asked to claim %(name)s; wait for that decision first.")
            % {"name": waiting.player.display_name}
        )
    claim = ClaimRequest(player=player, requester=requester, message=(message or "").strip())
    claim.full_clean(validate_constraints=False)
    claim.save()
    audit(
        actor=requester,
        action=AuditAction.CLAIM_REQUEST_CREATE,
        subject_user=requester,
        subject_player=player,
        details={"request": claim.pk},
    )
    return claim


@transaction.atomic
def claim_request_signup(
    *, player: Player, username: str, password: str, email: str = "", message: str = ""
) -> ClaimRequest:
    """Sign up and ask for an accountless player in one step (the account starts without one)."""
    _require_claimable(player)
    user = new_user(username=username, password=password, email=email)
    return claim_request_create(requester=user, player=player, message=message)


def _locked_pending(claim_request: ClaimRequest) -> tuple[ClaimRequest, Player]:
    player = _lock_player(claim_request.player_id)
    claim = ClaimRequest.objects.select_related("requester").get(pk=claim_request.pk)
    claim.player = player
    if claim.status != ClaimStatus.PENDING:
        raise ValidationError(
            _("This request was already decided: %(status)s.")
            % {"status": claim.get_status_display()}
        )
    return claim, player


@transaction.atomic
def claim_request_approve(
    *, actor: User, claim_request: ClaimRequest, reason: str = ""
) -> ClaimRequest:
    """Give the player to the requester's account (their games and ratings come with it)."""
    if not can_manage_claims(actor, claim_request.player):
        raise PermissionDenied(
            _("Only staff and the organiser who entered this player may decide its claims.")
        )
    claim, player = _locked_pending(claim_request)
    _require_claimable(player)
    requester = _lock_user(claim.requester)
    own = Player.objects.filter(user=requester).first()
    if own is not None:
        raise ValidationError(
            _("%(user)s's account already has a player profile (%(name)s); refuse this request.")
            % {"user": requester.get_username(), "name": own.display_name}
        )
    now = timezone.now()
    claim.status = ClaimStatus.APPROVED
    claim.decided_by = actor
    claim.decided_at = now
    claim.decision_reason = (reason or "").strip()
    claim.save(update_fields=["status", "decided_by", "decided_at", "decision_reason"])
    closed = _link(
        player=player,
        user=requester,
        now=now,
        why=_("Another claim request for this profile was approved."),
    )
    audit(
        actor=actor,
        action=AuditAction.CLAIM_REQUEST_APPROVE,
        subject_user=requester,
        subject_player=player,
        reason=claim.decision_reason,
        details={"request": claim.pk, "closed_requests": closed},
    )
    return claim


@transaction.atomic
def claim_request_refuse(*, actor: User, claim_request: ClaimRequest, reason: str) -> ClaimRequest:
    if not can_manage_claims(actor, claim_request.player):
        raise PermissionDenied(
            _("Only staff and the organiser who entered this player may decide its claims.")
        )
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why; the requester reads it.")})
    claim, player = _locked_pending(claim_request)
    claim.status = ClaimStatus.REFUSED
    claim.decided_by = actor
    claim.decided_at = timezone.now()
    claim.decision_reason = reason.strip()
    claim.save(update_fields=["status", "decided_by", "decided_at", "decision_reason"])
    audit(
        actor=actor,
        action=AuditAction.CLAIM_REQUEST_REFUSE,
        subject_user=claim.requester,
        subject_player=player,
        reason=claim.decision_reason,
        details={"request": claim.pk},
    )
    return claim


# --- The claim actions as registered types (issue 27) --------------------------------------


def _nothing_more(_details: dict, _names: Any = None) -> str:
    """The entry's label, target (the player) and reason say it all; the details keep the ids
    of the link or request for whoever investigates."""
    return ""


def _expires_words(details: dict, _names: Any = None) -> str:
    """When the link stops working, in the reader's date format."""
    expires = details.get("expires")
    if not expires:
        return ""
    moment = dt.datetime.fromisoformat(expires) if isinstance(expires, str) else expires
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


IDS_OR_COUNT = (list, int)
for _action, _shape, _describe in (
    (
        AuditAction.CLAIM_LINK_CREATE,
        {"link": int, "expires": (dt.datetime, str), "replaced": IDS_OR_COUNT},
        _expires_words,
    ),
    (
        AuditAction.CLAIM_LINK_USE,
        {
            "link": int,
            "link_created_by": int,
            "new_account": bool,
            "closed_requests": IDS_OR_COUNT,
        },
        _nothing_more,
    ),
    (AuditAction.CLAIM_REQUEST_CREATE, {"request": int}, _nothing_more),
    (
        AuditAction.CLAIM_REQUEST_APPROVE,
        {"request": int, "closed_requests": IDS_OR_COUNT},
        _nothing_more,
    ),
    (AuditAction.CLAIM_REQUEST_REFUSE, {"request": int}, _nothing_more),
):
    register_audit_type(_action, details=_shape, describe=_describe)
