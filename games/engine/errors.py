"""The engine's exceptions and verdict codes.

Two kinds of error, as DESIGN.md asks. A *user-facing* one explains what is wrong with a record
or a position in words a player understands: for records it becomes an invalid verdict (never an
exception out of ``adjudicate``), for positions it is ``MalformedPosition``. Anything else that
escapes the engine is an internal bug and is left to propagate loudly.
"""

from __future__ import annotations

MALFORMED = "MALFORMED"
WRONG_PLAYER = "WRONG_PLAYER"
NOT_IN_HAND = "NOT_IN_HAND"
OCCUPIED = "OCCUPIED"
NOT_ADJACENT = "NOT_ADJACENT"
COLOUR_MISMATCH = "COLOUR_MISMATCH"
THREE_OF_A_COLOUR = "THREE_OF_A_COLOUR"
FOUR_SIDED_SPACE = "FOUR_SIDED_SPACE"
CONTROLLED_SIDE = "CONTROLLED_SIDE"
FORCED_PLAY_REQUIRED = "FORCED_PLAY_REQUIRED"
INCOMPLETE = "INCOMPLETE"
GAME_OVER = "GAME_OVER"
# Only the command line produces this one: a file that could not be read.
UNREADABLE = "UNREADABLE"

ERROR_CODES: tuple[str, ...] = (
    MALFORMED,
    WRONG_PLAYER,
    NOT_IN_HAND,
    OCCUPIED,
    NOT_ADJACENT,
    COLOUR_MISMATCH,
    THREE_OF_A_COLOUR,
    FOUR_SIDED_SPACE,
    CONTROLLED_SIDE,
    FORCED_PLAY_REQUIRED,
    INCOMPLETE,
    GAME_OVER,
)

# When one placement breaks several rules, the first of these is reported (game-record.md).
PLACEMENT_PRIORITY: tuple[str, ...] = (
    GAME_OVER,
    WRONG_PLAYER,
    NOT_IN_HAND,
    OCCUPIED,
    NOT_ADJACENT,
    COLOUR_MISMATCH,
    FORCED_PLAY_REQUIRED,
    THREE_OF_A_COLOUR,
    FOUR_SIDED_SPACE,
    CONTROLLED_SIDE,
)


class MalformedRecord(ValueError):
    """A game record that is not a valid ``tantrix-game/1`` document (verdict ``MALFORMED``)."""


class MalformedPosition(ValueError):
    """A position that is not a valid ``tantrix-position/1`` document."""
