"""The words of tournaments as each language's own tournaments use them (issue 29): the language
switcher, knockout round names, tie-break sentences, dates, Hungarian articles on real pages,
and no guessed gender."""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import polib
import pytest
from django.urls import reverse
from django.utils import formats, translation

from ratings.history.charts import history_chart
from tantrix_site.i18n.lint import BASE_DIR
from tournaments.format_words import early_round_style, round_name_text
from tournaments.formats.labels import knockout_round_names
from tournaments.models import Round
from tournaments.standings import criteria_ranked_by
from tournaments.templatetags.open_tags import tiebreak_sentence

LANGUAGES = ["en-gb", "ru", "hu", "cs", "tr"]
SWITCHER = [
    ("en-gb", "English"),
    ("ru", "Русский"),
    ("hu", "Magyar"),
    ("cs", "Čeština"),
    ("tr", "Türkçe"),
]


def switcher_options(page: str) -> list[tuple[str, str]]:
    select = re.search(r'<select name="language" id="site-language">(.*?)</select>', page, re.S)
    assert select, "the page has no language switcher"
    return re.findall(r'<option value="([^"]+)" lang="\1"[^>]*>([^<]+)</option>', select.group(1))


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("path", ["/", "/championships/", "/rankings/", "/players/", "/nowhere/"])
def test_the_switcher_names_each_language_in_itself(client, language, path):
    page = client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<html lang="{language}"' in page
    assert switcher_options(page) == SWITCHER


# Knockout of 128 players, round 1 to the final, as each language's tournaments name them.
ROUNDS_OF_128 = {
    "en-gb": ["Round of 128", "Round of 64", "Round of 32", "Round of 16", "Quarter-finals",
              "Semi-finals", "Final"],
    "ru": ["1/64 финала", "1/32 финала", "1/16 финала", "1/8 финала", "Четвертьфинал",
           "Полуфинал", "Финал"],
    "cs": ["1. kolo", "2. kolo", "3. kolo", "Osmifinále", "Čtvrtfinále", "Semifinále",
           "Finále"],
    "hu": ["1. forduló", "2. forduló", "3. forduló", "Nyolcaddöntő", "Negyeddöntő",
           "Elődöntő", "Döntő"],
    "tr": ["Son 128 turu", "Son 64 turu", "Son 32 turu", "Son 16 turu", "Çeyrek final",
           "Yarı final", "Final"],
}  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_knockout_rounds_are_named_as_the_language_s_tournaments_name_them(language):
    with translation.override(language):
        names = [
            knockout_round_names(
                n, 7, gettext=translation.gettext, style=early_round_style()
            ).plural
            for n in range(1, 8)
        ]
        # A stored name reads the same, from the round's number in its knockout.
        stored = [
            str(Round(number=n, name=english))
            for n, english in enumerate(ROUNDS_OF_128["en-gb"], 1)
        ]
    assert names == ROUNDS_OF_128[language]
    assert stored == ROUNDS_OF_128[language]


def test_a_stored_round_without_its_number_is_named_from_the_knockout_size():
    with translation.override("cs"):
        assert round_name_text("Round of 64", rounds=7) == "2. kolo"
    with translation.override("ru"):
        assert round_name_text("Round of 64") == "1/32 финала"


