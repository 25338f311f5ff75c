"""Verdicts in words: the rule a record broke, said the way a Tantrix player would say it.

The engine's codes (`COLOUR_MISMATCH`, ...) are for programs; pages show `code_label` (a short
name of the rule) and `rule_text` (the rule itself), then a sentence about the placement that
names the tile and the cell (`placement_sentence`, else the stored one via `error_text`).

The engine writes that sentence in English and the verdict stores it; the engine stays free of
Django, so it cannot speak the reader's language. An English reader keeps reading the engine's
own sentence, which says more (the tile already on the cell, the hand...), with its cells and
rotations put in words (`english_sentence`: the stored message keeps the spec's q, r). A reader
of another language gets a sentence built at display time from what the verdict and the record
keep: the code, the placement number, the seat, and the tile, cell and rotation the record gave.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from games.engine import errors as E
from games.engine import jsonio
from games.engine.places import Place, in_words, place_from
from games.records.refusals import STORED_TEXTS
from games.stored_texts import stored_text

CODE_LABELS = {
    E.MALFORMED: _("The record cannot be read"),
    E.WRONG_PLAYER: _("Not this player's turn"),
    E.NOT_IN_HAND: _("The tile is not in the player's hand"),
    E.OCCUPIED: _("The cell is already taken"),
    E.NOT_ADJACENT: _("The tile touches no other tile"),
    E.COLOUR_MISMATCH: _("The colours do not match"),
    E.THREE_OF_A_COLOUR: _("Three sides of one colour (rule 1)"),
    E.FOUR_SIDED_SPACE: _("A space with four sides (rule 2)"),
    E.CONTROLLED_SIDE: _("A controlled side (rule 3)"),
    E.FORCED_PLAY_REQUIRED: _("A forced space had to be filled first"),
    E.INCOMPLETE: _("The game is not finished"),
    E.GAME_OVER: _("The game was already over"),
    "TOO_LARGE": _("The record is too large"),
    "UNKNOWN_PLAYER": _("A player in the record is not known here"),
    "DUPLICATE_PLAYER": _("The same player sits in two seats"),
    "NOT_PARTICIPANT": _("You did not play in this game"),
    "REJECTED": _("The submission was refused"),
}

RULE_TEXTS = {
    E.WRONG_PLAYER: _(
        "Players take turns: each turn is the forced fills, one free move, then forced fills "
        "again, and only then does the next player move."
    ),
    E.NOT_IN_HAND: _("A player may only place a tile from their own hand."),
    E.OCCUPIED: _("A tile must go on an empty cell."),
    E.NOT_ADJACENT: _("Every tile after the first must touch a tile already on the board."),
    E.COLOUR_MISMATCH: _("Where two tiles touch, the colours on their shared edge must match."),
    E.THREE_OF_A_COLOUR: _(
        "While tiles remain in the bag, no placement may leave a space with three sides of the "
        "same colour: no tile could ever fill it."
    ),
    E.FOUR_SIDED_SPACE: _(
        "While tiles remain in the bag, no placement may leave a space surrounded on four or "
        "more sides."
    ),
    E.CONTROLLED_SIDE: _(
        "While tiles remain in the bag, no placement may go next to a forced space in a way "
        "that, once the forced spaces are filled, would leave a space with four sides."
    ),
    E.FORCED_PLAY_REQUIRED: _(
        "A player who can fill a forced space (one with three or more neighbours) must do so "
        "before the free move, and again after it."
    ),
    E.INCOMPLETE: _(
        "A record must go on until every tile is placed, the game is blocked, a player "
        "resigns or runs out of time."
    ),
    E.GAME_OVER: _("When the player to move can place no tile at all, the game ends at once."),
}

# A refused submission's stored message joins its fields' messages as "record: ...; match: ...";
# a person reading the page wants the sentences, not the envelope's field names in front of them.
# (The engine's own paths, such as "placements[3].tile: ...", name a place in the record and stay.)
_FIELD_NAME = re.compile(r"^[a-z_]+: ")
_ENVELOPE_FIELDS = ("detail", "record", "match", "body", "non_field_errors", "submission")


def code_label(code: str) -> str:
    return str(CODE_LABELS.get(code, _("The record was refused")))


def rule_text(code: str) -> str:
    text = RULE_TEXTS.get(code)
    return str(text) if text else ""


def _without_field(part: str) -> str:
    for field in _ENVELOPE_FIELDS:
        if part.startswith(field + ": "):
            return part[len(field) + 2 :]
    return part


def refusal_sentence(message: str) -> str | None:
    """A stored refusal in the reader's language; None when there is nothing to translate (an
    English reader, or a sentence that is not one of the site's refusals)."""
    # Any field's name goes here (players, played_at): a translated page shows no codes.
    whole = _FIELD_NAME.sub("", message.strip(), count=1)
    translated = stored_text(whole, STORED_TEXTS)
    return translated if translated != whole else None


