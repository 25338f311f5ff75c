"""`manage.py check_consistency`: a database built through the services passes; each kind of
breach, made on purpose through the ORM, is reported with the ids of the objects concerned."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from games import services as game_services
from games.models import Game, GameRecord, GameSeat, RecordSource, RecordStatus
from ratings import services as rating_services
from ratings.models import PendingRating, Rating, RatingChange, Title
from tests.factories import PlayerFactory, UserFactory, make_organiser
from tests.games.helpers import (
    as_body,
    colour_mismatch_record,
    confirm_open_reports,
    selfplay_record,
)
from tests.ratings import helpers as rating_helpers
from tests.tournaments.helpers import submit_match_game
from tournaments import services as tournament_services
from tournaments.consistency import system_check
from tournaments.models import Entry, EntryStatus, Event, Match, MatchGame, MatchStatus

pytestmark = pytest.mark.django_db

LONG_AGO = dt.timedelta(days=2)


def make_game(players, scores, **kwargs) -> Game:
    """A game made directly in the tables (as the ratings tests do), with a matching verdict."""
    game = rating_helpers.make_game(players, scores, **kwargs)
    GameRecord.objects.filter(pk=game.record_id).update(
        verdict={"valid": True, "winner": game.winner_seat, "scores": list(scores)}
    )
    return game


def codes(report) -> set[str]:
    return {b.code for b in report.breaches}


def breaches_of(report, code: str) -> list:
    return [b for b in report.breaches if b.code == code]


@pytest.fixture
def history(django_capture_on_commit_callbacks, settings):
    """A database with a little of everything, written only through the services."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    admin = UserFactory(is_staff=True, is_superuser=True)
    organiser = make_organiser()
    names = ["Ingrid", "Tomas", "Csilla", "Bela", "Ana", "Dora"]
    players = [PlayerFactory(display_name=name, with_user=name == "Ingrid") for name in names]
    ingrid, tomas, csilla, bela, ana, dora = players

    # Submissions through the pipeline (tasks run eagerly): valid, invalid, refused, pairs,
    # free-for-all.
    with django_capture_on_commit_callbacks(execute=True):
        for seed in range(4):
            game_services.record_submit(
                actor=ingrid.user, body=as_body(selfplay_record(seed, ["Ingrid", "Tomas"]))
            )
        game_services.record_submit(
            actor=ingrid.user, body=as_body(colour_mismatch_record(["Ingrid", "Csilla"]))
        )
        game_services.record_submit(
            actor=ingrid.user, body=as_body(selfplay_record(9, ["Ingrid", "Nobody"]))
        )
        game_services.record_submit(
            actor=admin,
            body=as_body(selfplay_record(5, ["Ingrid", "Tomas", "Csilla", "Bela"], "pairs")),
        )
        game_services.record_submit(
            actor=admin, body=as_body(selfplay_record(6, ["Ana", "Dora", "Bela"], "3"))
        )
    confirm_open_reports()  # Ingrid's games stand once their other side agrees

    # Ratings history beyond plain games: two months, a late game of last month, Masters, the
    # Elo of an event, reverts (one of a month that is over), adjustments, a recompute.
    last_month = timezone.now() - dt.timedelta(days=40)
    Title.objects.create(player=ana, awarded_at=last_month, awarded_by=admin)
    Title.objects.create(player=dora, awarded_at=last_month, awarded_by=admin)
    old = make_game([csilla, bela], [19, 10], played_at=last_month)
    rating_services.game_ratings_apply(game_id=old.pk)
    between_masters = make_game([ana, dora], [12, 15])
    rating_services.game_ratings_apply(game_id=between_masters.pk)
    draw = make_game([csilla, bela], [14, 14], context="master")
    rating_services.game_ratings_apply(game_id=draw.pk)
    late = make_game([bela, csilla], [22, 9], played_at=last_month + dt.timedelta(hours=1))
    rating_services.game_ratings_apply(game_id=late.pk)
    rating_services.game_ratings_revert(actor=admin, game_id=old.pk, note="played twice")
    for tps in ([13.3, 6.7], [10.0, 10.0], [15.8, 4.2]):
        event_game = make_game([ana, csilla], [20, 10], event_id=900_001, tps=tps)
        rating_services.game_ratings_apply(game_id=event_game.pk)
    rating_services.elo_event_recalculate(event_id=900_001)
    rating_services.rating_adjust(
        actor=admin, player_id=tomas.pk, system="lobby", reason="correction", delta=2.5
    )
    adjusted = rating_services.rating_adjust(
        actor=admin, player_id=dora.pk, system="monthly", reason="correction", value=710.0
    )
    rating_services.change_revert(actor=admin, change_id=adjusted.pk, note="mistaken")
    rating_services.ratings_recompute()

    # A knockout of four: a semi-final on games, one ruled, a final by withdrawal.
    championship = tournament_services.championship_create(
        actor=organiser, name="Open", year=2026, category="open", published=True
    )
    event = tournament_services.event_create(
        actor=organiser,
        championship=championship,
        name="Main draw",
        format="knockout",
        games_per_match=1,
        max_extra_games=3,
        extra_game_margin=Decimal("0.1"),
    )
    entrants = [PlayerFactory() for _ in range(4)]
    for player in entrants:
        tournament_services.entry_register(actor=organiser, event=event, player=player)
    tournament_services.draw_generate(actor=organiser, event=event, draw_seed=1)
    first, second = Match.objects.filter(event=event, round__number=1).order_by("bracket_index")
    while first.status in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS):
        if first.games_played >= 4:
            tournament_services.match_rule(
                actor=organiser, match=first, winner_entry_id=first.entry_a_id, reason="level"
            )
        else:
            with django_capture_on_commit_callbacks(execute=True):
                submit_match_game(organiser, first)
        first.refresh_from_db()
    tournament_services.match_rule(
        actor=organiser, match=second, winner_entry_id=second.entry_b_id, reason="by phone"
    )
    final = Match.objects.get(event=event, round__number=2)
    tournament_services.entry_withdraw(actor=organiser, entry=final.entry_a, reason="illness")

    # A knockout of three whose bye holder withdrew before the final was known.
    small = tournament_services.event_create(
        actor=organiser, championship=championship, name="Side draw", format="knockout"
    )
    for player in [PlayerFactory() for _ in range(3)]:
        tournament_services.entry_register(actor=organiser, event=small, player=player)
    tournament_services.event_seed(actor=organiser, event=small)
    tournament_services.draw_generate(actor=organiser, event=small, draw_seed=1)
    small_final = Match.objects.get(event=small, round__number=2)
    bye_holder = small_final.entry_a or small_final.entry_b
    tournament_services.entry_withdraw(actor=organiser, entry=bye_holder, reason="away")

    # An open two-game match with a claimed time penalty.
    duel = tournament_services.event_create(
        actor=organiser, championship=championship, name="Duel", format="knockout"
    )
    for player in entrants[:2]:
        tournament_services.entry_register(actor=organiser, event=duel, player=player)
    tournament_services.draw_generate(actor=organiser, event=duel, draw_seed=1)
    duel_match = Match.objects.get(event=duel)
    names = [duel_match.entry_a.player.display_name, duel_match.entry_b.player.display_name]
    record = selfplay_record(77, names)
    record["clock"] = [17 * 60 + 5, 600]
    with django_capture_on_commit_callbacks(execute=True):
        game_services.record_submit(
            actor=organiser, body=as_body(record), extensions={"match": duel_match.pk}
        )
    match_game = duel_match.match_games.get()
    tournament_services.match_penalty_claim(
        actor=organiser, match_game=match_game, side=0 if match_game.seat_a == 0 else 1
    )
    return {
        "players": players,
        "admin": admin,
        "event": event,
        "final": final,
        "first": first,
        "duel_match": duel_match,
    }


