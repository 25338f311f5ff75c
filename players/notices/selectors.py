"""Reads of notices (the writes are players.notices.services)."""

from __future__ import annotations

from django.db.models import QuerySet

from players.models import Notice
from players.types import User


def notices_for(user: User) -> QuerySet[Notice]:
    if not (user and user.is_authenticated):
        return Notice.objects.none()
    return Notice.objects.filter(user=user).order_by("-created", "-id")


def unread_notice_count(user: User) -> int:
    if not (user and user.is_authenticated):
        return 0
    return Notice.objects.filter(user=user, read=False).count()
