"""Reads of verdict reviews, for site staff only; the rule that says so (`RULES`, registered
in GamesConfig.ready: the pages and endpoints declare it, the selectors and the service keep
their own check with the same words)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from games.models import VerdictReview
from players.roles import is_admin
from players.types import User


def verdicts_refusal(_actor: User = None, _obj: Any = None) -> str:
    return _("Only site staff review verdicts.")


RULES: dict[str, tuple[Callable[[User, Any], bool], Any]] = {
    "review_verdicts": (lambda user, _obj: is_admin(user), verdicts_refusal),
}


def reviews_for(viewer: User, status: str | None = None) -> QuerySet[VerdictReview]:
    """Reviews a staff member may see, newest first (PermissionDenied for anyone else)."""
    if not is_admin(viewer):
        raise PermissionDenied(verdicts_refusal())
    reviews = VerdictReview.objects.select_related("record", "decided_by", "record__game")
    if status:
        if status not in VerdictReview.Status.values:
            raise ValidationError({"status": [_("Choose open, approved or rejected.")]})
        reviews = reviews.filter(status=status)
    return reviews


def review_for(viewer: User, review_id: int) -> VerdictReview:
    """One review (VerdictReview.DoesNotExist when there is none)."""
    return reviews_for(viewer).get(pk=review_id)
