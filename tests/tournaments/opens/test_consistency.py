"""`check_consistency` on table opens: results typed from score sheets (no record, no counted
game), drawn tables, resignations, a drop-out's walkover, a dispute ruled and reopened all pass;
the same matches corrupted on purpose are each named."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db.models import F

from players.models import Player
from tests.factories import UserFactory, make_organiser
from tests.tournaments.opens.helpers import open_championship, play_round, sheet_for, table_open
from tournaments.consistency import system_check, tournaments_breaches
from tournaments.models import Match, MatchStatus, TableResult
from tournaments.opens.services.score_sheets import table_results_enter
from tournaments.opens.services.table_disputes import (
    table_result_dispute,
    table_result_reopen,
    table_result_rule,
)
from tournaments.opens.services.table_opens import entry_drop
from tournaments.standings import round_tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def played_open():
    """Seven players, four Swiss rounds: a bye each round, a resignation each round, a drop-out
    during round 3 (their game a walkover, scored as a bye), and round 1's first table
    disputed by its player, corrected by a controller to a draw, reopened by an organiser and
    ruled again."""
    organiser = make_organiser()
    championship, controller = open_championship(organiser)
    event = table_open(organiser, championship, 7, swiss_rounds=4)
    first = event.rounds.get(number=1).matches.exclude(is_bye=True).order_by("bracket_index")[0]
    disputer = UserFactory()
    Player.objects.filter(pk=first.entry_a.player_id).update(user=disputer)
    for number in range(1, 5):
        round_ = event.rounds.get(number=number)
        if number == 3:
            # Seed 7 leaves with round 3 under way: their table becomes a walkover.
            leaving = event.entries.get(seed=7)
            others = {
                t.number: sheet_for(3, t.number, t.match.entry_a.seed, t.match.entry_b.seed)
                for t in round_tables(round_)
                if not t.match.is_bye and leaving.pk not in (t.match.entry_a_id, t.match.entry_b_id)
            }
            table_results_enter(actor=controller, round_=round_, sheets=others)
            entry_drop(actor=controller, entry=leaving, reason="ill")
        else:
            play_round(controller, round_)
        if number == 1:
            table_result_dispute(actor=disputer, match_id=first.pk, reason="We drew 20-20.")
            table_result_rule(
                actor=controller,
                match_id=first.pk,
                reason="The sheet says 20-20.",
                sheet={"score_a": 20, "score_b": 20},
            )
    table_result_reopen(actor=organiser, match_id=first.pk, reason="Check the copy.")
    table_result_rule(actor=controller, match_id=first.pk, reason="It stands.")
    event.refresh_from_db()
    assert event.status == "finished"
    return event, first


def test_a_clean_table_open_is_consistent(played_open):
    event, drawn = played_open
    results = TableResult.objects.filter(match__event=event)
    # What used to be called a breach is all there: typed sheets, a drawn table with no
    # winner, resignations, a drop-out's walkover scored as a bye.
    assert results.count() > 10
    drawn.refresh_from_db()
    assert drawn.status == MatchStatus.DECIDED and drawn.winner_id is None
    assert drawn.tps_a == drawn.tps_b == Decimal("10.0")
    assert results.filter(ending="resigned").exists()
    walkover = Match.objects.get(event=event, status=MatchStatus.WALKOVER, is_bye=False)
    assert Decimal("16.2") in (walkover.tps_a, walkover.tps_b)
    report = system_check()
    assert report.breaches == [], [str(b) for b in report.breaches]


def test_a_corrupted_table_open_is_still_named_match_by_match(played_open):
    event, drawn = played_open
    won = list(
        Match.objects.filter(event=event, table_result__isnull=False, winner__isnull=False)
        .exclude(table_result__score_a=F("table_result__score_b"))
        .order_by("pk")
    )
    tps, no_winner, wrong_winner, no_games, still_open = won[:5]
    walkover = Match.objects.get(event=event, status=MatchStatus.WALKOVER, is_bye=False)

    Match.objects.filter(pk=tps.pk).update(tps_a=F("tps_a") + Decimal("0.1"))
    Match.objects.filter(pk=drawn.pk).update(winner=drawn.entry_a)
    Match.objects.filter(pk=no_winner.pk).update(winner=None)
    loser = (
        wrong_winner.entry_b if wrong_winner.winner_id == wrong_winner.entry_a_id else None
    ) or wrong_winner.entry_a
    Match.objects.filter(pk=wrong_winner.pk).update(winner=loser)
    Match.objects.filter(pk=no_games.pk).update(games_played=0)
    Match.objects.filter(pk=still_open.pk).update(status=MatchStatus.SCHEDULED, winner=None)
    Match.objects.filter(pk=walkover.pk).update(tps_a=0, tps_b=0)

    found = {(b.code, b.ids.get("match")) for b in tournaments_breaches()}
    assert found == {
        ("match_tps_differ", tps.pk),
        ("match_winner", drawn.pk),
        ("match_winner", no_winner.pk),
        ("match_winner", wrong_winner.pk),
        ("match_tps_differ", no_games.pk),
        ("match_winner", still_open.pk),
        ("match_tps_differ", walkover.pk),
    }
    words = {b.ids["match"]: b.message for b in tournaments_breaches()}
    assert "which is a draw, but names entry" in words[drawn.pk]
    assert f"match {tps.pk} stands at" in words[tps.pk] and "its score sheet" in words[tps.pk]
    assert "still scheduled" in words[still_open.pk]
    assert "a walkover at a table open" in words[walkover.pk]
