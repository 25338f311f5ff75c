"""Exports: the CSVs, and the JSON export read back by `manage.py import_event` into an empty
database with the same standings."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone

from games.models import (
    EndReason,
    Game,
    GameRecord,
    GameReport,
    GameSeat,
    RecordSource,
    RecordStatus,
    ReportedGame,
)
from players.models import Player
from tests.factories import PlayerFactory, make_organiser
from tests.tournaments.helpers import match_record_body
from tests.tournaments.opens.helpers import open_championship, play_round, table_open
from tournaments.matches.services.results import match_game_attach
from tournaments.models import Championship, Event, Match, TableResult
from tournaments.opens.services.table_opens import entry_drop
from tournaments.services import championship_create, entry_register, event_create
from tournaments.services.draws import draw_generate
from tournaments.services.exports import (
    event_export,
    pairings_csv,
    results_csv,
    standings_csv,
)
from tournaments.standings import event_standings


def _snapshot(event: Event) -> dict:
    return {
        "standings": [
            (line.place, line.player_name, line.values, line.separated_by, line.games)
            for line in event_standings(event)
        ],
        "standings_csv": standings_csv(event),
        "results_csv": results_csv(event),
        "pairings": [pairings_csv(r) for r in event.rounds.order_by("number")],
        "status": event.status,
        "tiebreaks": event.tiebreaks,
    }


def _empty_database() -> None:
    """Truncate every table. Deferred foreign-key checks are settled first: PostgreSQL will not
    truncate a table with checks still pending in the transaction."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)
    assert not Player.objects.exists() and not Event.objects.exists()


def _played_open():
    organiser = make_organiser()
    championship, controller = open_championship(organiser)
    event = table_open(
        organiser,
        championship,
        7,
        swiss_rounds=4,
        tiebreak_list=["tp_total", "median_buchholz", "sonneborn_berger", "wins"],
    )
    for number in range(1, 5):
        if number == 3:
            entry_drop(actor=controller, entry=event.entries.get(seed=7), reason="ill")
        play_round(controller, event.rounds.get(number=number))
    # One result under dispute: its state travels, the disputing account does not.
    disputed = TableResult.objects.filter(match__event=event).order_by("pk").first()
    TableResult.objects.filter(pk=disputed.pk).update(
        state="disputed", dispute_reason="The sheet says 24.", disputed_by=controller
    )
    event.refresh_from_db()
    return event


# The flush runs inside the test's transaction (PostgreSQL truncates transactionally): the
# database is empty for the import, and the test's rollback tidies up afterwards.


@pytest.mark.django_db
def test_export_then_import_into_an_empty_database(tmp_path):
    event = _played_open()
    assert event.status == "finished"
    before = _snapshot(event)
    path = tmp_path / "open.json"
    call_command("export_event", str(event.pk), output=str(path), stdout=io.StringIO())
    data = json.loads(path.read_text())
    assert data["format"] == "tantrix-event" and len(data["table_results"]) > 10

    _empty_database()

    importer = make_organiser(username="importer")
    out = io.StringIO()
    call_command("import_event", str(path), organiser="importer", stdout=out)
    assert "Imported" in out.getvalue()
    imported = Event.objects.get()
    assert imported.table_open and imported.championship.organisers.filter(pk=importer.pk).exists()
    assert _snapshot(imported) == before
    assert TableResult.objects.count() == len(data["table_results"])
    assert list(TableResult.objects.filter(state="disputed").values_list("dispute_reason")) == [
        ("The sheet says 24.",)
    ]
    assert Match.objects.count() == len(data["matches"])

    # A second import of the same file is refused whole: nothing is written.
    with pytest.raises(CommandError, match="already has an event"):
        call_command("import_event", str(path), stdout=io.StringIO())
    assert Event.objects.count() == 1 and Championship.objects.count() == 1


