"""What people read on championship pages: brackets with waiting slots, byes and champions,
matches named by round and players, states in words, the audit log without codes or ids, no
deadline forms on a finished event, and a confirmation step before the draw."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from players.models import AuditEntry
from tests.factories import PlayerFactory
from tests.tournaments.pages import builders
from tournaments import services
from tournaments.models import Entry, EventStatus, Match, MatchStatus

pytestmark = pytest.mark.django_db


def text(response) -> str:
    """The page as a reader sees it: tags and repeated spaces dropped."""
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", body)


@pytest.fixture
def knockout_of_six(organiser):
    """Six players in a bracket of eight: the top two seeds have byes."""
    champ = builders.championship(organiser)
    event = services.event_create(
        actor=organiser, championship=champ, name="Main draw", format="knockout"
    )
    Entry.objects.bulk_create(Entry(event=event, player=p) for p in builders.players(6))
    services.event_seed(actor=organiser, event=event)
    services.draw_generate(actor=organiser, event=event, draw_seed=3)
    return event


def test_bracket_names_waiting_slots_shows_byes_as_byes_and_rounds(client, knockout_of_six):
    event = knockout_of_six
    page = client.get(reverse("event-page", args=[event.pk]))
    body = text(page)
    html = page.content.decode()
    assert "Quarter-finals" in body and "Semi-finals" in body and "Final" in body
    assert "Winner of QF 2" in body and "Winner of SF 1" in body
    assert "Winner of the final" in body  # the champion's slot, still empty
    byes = Match.objects.filter(event=event, is_bye=True)
    assert byes.count() == 2
    for bye in byes:
        player = (bye.entry_a or bye.entry_b).player.display_name
        assert f"Quarter-final: {player} has a bye" in html
    assert "status-walkover" not in html and "…" not in body
    assert 'class="bout bye"' in html
    # Every slot links to its match page, named by its round and players.
    bye = byes.first()
    match_page = client.get(reverse("match-page", args=[bye.pk]))
    assert "has a bye" in text(match_page)
    assert "Walkover" not in text(match_page)


def test_a_decided_bracket_shows_tps_the_champion_and_finished_rounds(client, organiser):
    event = builders.knockout(organiser, builders.championship(organiser), 4, ruled_rounds=2)
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    body = text(client.get(reverse("event-page", args=[event.pk])))
    champion = event.champion.player.display_name
    assert f"Champion: {champion}" in body
    assert "★ " + champion in body
    assert "Settled" not in body and "Finished" in body
    assert "Deadline passed" not in body


def test_match_pages_name_the_round_and_players_and_say_why_in_words(
    client, organiser, django_capture_on_commit_callbacks
):
    event = builders.knockout(organiser, builders.championship(organiser), 4, ruled_rounds=0)
    semi = Match.objects.filter(event=event, round__number=1).order_by("bracket_index").first()
    a, b = semi.entry_a.player.display_name, semi.entry_b.player.display_name
    final = Match.objects.get(event=event, round__number=2)
    body = text(client.get(reverse("match-page", args=[final.pk])))
    assert "Final: Winner of SF 1 v Winner of SF 2" in body
    services.match_rule(actor=organiser, match=semi, winner_entry_id=semi.entry_a_id, reason="x")
    body = text(client.get(reverse("match-page", args=[semi.pk])))
    assert f"Semi-final: {a} v {b}" in body
    assert "Ruled by an organiser" in body and "ruling)" not in body
    body = text(client.get(reverse("match-page", args=[final.pk])))
    assert f"Final: {a} v Winner of SF 2" in body


def test_a_match_decided_on_tps_says_so_in_words(client, organiser):
    event = builders.knockout(organiser, builders.championship(organiser), 2, ruled_rounds=0)
    match = Match.objects.get(event=event)
    Match.objects.filter(pk=match.pk).update(
        status=MatchStatus.DECIDED, state_reason="decided_on_tps", winner=match.entry_a
    )
    body = text(client.get(reverse("match-page", args=[match.pk])))
    assert "Decided on tournament points" in body and "decided_on_tps" not in body


def test_audit_log_names_matches_and_players_never_ids_or_dicts(client, organiser):
    event = builders.knockout(organiser, builders.championship(organiser), 4, ruled_rounds=0)
    semi = Match.objects.filter(event=event, round__number=1).order_by("bracket_index").first()
    a, b = semi.entry_a.player.display_name, semi.entry_b.player.display_name
    services.match_rule(actor=organiser, match=semi, winner_entry_id=semi.entry_a_id, reason="x")
    services.match_rule(
        actor=organiser, match=semi, winner_entry_id=semi.entry_b_id, reason="appeal"
    )
    client.force_login(organiser)
    page = client.get(reverse("championship-audit-log", args=[event.championship_id]))
    body = text(page)
    assert f"Semi-final: {a} v {b}" in body
    assert f"Winner: {b} (before: Ruled by an organiser, winner {a})" in body
    assert "Draw seed 7, 4 entries" in body
    assert f"match {semi.pk}" not in body
    assert "{" not in body and "match_rule" not in body and "'winner'" not in body
    assert AuditEntry.objects.filter(championship_id=event.championship_id).count() >= 5


def test_deadline_forms_only_while_rounds_are_open(client, organiser):
    event = builders.knockout(organiser, builders.championship(organiser), 4, ruled_rounds=1)
    client.force_login(organiser)
    page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    first, final = event.rounds.order_by("number")
    assert reverse("round-deadline-set", args=[final.pk]) in page
    assert reverse("round-deadline-set", args=[first.pk]) not in page  # that round is over
    match = Match.objects.get(event=event, round=final)
    services.match_rule(actor=organiser, match=match, winner_entry_id=match.entry_a_id, reason="x")
    page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    assert "round-deadline" not in page and "Change a deadline" not in page


def test_the_draw_is_made_only_after_its_confirmation_page(client, organiser):
    champ = builders.championship(organiser)
    event = services.event_create(
        actor=organiser, championship=champ, name="Main draw", format="knockout"
    )
    for player in builders.players(4):
        services.entry_register(actor=organiser, event=event, player=player)
    client.force_login(organiser)
    event_page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    url = reverse("event-draw-make", args=[event.pk])
    assert f'href="{url}"' in event_page  # a link to the confirmation, not a form acting at once
    confirm = text(client.get(url, {"seed": "9"}))
    assert "cannot be undone" in confirm and "4 active entries" in confirm
    assert "The draw of seed 9" in confirm
    # A POST without the preview it confirms (an old form, a stray request) shows the page again.
    response = client.post(url, {"draw_seed": "9", "confirm": "yes"})
    assert response.status_code == 200 and "cannot be undone" in text(response)
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION and not event.matches.exists()
    token = services.draw_preview(actor=organiser, event=event, draw_seed=9).token
    response = client.post(url, {"draw_seed": "9", "preview": token})
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.status == EventStatus.DRAWN and event.draw_seed == 9


def test_group_tables_show_names_statuses_and_matches_by_players(client, organiser):
    event = builders.group_stage(organiser, builders.championship(organiser), 8, groups=2)
    body = text(client.get(reverse("event-page", args=[event.pk])))
    assert "Group tables" in body and "Group 1" in body and "Group 2" in body
    assert "Active" in body and "active" not in body.replace("Active", "").split("Entries")[0]
    match = Match.objects.filter(event=event, group=1, round__number=2).first()
    assert f"{match.entry_a.player.display_name} v {match.entry_b.player.display_name}" in body
    assert "Ruled by an organiser" in body or "Ruled" in body
    page = text(client.get(reverse("match-page", args=[match.pk])))
    assert f"Group 1, round 2: {match.entry_a.player.display_name} v" in page


def test_unpublished_pages_and_fragments_are_hidden_from_the_public(client, organiser):
    champ = services.championship_create(
        actor=organiser, name="Hidden Cup", year=2026, category="open", published=False
    )
    event = services.event_create(actor=organiser, championship=champ, name="KO", format="knockout")
    for player in (PlayerFactory(), PlayerFactory()):
        services.entry_register(actor=organiser, event=event, player=player)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    for name, pk in (("event-live", event.pk), ("match-live", match.pk)):
        assert client.get(reverse(name, args=[pk])).status_code == 404
        assert client.post(reverse(name, args=[pk])).status_code in (404, 405)
    client.force_login(organiser)
    assert client.get(reverse("event-live", args=[event.pk])).status_code == 200


def test_the_seed_page_says_how_entries_were_seeded_without_ids(client, organiser):
    champ = builders.championship(organiser)
    event = services.event_create(actor=organiser, championship=champ, name="KO", format="knockout")
    for player in builders.players(3):
        services.entry_register(actor=organiser, event=event, player=player)
    client.force_login(organiser)
    assert "not yet seeded" in text(client.get(reverse("event-seed-set", args=[event.pk])))
    services.event_seed(actor=organiser, event=event)
    body = text(client.get(reverse("event-seed-set", args=[event.pk])))
    assert "registration order" in body and "Entry id" not in body
    assert "registration order" in text(client.get(reverse("event-page", args=[event.pk])))
