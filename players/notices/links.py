"""What a notice links to: the page of the thing it is about, found when the notice is shown.

A notice stores what it is about (`Notice.about`, a kind such as "reported_game", and
`Notice.about_id`), never an address: the services that send notices know objects, not URLs.
Each app that sends notices says, in its AppConfig.ready, which page shows each kind it sends
(`register_notice_page`: a URL name that takes the object's id); the notices page, the API and
the email build the link from that (`notice_link`). A kind that names no page, or an id its page
no longer takes, has no link.
"""

from __future__ import annotations

from django.urls import NoReverseMatch, reverse

from players.models import Notice

# kind -> the name of the URL that shows it (one argument: the object's id)
_PAGES: dict[str, str] = {}


def register_notice_page(about: str, url_name: str) -> None:
    """Notices about `about` link to the page `url_name` (idempotent for the same page)."""
    if _PAGES.get(about, url_name) != url_name:
        raise ValueError(f"notices about {about!r} already link to {_PAGES[about]!r}")
    _PAGES[about] = url_name


def is_notice_kind(about: str) -> bool:
    return about in _PAGES


def notice_link(notice: Notice) -> str:
    """The address of the page the notice is about, or "" when it has none."""
    url_name = _PAGES.get(notice.about)
    if url_name is None or notice.about_id is None:
        return ""
    try:
        return reverse(url_name, args=[notice.about_id])
    except NoReverseMatch:
        return ""
