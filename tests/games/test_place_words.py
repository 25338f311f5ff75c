"""Cells and turns in the reader's words where a refused record is explained (issue 28, item 7):
no "q=-2 r=2, rotation 1" reaches a person, in any language."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine.places import place
from games.records import verdicts
from tantrix_site.i18n.grammar import finish

LANGUAGES = ["en", "ru", "hu", "cs", "tr"]


def cells_within(radius: int) -> list[tuple[int, int]]:
    return [
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if (abs(q) + abs(r) + abs(q + r)) // 2 <= radius
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_cell_of_rings_0_to_3_reads_differently_in_every_language(language: str) -> None:
    cells = cells_within(3)
    with translation.override(language):
        texts = {verdicts.place_words(place(q, r)) for q, r in cells}
        turns = {verdicts.turn_words(k) for k in range(6)}
    assert len(texts) == len(cells) == 37
    assert len(turns) == 6
    assert not any("%(" in text or "q=" in text for text in texts | turns)


@pytest.mark.parametrize(
    ("language", "cell", "words"),
    [
        ("en", (0, 0), "on the first tile's space"),
        ("en", (-2, 2), "on the space 2 steps south-west of the first tile"),
        ("en", (1, -2), "on the space 1 step north then 1 north-east of the first tile"),
        ("ru", (0, -1), "на 1 клетку к северу от первой плитки"),
        ("ru", (-2, 2), "на 2 клетки к юго-западу от первой плитки"),
        ("ru", (5, 0), "на 5 клеток к юго-востоку от первой плитки"),
        ("ru", (1, -2), "на 1 клетку к северу и ещё на 1 к северо-востоку от первой плитки"),
        ("hu", (0, 0), "az első lapka helyére"),
        ("hu", (-2, 2), "az első lapkától 2 lépésnyire délnyugatra"),
        (
            "hu",
            (1, -2),
            "az első lapkától 1 lépésnyire északra, majd onnan 1 lépésnyire északkeletre",
        ),
        ("cs", (0, 1), "na pole 1 krok jižně od prvního žetonu"),
        ("cs", (-2, 0), "na pole 2 kroky severozápadně od prvního žetonu"),
        ("cs", (0, -5), "na pole 5 kroků severně od prvního žetonu"),
        ("cs", (1, -2), "na pole 1 krok severně a pak 1 severovýchodně od prvního žetonu"),
        ("tr", (0, 0), "ilk taşın yerine"),
        ("tr", (-2, 2), "ilk taşın 2 adım güneybatısına"),
        ("tr", (1, -2), "ilk taşın 1 adım kuzeyine, onun da 1 adım kuzeydoğusuna"),
    ],
)
def test_place_words(language: str, cell: tuple[int, int], words: str) -> None:
    with translation.override(language):
        assert verdicts.place_words(place(*cell)) == words


@pytest.mark.parametrize(
    ("language", "still", "turned"),
    [
        ("en", "not turned", "turned 120° clockwise"),
        ("ru", "не поворачивая её", "повернув её на 120° по часовой стрелке"),
        ("hu", "elforgatás nélkül", "az óramutató járásával megegyezően 120°-kal elforgatva"),
        ("cs", "neotočený", "otočený o 120° po směru hodinových ručiček"),
        ("tr", "döndürmeden", "saat yönünde 120° döndürerek"),
    ],
)
def test_turn_words(language: str, still: str, turned: str) -> None:
    with translation.override(language):
        assert verdicts.turn_words(0) == still
        assert verdicts.turn_words(2) == turned


@pytest.mark.parametrize("code", sorted(verdicts.PLACEMENT_TEXTS))
@pytest.mark.parametrize("language", ["ru", "hu", "cs", "tr"])
def test_every_placement_sentence_says_the_cell_and_turn_in_words(code: str, language: str):
    with translation.override(language):
        sentence = verdicts.placement_sentence(
            code=code, number=10, name="Ana", tile=25, q=-2, r=2, rotation=3, first=(0, 0)
        )
        where = verdicts.place_words(place(-2, 2))
        turn = verdicts.turn_words(3)
    assert sentence is not None
    assert "q=" not in sentence and "%(" not in sentence
    assert where in sentence
    with translation.override("en"):
        turns = "%(turn)s" in str(verdicts.PLACEMENT_TEXTS[code])
    assert (turn in sentence) == turns
    if language == "hu":
        with translation.override("hu"):
            finished = finish(sentence)
        assert "a(z)" not in finished and "a 25-ös lapkát" in finished


def test_cells_are_told_from_the_records_first_tile() -> None:
    with translation.override("ru"):
        sentence = verdicts.placement_sentence(
            code="OCCUPIED", number=3, name="Ana", tile=7, q=4, r=-1, rotation=0, first=(4, -1)
        )
    assert sentence is not None and "на место первой плитки" in sentence


@pytest.mark.parametrize(
    ("stored", "shown"),
    [
        (
            "placement 10 (tile 31 at q=-2 r=2, rotation 3): an edge colour differs from the "
            "tile it touches",
            "Placement 10 (tile 31, 2 steps south-west of the first tile, turned 180° "
            "clockwise): an edge colour differs from the tile it touches.",
        ),
        (
            "placement 7 (tile 26 at q=-1 r=-1): a free move while the forced space at q=-1 r=0 "
            "could be filled (tile 23 fits it, rotation 0); fill it first",
            "Placement 7 (tile 26, 1 step north-west then 1 north of the first tile): a free "
            "move while the forced space 1 step north-west of the first tile could be filled "
            "(tile 23 fits it, not turned). Fill it first.",
        ),
        (
            "placement 2 (tile 7 at q=0 r=0): the cell already holds tile 1 (placement 1)",
            "Placement 2 (tile 7, on the first tile's space): the cell already holds tile 1 "
            "(placement 1).",
        ),
        (
            "the record's end says deadlock, but seat 1 (bela) must still fill the forced "
            "space at q=-1 r=0 (tile 23 fits, rotation 0)",
            "The record's end says deadlock, but seat 1 (bela) must still fill the forced "
            "space 1 step north-west of the first tile (tile 23 fits, not turned).",
        ),
    ],
)
def test_the_engines_english_sentence_reads_in_words(stored: str, shown: str) -> None:
    with translation.override("en"):
        assert verdicts.english_sentence(stored) == shown
    # Told from where the record's first tile lies.
    assert "on the first tile's space" in verdicts.english_sentence(
        "placement 2 (tile 7 at q=3 r=3): the cell already holds tile 1", (3, 3)
    )
