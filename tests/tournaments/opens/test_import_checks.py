"""`manage.py import_event` trusts nothing in its file: every value, every reference and the
organiser's authority are checked before anything is written; a refusal names each problem by
its path in the file, exits non-zero, and leaves the database exactly as it was."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import models

from games.models import GameRecord, GameSeat, ReportedGame
from players.models import Player
from players.services import PRIVATE_FIELDS
from tests.conftest import client_for
from tests.factories import PlayerFactory, UserFactory, make_organiser
from tests.tournaments.opens.test_export_import import _counted_game, _played_open, _snapshot
from tournaments.management.commands import import_event
from tournaments.models import Championship, Entry, Event, Match, TableResult
from tournaments.services import championship_create, entry_register, event_create
from tournaments.services.draws import draw_generate
from tournaments.services.event_format import CHAMPIONSHIP, EVENT, SECTIONS
from tournaments.services.exports import event_export
from tournaments.services.imports.checks import read_fields
from tournaments.services.imports.values import JSON_SHAPES

pytestmark = pytest.mark.django_db

TABLES = (Championship, Event, Player, Entry, Match, TableResult, GameRecord, ReportedGame)


def _counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in TABLES} | {
        "organisers": Championship.organisers.through.objects.count()
    }


def _run(tmp_path, data, *, organiser: str | None = None, raw: str | None = None) -> str:
    path = tmp_path / "event.json"
    path.write_text(raw if raw is not None else json.dumps(data))
    out = io.StringIO()
    extra = {"organiser": organiser} if organiser else {}
    call_command("import_event", str(path), stdout=out, **extra)
    return out.getvalue()


def _refused(tmp_path, data, *fragments: str, organiser: str | None = None, raw=None) -> str:
    """The import is refused with every fragment in its message, and nothing is written."""
    before = _counts()
    with pytest.raises(CommandError) as refused:
        _run(tmp_path, data, organiser=organiser, raw=raw)
    message = str(refused.value)
    for fragment in fragments:
        assert fragment in message, message
    assert refused.value.returncode == 1  # manage.py exits with status 1
    assert "Traceback" not in message
    assert _counts() == before
    return message


def _as_copy(data: dict) -> dict:
    """The export as a file to import beside the original: a new event of the same
    championship (an import refuses an event name the championship already has)."""
    data["event"]["name"] += " (copy)"
    return data


@pytest.fixture
def table_open_file():
    return _as_copy(event_export(_played_open()))


@pytest.fixture
def online_file():
    """A knockout final with one counted game: its record, seats and reports."""
    organiser = make_organiser()
    championship = championship_create(
        actor=organiser, name="Online Cup", year=2026, published=True
    )
    event = event_create(
        actor=organiser, championship=championship, name="Final", format="knockout"
    )
    for _ in range(2):
        entry_register(actor=organiser, event=event, player=PlayerFactory())
    draw_generate(actor=organiser, event=event)
    _counted_game(Match.objects.get(event=event))
    return _as_copy(event_export(event))


def test_deep_nesting_is_refused_with_its_path(tmp_path, table_open_file):
    data = copy.deepcopy(table_open_file)
    deep: list = []
    for _ in range(40):
        deep = [deep]
    data["event"]["countries"] = deep
    _refused(tmp_path, data, "event.countries[0][0]", "nested more than 16 levels deep")
    # Deeper than Python's JSON reader goes: refused as unreadable, not a RecursionError.
    _refused(tmp_path, None, "Cannot read", "nested too deeply", raw="[" * 100_000)


def test_wrong_types_are_named(tmp_path, table_open_file):
    data = copy.deepcopy(table_open_file)
    data["championship"]["year"] = "MMXXVI"
    data["matches"][0]["tps_a"] = 15.5
    data["rounds"][1]["number"] = "2"
    data["table_results"][0]["ending"] = None
    data["entries"][2] = "Player0002"
    data["event"]["table_open"] = "yes"
    del data["matches"][1]["round"], data["table_results"][1]["score_b"]
    _refused(
        tmp_path,
        data,
        'championship.year: must be a whole number, not text "MMXXVI"',
        "matches[0].tps_a: must be a decimal number written as text, not a number",
        'rounds[1].number: must be a whole number, not text "2"',
        "table_results[0].ending: must not be null",
        "entries[2]: must be an object, not text",
        "event.table_open: must be true or false, not text",
        "matches[1].round: is missing",
        "table_results[1].score_b: is missing",
    )


def test_enumerated_values_are_checked_against_their_choices(tmp_path, table_open_file):
    data = copy.deepcopy(table_open_file)
    data["matches"][5]["status"] = {"a": 1}
    data["matches"][6]["status"] = "x"
    data["table_results"][0]["state"] = "maybe"
    data["event"]["tiebreaks"] = ["tp_total", "luck"]
    data["players"][0]["country"] = "XX"
    message = _refused(
        tmp_path,
        data,
        "matches[5].status: must be text, not an object",
        'matches[6].status: "x" is not one of waiting, scheduled, in_progress',
        'table_results[0].state: "maybe" is not one of entered, disputed, ruled',
        "event.tiebreaks: unknown tie-break luck",
        'players[0].country: "XX" is not one of',
    )
    assert "{'a': 1}" not in message.split("matches[5]")[0]


def test_huge_numbers_and_nul_are_refused_before_anything_else(tmp_path, table_open_file):
    data = copy.deepcopy(table_open_file)
    data["matches"][0]["bracket_index"] = 10**30
    data["players"][1]["display_name"] = "Ana\x00"
    data["championship"]["name"] = "Cup\x00"
    _refused(
        tmp_path,
        data,
        "matches[0].bracket_index: is a number too large to store",
        "players[1].display_name: contains a NUL character",
        "championship.name: contains a NUL character",
    )
    _refused(tmp_path, None, "Cannot read", "NaN is not a number", raw='{"a": NaN}')
    _refused(tmp_path, None, "Cannot read", "repeats the key(s) 'a'", raw='{"a": 1, "a": 2}')


def test_ranges_lengths_and_dates_are_checked(tmp_path, table_open_file):
    data = copy.deepcopy(table_open_file)
    data["rounds"][0]["number"] = 70_000
    data["table_results"][2]["score_a"] = 85
    data["event"]["cutoff_date"] = "2026-13-01"
    data["table_results"][1]["entered_at"] = "2026-07-01T10:00:00"
    data["players"][2]["display_name"] = "x" * 41
    data["players"][3]["display_name"] = ""
    _refused(
        tmp_path,
        data,
        "rounds[0].number: 70000 is refused",
        "table_results[2].score_a: 85 is refused",
        'event.cutoff_date: "2026-13-01" is not a date (YYYY-MM-DD)',
        'table_results[1].entered_at: "2026-07-01T10:00:00" has no UTC offset',
        "players[2].display_name: is 41 characters long, longer than 40",
        "players[3].display_name: must not be empty",
    )


def test_a_record_body_must_be_strict_base64(tmp_path, online_file):
    data = copy.deepcopy(online_file)
    data["records"][0]["body"] = "not base64!"
    _refused(tmp_path, data, "records[0].body: is not valid base64")


def test_references_must_resolve_inside_the_file(tmp_path, online_file):
    """Ids of players or matches that the file does not hold are refused, never looked up
    here: an unrelated player of this database is not attached to the imported games."""
    stranger = PlayerFactory(display_name="Stranger")
    data = copy.deepcopy(online_file)
    data["records"][0]["seat_players"][1] = stranger.pk
    data["reported_games"][0]["seat_players"][0] = stranger.pk
    data["seats"][0]["player"] = stranger.pk
    data["records"][0]["extensions"] = {"match": 987654}
    data["reported_games"][0]["match_id"] = 987654
    data["matches"][0]["winner"] = 123456
    data["reports"][1]["based_on"] = 55555
    _refused(
        tmp_path,
        data,
        f"records[0].seat_players[1]: {stranger.pk} is not the id of any of the file's players",
        f"reported_games[0].seat_players[0]: {stranger.pk} is not the id of any",
        f"seats[0].player: {stranger.pk} is not the id of any of the file's players",
        "records[0].extensions.match: 987654 is not the id of any of the file's matches",
        "reported_games[0].match_id: 987654 is not the id of any of the file's matches",
        "matches[0].winner: 123456 is not the id of any of the file's entries",
        "reports[1].based_on: 55555 is not the id of any of the file's reports",
    )
    assert not GameSeat.objects.filter(player=stranger).exists()


def test_organiser_may_not_take_over_an_existing_championship(tmp_path, table_open_file):
    """The file names a championship that exists: an organiser who does not run it is refused
    (and not made its organiser); one who runs it imports into it."""
    data = copy.deepcopy(table_open_file)
    championship = Championship.objects.get(name="Table Open Cup")
    outsider = make_organiser(username="outsider")
    _refused(tmp_path, data, "does not organise it", organiser="outsider")
    assert not championship.organisers.filter(pk=outsider.pk).exists()
    # Someone without the organiser role creates no championship either.
    UserFactory(username="nobody")
    fresh = copy.deepcopy(data)
    fresh["championship"]["name"] = "A New Cup"
    _refused(
        tmp_path, fresh, "--organiser: nobody may not create championships", organiser="nobody"
    )

    owner = championship.organisers.first()
    _run(tmp_path, data, organiser=owner.username)
    imported = Event.objects.get(name="Weekend Open (copy)")
    assert imported.championship_id == championship.pk
    assert set(championship.organisers.all()) == {owner}


def test_a_good_file_imports_with_the_same_standings(tmp_path, table_open_file):
    original = Event.objects.get(name="Weekend Open")
    data = copy.deepcopy(table_open_file)
    assert set(data) == {"format", "version", "championship", "event"} | {
        section.name for section in SECTIONS
    }
    players = Player.objects.count()
    assert "Imported" in _run(tmp_path, data)
    copied = Event.objects.get(name="Weekend Open (copy)")
    before, after = _snapshot(original), _snapshot(copied)
    assert after["standings"] == before["standings"]
    assert after["standings_csv"] == before["standings_csv"]
    # The file's players are this database's players of those names: none is added.
    assert Player.objects.count() == players


def test_a_failure_while_writing_leaves_the_database_as_it_was(tmp_path, online_file):
    """Every value is fine, but the game's report clashes with one this database holds (the
    same game, by its fingerprint): refused at that row, after the event, entries, matches and
    records were written, and all of it is rolled back."""
    _refused(tmp_path, online_file, "reported_games[0]: refused by the database")
    assert not Event.objects.filter(name="Final (copy)").exists()


# --- Defect 10: the export carries public profile fields only ---------------------------------


def test_the_export_leaves_private_profile_fields_out_and_still_round_trips(tmp_path):
    organiser = make_organiser()
    championship = championship_create(
        actor=organiser, name="Private Cup", year=2026, published=True
    )
    event = event_create(
        actor=organiser, championship=championship, name="Final", format="knockout"
    )
    players = [
        PlayerFactory(language="ru", time_zone="Europe/Moscow", date_of_birth="2011-03-04"),
        PlayerFactory(language="hu", time_zone="Europe/Budapest"),
    ]
    for player in players:
        entry_register(actor=organiser, event=event, player=player)
    draw_generate(actor=organiser, event=event)
    for data in (
        event_export(event),
        client_for(organiser).get(f"/api/events/{event.pk}/export/").json(),
    ):
        text = json.dumps(data)
        for row in data["players"]:
            assert not set(row) & set(PRIVATE_FIELDS)
            assert set(row) == {
                "id",
                "display_name",
                "country",
                "first_colour",
                "second_colour",
                "is_robot",
            }
        assert "Europe/Moscow" not in text and "Europe/Budapest" not in text
        assert "2011-03-04" not in text

    # An older file that still carries them: the import never sets a private field.
    data = event_export(event)
    data["championship"]["name"] = "Private Cup, elsewhere"
    for row in data["players"]:
        row.update(display_name=row["display_name"] + " (copy)", language="tr", time_zone="UTC")
    before = Player.objects.count()
    _run(tmp_path, data)
    assert Player.objects.count() == before + len(data["players"])
    for row in data["players"]:
        copy_ = Player.objects.get(display_name=row["display_name"])
        assert (copy_.language, copy_.time_zone, copy_.date_of_birth) == ("", "", None)


def test_every_field_an_import_reads_has_its_check():
    """A new column, or a new JSON field, cannot slip through unchecked: each field the import
    reads is a reference resolved in the file, a JSON field with its shape, or a plain column
    of a type `values.field_value` checks."""
    plain = (
        models.BooleanField,
        models.IntegerField,
        models.DecimalField,
        models.FloatField,
        models.DateField,
        models.UUIDField,
        models.BinaryField,
        models.CharField,
        models.TextField,
    )
    for section in (CHAMPIONSHIP, EVENT, *SECTIONS):
        for f in read_fields(section):
            if f.name in section.refs:
                continue
            assert not f.is_relation, f"{section.name}.{f.name}: a relation with no section"
            if isinstance(f, models.JSONField):
                assert (section.model, f.name) in JSON_SHAPES, f"{section.name}.{f.name}"
            else:
                assert isinstance(f, plain), f"{section.name}.{f.name}: {type(f).__name__}"


def test_a_file_over_the_size_limit_is_not_read(tmp_path, table_open_file, monkeypatch):
    """The command reads at most `MAX_FILE_BYTES` (100 MB; lowered here so the test need not
    write a file that large) and refuses a larger file before parsing it."""
    monkeypatch.setattr(import_event, "MAX_FILE_BYTES", 2_000)
    text = json.dumps(table_open_file)
    assert len(text) > 2_000
    _refused(tmp_path, None, "Cannot read", "larger than", raw=text)
