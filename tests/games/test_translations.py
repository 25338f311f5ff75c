"""Games pages and answers in the reader's language (issue 15): sentences built at display time
from stored codes and numbers, stored texts kept in English."""

import json

import pytest
from django.test import Client
from django.utils import translation
from django.utils.functional import lazy
from django.utils.html import escape

from games import stored_texts
from games.engine.places import place_from
from games.models import Game, GameRecord
from games.records import refusals, verdicts
from games.records.refusals import Refusal
from games.replays.viewer import replay_view
from games.reports import notes
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.games.helpers import (
    as_body,
    colour_mismatch_record,
    confirm_open_reports,
    selfplay_record,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def mismatch(django_capture_on_commit_callbacks):
    ingrid = PlayerFactory(display_name="Ingrid", with_user=True)
    PlayerFactory(display_name="Tomas", with_user=True)
    body = as_body(colour_mismatch_record(["Ingrid", "Tomas"]))
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(ingrid.user).generic(
            "POST", "/api/games/records/", body, content_type="application/json"
        )
    record = GameRecord.objects.get(pk=response.data["id"])
    assert record.error_code == "COLOUR_MISMATCH"
    return ingrid, record


def built_sentence(record: GameRecord) -> str:
    """The sentence for the record's colour mismatch, from the catalogue's msgid in the active
    language (the English msgid when no language is active), with the record's own numbers and
    its cell and turn in words."""
    document = json.loads(record.body_bytes)
    first, placement = document["placements"][0], document["placements"][1]
    msgid = (
        "Placement %(number)s: %(name)s placed tile %(tile)s %(where)s, %(turn)s, and an edge "
        "colour differs from the tile it touches."
    )
    where = place_from(placement["q"], placement["r"], (first["q"], first["r"]))
    return translation.gettext(msgid) % {
        "number": 2,
        "name": document["players"][placement["player"]]["name"],
        "tile": placement["tile"],
        "where": verdicts.place_words(where),
        "turn": verdicts.turn_words(placement["rotation"]),
    }


def test_the_record_page_keeps_the_engine_sentence_in_english(mismatch):
    ingrid, record = mismatch
    client = Client()
    client.force_login(ingrid.user)
    page = client.get(f"/games/records/{record.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # The engine's own sentence, its cell and turn in words (the stored one keeps q, r).
    document = json.loads(record.body_bytes)
    first = (document["placements"][0]["q"], document["placements"][0]["r"])
    sentence = verdicts.english_sentence(record.error_message, first)
    assert sentence.startswith("Placement 2 (tile ") and "1 step " in sentence
    assert "q=" in record.error_message and "q=" not in sentence and "rotation" not in sentence
    assert escape(sentence) in page
    assert "q=" not in page
    assert built_sentence(record) not in page


def test_the_record_page_builds_the_sentence_for_another_language(mismatch):
    ingrid, record = mismatch
    client = Client()
    client.force_login(ingrid.user)
    page = client.get(f"/games/records/{record.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    with translation.override("ru"):
        sentence = built_sentence(record)
    assert sentence.startswith("Размещение 2")  # the Russian catalogue's, with the numbers
    assert "на 1 клетку к " in sentence and " от первой плитки, " in sentence
    assert escape(sentence) in page
    assert "q=" not in page
    assert verdicts.error_text(record.error_message) not in page


def test_the_api_error_message_follows_accept_language(mismatch):
    ingrid, record = mismatch
    client = client_for(ingrid.user)
    english = client.get(f"/api/games/records/{record.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    document = json.loads(record.body_bytes)
    first = (document["placements"][0]["q"], document["placements"][0]["r"])
    # People read the message: its cell in words; the numbers stay in the record for programs.
    assert english.data["error"]["message"] == verdicts.english_sentence(
        record.error_message, first
    )
    assert "q=" not in english.data["error"]["message"]
    assert english.data["error"]["placement"] == 2
    other = client.get(f"/api/games/records/{record.pk}/", HTTP_ACCEPT_LANGUAGE="ru")
    with translation.override("ru"):
        assert other.data["error"]["message"] == built_sentence(record)
    assert other.data["error"]["code"] == "COLOUR_MISMATCH"


def test_the_replay_words_are_made_per_reader_not_cached(mismatch):
    _ingrid, record = mismatch
    with translation.override("ru"):
        assert replay_view(record).illegal["reason"] == built_sentence(record)
        assert built_sentence(record) != record.error_message
    with translation.override("en"):
        view = replay_view(record)
    document = json.loads(record.body_bytes)
    first = (document["placements"][0]["q"], document["placements"][0]["r"])
    assert view.illegal["reason"] == verdicts.english_sentence(record.error_message, first)
    assert "q=" not in view.illegal["reason"]
    assert view.data["words"]["start"] == "Before the first placement"


def test_a_sentence_without_its_numbers_falls_back_to_the_stored_one():
    with translation.override("ru"):
        assert verdicts.placement_sentence(code="COLOUR_MISMATCH", number=2) is None
        assert verdicts.placement_sentence(code="MALFORMED", number=2) is None
        assert verdicts.record_placement_sentence(b"not json", {"code": "OCCUPIED"}) is None
    with translation.override("en"):
        assert (
            verdicts.placement_sentence(
                code="OCCUPIED", number=1, name="A", tile=1, q=0, r=0, rotation=0
            )
            is None
        )


def test_a_refusal_is_stored_in_english_and_answered_in_the_readers_language():
    spoken = lazy(lambda: translation.get_language(), str)()
    refusal = Refusal("MALFORMED", {"record": [spoken]})
    with translation.override("ru"):
        assert refusal.message == "record: en"
        assert refusal.answer_errors() == {"record": ["ru"]}


def test_site_notes_are_stored_in_english_and_typed_notes_shown_as_typed():
    assert notes.auto_confirmed(48) == ("Nobody answered within 48 hours: confirmed automatically.")
    with translation.override("ru"):
        # Shown in the reader's language from the stored English, the number written the
        # reader's way (0,5 in Russian, where the stored English says 0.5).
        shown = notes.note_text(notes.auto_confirmed(0.5))
        assert shown == translation.gettext(
            "Nobody answered within %(hours)s hours: confirmed automatically."
        ) % {"hours": "0,5"}
        assert "0,5" in shown and "Nobody" not in shown
        assert notes.note_text(notes.SAME_REPORT) == translation.gettext(
            "Confirmed by the same report."
        )
        assert notes.note_text(notes.SAME_REPORT) != "Confirmed by the same report."
        assert notes.note_text("They played on after time") == "They played on after time"


def pretend_catalogue(monkeypatch):
    """A catalogue for the test: every known sentence comes back marked, placeholders kept."""
    monkeypatch.setattr(stored_texts, "gettext", lambda text: "«" + text + "»")


def test_a_stored_refusal_is_read_back_in_the_readers_language(monkeypatch):
    pretend_catalogue(monkeypatch)
    too_large = Refusal(
        "TOO_LARGE",
        {
            "record": [
                refusals.refusal_message(refusals.TOO_LARGE_TEXT, size="3,000", limit="2,048")
            ]
        },
    ).message
    assert too_large == (
        "record: The record is 3,000 bytes; the limit is 2,048 bytes. "
        "Only its first 2,048 bytes are kept."
    )
    assert verdicts.error_text(too_large) == (
        "«The record is 3,000 bytes; the limit is 2,048 bytes. "
        "Only its first 2,048 bytes are kept.»"
    )
    assert verdicts.error_text("players: The same player cannot take two seats.") == (
        "«The same player cannot take two seats.»"
    )
    # Two unknown players are two sentences, not one with a long name: left as stored.
    two = Refusal(
        "UNKNOWN_PLAYER",
        {
            "players": [
                refusals.refusal_message(refusals.UNKNOWN_PLAYER_TEXT, name='"Ann"'),
                refusals.refusal_message(refusals.UNKNOWN_PLAYER_TEXT, name='"Bob"'),
            ]
        },
    ).message
    assert "«" not in verdicts.error_text(two)
    # The engine's own sentences are not the site's: as stored.
    assert verdicts.error_text("placements[3].tile: expected 1..56") == (
        "Placements[3].tile: expected 1..56."
    )


def test_a_typed_note_is_never_taken_for_a_site_note(monkeypatch):
    pretend_catalogue(monkeypatch)
    assert notes.note_text(notes.auto_confirmed(48)) == (
        "«Nobody answered within 48 hours: confirmed automatically.»"
    )
    assert notes.note_text("Nobody answered within a day, sadly.") == (
        "Nobody answered within a day, sadly."
    )


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_games_pages_render_in_every_language(language, django_capture_on_commit_callbacks):
    ingrid = PlayerFactory(display_name="Ingrid", with_user=True)
    PlayerFactory(display_name="Tomas", with_user=True)
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(ingrid.user).generic(
            "POST",
            "/api/games/records/",
            as_body(selfplay_record(7, ["Ingrid", "Tomas"])),
            content_type="application/json",
        )
    record = GameRecord.objects.get(pk=response.data["id"])
    reported_id = record.report.reported_game_id
    confirm_open_reports()
    game = Game.objects.get(record=record)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(ingrid.user)
    for url in (
        f"/games/{game.pk}/",
        "/games/",
        f"/games/records/{record.pk}/",
        "/games/records/",
        "/games/submit/",
        f"/games/reports/{reported_id}/",
        "/games/reports/",
        "/games/score-sheet/",
    ):
        page = client.get(url)
        assert page.status_code == 200, url
        assert page["Content-Language"].startswith(language), url
    title = client.get(f"/games/reports/{reported_id}/").content.decode()
    with translation.override(language):
        versus = " {} ".format(translation.pgettext("versus, between players' names", "v"))
        versus = versus.join(["Ingrid", "Tomas"])
        heading = translation.gettext("Game result: %(players)s") % {"players": versus}
    assert escape(heading) in title


def test_a_report_notice_is_written_in_its_readers_language(
    monkeypatch, django_capture_on_commit_callbacks
):
    from games.reports import notify

    told = []
    monkeypatch.setattr(
        notify,
        "notice_send",
        lambda *, user, text, **about: told.append(
            (user.username, translation.get_language(), text)
        ),
    )
    ingrid = PlayerFactory(display_name="Ingrid", with_user=True)
    tomas = PlayerFactory(display_name="Tomas", with_user=True, language="ru")
    with django_capture_on_commit_callbacks(execute=True):
        client_for(ingrid.user).generic(
            "POST",
            "/api/games/records/",
            as_body(selfplay_record(7, ["Ingrid", "Tomas"])),
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE="en",
        )
    assert [(user, language) for user, language, _text in told] == [(tomas.user.username, "ru")]
    with translation.override("ru"):
        versus = " {} ".format(translation.pgettext("versus, between players' names", "v"))
        versus = versus.join(["Ingrid", "Tomas"])
        expected = translation.gettext(
            "%(who)s reported the game %(game)s. Please confirm or dispute it."
        ) % {"who": "Ingrid", "game": versus}
    assert told[0][2] == expected and "reported" not in expected
