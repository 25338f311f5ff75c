"""A notice as an email: its text, then the link to what it is about (`links.notice_link`)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail

from players.models import Notice
from players.notices.links import notice_link

logger = logging.getLogger(__name__)


def notice_mail(notice: Notice, *, subject: str, address: str) -> None:
    """Email the notice. A mail server that refuses is logged, never raised: the notice on the
    site is the message that must not be lost."""
    link = notice_link(notice)
    body = f"{notice.text}\n\n{link}" if link else notice.text
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address])
    except Exception:  # noqa: BLE001 - SMTP errors are many kinds; all mean "not sent"
        logger.warning("could not email %s", address, exc_info=True)
