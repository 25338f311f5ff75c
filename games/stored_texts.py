"""Sentences the site stores in English and shows in the reader's language.

Stored text is never in the language of whoever happened to act (docs/translations.md): the
site stores the English sentence, its template marked with `gettext_noop`, and translates it
when a page or the API shows it. A sentence with a number or a name in it is recognised by its
English template; text a person typed, or any other, is shown as stored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal
from functools import lru_cache

from django.utils.formats import number_format
from django.utils.translation import gettext

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


@lru_cache(maxsize=64)
def _pattern(template: str) -> re.Pattern[str]:
    pieces = _PLACEHOLDER.split(template)
    # split() alternates literal text and placeholder names: text, name, text, name, text...
    # A value never holds the template's opening words: two such sentences stored one after
    # the other (two unknown players) are not one sentence with a long name.
    opening = re.escape(pieces[0]) if pieces[0] else "(?!)"
    value = f"(?:(?!{opening}).)+?"
    seen: set[str] = set()
    regex = ""
    for index, piece in enumerate(pieces):
        if index % 2 == 0:
            regex += re.escape(piece)
        elif piece in seen:
            regex += f"(?P={piece})"
        else:
            seen.add(piece)
            regex += f"(?P<{piece}>{value})"
    return re.compile(regex, re.DOTALL)


_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+")
_DECIMAL = re.compile(r"\d+\.\d+")


def reader_number(value: object) -> object:
    """A number the site wrote in English digits ("3,000", "0.5") the reader's way ("3 000",
    "0,5" in Russian); any other value as it is."""
    if isinstance(value, str):
        if _GROUPED.fullmatch(value):
            return number_format(int(value.replace(",", "")), force_grouping=True)
        if _DECIMAL.fullmatch(value):
            return number_format(Decimal(value))
    return value


def stored_text(text: str, templates: Iterable[str]) -> str:
    """`text` in the reader's language when it is one of `templates` (English, as stored),
    filled in with what the stored text says; otherwise `text` as it is."""
    for template in templates:
        if "%(" not in template:
            if text == template:
                return gettext(template)
            continue
        found = _pattern(template).fullmatch(text)
        if found:
            return gettext(template) % {k: reader_number(v) for k, v in found.groupdict().items()}
    return text
