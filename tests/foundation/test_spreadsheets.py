"""The one CSV writer: cells that a spreadsheet would run as a formula are written as text,
numbers stay numbers, and no other module writes CSV by itself."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from pathlib import Path

import pytest

from tantrix_site.spreadsheets import csv_text, spreadsheet_cell

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "text",
    [
        '=HYPERLINK("http://evil.example","x")',
        "+1+cmd|' /C calc'!A0",
        "-2+3",
        "-cmd",
        "@SUM(A1:A9)",
        "\t=1+1",
        "\r=1+1",
        "\n=1+1",
        "  =1+1",
        " @x",
        "=",
        "-",
    ],
)
def test_a_cell_that_could_start_a_formula_is_written_as_text(text):
    assert spreadsheet_cell(text) == "'" + text


@pytest.mark.parametrize(
    "value",
    ["-3", "+2", "-0.5", "12", "58.33", ".5", "Ana", "Ana = Bela", "24 – 17", "", "–", "'x"],
)
def test_numbers_and_plain_text_are_left_alone(value):
    assert spreadsheet_cell(value) == value


def test_numbers_given_as_numbers_stay_numbers():
    for value in (-3, 0, Decimal("-1.5"), 2.5, None):
        assert spreadsheet_cell(value) == value


def test_the_header_and_every_row_go_through_it():
    text = csv_text(["=Place", "Player"], [[1, "@evil"], [Decimal("-3"), "-3"]])
    assert list(csv.reader(io.StringIO(text))) == [
        ["'=Place", "Player"],
        ["1", "'@evil"],
        ["-3", "-3"],
    ]


def test_no_module_writes_csv_but_the_helper():
    """Every CSV the site writes neutralises formulas: only tantrix_site/spreadsheets.py may
    call csv.writer (or DictWriter)."""
    apps = [p for p in REPO.iterdir() if (p / "__init__.py").exists() and p.name != "tests"]
    assert {"tantrix_site", "tournaments", "players", "games", "ratings"} <= {a.name for a in apps}
    writers = [
        str(path.relative_to(REPO))
        for app in apps
        for path in app.rglob("*.py")
        if re.search(r"\bcsv\.(writer|DictWriter)\b|from csv import", path.read_text())
    ]
    assert writers == ["tantrix_site/spreadsheets.py"]
