"""Every page the site serves loads everything from the site itself (issue 26, defect 14).

A page that links a font, a script or a stylesheet on another host breaks offline and tells that
host who reads it. This crawls the HTML of the API's two explorers and of the main pages, and the
stylesheets they link, and checks that every `src`, `href`, `action`, `srcset` and CSS
`@import`/`url()` stays on the site; and that no page's Content-Security-Policy allows another
host. (tests/browser/test_offline.py checks what a browser actually requests.)
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from games import services as games_services
from games.models import Game
from tests.factories import PlayerFactory
from tests.tournaments.helpers import submit_match_game
from tests.tournaments.pages import builders
from tournaments.models import Match

pytestmark = pytest.mark.django_db

# Attributes whose value is an address the browser loads or goes to.
URL_ATTRIBUTES = {"src", "href", "action", "formaction", "poster", "data", "xlink:href"}
CSS_URL = re.compile(r"""@import\s+(?:url\()?\s*['"]?([^'")\s;]+)|url\(\s*['"]?([^'")]+)""")


class _References(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []
        self.stylesheets: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name, value in attrs:
            if value is None:
                continue
            if name in URL_ATTRIBUTES:
                self.urls.append(value)
            elif name in ("srcset", "imagesrcset"):
                self.urls += [part.strip().split(" ")[0] for part in value.split(",")]
            elif name == "style":
                self.urls += _css_urls(value)
        if tag == "link" and "stylesheet" in (values.get("rel") or "").split():
            self.stylesheets.append(values.get("href") or "")
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.urls += _css_urls(data)


def _css_urls(css: str) -> list[str]:
    return [a or b for a, b in CSS_URL.findall(css)]


def _foreign(url: str) -> bool:
    """An address on another host (or one the browser would resolve as such)."""
    parts = urlsplit(url.strip())
    if parts.scheme in ("data", "blob"):
        return False
    return bool(parts.scheme or parts.netloc) and parts.netloc != "testserver"


def _stylesheet_urls(href: str) -> list[str]:
    """The addresses a site stylesheet imports or loads (read from the static files)."""
    path = urlsplit(href).path
    assert path.startswith("/static/"), href
    found = finders.find(path.removeprefix("/static/"))
    assert found, f"{href} is not a static file"
    with open(found, encoding="utf-8") as css:
        return _css_urls(css.read())


def _references(html: str) -> list[str]:
    parser = _References()
    parser.feed(html)
    urls = list(parser.urls)
    for href in parser.stylesheets:
        if not _foreign(href):
            urls += _stylesheet_urls(href)
    return urls


def _csp_hosts(header: str) -> list[str]:
    """Sources in a Content-Security-Policy that name another host."""
    allowed = {"'self'", "'none'", "'unsafe-inline'", "data:", "blob:"}
    sources = [s for directive in header.split(";") for s in directive.split()[1:]]
    return [s for s in sources if s not in allowed]


@pytest.fixture
def site_pages(organiser) -> list[str]:
    """The API explorers and the pages people read, with data on them."""
    event = builders.knockout(organiser, builders.championship(organiser), 4, ruled_rounds=0)
    match = Match.objects.filter(event=event, round__number=1).first()
    submission = submit_match_game(organiser, match, seed=3, confirm=False)
    games_services.record_adjudicate(record_id=submission.record.pk)  # on commit, elsewhere
    player = PlayerFactory(with_user=True)
    return [
        "/api/docs/",
        "/api/redoc/",
        "/api/players/",
        "/",
        reverse("championship-list"),
        reverse("championship-page", args=[event.championship_id]),
        reverse("event-page", args=[event.pk]),
        reverse("match-page", args=[match.pk]),
        reverse("game-detail", args=[Game.objects.get(record=submission.record).pk]),
        reverse("ranking-list"),
        reverse("player-list"),
        reverse("player-detail", args=[player.pk]),
        reverse("signup"),
        reverse("record-format"),
    ]


@pytest.mark.parametrize("signed_in", [False, True], ids=["visitor", "organiser"])
def test_no_page_references_another_host(site_pages, organiser, signed_in):
    client = Client()
    if signed_in:
        client.force_login(organiser)
        site_pages = [p for p in site_pages if p != reverse("signup")]  # signed in: home
        site_pages.append(reverse("player-detail", args=[organiser.player.pk]))
    offenders = []
    for path in site_pages:
        response = client.get(path, HTTP_ACCEPT="text/html")
        assert response.status_code == 200, path
        assert response["Content-Type"].startswith("text/html"), path
        offenders += [f"{path}: {url}" for url in _references(response.content.decode())]
    offenders = [item for item in offenders if _foreign(item.split(": ", 1)[1])]
    assert offenders == []


def test_every_page_carries_a_policy_that_names_no_other_host(site_pages):
    client = Client()
    for path in [*site_pages, reverse("login")]:
        response = client.get(path, HTTP_ACCEPT="text/html")
        header = response.get("Content-Security-Policy")
        assert header, f"{path} is sent without a Content-Security-Policy"
        assert _csp_hosts(header) == [], path


def test_the_crawler_sees_what_it_looks_for():
    """The checks above could pass by finding nothing: they do find foreign references."""
    html = (
        '<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Roboto">'
        '<link rel="stylesheet" href="/static/css/site.css">'
        '<style>@import url("//cdn.example/x.css"); body { background: url(/static/a.png) }</style>'
        '<img srcset="/a.png 1x, https://img.example/b.png 2x"><form action="http://x.example/">'
        '<a href="#top">top</a><img src="data:image/png;base64,AAAA">'
    )
    assert [url for url in _references(html) if _foreign(url)] == [
        "https://fonts.googleapis.com/css2?family=Roboto",
        "//cdn.example/x.css",
        "https://img.example/b.png",
        "http://x.example/",
    ]
    assert _csp_hosts("default-src 'self'; font-src https://fonts.gstatic.com") == [
        "https://fonts.gstatic.com"
    ]
