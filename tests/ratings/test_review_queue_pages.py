"""The review queue's pages as an admin meets them (issue 28): every item says what it is about,
offers only actions that work for its kind, links the player's table concerned, and every rating
chart dates a point by the day its game was played, in the reader's time zone."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import formats, timezone

from players.models import AuditEntry, Player
from ratings.models import RatingChange, Review, Title
from tests.ratings.review_world import PLAYED, review_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(settings):
    return review_world(settings)


@pytest.fixture
def staff(client, admin_user):
    client.force_login(admin_user)
    return client


def _day(when: dt.datetime, zone: str = "UTC") -> str:
    return formats.date_format(when.astimezone(ZoneInfo(zone)), "DATE_FORMAT")


def _row(html: str, review: Review) -> str:
    """The queue's row of this review (up to the next row, or the heading after the table)."""
    start = html.index(f'<tr id="review-{review.pk}">')
    ends = [html.find(mark, start + 1) for mark in ('<tr id="review-', "<h2>")]
    return html[start : min(end for end in ends if end > 0)]


def test_an_elo_swing_names_its_event_and_games_and_offers_no_revert_that_cannot(staff, world):
    """The demo's queue: every row a Tournament Elo swing whose one button, Revert, answered
    that Elo changes cannot be reverted; no event named; the player link opened the lobby."""
    swing = world.elo_swing(world.ingrid)
    html = staff.get(reverse("review-queue")).content.decode()
    row = _row(html, swing)
    assert "Review Cup 2026 · Singles" in row
    assert f'href="{reverse("rating-history", args=[world.ingrid.pk])}?system=elo"' in row
    # The games behind it, each linked, with the opponent and the day played.
    for game in world.elo_games:
        assert f'href="{reverse("game-detail", args=[game.pk])}"' in row
    assert "Tomas" in row and "Noah" in row and "19.4–0.6" in row
    assert _day(PLAYED) in row
    # No button that answers "cannot": revert games behind it and adjust on its page instead.
    assert "/revert/" not in row and ">Revert<" not in row
    assert reverse("review-detail", args=[swing.pk]) in row
    assert ">Acknowledge<" in row


def test_reverting_from_the_queue_what_cannot_be_reverted_is_refused_in_words(staff, world):
    swing = world.elo_swing(world.tomas)
    before = RatingChange.objects.count()
    response = staff.post(
        reverse("review-action", args=[swing.pk, "revert"]), {"note": "typed by hand"}, follow=True
    )
    assert RatingChange.objects.count() == before
    text = response.content.decode()
    assert "revert one of the games behind it, or adjust" in text
    swing.refresh_from_db()
    assert swing.status == "open"


def test_a_lobby_swing_still_reverts_from_the_queue(staff, world):
    swing = world.lobby_swing(world.aroha)
    html = staff.get(reverse("review-queue")).content.decode()
    assert reverse("review-action", args=[swing.pk, "revert"]) in _row(html, swing)
    staff.post(reverse("review-action", args=[swing.pk, "revert"]), {"note": "farming"})
    swing.refresh_from_db()
    assert swing.status == "reverted"
    assert RatingChange.objects.filter(game=world.lobby_game, reason="revert").exists()


def test_the_queue_filters_by_table_kind_and_status_and_says_when_empty(staff, world):
    html = staff.get(reverse("review-queue"), {"table": "lobby"}).content.decode()
    rows = re.findall(r'<tr id="review-(\d+)">', html)
    lobby = set(Review.objects.filter(change__system="lobby").values_list("pk", flat=True))
    assert rows and {int(r) for r in rows} == lobby
    html = staff.get(
        reverse("review-queue"), {"table": "elo", "kind": "repeated_results"}
    ).content.decode()
    assert not re.findall(r'<tr id="review-', html)
    assert "No item matches these filters." in html
    Review.objects.update(status="approved", resolved_at=timezone.now())
    html = staff.get(reverse("review-queue")).content.decode()
    assert "Nothing to review: every flag has been dealt with." in html


