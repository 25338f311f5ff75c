"""A 20-player, 7-round Swiss table open typed by a controller: a late entry, a drop-out,
standings with Buchholz and Sonneborn-Berger checked against a computation by hand."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from players.models import AuditEntry
from tests.conftest import client_for
from tests.factories import PlayerFactory, UserFactory
from tests.tournaments.opens.helpers import open_championship, play_round, table_open
from tournaments import formats
from tournaments.models import AuditAction, EntryStatus, EventStatus, MatchStatus, TableResult
from tournaments.opens.services.score_sheets import TableResultsError, table_results_enter
from tournaments.opens.services.table_opens import entry_drop, entry_late_add
from tournaments.standings import event_standings, round_tables

pytestmark = pytest.mark.django_db

BYE = Decimal("16.2")


def _hand_table(event):
    """Everyone's TPs, opponents and match points, read straight from the typed sheets."""
    tps: dict[int, Decimal] = defaultdict(Decimal)
    met: dict[int, list[tuple[int, Decimal]]] = defaultdict(list)  # (opponent, match points)
    for match in event.matches.all():
        if match.is_bye:
            tps[match.entry_a_id] += match.tps_a
            continue
        tps[match.entry_a_id] += match.tps_a
        tps[match.entry_b_id] += match.tps_b
        if not hasattr(match, "table_result"):
            continue  # the walkover: no opponent met over the table
        sheet = match.table_result
        a, b = formats.result_tps(sheet.score_a, sheet.score_b, conceded_by=sheet.conceded_by)
        assert (match.tps_a, match.tps_b) == (a, b)
        share_a = Decimal(1) if a > b else Decimal("0.5") if a == b else Decimal(0)
        met[match.entry_a_id].append((match.entry_b_id, share_a))
        met[match.entry_b_id].append((match.entry_a_id, 1 - share_a))
    return tps, met


def test_a_twenty_player_seven_round_swiss_open(organiser):
    championship, controller = open_championship(organiser)
    event = table_open(organiser, championship, 20)
    assert event.table_open and event.status == EventStatus.DRAWN
    first = event.rounds.get(number=1)
    assert first.deadline is None
    assert [t.number for t in round_tables(first)] == list(range(1, 11))

    late_player = PlayerFactory(display_name="Latecomer")
    dropper = None
    for number in range(1, 8):
        round_ = event.rounds.get(number=number)
        tables = round_tables(round_)
        if number == 3:
            # A late entry while round 3 has no result yet: the round is paired again with them.
            late = entry_late_add(actor=controller, event=event, player=late_player)
            assert late.joined_round == 3 and late.seed == 21
            assert event.rounds.get(number=3).pk == round_.pk  # re-paired in place
            tables = round_tables(round_)
            assert any(t.match.is_bye for t in tables)  # 21 players: one bye
            assert late.pk in {t.match.entry_a_id for t in tables} | {
                t.match.entry_b_id for t in tables
            }
        if number == 5:
            # A drop-out after a result of round 5 is in: their game is a walkover, scored
            # as a bye for the opponent; they are not paired again.
            first_table = next(t for t in tables if not t.match.is_bye)
            play_one = {1: {"score_a": 20, "score_b": 12}}
            table_results_enter(actor=controller, round_=round_, sheets=play_one)
            victim_table = next(t for t in tables if t.number == 4)
            dropper = victim_table.match.entry_b
            entry_drop(actor=controller, entry=dropper, reason="train home")
            victim_table.match.refresh_from_db()
            assert victim_table.match.status == MatchStatus.WALKOVER
            assert victim_table.match.tps_a == BYE and victim_table.match.tps_b == 0
            rest = {
                t.number: {"score_a": 10 + t.number, "score_b": 15}
                for t in round_tables(round_)
                if not t.match.is_bye and t.number not in (1, 4)
            }
            assert first_table.number == 1
            table_results_enter(actor=controller, round_=round_, sheets=rest)
            continue
        play_round(controller, round_)
        if number == 2:
            _dispute_ruled_then_reopened(organiser, controller, round_)

    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    assert event.rounds.count() == 7
    dropper.refresh_from_db()
    assert dropper.status == EntryStatus.WITHDRAWN and dropper.left_after_round == 5
    assert (
        not event.matches.filter(round__number__gt=5).filter(entry_a=dropper).exists()
        and not event.matches.filter(round__number__gt=5, entry_b=dropper).exists()
    )
    # Every pair met at most once, and nobody had two byes.
    pairs = [frozenset((m.entry_a_id, m.entry_b_id)) for m in event.matches.filter(is_bye=False)]
    assert len(pairs) == len(set(pairs))
    byes = [m.entry_a_id for m in event.matches.filter(is_bye=True)]
    assert len(byes) == len(set(byes))
    # The late entry played rounds 3..7 only.
    assert (
        event.matches.filter(entry_a=late).count() + event.matches.filter(entry_b=late).count() == 5
    )

    event.tiebreaks = ["tp_total", "buchholz", "sonneborn_berger"]
    event.save(update_fields=["tiebreaks"])
    lines = event_standings(event)
    assert len(lines) == 21  # the drop-out keeps their place with what they scored
    tps, met = _hand_table(event)
    for line in lines:
        key = line.entry.pk
        assert line.raw["tp_total"] == tps[key]
        assert line.raw["buchholz"] == sum((tps[o] for o, _ in met[key]), Decimal(0))
        assert line.raw["sonneborn_berger"] == sum(
            (tps[o] * share for o, share in met[key]), Decimal(0)
        )
    totals = [line.raw["tp_total"] for line in lines]
    assert totals == sorted(totals, reverse=True)
    assert [line.place for line in lines] == list(range(1, 22))
    # Audited: every round entered, the late entry, the drop-out.
    actions = set(AuditEntry.objects.filter(event_id=event.pk).values_list("action", flat=True))
    assert {
        AuditAction.TABLE_RESULTS_ENTER,
        AuditAction.ENTRY_LATE,
        AuditAction.ENTRY_DROP,
        AuditAction.ROUND_REPAIR,
        AuditAction.TABLE_RESULT_DISPUTE,
        AuditAction.TABLE_RESULT_RULE,
        AuditAction.TABLE_RESULT_REOPEN,
    } <= actions