def test_a_history_written_through_the_services_is_consistent(history):
    report = system_check(recompute=True)
    assert report.breaches == []
    assert report.counts["records"] == GameRecord.objects.count() > 10
    assert report.counts["records in flight"] == 0
    assert report.counts["games waiting for ratings"] == 0
    assert report.counts["counted games"] >= 2
    # What the history is meant to contain is there.
    event = Event.objects.get(pk=history["event"].pk)
    assert event.status == "finished" and event.champion_id == history["final"].entry_b_id
    assert RatingChange.objects.filter(system="master", reason="game").count() == 4
    assert RatingChange.objects.filter(system="doubles", reason="game").count() == 4
    assert RatingChange.objects.filter(reason="tournament").exists()


def test_command_summarises_a_consistent_database(history, capsys):
    call_command("check_consistency")
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    assert out[0].startswith(f"consistent: {GameRecord.objects.count()} records, ")
    assert "games," in out[0] and "rating changes" in out[0]


def test_command_reports_each_breach_on_its_line_and_exits_1(history, capsys):
    ingrid, tomas = history["players"][:2]
    Rating.objects.filter(player=ingrid, system="lobby").update(value=999.0)
    GameRecord.objects.filter(pk=GameRecord.objects.order_by("pk").first().pk).update(
        status=RecordStatus.PENDING, created=timezone.now() - LONG_AGO
    )
    with pytest.raises(CommandError) as failed:
        call_command("check_consistency")
    assert failed.value.returncode == 1
    lines = capsys.readouterr().out.strip().splitlines()
    differs = [line for line in lines if line.startswith("[rating_value_differs]")]
    assert len(differs) == 1 and f"player {ingrid.pk}'s lobby rating is 999.0" in differs[0]
    assert any(line.startswith("[stuck]") for line in lines)
    assert "breach(es) of consistency" in lines[-1]

    with pytest.raises(CommandError):
        call_command("check_consistency", "--json")
    document = json.loads(capsys.readouterr().out)
    assert document["consistent"] is False
    assert {"rating_value_differs", "stuck"} <= {b["code"] for b in document["breaches"]}
    differs = next(b for b in document["breaches"] if b["code"] == "rating_value_differs")
    assert differs["ids"] == {"player": ingrid.pk, "system": "lobby"}


