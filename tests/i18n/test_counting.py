"""Sentences that count, in every language, for 0, 1, 2, 4, 5, 11, 12, 21, 22, 25, 101 and 111
(issue 29): each noun in the form its language's grammar gives that number, written out below
from the grammar books, not computed; and each catalogue's Plural-Forms as gettext's manual
gives them (Russian and Czech three forms, Hungarian and Turkish two).

The messages are the ones the pages and services use (the same msgids); the group stage page at
the end renders one of them for real."""

from __future__ import annotations

import re
from gettext import c2py

import polib
import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import ngettext

from tantrix_site.i18n.lint import BASE_DIR

NUMBERS = [0, 1, 2, 4, 5, 11, 12, 21, 22, 25, 101, 111]


def _forms(text: str) -> dict[int, str]:
    """ "матчей матч матча ..." → {0: "матчей", 1: "матч", ...}, one form per NUMBERS."""
    words = text.split("|")
    assert len(words) == len(NUMBERS)
    return dict(zip(NUMBERS, (w.strip() for w in words), strict=True))


# Russian: 1, 21, 101 take the nominative singular; 2-4 and 22 the genitive singular; 0, 5-20,
# 25, 111 the genitive plural.
RU = {
    "матч": _forms("матчей|матч|матча|матча|матчей|матчей|матчей|матч|матча|матчей|матч|матчей"),
    "решён": _forms(
        "Решено|Решён|Решено|Решено|Решено|Решено|Решено|Решён|Решено|Решено|Решён|Решено"
    ),
    "партия": _forms(
        "партий|партия|партии|партии|партий|партий|партий|партия|партии|партий|партия|партий"
    ),
    "игрок": _forms(
        "игроков|игрок|игрока|игрока|игроков|игроков|игроков|игрок|игрока|игроков|игрок|игроков"
    ),
    "плиткой": _forms(
        "плитками|плиткой|плитками|плитками|плитками|плитками|плитками|плиткой|плитками|"
        "плитками|плиткой|плитками"
    ),
    "размещение": _forms(
        "размещений|размещение|размещения|размещения|размещений|размещений|размещений|"
        "размещение|размещения|размещений|размещение|размещений"
    ),
    "ход": _forms("ходов|ход|хода|хода|ходов|ходов|ходов|ход|хода|ходов|ход|ходов"),
    "тур": _forms("туров|тур|тура|тура|туров|туров|туров|тур|тура|туров|тур|туров"),
    "заявка посеяна": _forms(
        "заявок посеяно|заявка посеяна|заявки посеяны|заявки посеяны|заявок посеяно|"
        "заявок посеяно|заявок посеяно|заявка посеяна|заявки посеяны|заявок посеяно|"
        "заявка посеяна|заявок посеяно"
    ),
    "минута": _forms(
        "минут|минута|минуты|минуты|минут|минут|минут|минута|минуты|минут|минута|минут"
    ),
}

# Czech: 1 takes the nominative singular, 2-4 the nominative plural, everything else (0, 5 and
# up, 21, 22, 101 too: "dvacet jedna zápasů") the genitive plural.
CS = {
    "zápas": _forms(
        "zápasů|zápas|zápasy|zápasy|zápasů|zápasů|zápasů|zápasů|zápasů|zápasů|zápasů|zápasů"
    ),
    "rozhodnut": _forms(
        "Rozhodnuto|Rozhodnut|Rozhodnuty|Rozhodnuty|Rozhodnuto|Rozhodnuto|Rozhodnuto|"
        "Rozhodnuto|Rozhodnuto|Rozhodnuto|Rozhodnuto|Rozhodnuto"
    ),
    "partie": _forms(
        "partií|partie|partie|partie|partií|partií|partií|partií|partií|partií|partií|partií"
    ),
    "hráč": _forms("hráčů|hráč|hráči|hráči|hráčů|hráčů|hráčů|hráčů|hráčů|hráčů|hráčů|hráčů"),
    "žetonem": _forms(
        "žetony|žetonem|žetony|žetony|žetony|žetony|žetony|žetony|žetony|žetony|žetony|žetony"
    ),
    "tahu": _forms("tahů|tahu|tahů|tahů|tahů|tahů|tahů|tahů|tahů|tahů|tahů|tahů"),
    "kolo": _forms("kol|kolo|kola|kola|kol|kol|kol|kol|kol|kol|kol|kol"),
    "přihláška nasazena": _forms(
        "přihlášek nasazeno|přihláška nasazena|přihlášky nasazeny|přihlášky nasazeny|"
        "přihlášek nasazeno|přihlášek nasazeno|přihlášek nasazeno|přihlášek nasazeno|"
        "přihlášek nasazeno|přihlášek nasazeno|přihlášek nasazeno|přihlášek nasazeno"
    ),
    "minuta": _forms("minut|minuta|minuty|minuty|minut|minut|minut|minut|minut|minut|minut|minut"),
}


def _same(word: str) -> dict[int, str]:
    """Hungarian and Turkish keep the noun singular after any number ("5 mérkőzés",
    "5 maç")."""
    return dict.fromkeys(NUMBERS, word)


