"""Reminders: a notice (and its email) sent once for each thing, whoever runs the task and
however often (players.models.ReminderSent, docs/calendars.md "Reminders").

The sending app names the kind of reminder, the object it is about and the time it is about
(`due`); the ledger row is written in the same transaction as the notice, so a task that runs
twice, runs in two workers at once, or runs again after a crash finds the row and sends nothing.
The email goes after the commit (`notice_send`), so a rolled-back claim mails nobody.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.utils import timezone

from players.models import ReminderSent
from players.notices.services import notice_send
from players.types import User


def reminders_sent(kind: str, object_ids: Iterable[int]) -> dict[tuple[int, int], dt.datetime]:
    """(object id, recipient id) -> the time last reminded of, for these objects: a task skips
    what is sent before it tries to claim (the claim stays the authority)."""
    return {
        (object_id, recipient_id): due
        for object_id, recipient_id, due in ReminderSent.objects.filter(
            kind=kind, object_id__in=list(object_ids)
        ).values_list("object_id", "recipient_id", "due")
    }


def _claim(*, kind: str, object_id: int, user: User, due: dt.datetime) -> bool:
    """Take the ledger's row for this reminder: whether this caller is the one to send it.

    The first time, the insert is the claim: of two at once, the second waits on the unique
    index until the first commits, then fails (or succeeds, if the first rolled back). When the
    time it is about has moved, the conditional update is the claim: the second waits on the
    row lock, then finds the new time already there and updates nothing."""
    try:
        with transaction.atomic():
            ReminderSent.objects.create(kind=kind, object_id=object_id, recipient=user, due=due)
        return True
    except IntegrityError:
        moved = (
            ReminderSent.objects.filter(kind=kind, object_id=object_id, recipient=user)
            .exclude(due=due)
            .update(due=due, sent=timezone.now())
        )
        return moved == 1


def reminder_send_once(
    *,
    kind: str,
    object_id: int,
    user: User,
    due: dt.datetime,
    text: str,
    subject: str = "",
    about: str = "",
    about_id: int | None = None,
) -> bool:
    """Leave the notice `text` for `user` (and email it) unless this reminder (`kind`,
    `object_id`, `user`, about the time `due`) was sent already; whether it was sent now.
    `text` and `subject` are in the recipient's language (the caller's business)."""
    if user is None or not getattr(user, "is_active", False):
        return False
    with transaction.atomic():
        if not _claim(kind=kind, object_id=object_id, user=user, due=due):
            return False
        notice_send(user=user, text=text, subject=subject, about=about, about_id=about_id)
    return True