def test_json_of_a_consistent_database(history, capsys):
    call_command("check_consistency", "--json")
    document = json.loads(capsys.readouterr().out)
    assert document["consistent"] is True and document["breaches"] == []
    assert document["counts"]["records"] == GameRecord.objects.count()


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_check_reads_one_read_only_snapshot(capsys):
    a, b = PlayerFactory(), PlayerFactory()
    rating_services.game_ratings_apply(game_id=make_game([a, b], [19, 10]).pk)
    call_command("check_consistency")
    assert capsys.readouterr().out.startswith("consistent: 1 records, 1 games")
    assert not connection.in_atomic_block


# --- Games -------------------------------------------------------------------------------------


@pytest.fixture
def duel(db):
    a, b, c = PlayerFactory(), PlayerFactory(), PlayerFactory()
    game = make_game([a, b], [19, 10])
    rating_services.game_ratings_apply(game_id=game.pk)
    assert system_check().breaches == []
    return game, (a, b, c)


def test_stuck_records_are_reported_and_fresh_ones_are_in_flight(duel, settings):
    settings.GAME_RECORD_STALE_SECONDS = 60
    old = timezone.now() - dt.timedelta(seconds=120)
    pending = GameRecord.objects.create(body=b"{}", source=RecordSource.API)
    GameRecord.objects.filter(pk=pending.pk).update(created=old)
    processing = GameRecord.objects.create(
        body=b"{}", source=RecordSource.API, status=RecordStatus.PROCESSING, claimed_at=old
    )
    GameRecord.objects.create(body=b"{}", source=RecordSource.API)  # just arrived
    GameRecord.objects.create(
        body=b"{}",
        source=RecordSource.API,
        status=RecordStatus.PROCESSING,
        claimed_at=timezone.now(),
    )
    report = system_check()
    stuck = breaches_of(report, "stuck")
    assert [b.ids for b in stuck] == [{"record": pending.pk}, {"record": processing.pk}]
    assert "pending for 120 s" in stuck[0].message
    assert codes(report) == {"stuck"}
    assert report.counts["records in flight"] == 2


def test_valid_record_without_game_and_game_of_an_invalid_record(duel):
    game, _ = duel
    lone = GameRecord.objects.create(
        body=b"{}",
        source=RecordSource.API,
        status=RecordStatus.VALID,
        verdict={"valid": True},
        adjudicated_at=timezone.now(),
    )
    report = system_check()
    assert [b.ids for b in breaches_of(report, "valid_without_game")] == [{"record": lone.pk}]

    GameRecord.objects.filter(pk=lone.pk).delete()
    GameRecord.objects.filter(pk=game.record_id).update(
        status=RecordStatus.INVALID, error_code="COLOUR_MISMATCH"
    )
    report = system_check()
    assert [b.ids for b in breaches_of(report, "game_of_unvalid_record")] == [
        {"game": game.pk, "record": game.record_id}
    ]
    # Its ratings now stand for a game that is not valid, and nobody was told.
    assert [b.ids for b in breaches_of(report, "rated_game_not_valid")] == [{"game": game.pk}]


