"""The draw shown before it is stored (issue 28, item 3a): a preview stores nothing, the same
seed makes the same draw, and a preview outdated by new entries is refused with a fresh one."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from players.models import AuditEntry
from tests.factories import PlayerFactory, make_organiser
from tournaments import services
from tournaments.models import EventStatus, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def championship(organiser):
    return services.championship_create(
        actor=organiser, name="Preview Cup", year=2026, category="open", published=True
    )


def _event(organiser, championship, players: int, **config):
    config.setdefault("format", "knockout")
    event = services.event_create(
        actor=organiser, championship=championship, name="Main draw", **config
    )
    for _ in range(players):
        services.entry_register(actor=organiser, event=event, player=PlayerFactory())
    return event


def _first_round(event) -> list[tuple]:
    return list(
        Match.objects.filter(event=event, round__number=1)
        .order_by("group", "bracket_index", "pk")
        .values_list("group", "entry_a__player__display_name", "entry_b__player__display_name")
    )


def test_a_preview_stores_nothing_and_making_it_stores_exactly_what_was_shown(
    organiser, championship
):
    event = _event(organiser, championship, 12, format="groups", groups_count=3)
    preview = services.draw_preview(actor=organiser, event=event, draw_seed=77)
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION and not event.matches.exists()
    assert not event.rounds.exists() and event.draw_seed is None
    assert not event.entries.exclude(group=None).exists()
    assert not AuditEntry.objects.filter(event_id=event.pk, action="draw_generate").exists()
    assert preview.seed_matters and len(preview.groups) == 3
    assert sum(len(g.members) for g in preview.groups) == 12
    # Two previews of the same seed agree; the made draw is the one shown.
    assert services.draw_preview(actor=organiser, event=event, draw_seed=77) == preview
    services.draw_make(actor=organiser, event=event, draw_seed=77, preview=preview.token)
    event.refresh_from_db()
    assert event.status == EventStatus.DRAWN and event.draw_seed == 77
    shown = [(m.group, m.side_a, m.side_b) for m in preview.matches]
    assert _first_round(event) == shown


def test_draw_again_can_give_another_draw(organiser, championship):
    event = _event(organiser, championship, 16, format="groups", groups_count=4)
    draws = {
        tuple(g.members for g in services.draw_preview(actor=organiser, event=event).groups)
        for _ in range(6)
    }
    assert len(draws) > 1  # six random seeds of 16 players in 4 groups: not all one draw


def test_a_preview_outdated_by_a_new_entry_is_refused_with_a_fresh_one(organiser, championship):
    event = _event(organiser, championship, 4)
    preview = services.draw_preview(actor=organiser, event=event, draw_seed=5)
    assert not preview.seed_matters and len(preview.matches) == 2
    services.entry_register(actor=organiser, event=event, player=PlayerFactory())
    with pytest.raises(services.PreviewOutdated) as refused:
        services.draw_make(actor=organiser, event=event, draw_seed=5, preview=preview.token)
    assert "The entries changed since this draw was shown" in refused.value.messages[0]
    fresh = refused.value.fresh
    assert fresh.entries == 5 and fresh.draw_seed == 5 and fresh.token != preview.token
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION and not event.matches.exists()
    services.draw_make(actor=organiser, event=event, draw_seed=5, preview=fresh.token)
    assert event.matches.exists()


def test_a_changed_seeding_is_refused_even_with_the_same_entries(organiser, championship):
    event = _event(organiser, championship, 4)
    entries = list(event.entries.order_by("pk"))
    services.event_seed(actor=organiser, event=event, order=[e.pk for e in entries])
    preview = services.draw_preview(actor=organiser, event=event, draw_seed=1)
    services.event_seed(actor=organiser, event=event, order=[e.pk for e in reversed(entries)])
    with pytest.raises(services.PreviewOutdated):
        services.draw_make(actor=organiser, event=event, draw_seed=1, preview=preview.token)
    assert not event.matches.exists()


def test_only_the_championships_organisers_preview(organiser, championship, user_player):
    event = _event(organiser, championship, 4)
    for outsider in (make_organiser(), user_player.user):
        with pytest.raises(PermissionDenied):
            services.draw_preview(actor=outsider, event=event)


def test_the_page_previews_draws_again_and_makes_the_draw(client, organiser, championship):
    event = _event(organiser, championship, 8, format="groups", groups_count=2)
    client.force_login(organiser)
    url = reverse("event-draw-make", args=[event.pk])
    page = client.get(url, {"seed": "123"})
    body = page.content.decode()
    preview = page.context["preview"]
    assert "The draw of seed 123" in body and "Make this draw" in body and "Draw again" in body
    assert preview.draw_seed == 123 and not event.matches.exists()
    again = client.get(url, {"again": "1"}).context["preview"]
    assert again.token.split("-")[0] == preview.token.split("-")[0]  # same entries
    response = client.post(url, {"draw_seed": "123", "preview": preview.token})
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.draw_seed == 123
    assert _first_round(event) == [(m.group, m.side_a, m.side_b) for m in preview.matches]


def test_the_page_refuses_an_outdated_preview_and_shows_a_fresh_one(
    client, organiser, championship
):
    event = _event(organiser, championship, 4)
    client.force_login(organiser)
    url = reverse("event-draw-make", args=[event.pk])
    token = client.get(url, {"seed": "3"}).context["preview"].token
    newcomer = PlayerFactory(display_name="Late Lorenzo")
    services.entry_register(actor=organiser, event=event, player=newcomer)
    response = client.post(url, {"draw_seed": "3", "preview": token})
    body = response.content.decode()
    assert response.status_code == 200 and "The entries changed since this draw" in body
    assert "Late Lorenzo" in body and response.context["preview"].entries == 5
    assert not event.matches.exists()


def test_the_api_previews_and_makes_the_previewed_draw(organiser, championship):
    from rest_framework.test import APIClient

    event = _event(organiser, championship, 6)
    api = APIClient()
    api.force_authenticate(organiser)
    preview = api.post(f"/api/events/{event.pk}/draw/preview/", {"draw_seed": 11}, format="json")
    assert preview.status_code == 200, preview.data
    assert preview.data["draw_seed"] == 11 and len(preview.data["matches"]) == 4  # 2 byes
    assert sum(m["is_bye"] for m in preview.data["matches"]) == 2
    assert not event.matches.exists()
    services.entry_register(actor=organiser, event=event, player=PlayerFactory())
    stale = api.post(
        f"/api/events/{event.pk}/draw/",
        {"draw_seed": 11, "preview": preview.data["token"]},
        format="json",
    )
    assert stale.status_code == 400 and "preview" in stale.data
    assert stale.data["fresh"]["entries"] == 7
    made = api.post(
        f"/api/events/{event.pk}/draw/",
        {"draw_seed": 11, "preview": stale.data["fresh"]["token"]},
        format="json",
    )
    assert made.status_code == 200, made.data
    assert made.data["status"] == "drawn"
    missing_seed = api.post(f"/api/events/{event.pk}/draw/", {"preview": "x-y"}, format="json")
    assert missing_seed.status_code == 400
    outsider = APIClient()
    outsider.force_authenticate(make_organiser())
    assert outsider.post(f"/api/events/{event.pk}/draw/preview/", {}).status_code == 403
