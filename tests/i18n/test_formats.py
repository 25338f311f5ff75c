"""Numbers and dates the reader's way: 13,3 TPs and Hungarian, Russian, Czech or Turkish dates,
always with the time zone the time is shown in (tantrix_site/i18n/formats)."""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.utils import formats, translation

from ratings.models import Rating
from tests.factories import PlayerFactory
from tournaments.standings import format_value

MOMENT = datetime(2026, 11, 30, 18, 5, tzinfo=ZoneInfo("Europe/Budapest"))

EXPECTED = {
    "en-gb": ("66.7", "30 Nov 2026, 18:05 CET", "30 Nov 2026"),
    "hu": ("66,7", "2026. november 30. 18:05 CET", "2026. november 30."),
    "ru": ("66,7", "30 ноября 2026 г. 18:05 CET", "30 ноября 2026 г."),
    "cs": ("66,7", "30. listopadu 2026 18:05 CET", "30. listopadu 2026"),
    "tr": ("66,7", "30 Kasım 2026 18:05 CET", "30 Kasım 2026"),
}


@pytest.mark.parametrize("language", list(EXPECTED))
def test_tp_percent_and_dates_in_each_language(language, settings):
    settings.TIME_ZONE = "Europe/Budapest"
    tp_percent, moment, day = EXPECTED[language]
    with translation.override(language):
        assert format_value("tp_percent", Decimal("66.6667")) == tp_percent
        assert format_value("tp", Decimal("13.30")) == "13" + tp_percent[2] + "3"
        assert format_value("tp_total", Decimal("35")) == "35" + tp_percent[2] + "0"
        assert formats.date_format(MOMENT, "DATETIME_FORMAT") == moment
        assert formats.date_format(MOMENT.date()) == day
    # A CSV file for programs keeps the point whatever the reader's language.
    with translation.override(language):
        assert format_value("tp_percent", Decimal("66.6667"), localized=False) == "66.7"


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "mark"), [("en-gb", "."), ("hu", ","), ("ru", ",")])
def test_the_rankings_page_writes_ratings_with_the_reader_s_decimal_mark(client, language, mark):
    player = PlayerFactory(display_name="Csilla")
    Rating.objects.create(player=player, system="lobby", value=Decimal("512.34"), games=12)
    page = client.get("/rankings/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert re.search(rf"512\{mark}3\b", page), page[page.find("Csilla") - 200 :][:600]