def test_final_record_without_verdict(duel):
    game, _ = duel
    GameRecord.objects.filter(pk=game.record_id).update(verdict=None)
    report = system_check()
    assert [b.ids for b in breaches_of(report, "verdict_missing")] == [{"record": game.record_id}]

    refused = GameRecord.objects.create(
        body=b"x",
        source=RecordSource.API,
        status=RecordStatus.INVALID,
        verdict={"valid": False},
        adjudicated_at=timezone.now(),
    )
    found = breaches_of(system_check(), "verdict_missing")
    assert {"record": refused.pk} in [b.ids for b in found]
    assert any("names no error code" in b.message for b in found)


def test_seats_that_differ_from_the_record(duel):
    game, (a, b, c) = duel
    GameSeat.objects.filter(game=game, seat=1).update(player=c)
    report = system_check()
    mismatch = breaches_of(report, "seats_mismatch")
    assert [x.ids for x in mismatch] == [{"game": game.pk, "record": game.record_id}]
    assert f"[{a.pk}, {c.pk}]" in mismatch[0].message
    assert f"[{a.pk}, {b.pk}]" in mismatch[0].message


def test_game_that_differs_from_its_verdict(duel):
    game, _ = duel
    Game.objects.filter(pk=game.pk).update(winner_seat=1)
    GameSeat.objects.filter(game=game, seat=0).update(score=3)
    report = system_check()
    found = breaches_of(report, "game_against_verdict")
    assert len(found) == 2 and all(b.ids["game"] == game.pk for b in found)


def test_unreadable_played_at(duel):
    game, _ = duel
    with connection.cursor() as cursor:
        cursor.execute("UPDATE games_game SET played_at = 'infinity' WHERE id = %s", [game.pk])
    report = system_check(recompute=True)
    assert [b.ids for b in breaches_of(report, "played_at_unreadable")] == [{"game": game.pk}]
    # The recompute cannot read such a game either: said, not crashed.
    assert "recompute_failed" in codes(report)


# --- Ratings -----------------------------------------------------------------------------------


def test_unrated_game_is_missing_unless_pending_or_just_adjudicated(duel):
    _, (a, b, c) = duel
    unrated = make_game([a, c], [10, 30])
    assert system_check().breaches == []  # just adjudicated: in flight

    Game.objects.filter(pk=unrated.pk).update(created=timezone.now() - LONG_AGO)
    missing = breaches_of(system_check(), "rating_missing")
    assert [m.ids for m in missing] == [{"game": unrated.pk, "players": sorted([a.pk, c.pk])}]
    assert "lobby" in missing[0].message and "monthly" in missing[0].message

    rating_services.game_ratings_announce(unrated.pk)
    assert system_check().breaches == []  # on the work list: in flight

    PendingRating.objects.filter(game=unrated).update(created=timezone.now() - LONG_AGO)
    assert [b.ids for b in system_check().breaches] == [{"game": unrated.pk}]
    assert codes(system_check()) == {"rating_pending_stuck"}


def test_master_tables_follow_the_titles_held_when_the_game_was_played(duel, admin_user):
    _, (a, _, c) = duel
    played = timezone.now() - dt.timedelta(hours=1)
    casual = make_game([a, c], [10, 30], played_at=played)
    rating_services.game_ratings_apply(game_id=casual.pk)
    Game.objects.filter(pk=casual.pk).update(created=timezone.now() - LONG_AGO)
    assert system_check().breaches == []

    # Titles dated before the game: it should have moved the Master ranking too.
    titles = [
        Title.objects.create(player=p, awarded_at=played - LONG_AGO, awarded_by=admin_user)
        for p in (a, c)
    ]
    missing = breaches_of(system_check(), "rating_missing")
    assert [m.ids for m in missing] == [{"game": casual.pk, "players": sorted([a.pk, c.pk])}]
    assert "in master" in missing[0].message and "lobby" not in missing[0].message

    between_masters = make_game([c, a], [25, 5], played_at=timezone.now())
    rating_services.game_ratings_apply(game_id=between_masters.pk)
    assert RatingChange.objects.filter(game=between_masters, system="master").count() == 2
    # Had the titles come after that game, its Master changes would not belong there.
    Title.objects.filter(pk__in=[t.pk for t in titles]).update(
        awarded_at=timezone.now() + dt.timedelta(minutes=1)
    )
    unexpected = breaches_of(system_check(), "rating_unexpected")
    assert [u.ids for u in unexpected] == [
        {"game": between_masters.pk, "players": sorted([a.pk, c.pk])}
    ]
    assert unexpected[0].message == (
        f"game {between_masters.pk} moved ratings it does not count for: "
        f"player {min(a.pk, c.pk)} in master, player {max(a.pk, c.pk)} in master"
    )


