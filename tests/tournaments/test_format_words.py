"""The format algorithms' messages and the rounds' stored names, shown in the reader's language."""

from __future__ import annotations

import pytest

from tournaments import format_words
from tournaments.formats import FormatError, tiebreaks
from tournaments.models import Round


def test_a_format_error_is_translated_with_its_phrases(monkeypatch):
    translations = {
        "the first criterion is the score and must be TP total or match points, "
        "not %(criterion)s": "erst TP, nicht %(criterion)s",
        "Buchholz": "Buchholz-Wertung",
    }
    monkeypatch.setattr(format_words, "gettext", lambda text: translations.get(text, text))
    with pytest.raises(FormatError) as caught:
        tiebreaks.criteria_check(["buchholz"])
    assert str(caught.value).endswith("not Buchholz")
    assert format_words.format_error_text(caught.value) == "erst TP, nicht Buchholz-Wertung"


def test_stored_round_names_read_as_they_were_stored_in_english():
    assert [
        str(Round(number=n, name=name))
        for n, name in [(5, "Final"), (4, "Semi-finals"), (1, "Round of 64"), (3, "Round 3")]
    ] == ["Final", "Semi-finals", "Round of 64", "Round 3"]
    assert str(Round(number=2, name="")) == "Round 2"
    assert str(Round(number=1, name="Day one")) == "Day one"  # an imported name stays
    assert Round(number=2, name="").english_name == "Round 2"


def test_stored_round_names_are_translated_by_their_parts(monkeypatch):
    translations = {"Round of %(size)s": "1/%(size)s", "Round %(number)s": "Tour %(number)s"}
    monkeypatch.setattr(format_words, "gettext", lambda text: translations.get(text, text))
    assert format_words.round_name_text("Round of 64") == "1/64"
    assert format_words.round_name_text("Round 3") == "Tour 3"