def _dispute_ruled_then_reopened(organiser, controller, round_) -> None:
    """Table 3's player A disputes the typed result (API); a controller rules with the sheet's
    result (API); an organiser reopens the ruling and a controller lets it stand (web)."""
    table = next(t for t in round_tables(round_) if t.number == 3)
    match = table.match
    player = match.entry_a.player
    player.user = UserFactory()
    player.save(update_fields=["user"])
    typed = (table.result.score_a, table.result.score_b)
    high, low = max(typed) + 5, min(typed)
    corrected = {"score_a": high, "score_b": low}
    response = client_for(player.user).post(
        f"/api/tables/{match.pk}/dispute/", {"reason": "I scored more."}, format="json"
    )
    assert response.status_code == 200, response.data
    assert response.data["state"] == "disputed"
    response = client_for(controller).post(
        f"/api/tables/{match.pk}/rule/", {"reason": "The signed sheet.", **corrected}, format="json"
    )
    assert response.status_code == 200, response.data
    match.refresh_from_db()
    assert (match.tps_a, match.tps_b) == formats.result_tps(high, low)
    assert match.winner_id == match.entry_a_id
    web = Client()
    web.force_login(organiser)
    response = web.post(
        reverse("open-table-result", args=[match.pk]),
        {"action": "reopen", "reopen-reason": "Both signatures to check."},
    )
    assert response.status_code == 302
    web.force_login(controller)
    response = web.post(
        reverse("open-table-result", args=[match.pk]),
        {"action": "rule", "rule-reason": "Signatures checked: it stands."},
    )
    assert response.status_code == 302
    result = TableResult.objects.get(match=match)
    assert result.state == "ruled" and (result.score_a, result.score_b) == (high, low)
    history = client_for(player.user).get(f"/api/tables/{match.pk}/").data["history"]
    assert [h["action"] for h in history] == [
        "table_result_dispute",
        "table_result_rule",
        "table_result_reopen",
        "table_result_rule",
    ]