def error_text(message: str) -> str:
    """A stored error message without envelope field names, each sentence with a capital.

    A refusal is stored in English (games/records/refusals.py); one of its sentences is read in the
    reader's language, whole (some hold a "; " of their own). The engine's own sentences, and
    everything for an English reader, read as stored.
    """
    translated = refusal_sentence(message)
    if translated is not None:
        return translated
    parts = []
    for part in message.strip().split("; "):
        part = stored_text(_without_field(part), STORED_TEXTS)
        if part:
            parts.append(part[:1].upper() + part[1:])
    return " ".join(part if part.endswith(".") else part + "." for part in parts)


# The sentence about the placement, per code, with the numbers the record gives. The cell and
# the turn are said in words (`place_words`, `turn_words`), never as the record's (q, r) and
# rotation number: docs/game-records.md, "Cells and turns in words".
PLACEMENT_TEXTS = {
    E.WRONG_PLAYER: _(
        "Placement %(number)s: %(name)s placed tile %(tile)s %(where)s, but it was not their turn."
    ),
    E.NOT_IN_HAND: _(
        "Placement %(number)s: %(name)s placed tile %(tile)s %(where)s, but that tile "
        "was not in their hand."
    ),
    E.OCCUPIED: _(
        "Placement %(number)s: %(name)s placed tile %(tile)s %(where)s, a cell that "
        "already holds a tile."
    ),
    E.NOT_ADJACENT: _(
        "Placement %(number)s: %(name)s placed tile %(tile)s %(where)s, where it "
        "touches no placed tile."
    ),
    E.COLOUR_MISMATCH: _(
        "Placement %(number)s: %(name)s placed tile %(tile)s %(where)s, "
        "%(turn)s, and an edge colour differs from the tile it touches."
    ),
    E.FORCED_PLAY_REQUIRED: _(
        "Placement %(number)s: %(name)s placed tile %(tile)s %(where)s while a forced "
        "space had to be filled first."
    ),
    E.THREE_OF_A_COLOUR: _(
        "Placement %(number)s: %(name)s placed tile %(tile)s %(where)s, "
        "%(turn)s, leaving a space with three sides of one colour."
    ),
    E.FOUR_SIDED_SPACE: _(
        "Placement %(number)s: %(name)s placed tile %(tile)s %(where)s, leaving a "
        "space with four sides."
    ),
    E.CONTROLLED_SIDE: _(
        "Placement %(number)s: %(name)s placed tile %(tile)s %(where)s on a "
        "controlled side: filling the forced spaces would leave a space with four sides."
    ),
    E.GAME_OVER: _(
        "Placement %(number)s: %(name)s placed tile %(tile)s %(where)s, but the game "
        "had already ended in a deadlock."
    ),
}
# The six directions of the grid (games/engine/places.DIRECTIONS), in the form a language needs
# where a tile is put "2 steps north of the first tile".
DIRECTION_WORDS = (
    pgettext_lazy("a tile put 2 steps north of the first tile", "north"),
    pgettext_lazy("a tile put 2 steps north-east of the first tile", "north-east"),
    pgettext_lazy("a tile put 2 steps south-east of the first tile", "south-east"),
    pgettext_lazy("a tile put 2 steps south of the first tile", "south"),
    pgettext_lazy("a tile put 2 steps south-west of the first tile", "south-west"),
    pgettext_lazy("a tile put 2 steps north-west of the first tile", "north-west"),
)


