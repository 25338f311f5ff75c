"""Two controllers typing the two halves of a round at the same moment.

Without the event lock each sees the other's tables still open and nobody pairs the next
round; with it they take turns and the next round is paired exactly once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tests.factories import make_organiser
from tests.tournaments.opens.helpers import open_championship, table_open
from tournaments.models import Event, Match, TableResult
from tournaments.opens.services import score_sheets
from tournaments.opens.services.score_sheets import table_results_enter
from tournaments.opens.services.table_opens import require_table_open
from tournaments.services import swiss_rounds
from tournaments.standings import round_tables

pytestmark = pytest.mark.django_db(transaction=True)


def _enter_halves_at_once(controller, round_, halves) -> list[BaseException]:
    errors: list[BaseException] = []
    start = threading.Barrier(len(halves))

    def enter(sheets):
        try:
            start.wait(timeout=30)
            table_results_enter(actor=controller, round_=round_, sheets=sheets)
        except BaseException as exc:  # reported to the test below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=enter, args=(half,)) for half in halves]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return errors


def _setup():
    organiser = make_organiser()
    championship, controller = open_championship(organiser)
    event = table_open(organiser, championship, 8, swiss_rounds=3)
    round_ = event.rounds.get(number=1)
    numbers = [t.number for t in round_tables(round_)]
    sheets = {n: {"score_a": 10 + n, "score_b": 12} for n in numbers}
    halves = [{n: sheets[n] for n in numbers[:2]}, {n: sheets[n] for n in numbers[2:]}]
    return event, controller, round_, halves


def test_without_the_lock_nobody_pairs_the_next_round(monkeypatch):
    event, controller, round_, halves = _setup()
    both_read = threading.Barrier(2)

    def unlocked(round_):
        found = Event.objects.select_related("championship").get(pk=round_.event_id)
        require_table_open(found)
        tables = {
            m.bracket_index + 1: m
            for m in Match.objects.select_related("entry_a__player", "entry_b__player").filter(
                round=round_
            )
        }
        both_read.wait(timeout=30)  # both have read before either writes
        return found, tables

    both_wrote = threading.Barrier(2)
    real_audit = score_sheets.audit

    def audit_after_both(**kwargs):
        both_wrote.wait(timeout=30)  # both have written and looked at the round, uncommitted
        return real_audit(**kwargs)

    monkeypatch.setattr(score_sheets, "_round_locked", unlocked)
    # The progression lock (tests/tournaments/test_progression_race.py) serialises the same
    # writers a second way; without lifting it too, one thread waits on it at the barrier.
    monkeypatch.setattr(swiss_rounds, "event_progression_lock", lambda event_id: None)
    monkeypatch.setattr(score_sheets, "audit", audit_after_both)
    assert _enter_halves_at_once(controller, round_, halves) == []
    assert TableResult.objects.filter(match__round=round_).count() == 4
    assert not event.rounds.filter(number=2).exists()  # the race: round 2 was never paired


def test_with_the_lock_the_next_round_is_paired_exactly_once():
    event, controller, round_, halves = _setup()
    assert _enter_halves_at_once(controller, round_, halves) == []
    assert TableResult.objects.filter(match__round=round_).count() == 4
    assert event.rounds.filter(number=2).count() == 1
    assert Match.objects.filter(round__event=event, round__number=2).count() == 4
