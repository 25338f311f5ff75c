"""The canonical fingerprint of a game: what makes two records the same game.

Pure Python (no Django). Two records describe the same game when the same players sat in the
same seats with the same colours, started with the same hands, drew the same bag and made the
same placements, whatever their JSON key order, whitespace, clock, event text or claimed
scores. The players are the ids the submission resolved their names to, so a name typed in
another case is the same player.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

PLACEMENT_KEYS = ("player", "tile", "q", "r", "rotation")


def game_fingerprint(document: dict[str, Any], seat_player_ids: Sequence[int]) -> str:
    """SHA-256 (hex) of the game's identity; `document` is a valid `tantrix-game/1` record."""
    canonical = {
        "seats": [
            [int(player_id), seat["colour"]]
            for player_id, seat in zip(seat_player_ids, document["players"], strict=True)
        ],
        "hands": [[int(tile) for tile in hand] for hand in document["hands"]],
        "bag": [int(tile) for tile in document["bag"]],
        "placements": [
            [int(placement[key]) for key in PLACEMENT_KEYS] for placement in document["placements"]
        ],
    }
    text = json.dumps(canonical, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()