def _render(language: str, singular: str, plural: str, n: int, **params) -> str:
    with translation.override(language):
        return ngettext(singular, plural, n) % params


MATCHES = ("%(decided)s of %(total)s matches decided", "%(decided)s of %(total)s matches decided")


@pytest.mark.parametrize("n", NUMBERS)
def test_matches_decided_agree_with_the_matches_decided(n):
    """ "решено 16 матча из 32" was the bug: the noun followed the total, not the matches it
    counts."""
    params = {"decided": n, "total": 200}
    assert _render("ru", *MATCHES, n, **params) == (f"{RU['решён'][n]} {n} {RU['матч'][n]} из 200")
    assert _render("cs", *MATCHES, n, **params) == (
        f"{CS['rozhodnut'][n]} {n} {CS['zápas'][n]} (celkem 200)"
    )
    assert _render("hu", *MATCHES, n, **params) == f"200 mérkőzésből {n} eldőlt"
    assert _render("tr", *MATCHES, n, **params) == f"200 maçtan {n} tanesi sonuçlandı"


@pytest.mark.parametrize("n", NUMBERS)
def test_games_players_and_rounds_are_counted(n):
    games = ("%(counter)s game", "%(counter)s games")
    assert _render("ru", *games, n, counter=n) == f"{n} {RU['партия'][n]}"
    assert _render("cs", *games, n, counter=n) == f"{n} {CS['partie'][n]}"
    assert _render("hu", *games, n, counter=n) == f"{n} {_same('játszma')[n]}"
    assert _render("tr", *games, n, counter=n) == f"{n} {_same('oyun')[n]}"

    players = ("%(count)s player", "%(count)s players")
    assert _render("ru", *players, n, count=n) == f"{n} {RU['игрок'][n]}"
    assert _render("cs", *players, n, count=n) == f"{n} {CS['hráč'][n]}"
    assert _render("hu", *players, n, count=n) == f"{n} játékos"
    assert _render("tr", *players, n, count=n) == f"{n} oyuncu"

    rounds = ("%(rounds)s round", "%(rounds)s rounds")
    assert _render("ru", *rounds, n, rounds=n) == f"{n} {RU['тур'][n]}"
    assert _render("cs", *rounds, n, rounds=n) == f"{n} {CS['kolo'][n]}"
    assert _render("hu", *rounds, n, rounds=n) == f"{n} forduló"
    assert _render("tr", *rounds, n, rounds=n) == f"{n} tur"


@pytest.mark.parametrize("n", NUMBERS)
def test_tiles_placements_and_turns_are_counted(n):
    tiles = ("Board with %(count)s tiles", "Board with %(count)s tiles")
    assert _render("ru", *tiles, n, count=n) == f"Поле с {n} {RU['плиткой'][n]}"
    assert _render("cs", *tiles, n, count=n) == f"Hrací plocha s {n} {CS['žetonem'][n]}"
    assert _render("hu", *tiles, n, count=n) == f"Játéktér {n} lapkával"
    assert _render("tr", *tiles, n, count=n) == f"{n} taşlı oyun alanı"

    placements = ("%(p)s placement", "%(p)s placements")
    turns = ("in %(t)s turn", "in %(t)s turns")
    assert _render("ru", *placements, n, p=n) == f"{n} {RU['размещение'][n]}"
    assert _render("ru", *turns, n, t=n) == f"за {n} {RU['ход'][n]}"
    assert _render("cs", *placements, n, p=n) == f"{n} položení"
    assert _render("cs", *turns, n, t=n) == f"během {n} {CS['tahu'][n]}"
    assert _render("hu", *placements, n, p=n) == f"{n} lerakás"
    assert _render("hu", *turns, n, t=n) == f"{n} lépésben"
    assert _render("tr", *placements, n, p=n) == f"{n} yerleştirme"
    assert _render("tr", *turns, n, t=n) == f"{n} hamlede"


@pytest.mark.parametrize("n", NUMBERS)
def test_entries_and_minutes_are_counted(n):
    seeded = ("%(count)s entries seeded by ratings", "%(count)s entries seeded by ratings")
    ru_noun, ru_verb = RU["заявка посеяна"][n].split()
    assert _render("ru", *seeded, n, count=n) == f"{n} {ru_noun} {ru_verb} по рейтингам"
    cs_noun, cs_verb = CS["přihláška nasazena"][n].split()
    assert _render("cs", *seeded, n, count=n) == f"{n} {cs_noun} {cs_verb} podle hodnocení"
    assert _render("hu", *seeded, n, count=n) == f"{n} nevezés kiemelve értékszámok alapján"
    assert _render("tr", *seeded, n, count=n) == (
        f"Reytinglere göre seri başı belirlenen {n} katılım"
    )

    minutes = (
        "%(minutes)s minute per player; penalties are claimed by the opponent",
        "%(minutes)s minutes per player; penalties are claimed by the opponent",
    )
    assert _render("ru", *minutes, n, minutes=n).startswith(f"{n} {RU['минута'][n]} на игрока")
    assert _render("cs", *minutes, n, minutes=n).startswith(f"{n} {CS['minuta'][n]} na hráče")
    assert _render("hu", *minutes, n, minutes=n).startswith(f"játékosonként {n} perc;")
    assert _render("tr", *minutes, n, minutes=n).startswith(f"oyuncu başına {n} dakika;")


