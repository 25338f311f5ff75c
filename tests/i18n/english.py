"""What counts as English left on a page read in another language.

The site's own English is its source strings: a word (three letters or more) that appears in a
msgid of the language's catalogue and in none of its translations, and is not part of a name the
data holds (players, championships, events, teams, places), is English that escaped translation.
A short list of everyday English words catches prose that was never marked at all.
"""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser

import polib

from tantrix_site.i18n.lint import BASE_DIR

_WORD = re.compile(r"[^\W\d_]{3,}")
_PLACEHOLDER = re.compile(r"%\(\w+\)[sdfi]|%[sdfi]|\{\w*\}")
EVERYDAY_ENGLISH = {
    "the", "and", "for", "with", "this", "that", "you", "your", "are", "not", "has", "have",
    "was", "will", "from", "there", "which", "when", "their", "been", "who", "what", "its",
}  # fmt: skip


@cache
def english_words(language: str) -> frozenset[str]:
    catalogue = polib.pofile(str(BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"))
    source: set[str] = set(EVERYDAY_ENGLISH)
    translated: set[str] = set()
    for entry in catalogue:
        for text in (entry.msgid, entry.msgid_plural):
            source.update(w.lower() for w in _WORD.findall(_PLACEHOLDER.sub(" ", text or "")))
        for text in (entry.msgstr, *entry.msgstr_plural.values()):
            translated.update(w.lower() for w in _WORD.findall(_PLACEHOLDER.sub(" ", text)))
    return frozenset(source - translated)


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "wbr"}


class _VisibleText(HTMLParser):
    _HIDDEN = {"script", "style", "code", "pre", "kbd", "samp", "template"}
    _READ = {"title", "alt", "placeholder", "aria-label"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._hidden = 0
        self._open: list[str] = []  # tags opened inside a hidden element, to close it right

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        # Text the page itself declares English (a document kept in English) is not left over.
        declared_english = (attributes.get("lang") or "").startswith("en") and tag != "html"
        if tag in self._HIDDEN or declared_english or self._hidden:
            if tag not in _VOID:
                self._hidden += 1
                self._open.append(tag)
            return
        # A JSON sample in a placeholder is code, like <code>, not prose.
        self.texts += [
            value
            for name, value in attrs
            if name in self._READ and value and not value.lstrip().startswith(("{", "["))
        ]
        if tag == "input" and attributes.get("type") in {"submit", "button"}:
            self.texts.append(attributes.get("value") or "")

    def handle_endtag(self, tag):
        if self._open and self._open[-1] == tag:
            self._open.pop()
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.texts.append(data)


def visible_text(page_html: str) -> str:
    parser = _VisibleText()
    parser.feed(page_html)
    return " ".join(" ".join(parser.texts).split())


def english_left(text: str, language: str, names: set[str]) -> list[str]:
    """The English words in `text` (visible text of a page in `language`), names aside."""
    english = english_words(language)
    return sorted(
        {w for w in _WORD.findall(text) if w.lower() in english and w.lower() not in names}
    )


def name_words(*texts: str) -> set[str]:
    """The words of names: the given ones, plus the names every page may show as they are, the
    time zones (IANA's, such as America/Swift_Current) and each language's name in itself."""
    from zoneinfo import available_timezones

    from django.conf import settings

    fixed = [zone.replace("_", " ") for zone in available_timezones()]
    fixed += [name for _code, name in settings.LANGUAGES]
    return {w.lower() for text in (*texts, *fixed) for w in _WORD.findall(text or "")}
