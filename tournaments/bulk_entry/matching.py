"""Reading a pasted list or a CSV of names, and close suggestions for a name (Django-free).

A line is a name, optionally followed by a country code after a comma, a semicolon or a tab
("Ana Kovač, HR"). A CSV has a name column and optionally a country column, named by a header
row ("name", "country") or taken as the first two columns.
"""

from __future__ import annotations

import csv
import difflib
import io
import re
import unicodedata
from collections.abc import Collection, Iterable
from dataclasses import dataclass

MAX_LINES = 500
NAME_MAX = 40  # Player.display_name
_COUNTRY = re.compile(r"^[A-Za-z]{2}$")
_SEPARATORS = re.compile(r"\s*[,;\t]\s*")
NAME_HEADERS = {"name", "player", "display name", "display_name", "names"}
COUNTRY_HEADERS = {"country", "country code", "country_code", "nation"}


@dataclass(frozen=True)
class Line:
    number: int  # 1-based, as the organiser counts them
    name: str
    country: str  # an upper-case ISO code, or "" when none was given


@dataclass(frozen=True)
class Candidate:
    id: int
    name: str
    country: str


class TooManyLines(ValueError):
    pass


def _clean_name(text: str) -> str:
    return " ".join(text.split())[:NAME_MAX]


def _is_country(text: str, countries: Collection[str] | None) -> bool:
    text = text.strip()
    return bool(_COUNTRY.match(text)) and (countries is None or text.upper() in countries)


def _line(number: int, name: str, country: str = "") -> Line:
    country = country.strip()
    return Line(number, _clean_name(name), country.upper() if _COUNTRY.match(country) else "")


def parse_pasted(text: str, countries: Collection[str] | None = None) -> list[Line]:
    """One name a line, blank lines skipped; a trailing field that is a country code (one of
    `countries`, when given: "O'Neil, Jr" keeps its "Jr") is the country."""
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        fields = [f for f in _SEPARATORS.split(raw.strip()) if f]
        if not fields:
            continue
        if len(fields) > 1 and _is_country(fields[-1], countries):
            lines.append(_line(number, " ".join(fields[:-1]), fields[-1]))
        else:
            lines.append(_line(number, " ".join(fields)))
    if len(lines) > MAX_LINES:
        raise TooManyLines(len(lines))
    return lines


def parse_csv(text: str) -> list[Line]:
    """A CSV (comma, semicolon or tab separated), with or without a header row."""
    sample = text[:4096]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = list(csv.reader(io.StringIO(text), dialect))
    name_col, country_col, start = 0, 1, 0
    if rows:
        header = [cell.strip().lower() for cell in rows[0]]
        if any(cell in NAME_HEADERS for cell in header):
            name_col = next(i for i, cell in enumerate(header) if cell in NAME_HEADERS)
            country_col = next((i for i, cell in enumerate(header) if cell in COUNTRY_HEADERS), -1)
            start = 1
    lines = []
    for number, row in enumerate(rows[start:], start=start + 1):
        name = row[name_col].strip() if len(row) > name_col else ""
        if not name:
            continue
        country = row[country_col] if 0 <= country_col < len(row) else ""
        lines.append(_line(number, name, country))
    if len(lines) > MAX_LINES:
        raise TooManyLines(len(lines))
    return lines


def folded(name: str) -> str:
    """A name compared without case, accents or spacing ("Kovač" finds "kovac")."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def suggestions(
    line: Line, candidates: Iterable[Candidate], *, limit: int = 3, cutoff: float = 0.72
) -> list[Candidate]:
    """The candidates closest to the line's name, best first; one of the line's country ranks
    above an equally close one of another (the country is a hint, not a filter)."""
    wanted = folded(line.name)
    matcher = difflib.SequenceMatcher(b=wanted, autojunk=False)
    scored = []
    for candidate in candidates:
        matcher.set_seq1(folded(candidate.name))
        if matcher.real_quick_ratio() < cutoff or matcher.quick_ratio() < cutoff:
            continue
        ratio = matcher.ratio()
        # Surname first ("Kovač Ana") is the same person written the other way round.
        if ratio < cutoff:
            reversed_name = " ".join(reversed(folded(candidate.name).split()))
            ratio = difflib.SequenceMatcher(a=reversed_name, b=wanted, autojunk=False).ratio()
        if ratio >= cutoff:
            same_country = bool(line.country) and candidate.country == line.country
            scored.append((ratio + (0.05 if same_country else 0), candidate.name, candidate))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [candidate for _score, _name, candidate in scored[:limit]]