TIEBREAKS = {
    "en-gb": "Standings are ranked <strong>by TP total</strong>, then <strong>by Buchholz"
    "</strong>, then <strong>by Sonneborn-Berger</strong>, and finally by seed.",
    "ru": "Места в таблице определяются <strong>по сумме TP</strong>, затем <strong>по "
    "Бухгольцу</strong>, затем <strong>по коэффициенту Зоннеборна — Бергера</strong> и, "
    "наконец, по номеру посева.",
    "cs": "Pořadí se určuje <strong>podle součtu TP</strong>, pak <strong>podle Buchholze"
    "</strong>, pak <strong>podle Sonneborna-Bergera</strong> a nakonec podle nasazení.",
    "hu": "A sorrendet <strong>a TP-összeg alapján</strong>, majd <strong>a Buchholz-pontszám "
    "alapján</strong>, majd <strong>a Sonneborn–Berger-pontszám alapján</strong>, végül a "
    "kiemelési szám alapján állapítjuk meg.",
    "tr": "Sıralama <strong>TP toplamına göre</strong>, ardından <strong>Buchholz'a göre"
    "</strong>, ardından <strong>Sonneborn-Berger'e göre</strong> ve son olarak seri başına "
    "göre belirlenir.",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tie_break_sentence_declines_each_criterion(language):
    """ "определяются по: Сумма TP, затем Бухгольц" was the bug: column labels glued into a
    sentence that needs them declined."""
    with translation.override(language):
        sentence = tiebreak_sentence(
            criteria_ranked_by(["tp_total", "buchholz", "sonneborn_berger"])
        )
    assert str(sentence).replace("&#x27;", "'") == TIEBREAKS[language]


# 5 November and 15 December 2026: no leading zero, month abbreviations with their dot where the
# language has one.
DATES = {
    "en-gb": ("5 Nov 2026", "15 Dec", "5 Nov 2026, 9:05 CET".replace("9:05", "09:05")),
    "ru": ("5 ноября 2026 г.", "15 дек.", "5 ноября 2026 г. 9:05 CET"),
    "hu": ("2026. november 5.", "dec. 15.", "2026. november 5. 09:05 CET"),
    "cs": ("5. listopadu 2026", "15. 12.", "5. listopadu 2026 9:05 CET"),
    "tr": ("5 Kasım 2026", "15 Ara", "5 Kasım 2026 09:05 CET"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_dates_are_written_each_language_s_way(language, settings):
    settings.TIME_ZONE = "Europe/Budapest"
    day, month_day, moment = DATES[language]
    with translation.override(language):
        assert formats.date_format(date(2026, 11, 5)) == day
        assert formats.date_format(date(2026, 12, 15), "MONTH_DAY_FORMAT") == month_day
        assert (
            formats.date_format(
                datetime(2026, 11, 5, 9, 5, tzinfo=ZoneInfo("Europe/Budapest")),
                "DATETIME_FORMAT",
            )
            == moment
        )


@pytest.mark.parametrize(
    ("language", "tooltip", "tick"),
    [("en-gb", "5 Nov 2026: 500.4", "500.2"), ("ru", "5 ноября 2026 г.: 500,4", "500,2"),
     ("hu", "2026. november 5.: 500,4", "500,2"), ("cs", "5. listopadu 2026: 500,4", "500,2"),
     ("tr", "5 Kasım 2026: 500,4", "500,2")],
)  # fmt: skip
def test_a_rating_chart_writes_ratings_with_the_language_s_decimal_mark(
    language, tooltip, tick, settings
):
    settings.TIME_ZONE = "UTC"
    at = datetime(2026, 11, 5, 12, tzinfo=ZoneInfo("UTC"))
    history = [SimpleNamespace(at=at, after=500.0), SimpleNamespace(at=at, after=500.4)]
    with translation.override(language):
        chart = history_chart(history)
    assert chart.dots[-1].label == tooltip
    assert tick in [t.label for t in chart.y_ticks]


MONTHS_AFTER_A_DAY = {
    "ru": ["1 янв.", "1 февр.", "1 марта", "1 апр.", "1 мая", "1 июня", "1 июля", "1 авг.",
           "1 сент.", "1 окт.", "1 нояб.", "1 дек."],
    "hu": ["jan. 1.", "febr. 1.", "márc. 1.", "ápr. 1.", "máj. 1.", "jún. 1.", "júl. 1.",
           "aug. 1.", "szept. 1.", "okt. 1.", "nov. 1.", "dec. 1."],
    "tr": ["1 Oca", "1 Şub", "1 Mar", "1 Nis", "1 May", "1 Haz", "1 Tem", "1 Ağu", "1 Eyl",
           "1 Eki", "1 Kas", "1 Ara"],
}  # fmt: skip


@pytest.mark.parametrize("language", list(MONTHS_AFTER_A_DAY))
def test_every_month_is_abbreviated_as_after_a_day(language):
    with translation.override(language):
        days = [formats.date_format(date(2026, m, 1), "MONTH_DAY_FORMAT") for m in range(1, 13)]
    assert days == MONTHS_AFTER_A_DAY[language]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "by"),
    [("ru", "до 15 дек."), ("hu", "határidő: dec. 15."), ("cs", "do 15. 12."), ("tr", "15 Ara")],
)
def test_the_bracket_gives_each_round_its_deadline_the_language_s_way(
    client, organiser, language, by, settings
):
    from tests.tournaments.pages import builders

    settings.TIME_ZONE = "UTC"
    event = builders.knockout(organiser, builders.championship(organiser), 8, ruled_rounds=0)
    Round.objects.filter(event=event).update(
        deadline=datetime(2026, 12, 15, 12, 0, tzinfo=ZoneInfo("UTC"))
    )
    page = client.get(reverse("event-page", args=[event.pk]), HTTP_ACCEPT_LANGUAGE=language)
    assert by in page.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "rounds"),
    [("ru", ["ЧФ", "ПФ", "Финал"]), ("hu", ["Negyeddöntő", "Elődöntő", "Döntő"]),
     ("cs", ["ČF", "SF", "Finále"]), ("tr", ["ÇF", "YF", "Final"])],
)  # fmt: skip
def test_the_bracket_s_round_links_read_as_labels(client, organiser, language, rounds):
    """The Hungarian short names are written lower case, to stand inside "negyeddöntő, 1.
    mérkőzés győztese"; a link of their own begins with a capital, as every label does."""
    from tests.tournaments.pages import builders

    event = builders.knockout(organiser, builders.championship(organiser), 8, ruled_rounds=0)
    page = client.get(reverse("event-page", args=[event.pk]), HTTP_ACCEPT_LANGUAGE=language)
    nav = re.search(r'<nav class="bracket-rounds".*?</nav>', page.content.decode(), re.S)
    assert re.findall(r'<a href="#round-[^"]*"[^>]*>([^<]*)</a>', nav.group()) == rounds


