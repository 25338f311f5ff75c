"""A draw writes its rounds and matches a round to one statement: the number of statements
does not grow with the field (a 1,024-entry knockout was 1,023 INSERTs and 512 UPDATEs), and
the bracket it writes is the one the formats describe."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from players.models import Player
from tournaments import services
from tournaments.models import Entry, Match, MatchStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def championship(organiser):
    return services.championship_create(
        actor=organiser, name="Statements", year=2026, category="open"
    )


def _drawn(organiser, championship, entries: int, **config) -> tuple[int, object]:
    """(statements the draw ran, the event) for a field of ``entries``."""
    event = services.event_create(
        actor=organiser, championship=championship, name=f"{config} {entries}", **config
    )
    countries = ["DE", "NZ", "US", "HU", "GB"]
    start = Player.objects.count()
    players = Player.objects.bulk_create(
        Player(display_name=f"Drawn{start + i:05d}", country=countries[i % len(countries)])
        for i in range(entries)
    )
    Entry.objects.bulk_create(Entry(event=event, player=p) for p in players)
    services.event_seed(actor=organiser, event=event)
    with CaptureQueriesContext(connection) as queries:
        services.draw_generate(actor=organiser, event=event, draw_seed=3)
    return len(queries.captured_queries), event


@pytest.mark.parametrize(
    "config",
    [
        {"format": "swiss", "swiss_rounds": 5},
        {"format": "groups", "groups_size": 4},
    ],
    ids=["swiss", "groups"],
)
def test_statements_do_not_grow_with_the_field(organiser, championship, config):
    """Groups of four either way (4 groups of 16 entries, 16 of 64): the same rounds."""
    size = config.pop("groups_size", None)
    small, _ = _drawn(organiser, championship, 16, **config, **_groups(16, size))
    large, event = _drawn(organiser, championship, 64, **config, **_groups(64, size))
    assert large == small
    assert event.matches.count() == (32 if config["format"] == "swiss" else 16 * 6)


def _groups(entries: int, size: int | None) -> dict[str, int]:
    return {"groups_count": entries // size} if size else {}


def test_a_knockout_costs_statements_per_round_not_per_match(organiser, championship):
    small, _ = _drawn(organiser, championship, 16, format="knockout")
    large, event = _drawn(organiser, championship, 64, format="knockout")
    # Two rounds more: each is one INSERT for the round and one for its matches.
    assert large - small == 4
    assert event.matches.count() == 63
    first = list(event.matches.filter(round__number=1).order_by("bracket_index"))
    assert [(m.entry_a.seed, m.entry_b.seed) for m in first[:2]] == [(1, 64), (32, 33)]
    assert all(m.status == MatchStatus.SCHEDULED for m in first)
    # Every match points at the one its winner goes to, side by side in bracket order.
    for m in event.matches.exclude(next_match=None).select_related("next_match", "round"):
        assert m.next_match.round.number == m.round.number + 1
        assert (m.next_match.bracket_index, m.next_side) == divmod(m.bracket_index, 2)


def test_a_knockout_with_byes_moves_the_bye_holders_on(organiser, championship):
    _, event = _drawn(organiser, championship, 13, format="knockout")
    first = list(event.matches.filter(round__number=1).order_by("bracket_index"))
    byes = [m for m in first if m.is_bye]
    assert sorted(m.winner.seed for m in byes) == [1, 2, 3]
    assert all(m.status == MatchStatus.WALKOVER for m in byes)
    second = {m.bracket_index: m for m in Match.objects.filter(event=event, round__number=2)}
    for bye in byes:
        moved_on = second[bye.bracket_index // 2]
        side = moved_on.entry_a if bye.bracket_index % 2 == 0 else moved_on.entry_b
        assert side == bye.winner