def test_the_item_page_shows_the_games_and_acts(staff, world):
    swing = world.elo_swing(world.ingrid)
    page = staff.get(reverse("review-detail", args=[swing.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Review Cup 2026 · Singles" in html
    assert html.count('name="games"') == 2  # both games still count: each may be ticked
    assert 'class="marked"' in html  # the flagged change on the player's Elo chart
    first = world.elo_games[0]
    refused = staff.post(
        reverse("review-revert-games", args=[swing.pk]), {"games": [first.pk], "note": ""}
    )
    assert refused.status_code == 400
    done = staff.post(
        reverse("review-revert-games", args=[swing.pk]),
        {"games": [first.pk], "note": "Tomas never sat down"},
        follow=True,
    )
    text = done.content.decode()
    assert "1 game reverted" in text
    swing.refresh_from_db()
    assert swing.status == "reverted"
    assert 'name="games"' not in text  # closed: nothing to tick any more
    assert "reverted" in text


def test_adjusting_from_the_item_page_shows_field_errors_then_adjusts(staff, world):
    swing = world.elo_swing(world.noah)
    url = reverse("review-adjust", args=[swing.pk])
    both = staff.post(url, {"delta": "5", "value": "1800", "reason": "x"})
    assert both.status_code == 400
    assert "Give either a delta or a new value, not both." in both.content.decode()
    staff.post(url, {"delta": "-20", "reason": "An unrated newcomer's result"})
    swing.refresh_from_db()
    assert swing.status == "adjusted"
    assert AuditEntry.objects.filter(action="review_adjust", review_id=swing.pk).exists()


def test_acknowledging_needs_no_note(staff, world):
    swing = world.elo_swing(world.tomas)
    response = staff.post(reverse("review-action", args=[swing.pk, "acknowledge"]), {"note": ""})
    assert response.status_code == 302
    swing.refresh_from_db()
    assert swing.status == "approved"
    html = staff.get(reverse("review-queue"), {"status": "approved"}).content.decode()
    assert "Acknowledged" in _row(html, swing)


def test_the_elo_history_is_dated_by_the_games_played_not_the_day_it_was_computed(client, world):
    """The chart put every point on the day the Elo was computed (1 Dec) rather than the day
    the game was played (5 Nov)."""
    today = _day(timezone.now())
    url = reverse("rating-history", args=[world.ingrid.pk])
    html = client.get(url, {"system": "elo"}).content.decode()
    chart = re.search(r'<svg class="rating-chart".*?</svg>', html, re.S).group(0)
    titles = re.findall(r"<title>([^<]+)</title>", chart)
    assert titles and all(t.startswith(_day(PLAYED)) for t in titles), titles
    assert today not in chart
    history = re.search(r'<table class="table" id="history">.*?</table>', html, re.S).group(0)
    assert _day(PLAYED) in history and today not in history
    # The player page's charts too.
    page = client.get(reverse("player-detail", args=[world.ingrid.pk])).content.decode()
    charts = re.findall(r'<svg class="rating-chart".*?</svg>', page, re.S)
    assert charts and all(today not in c for c in charts)


def test_chart_dates_are_in_the_reader_s_time_zone(client, world):
    reader = world.aroha
    account = get_user_model().objects.create_user("aroha-reader", password="x" * 12)
    Player.objects.filter(pk=reader.pk).update(user=account, time_zone="Pacific/Auckland")
    client.force_login(account)
    html = client.get(
        reverse("rating-history", args=[world.ingrid.pk]), {"system": "elo"}
    ).content.decode()
    titles = re.findall(r"<title>([^<]+)</title>", html)
    late = _day(PLAYED, "Pacific/Auckland")
    assert late != _day(PLAYED)  # 23:30 UTC is the next morning in Auckland
    assert any(t.startswith(late) for t in titles), titles


def test_a_title_lapse_reads_its_day_in_the_reader_s_format_and_keeps_or_ends_the_title(
    staff, world, admin_user
):
    """The lapse's day reached the page as stored: "lapsed on 2026-11-30"."""
    title = Title.objects.create(player=world.ingrid, awarded_by=admin_user)
    lapse = Review.objects.create(
        kind="title_lapse", player=world.ingrid, title=title, detail={"lapsed_on": "2026-11-30"}
    )
    html = staff.get(reverse("review-queue"), {"kind": "title_lapse"}).content.decode()
    row = _row(html, lapse)
    assert "lapsed on 30 Nov 2026" in row and "2026-11-30" not in row
    assert f'href="{reverse("rating-history", args=[world.ingrid.pk])}?system=master"' in row
    assert reverse("title-withdraw", args=[title.pk]) in row
    page = staff.get(reverse("review-detail", args=[lapse.pk])).content.decode()
    assert "Acknowledge: the title stays held" in page


def test_the_queue_pages_keep_their_filters(staff, world, monkeypatch):
    monkeypatch.setattr("ratings.staff.views.PAGE_SIZE", 2)
    html = staff.get(reverse("review-queue"), {"table": "lobby"}).content.decode()
    assert len(re.findall(r'<tr id="review-', html)) == 2
    assert "table=lobby&amp;page=2" in html
    second = staff.get(reverse("review-queue"), {"table": "lobby", "page": 2}).content.decode()
    shown = {int(pk) for pk in re.findall(r'<tr id="review-(\d+)">', second)}
    assert shown and shown <= set(
        Review.objects.filter(change__system="lobby").values_list("pk", flat=True)
    )


def test_an_action_returns_to_the_page_it_was_taken_on_and_only_to_ours(staff, world):
    tomas, noah = world.elo_swing(world.tomas), world.elo_swing(world.noah)
    url = reverse("review-action", args=[tomas.pk, "acknowledge"])
    back = staff.post(url, {"next": "/rankings/review/?table=elo"})
    assert back.url == "/rankings/review/?table=elo"
    url = reverse("review-action", args=[noah.pk, "acknowledge"])
    elsewhere = staff.post(url, {"next": "https://elsewhere.example/"})
    assert elsewhere.url == reverse("review-queue")