def _counted_game(match: Match) -> Game:
    """A valid game between the match's players, stored as adjudication stores one, and
    counted for the match by the counting service (the report pipeline is not under test)."""
    body = match_record_body(match, seed=7)
    players = [match.entry_a.player, match.entry_b.player]
    record = GameRecord.objects.create(
        body=body,
        body_size=len(body),
        source=RecordSource.API,
        status=RecordStatus.VALID,
        seat_players=[p.pk for p in players],
        extensions={"match": match.pk},
        verdict={"valid": True, "scores": [21, 13], "winner": 0, "end": "completed"},
    )
    game = Game.objects.create(
        record=record,
        players_count=2,
        winner_seat=0,
        end_reason=EndReason.COMPLETED,
        placements=[],
        placements_count=40,
        turns=30,
        played_at=timezone.now(),
    )
    for seat, (player, score) in enumerate(zip(players, (21, 13), strict=True)):
        GameSeat.objects.create(
            game=game, seat=seat, player=player, colour=("red", "blue")[seat], score=score
        )
    assert match_game_attach(game_id=game.pk) is not None
    reported = ReportedGame.objects.create(
        fingerprint="f" * 64,
        seat_players=[p.pk for p in players],
        extensions={"match": match.pk},
        match_id=match.pk,
        state="standing",
        played_at=game.played_at,
        game=game,
    )
    first = GameReport.objects.create(
        reported_game=reported,
        number=1,
        kind="record",
        role="side",
        side_player=players[0],
        record=record,
        scores=[21, 13],
        winner_seat=0,
        end_reason="completed",
        status="confirmed",
        standing=True,
    )
    GameReport.objects.create(
        reported_game=reported,
        number=2,
        kind="ruling",
        role="controller",
        based_on=first,
        scores=[21, 13],
        winner_seat=0,
        end_reason="completed",
        status="superseded",
        reason="checked the sheet",
    )
    return game


@pytest.mark.django_db
def test_an_online_event_round_trips_its_games_with_their_records(tmp_path):
    """A counted game travels with its seats and its record, byte for byte."""
    organiser = make_organiser()
    championship = championship_create(
        actor=organiser, name="Online Cup", year=2026, published=True
    )
    event = event_create(
        actor=organiser,
        championship=championship,
        name="Final",
        format="knockout",
        games_per_match=1,
    )
    for _ in range(2):
        entry_register(actor=organiser, event=event, player=PlayerFactory())
    draw_generate(actor=organiser, event=event)
    match = Match.objects.get(event=event)
    body = bytes(_counted_game(match).record.body)
    event.refresh_from_db()
    champion = event.champion.player.display_name
    before = _snapshot(event)
    path = tmp_path / "online.json"
    path.write_text(json.dumps(event_export(event)))

    _empty_database()
    call_command("import_event", str(path), stdout=io.StringIO())
    imported = Event.objects.get()
    assert _snapshot(imported) == before
    assert imported.champion.player.display_name == champion
    game = Game.objects.get()
    assert game.event_id == imported.pk and bytes(game.record.body) == body
    assert game.record.extensions == {"match": Match.objects.get().pk}
    assert game.seats.count() == 2 and game.match_game.match.event_id == imported.pk
    # The game's reports come along, pointing at this database's rows.
    reported = ReportedGame.objects.get()
    match = Match.objects.get()
    assert reported.game_id == game.pk and reported.match_id == match.pk
    assert reported.extensions == {"match": match.pk}
    assert reported.seat_players == [s.player_id for s in game.seats.order_by("seat")]
    first, ruling = reported.versions.order_by("number")
    assert first.record_id == game.record_id and first.side_player_id == reported.seat_players[0]
    assert ruling.based_on_id == first.pk and ruling.reason == "checked the sheet"


def test_csv_exports_read_as_tables(db):
    event = _played_open()
    rows = list(csv.reader(io.StringIO(standings_csv(event))))
    assert rows[0][:5] == ["Place", "Player", "Country", "Status", "Games"]
    assert rows[0][5:9] == ["TP total", "Median Buchholz", "Sonneborn-Berger", "Number of wins"]
    assert len(rows) == 8 and [r[0] for r in rows[1:]] == [str(n) for n in range(1, 8)]
    pairings = list(csv.reader(io.StringIO(pairings_csv(event.rounds.get(number=1)))))
    assert pairings[0] == ["Round", "Table", "Player A", "Player B", "Result"]
    assert [r[1] for r in pairings[1:]] == ["1", "2", "3", "4"]  # three tables and the bye
    assert pairings[-1][3] == "bye"
    results = list(csv.reader(io.StringIO(results_csv(event))))
    assert results[0][4:7] == ["Game", "Score A", "Score B"]
    assert any(r[9] == "Resigned" and r[10] == "B" for r in results[1:])
    assert any(r[-1] == "Walkover" for r in results[1:])  # the drop-out's game


def test_import_refuses_what_is_not_an_export(tmp_path, db):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"format": "something else"}))
    with pytest.raises(CommandError, match="Not a Tantrix event export"):
        call_command("import_event", str(path), stdout=io.StringIO())
    path.write_text("{not json")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_event", str(path), stdout=io.StringIO())
    with pytest.raises(CommandError, match="There is no event"):
        call_command("export_event", "999999", stdout=io.StringIO())
