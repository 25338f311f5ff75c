"""The Tantrix rules engine: pure Python, imports nothing from Django or the project's apps.

Public API (see docs/game-records.md and docs/rules.md):

- ``adjudicate(record) -> dict``: judge a ``tantrix-game/1`` record; never raises.
- ``legal_moves(position) -> list[dict]``: legal moves of a ``tantrix-position/1``; raises
  ``MalformedPosition``.
- ``selfplay(seed, players="2") -> dict``: a complete, legal, randomly played record.
- ``parse_played_at(text) -> datetime``: a record's ``played_at`` in UTC; raises
  ``MalformedRecord`` when it is not a date and time in the years the engine accepts.
- ``ENGINE_VERSION`` (bumped when rules handling changes) and ``FULL_ENGINE_VERSION`` (with the
  git revision when known): what every stored verdict is stamped with.
"""

from .adjudicate import adjudicate
from .errors import ERROR_CODES, PLACEMENT_PRIORITY, MalformedPosition, MalformedRecord
from .position import POSITION_FORMAT, legal_moves
from .record import FORMAT, parse_played_at
from .selfplay import selfplay
from .version import ENGINE_VERSION, FULL_ENGINE_VERSION

__all__ = [
    "ENGINE_VERSION",
    "ERROR_CODES",
    "FULL_ENGINE_VERSION",
    "FORMAT",
    "PLACEMENT_PRIORITY",
    "POSITION_FORMAT",
    "MalformedPosition",
    "MalformedRecord",
    "adjudicate",
    "legal_moves",
    "parse_played_at",
    "selfplay",
]