# The catalogues had four forms for Czech (the third for fractions) and Russian (the fourth):
# going to three, the Czech "many" form must be the genitive plural, not the fraction's form
# ("35 povinného položení" was the bug).
CS_MANY = {
    ("%(forced)s forced placement", "%(forced)s forced placements", "forced"): (
        "povinné položení|povinná položení|povinných položení"
    ),
    ("%(active)s active", "%(active)s active", "active"): "aktivní|aktivní|aktivních",
    ("%(count)s item", "%(count)s items", "count"): "položka|položky|položek",
    ("%(event)s still has %(count)s open matches.", "%(event)s still has %(count)s open matches.",
     "count"): "otevřený zápas|otevřené zápasy|otevřených zápasů",
    ("%(count)s qualifier from %(source)s", "%(count)s qualifiers from %(source)s", "count"): (
        "kvalifikant|kvalifikanti|kvalifikantů"
    ),
}  # fmt: skip
RU_MANY = {
    ("%(forced)s forced placement", "%(forced)s forced placements", "forced"): (
        "вынужденное размещение|вынужденных размещения|вынужденных размещений"
    ),
    ("%(active)s active", "%(active)s active", "active"): "действующая|действующие|действующих",
    ("%(count)s qualifier from %(source)s", "%(count)s qualifiers from %(source)s", "count"): (
        "участник|участника|участников"
    ),
}


@pytest.mark.parametrize("n", NUMBERS)
@pytest.mark.parametrize(("language", "cases"), [("cs", CS_MANY), ("ru", RU_MANY)])
def test_every_form_of_a_counted_phrase_is_its_own(language, cases, n):
    index = PLURAL_INDEX[language][n]
    for (singular, plural, key), forms in cases.items():
        text = _render(language, singular, plural, n, **{key: n, "event": "E", "source": "Q"})
        assert f"{n} {forms.split('|')[index]}" in text, text


# gettext's manual (the "Plural forms" section) and CLDR: the form index each number takes.
PLURAL_INDEX = {
    "ru": {0: 2, 1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 21: 0, 22: 1, 25: 2, 101: 0, 111: 2},
    "cs": {0: 2, 1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 21: 2, 22: 2, 25: 2, 101: 2, 111: 2},
    "hu": {0: 1, 1: 0, 2: 1, 4: 1, 5: 1, 11: 1, 12: 1, 21: 1, 22: 1, 25: 1, 101: 1, 111: 1},
    "tr": {0: 1, 1: 0, 2: 1, 4: 1, 5: 1, 11: 1, 12: 1, 21: 1, 22: 1, 25: 1, 101: 1, 111: 1},
}
NPLURALS = {"ru": 3, "cs": 3, "hu": 2, "tr": 2}


@pytest.mark.parametrize("language", list(NPLURALS))
def test_each_catalogue_declares_its_language_s_plural_forms(language):
    catalogue = polib.pofile(str(BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"))
    header = catalogue.metadata["Plural-Forms"]
    assert re.match(rf"nplurals={NPLURALS[language]};", header), header
    assert all(len(e.msgstr_plural) == NPLURALS[language] for e in catalogue if e.msgid_plural)
    # The rule itself gives each number its form (as gettext compiles it).
    plural = c2py(header.split("plural=", 1)[1].rstrip("; \n"))
    assert {n: plural(n) for n in NUMBERS} == PLURAL_INDEX[language]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ru", "cs", "hu", "tr"])
def test_a_group_heading_counts_its_decided_matches_on_the_page(client, organiser, language):
    """Six players in two groups of three: three matches a group, the first round's decided."""
    from tests.tournaments.pages import builders
    from tournaments.models import FINAL_MATCH_STATUSES, Match

    event = builders.group_stage(organiser, builders.championship(organiser), 6, 2)
    group = Match.objects.filter(event=event, group=1)
    total = group.count()
    n = group.filter(status__in=FINAL_MATCH_STATUSES).count()
    expected = {
        "ru": f"{RU['решён'][n]} {n} {RU['матч'][n]} из {total}",
        "cs": f"{CS['rozhodnut'][n]} {n} {CS['zápas'][n]} (celkem {total})",
        "hu": f"{total} mérkőzésből {n} eldőlt",
        "tr": f"{total} maçtan {n} tanesi sonuçlandı",
    }[language]
    page = client.get(reverse("event-page", args=[event.pk]), HTTP_ACCEPT_LANGUAGE=language)
    text = " ".join(re.sub(r"<[^>]+>", " ", page.content.decode()).split())
    assert (n, total) == (1, 3) and expected in text, text[:3000]
