"""Reading a list of names and suggesting close ones (pure, no database)."""

from __future__ import annotations

import pytest

from tournaments.bulk_entry.matching import (
    Candidate,
    Line,
    TooManyLines,
    folded,
    parse_csv,
    parse_pasted,
    suggestions,
)


def test_pasted_lines_take_an_optional_country_and_skip_blanks():
    text = "Ana Kovač, hr\n\n  Bela   Tóth ;HU\nMatilda Thompson\nO'Neil, Jr\n"
    lines = parse_pasted(text, countries={"HR", "HU", "NZ"})
    assert lines == [
        Line(1, "Ana Kovač", "HR"),
        Line(3, "Bela Tóth", "HU"),
        Line(4, "Matilda Thompson", ""),
        Line(5, "O'Neil Jr", ""),  # "Jr" is no country code: part of the name
    ]


def test_csv_with_a_header_in_any_order_and_without_one():
    with_header = "country;name\nDE;Lena Vogel\n;Jonas Weber\n"
    assert parse_csv(with_header) == [Line(2, "Lena Vogel", "DE"), Line(3, "Jonas Weber", "")]
    assert parse_csv("Lena Vogel,DE\nJonas Weber,AT\n") == [
        Line(1, "Lena Vogel", "DE"),
        Line(2, "Jonas Weber", "AT"),
    ]


def test_too_many_lines_are_refused():
    with pytest.raises(TooManyLines):
        parse_pasted("\n".join(f"Player {n}" for n in range(501)))


def test_folded_names_ignore_case_accents_and_spacing():
    assert folded("  Ana   KOVAČ ") == folded("ana kovac")


def test_suggestions_are_close_names_best_first_and_the_country_breaks_ties():
    candidates = [
        Candidate(1, "Matilda Thompson", "NZ"),
        Candidate(2, "Matilda Thomson", "GB"),
        Candidate(3, "Noah Williams", "NZ"),
        Candidate(4, "Thompson Matilda", "US"),
    ]
    found = [c.id for c in suggestions(Line(1, "Matilda Tompson", "NZ"), candidates)]
    assert found[0] == 1 and 2 in found and 3 not in found
    # Equally close, the line's country comes first.
    twins = [Candidate(5, "Jan Novak", "SK"), Candidate(6, "Jan Novak", "CZ")]
    assert [c.id for c in suggestions(Line(1, "Jan Nowak", "CZ"), twins)] == [6, 5]
    # Written surname first, it is still found.
    assert 1 in [c.id for c in suggestions(Line(1, "Thompson Matilda", ""), candidates[:1])]
    assert suggestions(Line(1, "Zed", ""), candidates) == []
