"""The grammar a catalogue cannot choose, because it depends on the words that fill a sentence.

gettext picks the sentence and, with `ngettext`, the plural form for a number. Two Hungarian
choices depend on the very word a placeholder becomes, which no translation can know in advance:

- **The definite article**: "a" before a consonant sound, "az" before a vowel sound. A number is
  read aloud for it: "az 1. csoport", "a 2. csoport", "az 5.", "a 25-ös", "az 50.", "a 100.",
  "az 1000.". A word by its first letter; an abbreviation in capitals by the name of its first
  letter ("az MTSZ", "a WTC").
- **The suffix of a number used as a name** ("tile 25" is "a 25-ös lapka"): -es, -as, -os, -ös
  or -s after the number's last spoken word (huszon*öt* → 25-ös, *húsz* → 20-as, *száz* →
  100-as, *ezer* → 1000-es).

The Hungarian catalogue writes the customary hedge where such a choice falls, "a(z)" for the
article and "-s" after a number placeholder for the suffix ("lerakta a(z) %(tile)s-s lapkát"),
and `finish` replaces each hedge with the right form once the sentence is filled in. Every page
and API answer in Hungarian passes through `finish` (`GrammarMiddleware`), as does every notice
and email (`players.notices.services`), so a reader never sees a hedge. docs/translations.md
says how to write them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

_VOWELS = set("aáeéiíoóöőuúüű")
# Letters whose Hungarian names start with a vowel sound: ef, el, em, en, er, es, iksz, ipszilon.
_VOWEL_NAMED_LETTERS = set("FLMNRSXY")

# The -s suffix of a number by its last spoken word: the last digit when it is not 0 ...
_UNITS_SUFFIX = {1: "es", 2: "es", 3: "as", 4: "es", 5: "ös", 6: "os", 7: "es", 8: "as", 9: "es"}
# ... else the tens (tízes, húszas, harmincas, negyvenes, ötvenes, hatvanas, hetvenes,
# nyolcvanas, kilencvenes) ...
_TENS_SUFFIX = {1: "es", 2: "as", 3: "as", 4: "es", 5: "es", 6: "as", 7: "es", 8: "as", 9: "es"}


def hungarian_number_suffix(number: int) -> str:
    """The suffix that makes `number` an adjective: 25 → "ös" (25-ös), 20 → "as", 100 → "as"."""
    number = abs(number)
    if number == 0:
        return "s"  # nullás: 0-s
    if number % 10:
        return _UNITS_SUFFIX[number % 10]
    if number % 100:
        return _TENS_SUFFIX[number // 10 % 10]
    if number % 1000:
        return "as"  # száz, kétszáz...: 100-as, 300-as
    if number % 1_000_000:
        return "es"  # ezer: 1000-es, 25 000-es
    if number % 1_000_000_000:
        return "s"  # millió: 1 000 000-s
    return "os"  # milliárd


def _number_takes_az(digits: str) -> bool:
    """Whether the number written `digits` is read starting with a vowel.

    Hungarian reads a number by groups of three digits from the left; only "egy" (1, and the
    1 of 1 000 000), "ezer" (1000, said without "egy") and every "öt" (5, 50, 500, 5000...)
    start with a vowel."""
    digits = digits.lstrip("0") or "0"
    first = digits[0]
    return first == "5" or (first == "1" and len(digits) % 3 == 1)


def hungarian_article(following: str) -> str:
    """ "a" or "az" before `following`, the text that comes next (read from its first word)."""
    word = _first_word(following)
    if not word:
        return "a"
    if word[0].isdigit():
        return "az" if _number_takes_az(word) else "a"
    if len(word) > 1 and word.isupper():
        return "az" if word[0] in _VOWEL_NAMED_LETTERS or word[0].lower() in _VOWELS else "a"
    return "az" if word[0].lower() in _VOWELS else "a"


# What may stand between an article and its word: spaces, tags, opening quotes and brackets.
_LEAD = re.compile(r"(?:\s|<[^>]*>|[\"'„“”«»(\[])*")
# A number, its groups of three perhaps separated by a (no-break, thin) space, or a word.
_WORD = re.compile(r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?!\d)|\d+|\w+")


def _first_word(text: str) -> str:
    """The first word of `text` past tags and opening quotes; a number with its digits only."""
    found = _WORD.match(text, _LEAD.match(text).end())
    if not found:
        return ""
    word = found.group()
    return re.sub(r"\D", "", word) if word[0].isdigit() else word


_ARTICLE_HEDGE = re.compile(r"(?<!\w)([Aa])\(z\)")
_SUFFIX_HEDGE = re.compile(r"(?<![\w.,])(\d+)-s(?!\w)")


def finish_hungarian(text: str) -> str:
    """`text` with each "a(z)" hedge made the article its next word takes, and each "-s" after
    a number made that number's suffix: "A(z) 1. csoport", "a(z) 25-s" → "Az 1. csoport",
    "a 25-ös"."""
    if "-s" in text:
        text = _SUFFIX_HEDGE.sub(
            lambda m: f"{m.group(1)}-{hungarian_number_suffix(int(m.group(1)))}", text
        )
    if "(z)" not in text:
        return text
    return _ARTICLE_HEDGE.sub(
        lambda m: (m.group(1) + hungarian_article(text[m.end() :])[1:]),
        text,
    )


def lowercase(text: str, language: str | None = None) -> str:
    """`text` in lower case by the rules of `language` (default: the active one). Turkish has
    two i's: "I" lowers to "ı" and "İ" to "i", where str.lower() would give "i" and "i̇" (an i
    with a second dot), so "İsviçre sistemi" becomes "isviçre sistemi", not "i̇sviçre sistemi"."""
    text = str(text)
    if (language or translation.get_language() or "")[:2] in ("tr", "az"):
        text = text.replace("I", "ı").replace("İ", "i")
    return text.lower()


# The languages whose sentences need finishing, and how.
_FINISHERS: dict[str, Callable[[str], str]] = {"hu": finish_hungarian}


def finish(text: str, language: str | None = None) -> str:
    """`text`, written in `language` (default: the active one), with its grammar finished."""
    finisher = _FINISHERS.get((language or translation.get_language() or "")[:2])
    return finisher(text) if finisher and text else text


class GrammarMiddleware:
    """Finishes the grammar of every page and API answer written in a language that needs it
    (Hungarian articles and number suffixes): one place, so no page can show a hedge."""

    _TEXT_TYPES = ("text/html", "application/json")

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        language = (response.get("Content-Language") or translation.get_language() or "")[:2]
        if (
            language in _FINISHERS
            and not response.streaming
            and response.get("Content-Type", "").startswith(self._TEXT_TYPES)
        ):
            charset = response.charset or "utf-8"
            text = response.content.decode(charset)
            finished = finish(text, language)
            if finished != text:
                response.content = finished.encode(charset)
                if response.has_header("Content-Length"):
                    response["Content-Length"] = str(len(response.content))
        return response
