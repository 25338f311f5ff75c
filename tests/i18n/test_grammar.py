"""The grammar chosen from the words that fill a sentence (issue 29): the Hungarian article and
number suffix, Turkish lower case, and the pages that apply them."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils import translation

from tantrix_site.i18n.grammar import (
    GrammarMiddleware,
    finish,
    finish_hungarian,
    hungarian_article,
    hungarian_number_suffix,
    lowercase,
)

# How each number is read aloud decides the article: egy, öt, ötven, ötszáz, ezer, egymillió
# start with a vowel; kettő, tíz, tizenegy, száz, kétezer... with a consonant.
ARTICLES = {
    0: "a", 1: "az", 2: "a", 3: "a", 4: "a", 5: "az", 6: "a", 7: "a", 8: "a", 9: "a",
    10: "a", 11: "a", 12: "a", 15: "a", 19: "a", 20: "a", 21: "a", 25: "a", 40: "a",
    50: "az", 51: "az", 56: "az", 60: "a", 99: "a", 100: "a", 101: "a", 111: "a", 150: "a",
    500: "az", 512: "az", 1000: "az", 1999: "az", 2000: "a", 5000: "az", 10000: "a",
    15000: "a", 50000: "az", 100000: "a", 500000: "az", 1000000: "az", 2000000: "a",
}  # fmt: skip

# The -s suffix of a number named like a tile ("a 25-ös lapka"): by its last spoken word.
SUFFIXES = {
    0: "s", 1: "es", 2: "es", 3: "as", 4: "es", 5: "ös", 6: "os", 7: "es", 8: "as", 9: "es",
    10: "es", 11: "es", 13: "as", 20: "as", 25: "ös", 26: "os", 30: "as", 40: "es", 50: "es",
    56: "os", 60: "as", 70: "es", 80: "as", 90: "es", 100: "as", 200: "as", 1000: "es",
    2000: "es", 1000000: "s",
}  # fmt: skip


@pytest.mark.parametrize(("number", "article"), ARTICLES.items())
def test_the_hungarian_article_follows_how_the_number_is_read(number, article):
    assert hungarian_article(str(number)) == article
    assert hungarian_article(f"{number}. csoport") == article  # the ordinal reads the same


@pytest.mark.parametrize(
    ("word", "article"),
    [
        ("Anna", "az"), ("Béla", "a"), ("Éva", "az"), ("Öcsi", "az"), ("csoport", "a"),
        ("Hungarian Open", "a"), ("elődöntő", "az"), ("WTC", "a"), ("MTSZ", "az"),
        ("SZTE", "az"), ("FIDE", "az"), ("<a href='/x'>Ulm Open</a>", "az"), ("„Kata”", "a"),
        ("1 000", "az"), ("25 000", "a"),
    ],
)  # fmt: skip
def test_the_hungarian_article_follows_the_first_sound_of_a_word(word, article):
    assert hungarian_article(word) == article


@pytest.mark.parametrize(("number", "suffix"), SUFFIXES.items())
def test_a_hungarian_number_takes_the_suffix_of_its_last_word(number, suffix):
    assert hungarian_number_suffix(number) == suffix


def test_the_hedges_of_a_hungarian_sentence_are_resolved_once_it_is_filled_in():
    assert finish_hungarian("A(z) 1. csoport mérkőzései") == "Az 1. csoport mérkőzései"
    assert finish_hungarian("A(z) 2. csoport mérkőzései") == "A 2. csoport mérkőzései"
    assert finish_hungarian("Anna lerakta a(z) 25-s lapkát") == "Anna lerakta a 25-ös lapkát"
    assert finish_hungarian("lerakta a(z) 5-s lapkát") == "lerakta az 5-ös lapkát"
    assert finish_hungarian("lerakta a(z) 50-s lapkát") == "lerakta az 50-es lapkát"
    assert finish_hungarian("a(z) <a href='/e/1'>Ulm Open</a> legjobb 8 résztvevője") == (
        "az <a href='/e/1'>Ulm Open</a> legjobb 8 résztvevője"
    )
    # Text with no hedge is left alone, a hyphenated word included.
    assert finish_hungarian("3-szor a kék-sárga vonal") == "3-szor a kék-sárga vonal"


def test_only_hungarian_text_is_finished():
    assert finish("A(z) 1. csoport", "hu") == "Az 1. csoport"
    assert finish("A(z) 1. csoport", "ru") == "A(z) 1. csoport"
    with translation.override("hu"):
        assert finish("a(z) 12-s tábla") == "a 12-es tábla"


def test_turkish_lower_case_keeps_its_two_is():
    assert lowercase("İsviçre sistemi", "tr") == "isviçre sistemi"
    assert lowercase("IRMAK", "tr") == "ırmak"
    assert lowercase("İsviçre", "en") != "isviçre"  # elsewhere Python's rule stands
    assert lowercase("Visszalépett", "hu") == "visszalépett"


@pytest.mark.parametrize("content_type", ["text/html; charset=utf-8", "application/json"])
def test_the_middleware_finishes_hungarian_pages_and_answers(content_type):
    def view(request):
        response = HttpResponse("A(z) 1. csoport – a(z) 25-s lapka", content_type=content_type)
        response["Content-Language"] = "hu"
        response["Content-Length"] = str(len(response.content))
        return response

    response = GrammarMiddleware(view)(RequestFactory().get("/"))
    assert response.content.decode() == "Az 1. csoport – a 25-ös lapka"
    assert response["Content-Length"] == str(len(response.content))


def test_the_middleware_leaves_other_languages_and_downloads_alone():
    def page(request, language="ru", content_type="text/html"):
        response = HttpResponse("A(z) 1", content_type=content_type)
        response["Content-Language"] = language
        return response

    middleware = GrammarMiddleware(page)
    assert middleware(RequestFactory().get("/")).content == b"A(z) 1"
    csv = GrammarMiddleware(lambda r: page(r, "hu", "text/csv"))(RequestFactory().get("/"))
    assert csv.content == b"A(z) 1"
