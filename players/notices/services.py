"""Telling a person something: an in-site notice and an email (Django's email backend)."""

from __future__ import annotations

from django.db import transaction

from players.models import Notice
from players.notices.links import is_notice_kind
from players.notices.mail import notice_mail
from players.types import User
from tantrix_site.i18n.grammar import finish


def notice_send(
    *, user: User, text: str, about: str = "", about_id: int | None = None, subject: str = ""
) -> Notice | None:
    """Leave a notice for `user` and email it to them once the transaction commits.

    `about` and `about_id` say what the notice is about (a kind an app registered with
    `links.register_notice_page`, and the object's id): its page is the notice's link. An
    unregistered kind is a bug (ValueError). Nobody to tell (no user, an inactive account)
    sends nothing; the email is sent by `mail.notice_mail`, which never raises.
    """
    if about and not is_notice_kind(about):
        raise ValueError(f"notices about {about!r} link to no page (register_notice_page)")
    if user is None or not getattr(user, "is_active", False):
        return None
    # Written in the recipient's language (the caller's): its grammar is finished here, as a
    # page's is by GrammarMiddleware.
    text, subject = finish(text), finish(subject)
    notice = Notice.objects.create(
        user=user, text=text[:300], about=about, about_id=about_id if about else None
    )
    address = getattr(user, "email", "")
    if address:
        subject = subject or text[:78]
        transaction.on_commit(lambda: notice_mail(notice, subject=subject, address=address))
    return notice


def notices_mark_read(*, user: User, notice_ids: list[int] | None = None) -> int:
    """Mark the user's notices read (all of them, or the listed ones); how many changed."""
    notices = Notice.objects.filter(user=user, read=False)
    if notice_ids is not None:
        notices = notices.filter(pk__in=notice_ids)
    return notices.update(read=True)