def place_words(where: Place) -> str:
    """Where a tile was put, in the reader's language: "on the space 2 steps north of the first
    tile" (the phrase follows "placed tile 25")."""
    if where.steps == 0:
        return str(_("on the first tile's space"))
    words = {
        "steps": where.steps,
        "direction": DIRECTION_WORDS[where.direction],
        "more": where.more,
        "more_direction": DIRECTION_WORDS[where.more_direction],
    }
    if not where.more:
        return (
            ngettext(
                "on the space %(steps)s step %(direction)s of the first tile",
                "on the space %(steps)s steps %(direction)s of the first tile",
                where.steps,
            )
            % words
        )
    return (
        ngettext(
            "on the space %(steps)s step %(direction)s then %(more)s %(more_direction)s of the "
            "first tile",
            "on the space %(steps)s steps %(direction)s then %(more)s %(more_direction)s of the "
            "first tile",
            where.steps,
        )
        % words
    )


def turn_words(rotation: int) -> str:
    """How a tile was turned, in the reader's language: "not turned", "turned 120° clockwise"."""
    degrees = (rotation % 6) * 60
    if degrees == 0:
        return str(_("not turned"))
    return str(_("turned %(degrees)s° clockwise")) % {"degrees": degrees}


# INCOMPLETE names no placement: the record stops too early.
INCOMPLETE_TEXT = _("The record stops before the game is over: %(name)s could still place a tile.")


def _reads_english() -> bool:
    return (translation.get_language() or "en").split("-")[0] == "en"


def placement_sentence(
    *,
    code: str,
    number: int | None = None,
    name: str | None = None,
    tile: Any = None,
    q: Any = None,
    r: Any = None,
    rotation: Any = None,
    first: tuple[int, int] = (0, 0),
) -> str | None:
    """The sentence about what a record did wrong, built in the reader's language.

    None for an English reader (the engine's stored sentence is theirs, put in words by
    `english_sentence`), for a code that is not the engine's placement code, and when the numbers
    this code needs are missing: the caller then shows the stored sentence, the only one there is.
    The cell is told from ``first``, the cell of the record's first tile (the spec's convention
    puts it at (0, 0)).
    """
    if _reads_english():
        return None
    if code == E.INCOMPLETE:
        return None if name is None else INCOMPLETE_TEXT % {"name": name}
    template = PLACEMENT_TEXTS.get(code)
    if template is None or any(v is None for v in (number, name, tile, q, r, rotation)):
        return None
    return str(template) % {
        "number": number,
        "name": name,
        "tile": tile,
        "where": place_words(place_from(int(q), int(r), first)),
        "turn": turn_words(int(rotation)),
    }


def english_sentence(message: str, first: tuple[int, int] = (0, 0)) -> str:
    """The engine's stored English sentence as an English reader reads it: `error_text`, with
    each cell and rotation in words (the stored message keeps the spec's q, r and rotation)."""
    return in_words(error_text(message), first)


def _first_cell(document: Any) -> tuple[int, int]:
    """The cell of a record's first tile, (0, 0) (the spec's convention) when it cannot be read."""
    try:
        first = document["placements"][0]
        q, r = first["q"], first["r"]
    except (LookupError, TypeError):
        return (0, 0)
    return (q, r) if isinstance(q, int) and isinstance(r, int) else (0, 0)


def record_placement_sentence(body: bytes, error: Mapping[str, Any] | None) -> str | None:
    """`placement_sentence` for a stored verdict's error, with the tile, cell and player name
    read from the record's body (the verdict keeps only the placement number and the seat);
    for an English reader, the stored sentence with its cells in words (`english_sentence`)."""
    code = str((error or {}).get("code") or "")
    if code not in PLACEMENT_TEXTS and code != E.INCOMPLETE:
        return None
    assert error is not None
    number, seat = error.get("placement"), error.get("player")
    details: dict[str, Any] = {}
    try:
        document = jsonio.load(body)
        if _reads_english():
            message = str(error.get("message") or "")
            return english_sentence(message, _first_cell(document)) if message else None
        details["first"] = _first_cell(document)
        if isinstance(seat, int):
            details["name"] = document["players"][seat]["name"]
        if isinstance(number, int) and number > 0:
            placement = document["placements"][number - 1]
            details.update({key: placement[key] for key in ("tile", "q", "r", "rotation")})
            details["number"] = number
    except (jsonio.JsonProblem, LookupError, TypeError):
        return None  # the stored sentence says it all the same
    return placement_sentence(code=code, **details)


def record_error_dict(record: Any) -> dict[str, Any]:
    """A record's stored error as the verdict has it (code, placement, seat, message)."""
    return {
        "code": record.error_code,
        "placement": record.error_placement,
        "player": ((record.verdict or {}).get("error") or {}).get("player"),
        "message": record.error_message,
    }