def test_duplicated_rating_change(duel):
    game, (a, _, _) = duel
    change = RatingChange.objects.filter(game=game, player=a, system="lobby").get()
    with connection.cursor() as cursor:
        # Only here: the database's own guard has to go before a duplicate can exist.
        cursor.execute("DROP INDEX rating_change_once_per_game_system")
    RatingChange.objects.create(
        player=a,
        system="lobby",
        reason="game",
        game=game,
        before=change.after,
        after=change.after + 1.0,
        delta=1.0,
        games_delta=1,
        at=change.at,  # a step of the timeline (docs/ratings.md §10), as the services write it
        games_after=2,
    )
    Rating.objects.filter(player=a, system="lobby").update(value=change.after + 1.0, games=2)
    report = system_check()
    assert [b.ids for b in report.breaches] == [
        {"game": game.pk, "player": a.pk, "system": "lobby"}
    ]
    assert codes(report) == {"rating_duplicated"}


def test_broken_chain_wrong_delta_and_row_that_differs(duel):
    game, (a, b, c) = duel
    lobby = Rating.objects.get(player=a, system="lobby")
    bogus = RatingChange.objects.create(
        player=a,
        system="lobby",
        reason="adjustment",
        note="x",
        before=lobby.value + 1,
        after=lobby.value + 3,
        delta=2.0,
        at=timezone.now(),  # adjustments are steps of the timeline (docs/ratings.md §10)
        games_after=lobby.games,
    )
    wrong_delta = RatingChange.objects.create(
        player=a,
        system="lobby",
        reason="adjustment",
        note="x",
        before=lobby.value + 3,
        after=lobby.value + 4,
        delta=7.0,
        at=timezone.now(),
        games_after=lobby.games,
    )
    Rating.objects.filter(pk=lobby.pk).update(value=lobby.value + 4)
    report = system_check()
    assert [x.ids for x in breaches_of(report, "rating_chain_broken")] == [
        {"player": a.pk, "system": "lobby", "change": bogus.pk}
    ]
    assert [x.ids for x in breaches_of(report, "rating_change_delta")] == [
        {"player": a.pk, "system": "lobby", "change": wrong_delta.pk}
    ]
    assert codes(report) == {"rating_chain_broken", "rating_change_delta"}

    Rating.objects.filter(player=b, system="monthly").update(games=5)
    assert [x.ids for x in breaches_of(system_check(), "rating_value_differs")] == [
        {"player": b.pk, "system": "monthly"}
    ]


def test_rating_rows_without_history_and_history_without_row(duel):
    _, (a, b, c) = duel
    Rating.objects.create(player=c, system="doubles", value=500.0)
    Rating.objects.filter(player=b, system="lobby").delete()
    report = system_check()
    assert [x.ids for x in breaches_of(report, "rating_without_history")] == [
        {"player": c.pk, "system": "doubles"}
    ]
    assert [x.ids for x in breaches_of(report, "rating_row_missing")] == [
        {"player": b.pk, "system": "lobby"}
    ]


def test_recompute_flag_compares_with_a_replay(duel, admin_user):
    _, (a, _, _) = duel
    rating_services.rating_adjust(
        actor=admin_user, player_id=a.pk, system="lobby", reason="bonus", delta=5.0
    )
    assert system_check().breaches == []  # the adjustment is part of the history
    # ... and of a replay too (docs/ratings.md §11): nothing differs.
    assert system_check(recompute=True).breaches == []
    Rating.objects.filter(player=a, system="lobby").update(value=123.0)  # a stray edit
    differs = breaches_of(system_check(recompute=True), "recompute_differs")
    assert [x.ids for x in differs] == [{"player": a.pk, "system": "lobby"}]
    rating_services.ratings_recompute()
    assert system_check(recompute=True).breaches == []


# --- Tournaments -------------------------------------------------------------------------------


