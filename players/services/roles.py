"""Granting and withdrawing the site-wide roles: organiser (staff decide) and staff (superusers).

Per-championship roles (co-organiser, controller) belong to the tournaments app.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from players.audit.registry import register_audit_type
from players.audit.services import audit
from players.models import AuditAction, Player
from players.roles import ORGANISERS_GROUP, is_admin
from players.types import User


class SiteRole(models.TextChoices):
    ORGANISER = "organiser", gettext_lazy("Organiser")
    STAFF = "staff", gettext_lazy("Staff")


def can_grant(actor: User, role: str) -> bool:
    """Staff grant and withdraw the organiser role; only superusers grant or withdraw staff."""
    if not is_admin(actor):
        return False
    if role == SiteRole.STAFF:
        return bool(actor.is_superuser)
    return True


def _organisers_group() -> Group:
    # Created by migration players.0004; recreated here if someone deleted it in the admin.
    return Group.objects.get_or_create(name=ORGANISERS_GROUP)[0]


def _check(actor: User, role: str, reason: str) -> str:
    try:
        role = SiteRole(role)
    except ValueError:
        raise ValidationError({"role": _("Choose organiser or staff.")}) from None
    if not is_admin(actor):
        raise PermissionDenied(_("Only staff may grant or withdraw roles."))
    if not can_grant(actor, role):
        raise PermissionDenied(_("Only superusers may grant or withdraw the staff role."))
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Give a reason; it is kept in the audit trail.")})
    return role


def _locked(user: User) -> Any:
    # Concurrent changes to one account's roles queue here, so each leaves exactly one entry.
    return get_user_model().objects.select_for_update().get(pk=user.pk)


@transaction.atomic
def role_grant(*, actor: User, user: User, role: str, reason: str) -> Any:
    role = _check(actor, role, reason)
    user = _locked(user)
    if role == SiteRole.ORGANISER:
        group = _organisers_group()
        if user.groups.filter(pk=group.pk).exists():
            raise ValidationError(
                {"name": _("%(name)s is already an organiser.") % {"name": user.get_username()}}
            )
        user.groups.add(group)
        action = AuditAction.ORGANISER_GRANT
    else:
        if user.is_staff:
            raise ValidationError(
                {"name": _("%(name)s is already staff.") % {"name": user.get_username()}}
            )
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        action = AuditAction.STAFF_GRANT
    _audit(actor=actor, user=user, action=action, role=role, reason=reason)
    return user


@transaction.atomic
def role_withdraw(*, actor: User, user: User, role: str, reason: str) -> Any:
    role = _check(actor, role, reason)
    user = _locked(user)
    if role == SiteRole.ORGANISER:
        group = _organisers_group()
        if not user.groups.filter(pk=group.pk).exists():
            raise ValidationError(
                {"name": _("%(name)s is not an organiser.") % {"name": user.get_username()}}
            )
        user.groups.remove(group)
        action = AuditAction.ORGANISER_WITHDRAW
    else:
        if not user.is_staff:
            raise ValidationError(
                {"name": _("%(name)s is not staff.") % {"name": user.get_username()}}
            )
        if user.pk == actor.pk:
            raise ValidationError({"name": _("You cannot withdraw your own staff role.")})
        if user.is_superuser:
            raise ValidationError(
                {
                    "name": _("%(name)s is a superuser; change that in the admin.")
                    % {"name": user.get_username()}
                }
            )
        user.is_staff = False
        user.save(update_fields=["is_staff"])
        action = AuditAction.STAFF_WITHDRAW
    _audit(actor=actor, user=user, action=action, role=role, reason=reason)
    return user


def _audit(*, actor: User, user: User, action: AuditAction, role: str, reason: str) -> None:
    audit(
        actor=actor,
        action=action,
        subject_user=user,
        subject_player=Player.objects.filter(user=user).first(),
        target=user.get_username(),
        reason=reason.strip(),
        details={"role": str(role)},
    )


# --- The role actions as registered types (issue 27) ---------------------------------------


def _role_words(details: dict, _names: Any = None) -> str:
    """The role granted or withdrawn, in words ("Organiser")."""
    role = details.get("role") or ""
    return str(SiteRole(role).label) if role in SiteRole.values else role


for _action in (
    AuditAction.ORGANISER_GRANT,
    AuditAction.ORGANISER_WITHDRAW,
    AuditAction.STAFF_GRANT,
    AuditAction.STAFF_WITHDRAW,
):
    register_audit_type(_action, details={"role": str}, describe=_role_words)
