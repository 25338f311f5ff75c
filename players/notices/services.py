"""Telling a person something: an in-site notice and an email (Django's email backend)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction

from players.models import Notice
from players.types import User

logger = logging.getLogger(__name__)


def notice_send(*, user: User, text: str, url: str = "", subject: str = "") -> Notice | None:
    """Leave a notice for `user` and email it to them once the transaction commits.

    Nobody to tell (no user, an inactive account) sends nothing. A mail server that refuses is
    logged, never raised: the notice on the site is the message that must not be lost.
    """
    if user is None or not getattr(user, "is_active", False):
        return None
    notice = Notice.objects.create(user=user, text=text[:300], url=url[:200])
    address = getattr(user, "email", "")
    if address:
        body = f"{text}\n\n{url}" if url else text
        transaction.on_commit(lambda: _mail(subject or text[:78], body, address))
    return notice


def _mail(subject: str, body: str, address: str) -> None:
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address])
    except Exception:  # noqa: BLE001 - SMTP errors are many kinds; all mean "not sent"
        logger.warning("could not email %s", address, exc_info=True)


def notices_mark_read(*, user: User, notice_ids: list[int] | None = None) -> int:
    """Mark the user's notices read (all of them, or the listed ones); how many changed."""
    notices = Notice.objects.filter(user=user, read=False)
    if notice_ids is not None:
        notices = notices.filter(pk__in=notice_ids)
    return notices.update(read=True)
