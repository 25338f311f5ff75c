"""CSV files for spreadsheets, written so that no cell runs as a formula ("CSV injection").

A spreadsheet that opens a CSV treats a cell starting with ``=``, ``+``, ``-`` or ``@`` (and, in
some, a tab or a line break before one) as a formula: a player named
``=HYPERLINK("http://evil.example","x")`` would become a live link, and worse formulas can
fetch data or run commands. Every CSV the site writes goes through `csv_text`, which passes
each cell through `spreadsheet_cell` (a test keeps other modules from calling `csv.writer`).

**Decision** (docs/organisers.md, "Exports and imports"), after OWASP's advice on CSV
injection: a text cell that starts with one of those characters, or with spaces before ``=``,
``+``, ``-`` or ``@``, gets a single quote in front of it (``'=HYPERLINK(...)``), which
spreadsheets show as text. A cell that is a plain number, negative or not (``-3``, ``+2``,
``-0.5``), is left as it is: a spreadsheet reads it as that number and nothing else, so a
tie-break of ``-3`` stays a number people can sort and add. Numbers passed as numbers (ints,
Decimals) are written as they are.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

# What makes a spreadsheet read a cell as a formula (OWASP: = + - @, tab, carriage return;
# a line feed too, which some spreadsheets treat like a carriage return).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
# A number and nothing else: read as a value, never as a formula.
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")


def spreadsheet_cell(value: Any) -> Any:
    """The cell as a spreadsheet should read it: text that could start a formula is quoted."""
    if value is None or isinstance(value, bool | int | float | Decimal):
        return value
    text = str(value)
    if _PLAIN_NUMBER.fullmatch(text):
        return text
    if text.startswith(_FORMULA_START) or text.lstrip(" ").startswith(_FORMULA_START[:4]):
        return "'" + text
    return text


def csv_text(header: Iterable[Any], rows: Iterable[Iterable[Any]]) -> str:
    """A CSV document (header line, then the rows), every cell made safe for spreadsheets."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([spreadsheet_cell(cell) for cell in header])
    writer.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
    return out.getvalue()