def test_a_round_is_entered_all_or_nothing_with_messages_per_table(organiser):
    championship, controller = open_championship(organiser)
    event = table_open(organiser, championship, 6, swiss_rounds=3)
    round_ = event.rounds.get(number=1)
    with pytest.raises(TableResultsError) as caught:
        table_results_enter(
            actor=controller,
            round_=round_,
            sheets={
                1: {"score_a": 20, "score_b": 10},
                2: {"score_a": 85, "score_b": "x"},
                3: {"score_a": 3, "score_b": 4, "ending": "time"},
                9: {"score_a": 3, "score_b": 4},
            },
        )
    errors = caught.value.errors
    assert set(errors) == {"2", "3", "9"}
    assert "between 0 and 84" in errors["2"]["score_a"][0]
    assert "whole number" in errors["2"]["score_b"][0]
    assert "lost on time" in errors["3"]["conceded_by"][0]
    assert "no table 9" in errors["9"]["table"][0]
    assert not TableResult.objects.exists()
    assert not round_.matches.filter(status=MatchStatus.DECIDED).exists()

    outsider = PlayerFactory(with_user=True).user
    with pytest.raises(PermissionDenied):
        table_results_enter(actor=outsider, round_=round_, sheets={1: {"score_a": 1, "score_b": 2}})


def test_a_typing_slip_is_corrected_and_audited(organiser):
    championship, controller = open_championship(organiser)
    event = table_open(organiser, championship, 4, swiss_rounds=2)
    round_ = event.rounds.get(number=1)
    table_results_enter(actor=controller, round_=round_, sheets={1: {"score_a": 20, "score_b": 12}})
    table_results_enter(
        actor=controller,
        round_=round_,
        sheets={1: {"score_a": 12, "score_b": 20}, 2: {"score_a": 15, "score_b": 15}},
    )
    tables = round_tables(round_)
    one, two = tables[0].match, tables[1].match
    assert (one.tps_a, one.tps_b) == formats.result_tps(12, 20)
    assert one.winner_id == one.entry_b_id
    assert two.winner_id is None and (two.tps_a, two.tps_b) == (Decimal("10.0"), Decimal("10.0"))
    correction = AuditEntry.objects.get(action=AuditAction.TABLE_RESULT_CORRECT)
    assert "20 – 12" in correction.details["before"] and "12 – 20" in correction.details["after"]
    # Round 2 was paired once round 1 was complete.
    assert event.rounds.filter(number=2).exists()


def test_late_entry_and_drop_out_rules(organiser):
    championship, controller = open_championship(organiser)
    event = table_open(organiser, championship, 4, system="round_robin")
    with pytest.raises(ValidationError, match="late entries join Swiss opens only"):
        entry_late_add(actor=controller, event=event, player=PlayerFactory())
    # A drop-out in a round robin: every game left is a walkover scored as a bye.
    entry = event.entries.order_by("seed").first()
    entry_drop(actor=organiser, entry=entry)
    open_games = event.matches.filter(status=MatchStatus.WALKOVER)
    assert open_games.count() == 3
    assert all(BYE in (m.tps_a, m.tps_b) for m in open_games)
    with pytest.raises(ValidationError, match="no longer in play"):
        entry_drop(actor=organiser, entry=entry)
    player = PlayerFactory(with_user=True)
    with pytest.raises(PermissionDenied):
        entry_drop(actor=player.user, entry=event.entries.order_by("seed").last())


def test_a_table_open_match_takes_no_submitted_game(organiser):
    """Its results are the typed sheets: a record (or a report) for it would count twice."""
    from tournaments.matches.services.results import validate_match_submission

    championship, _ = open_championship(organiser)
    event = table_open(organiser, championship, 4, swiss_rounds=2)
    match = event.matches.filter(is_bye=False).select_related("entry_a", "entry_b").first()
    players = [match.entry_a.player, match.entry_b.player]
    with pytest.raises(ValidationError, match="not open for games"):
        validate_match_submission(actor=organiser, value=match.pk, seat_players=players)
