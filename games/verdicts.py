"""Verdicts in words: the rule a record broke, said the way a Tantrix player would say it.

The engine's codes (`COLOUR_MISMATCH`, ...) are for programs; pages show `code_label` (a short
name of the rule) and `rule_text` (the rule itself), then the engine's own sentence about the
placement, which names the tile and the cell.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine import errors as E

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
_ENVELOPE_FIELDS = ("detail", "record", "match", "body", "non_field_errors", "submission")


def code_label(code: str) -> str:
    return str(CODE_LABELS.get(code, _("The record was refused")))


def rule_text(code: str) -> str:
    text = RULE_TEXTS.get(code)
    return str(text) if text else ""


def error_text(message: str) -> str:
    """A stored error message without envelope field names, each sentence with a capital."""
    parts = []
    for part in message.strip().split("; "):
        for field in _ENVELOPE_FIELDS:
            if part.startswith(field + ": "):
                part = part[len(field) + 2 :]
                break
        if part:
            parts.append(part[:1].upper() + part[1:])
    return " ".join(part if part.endswith(".") else part + "." for part in parts)