def test_match_winner_that_is_not_an_entry(history):
    first = history["first"]
    stranger = Entry.objects.exclude(pk__in=[first.entry_a_id, first.entry_b_id]).first()
    Match.objects.filter(pk=first.pk).update(winner=stranger)
    report = system_check()
    assert {"match": first.pk, "entry": stranger.pk} in [
        b.ids for b in breaches_of(report, "match_winner")
    ]

    open_match = history["duel_match"]
    Match.objects.filter(pk=open_match.pk).update(winner=open_match.entry_a)
    report = system_check()
    assert {"match": open_match.pk, "entry": open_match.entry_a_id} in [
        b.ids for b in breaches_of(report, "match_winner")
    ]

    bye = Match.objects.filter(is_bye=True).first()  # one side empty
    Match.objects.filter(pk=bye.pk).update(winner=stranger)
    assert {"match": bye.pk, "entry": stranger.pk} in [
        b.ids for b in breaches_of(system_check(), "match_winner")
    ]


def test_winner_missing_from_the_next_match_and_a_stalled_bracket(history):
    final = history["final"]
    # The feeder whose winner is still in (the other one's withdrew, and may leave a gap).
    feeder = Match.objects.get(next_match=final, winner__status=EntryStatus.CHAMPION)
    side = "entry_a" if feeder.next_side == 0 else "entry_b"
    Match.objects.filter(pk=final.pk).update(**{side: None}, status=MatchStatus.WAITING)
    report = system_check()
    assert [b.ids for b in breaches_of(report, "winner_not_advanced")] == [
        {"match": feeder.pk, "next_match": final.pk, "entry": feeder.winner_id}
    ]
    assert [b.ids for b in breaches_of(report, "bracket_stalled")] == [{"match": final.pk}]

    # An unfinished match has sent nobody on yet.
    Match.objects.filter(pk=feeder.pk).update(status=MatchStatus.IN_PROGRESS, winner=None)
    Match.objects.filter(pk=final.pk).update(**{side: feeder.entry_a})
    report = system_check()
    assert {"match": feeder.pk, "next_match": final.pk, "entry": feeder.entry_a_id} in [
        b.ids for b in breaches_of(report, "winner_not_advanced")
    ]


def test_match_totals_that_differ_from_the_counted_games(history):
    first = history["first"]
    Match.objects.filter(pk=first.pk).update(tps_a=first.tps_a + Decimal("1.0"))
    report = system_check()
    assert [b.ids for b in breaches_of(report, "match_tps_differ")] == [{"match": first.pk}]


def test_counted_game_that_disagrees_with_its_match(history):
    match_game = history["duel_match"].match_games.get()
    MatchGame.objects.filter(pk=match_game.pk).update(penalty_a=0, penalty_b=0)
    Game.objects.filter(pk=match_game.game_id).update(event_id=None)
    report = system_check()
    found = breaches_of(report, "match_game")
    assert {b.ids["game"] for b in found} == {match_game.game_id}
    messages = " ".join(b.message for b in found)
    assert "after penalties" in messages and "marked for event None" in messages


def test_game_submitted_for_a_match_and_never_counted(history):
    match_game = history["duel_match"].match_games.get()
    MatchGame.objects.filter(pk=match_game.pk).delete()
    report = system_check()
    assert breaches_of(report, "match_game_uncounted") == []  # the sweep may still count it
    Game.objects.filter(pk=match_game.game_id).update(created=timezone.now() - LONG_AGO)
    report = system_check()
    assert [b.ids for b in breaches_of(report, "match_game_uncounted")] == [
        {"game": match_game.game_id, "match": history["duel_match"].pk}
    ]
    assert [b.ids for b in breaches_of(report, "match_tps_differ")] == [
        {"match": history["duel_match"].pk}
    ]


def test_champion_of_an_unfinished_event_or_withdrawn(history):
    event = history["event"]
    champion = Event.objects.get(pk=event.pk).champion
    Entry.objects.filter(pk=champion.pk).update(status=EntryStatus.WITHDRAWN)
    report = system_check()
    assert [b.ids for b in breaches_of(report, "champion")] == [
        {"event": event.pk, "entry": champion.pk}
    ]
    assert "is withdrawn" in breaches_of(report, "champion")[0].message

    Entry.objects.filter(pk=champion.pk).update(status=EntryStatus.CHAMPION)
    Event.objects.filter(pk=event.pk).update(status="drawn")
    report = system_check()
    found = breaches_of(report, "champion")
    assert len(found) == 2 and all(b.ids["event"] == event.pk for b in found)

    Event.objects.filter(pk=event.pk).update(status="finished")
    runner_up = Entry.objects.filter(event=event).exclude(pk=champion.pk).first()
    Entry.objects.filter(pk=runner_up.pk).update(status=EntryStatus.CHAMPION)
    assert [b.ids for b in breaches_of(system_check(), "champion")] == [
        {"event": event.pk, "entry": runner_up.pk}
    ]
