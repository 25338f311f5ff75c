"""Recompute a lobby-style table over a whole game history in one pass.

Used when a reviewed game is reverted or a parameter changes: every later rating depends on
every earlier game, so the table is rebuilt from the first game. Half a million games must take
seconds, so the loop below inlines the arithmetic of ``lobby_update`` (same operations in the
same order, hence bit-identical floats; a test holds the two together) instead of calling it,
and keeps ratings in a plain dict.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from math import sqrt

from .lobby import (
    LOBBY_PARAMS,
    RATIO_RATING_FLOOR,
    LobbyParams,
    gain_drag,
    lobby_draw,
    loss_drag,
)

__all__ = ["LobbyRecompute", "recompute_lobby"]

WonGame = tuple[int, int, int, bool]
"""(winner_id, loser_id, margin, robot)"""
ScoredGame = tuple[int, int, int, int, bool]
"""(a_id, b_id, score_a, score_b, robot)"""
RatingStep = tuple[float, float, float, float]
"""(before_1, before_2, after_1, after_2), players in the order the game tuple names them."""


@dataclass(frozen=True, slots=True)
class LobbyRecompute:
    ratings: dict[int, float]
    """Final rating of every player who played (or was given an initial rating)."""
    games: dict[int, int]
    """Games each player played in this history, robot games included."""
    steps: list[RatingStep] | None
    """Per game, before and after; None unless asked for."""


def recompute_lobby(
    games: Iterable[WonGame | ScoredGame],
    *,
    params: LobbyParams = LOBBY_PARAMS,
    initial: Mapping[int, float] | None = None,
    history: bool = False,
) -> LobbyRecompute:
    """Replay ``games`` in order from ``initial`` ratings (others start at ``params.start``).

    Each game is ``(winner_id, loser_id, margin, robot)`` or
    ``(a_id, b_id, score_a, score_b, robot)``; both shapes may be mixed. The result equals
    applying ``lobby_update`` / ``lobby_game`` game by game.
    """
    ratings: dict[int, float] = dict(initial) if initial else {}
    counts: dict[int, int] = {}
    steps: list[RatingStep] | None = [] if history else None

    # Everything the loop reads is a local: attribute and global look-ups per game add up.
    start = params.start
    floor = params.floor
    ceiling = params.ceiling
    span = ceiling - floor
    k = params.k
    robot_k = params.robot_weight * k
    margin_cap = params.margin_cap
    ratio_cap = params.ratio_cap
    ratio_min = 1.0 / ratio_cap
    drag = params.drag
    centred = drag and params.drag_centre is not None
    exponent = params.gain_drag_exponent
    loss_top = params.loss_drag_ceiling
    rating_floor = RATIO_RATING_FLOOR
    get = ratings.get
    count = counts.get
    record = steps.append if steps is not None else None

    for game in games:
        if len(game) == 4:
            first, second, margin, robot = game
            if margin <= 0:
                raise ValueError("a won game has a positive margin; use lobby_draw for a tie")
            swapped = False
        elif len(game) == 5:
            first, second, score_a, score_b, robot = game
            if score_a == score_b:
                a = get(first, start)
                b = get(second, start)
                new_a, new_b = lobby_draw(a, b, robot=robot, params=params)
                ratings[first] = new_a
                ratings[second] = new_b
                counts[first] = count(first, 0) + 1
                counts[second] = count(second, 0) + 1
                if record is not None:
                    record((a, b, new_a, new_b))
                continue
            if score_a > score_b:
                margin = score_a - score_b
                swapped = False
            else:
                margin = score_b - score_a
                first, second = second, first
                swapped = True
        else:
            raise ValueError(f"a game is 4 or 5 values, not {len(game)}: {game!r}")

        # From here ``first`` won and ``second`` lost: lobby_update's arithmetic, inlined.
        w = get(first, start)
        lo = get(second, start)
        if margin > margin_cap:
            margin = margin_cap
        ratio = (lo if lo > rating_floor else rating_floor) / (
            w if w > rating_floor else rating_floor
        )
        if ratio > ratio_cap:
            ratio = ratio_cap
        elif ratio * ratio_cap < 1.0:
            ratio = ratio_min
        base = (robot_k if robot else k) * sqrt(margin * ratio)
        if centred:
            # Version 2's centred drag: gain_drag and loss_drag of ``lobby``, inlined.
            new_w = w + base * gain_drag(w, params)
            new_l = lo - base * loss_drag(lo, params)
        elif drag:
            x = (w - floor) / span
            if x <= 0.0:
                new_w = w + base * 1.0
            elif x >= 1.0:
                new_w = w + base * 0.0
            else:
                new_w = w + base * (1.0 - x) ** exponent
            x = (lo - floor) / span
            if x <= 0.0:
                new_l = lo - base * 0.0
            elif x >= 1.0:
                new_l = lo - base * loss_top
            else:
                new_l = lo - base * (loss_top * x)
        else:
            new_w = w + base * 1.0
            new_l = lo - base * 1.0
        if new_w > ceiling:
            new_w = ceiling
        elif new_w < floor:
            new_w = floor
        if new_l > ceiling:
            new_l = ceiling
        elif new_l < floor:
            new_l = floor
        ratings[first] = new_w
        ratings[second] = new_l
        counts[first] = count(first, 0) + 1
        counts[second] = count(second, 0) + 1
        if record is not None:
            if swapped:
                record((lo, w, new_l, new_w))
            else:
                record((w, lo, new_w, new_l))

    return LobbyRecompute(ratings=ratings, games=counts, steps=steps)