@pytest.mark.django_db
def test_hungarian_group_headings_take_the_article_their_number_is_read_with(client, organiser):
    """ "A(z) 1 csoport mérkőzései" was the bug: a hedge and a cardinal where Hungarian writes
    an ordinal after the article its reading takes."""
    from tests.tournaments.pages import builders

    event = builders.group_stage(organiser, builders.championship(organiser), 12, 6)
    page = client.get(
        reverse("event-page", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="hu"
    ).content.decode()
    assert "Az 1. csoport mérkőzései" in page and "A 2. csoport mérkőzései" in page
    assert "Az 5. csoport mérkőzései" in page and "1. csoport" in page
    assert "a(z)" not in page.lower()


@pytest.mark.django_db
def test_a_hungarian_replay_names_each_tile_with_its_article_and_suffix(client):
    """ "lerakta a(z) 25. lapkát" ("the 25th tile") was the bug: "a 25-ös lapkát"."""
    from tests.factories import PlayerFactory
    from tests.pages.helpers import game_row

    game = game_row((PlayerFactory(), PlayerFactory()), seed=3)
    html = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    start = html.index('<script id="replay-data" type="application/json">') + 49
    data = json.loads(html[start : html.index("</script>", start)])
    tiles = [step["tile"] for step in data["steps"]]
    for text, tile in zip(data["step_texts"], tiles, strict=True):
        article = "az" if str(tile).startswith("5") or tile == 1 else "a"
        assert f"lerakta {article} {tile}-" in text, text
        assert "a(z)" not in text and f"{tile}-s " not in text and f"{tile}. lapk" not in text
    assert data["tile_labels"]["25"] == "A 25-ös lapka"
    assert data["tile_labels"]["5"] == "Az 5-ös lapka"
    assert data["tile_labels"]["1"] == "Az 1-es lapka"
    assert data["tile_labels"]["20"] == "A 20-as lapka"


ENTRY_STATUS_WORDS = {
    # No past tense about a person whose gender the site does not know ("Выбыла" for men).
    "ru": {"Участвует", "Заявка снята", "Вне борьбы", "Чемпион"},
    "cs": {"Aktivní", "Odstoupeno", "Vyřazeno", "Vítěz"},
}


@pytest.mark.parametrize("language", list(ENTRY_STATUS_WORDS))
def test_entry_statuses_need_no_gender(language):
    from tournaments.models import EntryStatus

    with translation.override(language):
        labels = {
            str(EntryStatus(value).label)
            for value in ("active", "withdrawn", "eliminated", "champion")
        }
    assert labels == ENTRY_STATUS_WORDS[language]


# A hedge for an unknown gender ("выбыл(а)", "nahlásil(a)") reads as a machine's; so does a
# Hungarian article hedge anywhere but before a placeholder or a number, where the site resolves
# it (tantrix_site.i18n.grammar).
HEDGES = {
    "ru": re.compile(r"\w\((а|ла|ась|ся)\)"),
    "cs": re.compile(r"\w\((a|la|ala)\)"),
    "hu": re.compile(r"(?i)\ba\(z\)(?! (%\(\w+\)[sr]|<a |\d))"),
    "tr": re.compile(r"\w\((ı|i|u|ü)\)"),
}


@pytest.mark.parametrize("language", list(HEDGES))
def test_no_catalogue_hedges_a_gender_or_an_article(language):
    catalogue = polib.pofile(str(BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"))
    hedged = [
        text
        for entry in catalogue
        for text in (entry.msgstr, *entry.msgstr_plural.values())
        if HEDGES[language].search(text)
    ]
    assert hedged == []


@pytest.mark.parametrize(
    ("language", "person", "thing"),
    [("ru", "Имя", "Название"), ("cs", "Jméno", "Název"), ("hu", "Név", "Név"),
     ("tr", "Ad", "Ad")],
)  # fmt: skip
def test_an_event_has_a_title_where_a_person_has_a_name(language, person, thing):
    from tournaments.forms import ChampionshipForm, EventForm

    with translation.override(language):
        assert str(EventForm.base_fields["name"].label) == thing
        assert str(ChampionshipForm.base_fields["name"].label) == thing
        assert translation.gettext("Name") == person


@pytest.mark.parametrize(
    ("language", "added", "entered"),
    [("ru", "Игрок добавлен", "Заявка подана"), ("hu", "Játékos felvéve", "Nevezés leadva"),
     ("cs", "Hráč přidán", "Přihláška podána"), ("tr", "Oyuncu eklendi", "Katılım kaydedildi")],
)  # fmt: skip
def test_a_player_added_and_an_entry_made_are_two_actions(language, added, entered):
    """One English "Player entered" named both, and Russian read "Игрок заявлен" beside a pair's
    entry ("Tomas & Aroha")."""
    from players.models import AuditAction as PlayerAction
    from tournaments.models import AuditAction as EventAction

    with translation.override(language):
        assert str(PlayerAction.PLAYER_CREATE.label) == added
        assert str(EventAction.ENTRY_REGISTER.label) == entered
    assert str(PlayerAction.PLAYER_CREATE.label) == "Player entered"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "details"),
    [("en-gb", "Game 15: 14.7–5.3 tournament points"), ("ru", "Партия 15: 14,7–5,3 TP"),
     ("hu", "A(z) 15-s játszma: 14,7–5,3 versenypont"), ("cs", "Partie 15: 14,7–5,3 TP"),
     ("tr", "15 numaralı oyun: 14,7–5,3 turnuva puanı")],
)  # fmt: skip
def test_an_audited_game_gives_its_tournament_points_the_reader_s_way(language, details):
    """ "14.7–5.3 турнирных очков" was the bug: an English decimal point, and a plural form
    that fits no fraction. (Hungarian keeps its hedges until the page is finished.)"""
    from players.models import AuditEntry
    from tournaments.pages import audit

    entry = AuditEntry(action="game_counted", details={"game_id": 15, "tps": [14.7, 5.3]})
    with translation.override(language):
        assert audit.audit_lines([entry])[0].details == details
