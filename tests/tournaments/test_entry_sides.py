"""Entries that are not one player: the draw, seeding, byes, walkovers, group tables and the
bracket work on pair and team entries exactly as on players (docs/architecture.md)."""

from __future__ import annotations

from html import escape

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from tests.conftest import client_for
from tests.factories import PlayerFactory
from tournaments import selectors, services
from tournaments.models import (
    Entry,
    EntryStatus,
    EventStatus,
    Match,
    MatchStatus,
    Pair,
    Team,
    TeamMember,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def championship(organiser):
    return services.championship_create(
        actor=organiser, name="Sides Cup", year=2026, category="open", published=True
    )


def _pairs(championship, count: int) -> list[Pair]:
    pairs = []
    for _ in range(count):
        a, b = PlayerFactory(country="DE"), PlayerFactory(country="DE")
        pairs.append(
            Pair.objects.create(
                championship=championship,
                player_a=a,
                player_b=b,
                name=f"{a.display_name} & {b.display_name}",
            )
        )
    return pairs


def _teams(championship, countries: list[str]) -> list[Team]:
    teams = []
    for i, country in enumerate(countries):
        team = Team.objects.create(
            championship=championship, name=f"{country} {i}", country=country
        )
        for board in range(1, 6):
            TeamMember.objects.create(team=team, player=PlayerFactory(country=country), board=board)
        teams.append(team)
    return teams


def test_an_entry_has_exactly_one_side(organiser, championship):
    event = services.event_create(
        actor=organiser, championship=championship, name="E", format="knockout"
    )
    (pair,) = _pairs(championship, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(event=event)
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(event=event, player=pair.player_a, pair=pair)
    entry = Entry.objects.create(event=event, pair=pair)
    assert entry.kind == "pair" and entry.name == pair.name
    assert sorted(entry.members()) == sorted(pair.player_ids)


def test_pairs_knockout_byes_walkovers_and_bracket(client, organiser, championship):
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Doubles",
        format="knockout",
        entry_kind="pair",
    )
    pairs = _pairs(championship, 6)
    for pair in pairs:
        Entry.objects.create(event=event, pair=pair)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    first = Match.objects.filter(event=event, round__number=1)
    assert first.filter(is_bye=True, status=MatchStatus.WALKOVER).count() == 2
    # A withdrawal after the draw gives the opponent a walkover, as for singles.
    playing = first.filter(is_bye=False).first()
    services.entry_withdraw(actor=organiser, entry=playing.entry_a, reason="ill")
    playing.refresh_from_db()
    assert playing.status == MatchStatus.WALKOVER and playing.winner_id == playing.entry_b_id
    page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    assert escape(pairs[0].name) in page
    assert selectors.entries_with_player(event, pairs[0].player_b_id).get().pair == pairs[0]
    api = client_for(None).get(f"/api/events/{event.pk}/entries/").json()["results"]
    assert {row["kind"] for row in api} == {"pair"}
    assert {row["name"] for row in api} == {p.name for p in pairs}


def test_team_groups_keep_countries_apart_and_tables_show_teams(client, organiser, championship):
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Team groups",
        format="groups",
        groups_count=2,
        entry_kind="team",
    )
    teams = _teams(championship, ["GB", "GB", "DE", "US", "NZ", "HU", "FR", "PL"])
    for team in teams:
        Entry.objects.create(event=event, team=team)
    services.event_seed(actor=organiser, event=event)
    services.draw_generate(actor=organiser, event=event, draw_seed=3)
    groups = {
        e.team.name: e.group for e in Entry.objects.filter(event=event).select_related("team")
    }
    assert groups["GB 0"] != groups["GB 1"]
    assert Match.objects.filter(event=event).count() == 2 * 6
    page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    assert "GB 0" in page and "NZ 4" in page
    assert reverse("player-detail", args=[teams[0].members.first().player_id]) not in page


def test_qualifiers_of_a_pairs_stage_move_on_as_the_same_pairs(organiser, championship):
    groups = services.event_create(
        actor=organiser,
        championship=championship,
        name="Pairs groups",
        format="groups",
        groups_count=1,
        entry_kind="pair",
        stage=1,
    )
    final = services.event_create(
        actor=organiser,
        championship=championship,
        name="Pairs final",
        format="knockout",
        entry_kind="pair",
        stage=2,
        feeds_from=groups,
        qualifiers_count=2,
    )
    pairs = _pairs(championship, 3)
    for pair in pairs:
        Entry.objects.create(event=groups, pair=pair)
    services.draw_generate(actor=organiser, event=groups, draw_seed=1)
    for match in Match.objects.filter(event=groups).select_related("entry_a"):
        services.match_rule(
            actor=organiser, match=match, winner_entry_id=match.entry_a_id, reason="test"
        )
    groups.refresh_from_db()
    assert groups.status == EventStatus.FINISHED
    moved = services.qualifiers_advance(actor=organiser, event=final)
    assert len(moved) == 2 and all(e.pair_id in {p.pk for p in pairs} for e in moved)
    assert Entry.objects.filter(event=groups, status=EntryStatus.QUALIFIED).count() == 2


def test_a_stage_takes_qualifiers_of_its_own_kind_only(organiser, championship):
    singles = services.event_create(
        actor=organiser,
        championship=championship,
        name="Singles",
        format="groups",
        groups_count=1,
    )
    with pytest.raises(Exception) as error:
        services.event_create(
            actor=organiser,
            championship=championship,
            name="Pairs KO",
            format="knockout",
            entry_kind="pair",
            stage=2,
            feeds_from=singles,
            qualifiers_count=2,
        )
    assert "feeds_from" in error.value.message_dict
