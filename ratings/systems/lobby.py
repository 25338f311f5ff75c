"""The lobby ranking: a 1000-point scale, moved by every rated game.

One set of maths serves four tables, each with its own ``LobbyParams``: the lobby ranking
(start 500), the monthly table (start 700, restarted on the 1st), the doubles table (pairs
games, team averages) and the Master ranking (games between Masters, no drag).

For a game won by ``margin`` tiles (capped at ``margin_cap``):

    base = weight · K · √(margin · ratio)        ratio = loser / winner, kept in [1/cap, cap]
    winner gains  base · gain_drag(winner)
    loser  loses  base · loss_drag(loser)

``weight`` is 1, or ``robot_weight`` when one side is a robot. The same √ratio in the gain and
the loss makes the scale multiplicative: without drag, a player who wins a share p of games
against opponents rated o settles where the expected change is zero,
p · √(o/r) = (1 − p) · √(r/o), i.e. r / o = p / (1 − p) (a Bradley-Terry strength).

The drag runs over the whole scale (x = rating / 1000): gain_drag = (1 − x)^0.6 falls from 1 to
0 and loss_drag = 1.25 · x rises from 0 to 1.25. They cross near 517, where an average player
settles, so the pool neither inflates nor deflates; the ends are natural bounds (no gain at
1000, no loss at 0); and holding 950 takes winning about 13 games in 14 against average
(517) opponents, with ever longer odds nearer 1000. Reasons and constants are written up in
docs/ratings.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import sqrt
from typing import TypeVar

__all__ = [
    "DOUBLES_PARAMS",
    "LOBBY_PARAMS",
    "MASTER_PARAMS",
    "MONTHLY_PARAMS",
    "LobbyParams",
    "doubles_draw",
    "doubles_game",
    "doubles_update",
    "gain_drag",
    "lobby_draw",
    "lobby_game",
    "lobby_update",
    "loss_drag",
]

# Ratings at or near 0 would make the opponent ratio infinite; below this they count as this.
RATIO_RATING_FLOOR = 1.0

# One player's rating (lobby, monthly, Master) or a pair of partners' ratings (doubles).
Side = TypeVar("Side")


@dataclass(frozen=True, slots=True)
class LobbyParams:
    """Constants of one lobby-style table; the Django side takes them from the versioned parameter
    set in force (``ratings/params.py``)."""

    start: float = 500.0
    """Rating of a player's first game in this table."""
    k: float = 2.0
    """Points exchanged for a one-tile win between equals, before drag."""
    floor: float = 0.0
    ceiling: float = 1000.0
    margin_cap: int = 36
    """Margins above this count as this (the TP table also stops growing at 36)."""
    ratio_cap: float = 4.0
    """The opponent ratio is kept in [1/ratio_cap, ratio_cap], so √ratio stays in [0.5, 2]."""
    drag: bool = True
    """False for the Master ranking: gain_drag and loss_drag are then both 1."""
    gain_drag_exponent: float = 0.6
    """gain_drag = (1 − x)^exponent, x the position on the scale (0 at floor, 1 at ceiling)."""
    loss_drag_ceiling: float = 1.25
    """loss_drag = loss_drag_ceiling · x: a player at the floor loses nothing, one at the
    ceiling loses this multiple of the undragged exchange."""
    drag_centre: float | None = None
    """None: version 1's drag over the whole scale (gain (1 − x)^e, loss ceiling · x). A rating
    (500): the centred drag of version 2, gain ((1 − x) / (1 − c))^e and loss 1 below the centre
    c, rising linearly from 1 at c to loss_drag_ceiling at the ceiling (docs/ratings.md §1)."""
    robot_weight: float = 0.5
    """Both changes of a game against a robot are multiplied by this."""
    draw_margin: float = 1.0
    """A draw counts as half a win and half a loss by this margin; 0 makes draws change nothing."""

    def __post_init__(self) -> None:
        # A versioned set is written by hand in ratings/params.py: a slip must fail at import,
        # not halfway through a recompute.
        if not self.floor < self.ceiling:
            raise ValueError("floor must be below ceiling")
        if not self.floor <= self.start <= self.ceiling:
            raise ValueError("start must lie between floor and ceiling")
        if self.k <= 0:
            raise ValueError("k must be positive")
        if self.margin_cap < 1:
            raise ValueError("margin_cap must be at least 1")
        if self.ratio_cap < 1:
            raise ValueError("ratio_cap must be at least 1")
        if self.gain_drag_exponent <= 0:
            raise ValueError("gain_drag_exponent must be positive")
        if self.loss_drag_ceiling <= 0:
            raise ValueError("loss_drag_ceiling must be positive")
        if not 0 <= self.robot_weight <= 1:
            raise ValueError("robot_weight must lie in [0, 1]")
        if self.draw_margin < 0:
            raise ValueError("draw_margin must not be negative")


LOBBY_PARAMS = LobbyParams()
MONTHLY_PARAMS = LobbyParams(start=700.0)
DOUBLES_PARAMS = LobbyParams()
MASTER_PARAMS = LobbyParams(drag=False)


def gain_drag(rating: float, params: LobbyParams = LOBBY_PARAMS) -> float:
    """Share of the undragged gain a player rated ``rating`` keeps: 1 at the floor, falling to
    0 at the ceiling as (1 − x)^gain_drag_exponent."""
    if not params.drag:
        return 1.0
    span = params.ceiling - params.floor
    x = (rating - params.floor) / span
    if params.drag_centre is not None:  # version 2: centred
        if x >= 1.0:
            return 0.0
        c = (params.drag_centre - params.floor) / span
        return ((1.0 - (x if x > 0.0 else 0.0)) / (1.0 - c)) ** params.gain_drag_exponent
    if x <= 0.0:
        return 1.0
    if x >= 1.0:
        return 0.0
    return (1.0 - x) ** params.gain_drag_exponent


def loss_drag(rating: float, params: LobbyParams = LOBBY_PARAMS) -> float:
    """Multiple of the undragged loss a player rated ``rating`` pays: 0 at the floor, rising
    linearly to loss_drag_ceiling at the ceiling."""
    if not params.drag:
        return 1.0
    span = params.ceiling - params.floor
    x = (rating - params.floor) / span
    if params.drag_centre is not None:  # version 2: a loss never shrinks, and grows to the top
        c = (params.drag_centre - params.floor) / span
        if x <= c:
            return 1.0
        if x >= 1.0:
            return params.loss_drag_ceiling
        return 1.0 + (params.loss_drag_ceiling - 1.0) * ((x - c) / (1.0 - c))
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return params.loss_drag_ceiling
    return params.loss_drag_ceiling * x


def _base(winner: float, loser: float, margin: float, weight: float, params: LobbyParams) -> float:
    """The undragged exchange; ``recompute_lobby`` inlines exactly this arithmetic."""
    if margin > params.margin_cap:
        margin = params.margin_cap
    w = winner if winner > RATIO_RATING_FLOOR else RATIO_RATING_FLOOR
    lo = loser if loser > RATIO_RATING_FLOOR else RATIO_RATING_FLOOR
    ratio = lo / w
    if ratio > params.ratio_cap:
        ratio = params.ratio_cap
    elif ratio * params.ratio_cap < 1.0:
        ratio = 1.0 / params.ratio_cap
    return weight * params.k * sqrt(margin * ratio)


def _clamp(rating: float, params: LobbyParams) -> float:
    if rating > params.ceiling:
        return params.ceiling
    if rating < params.floor:
        return params.floor
    return rating


def _weight(robot: bool, params: LobbyParams) -> float:
    return params.robot_weight if robot else 1.0


def _by_scores(
    update: Callable[..., tuple[Side, Side]],
    draw: Callable[..., tuple[Side, Side]],
    side_a: Side,
    side_b: Side,
    score_a: int,
    score_b: int,
    robot: bool,
    params: LobbyParams,
) -> tuple[Side, Side]:
    """Route a game given both scores to the won-game or tied-game update of its table (single
    or doubles), with the winner passed first and the result handed back in (a, b) order."""
    if score_a > score_b:
        return update(side_a, side_b, score_a - score_b, robot=robot, params=params)
    if score_b > score_a:
        new_b, new_a = update(side_b, side_a, score_b - score_a, robot=robot, params=params)
        return new_a, new_b
    return draw(side_a, side_b, robot=robot, params=params)


def lobby_update(
    winner_rating: float,
    loser_rating: float,
    margin: float,
    *,
    robot: bool = False,
    params: LobbyParams = LOBBY_PARAMS,
) -> tuple[float, float]:
    """Ratings after a won game: ``(new_winner, new_loser)``.

    ``margin`` is the tile margin (winner's score minus loser's), at least 1; a tied game goes
    to ``lobby_draw``. ``robot`` is true when either side is a robot.
    """
    if margin <= 0:
        raise ValueError("a won game has a positive margin; use lobby_draw for a tie")
    base = _base(winner_rating, loser_rating, margin, _weight(robot, params), params)
    return (
        _clamp(winner_rating + base * gain_drag(winner_rating, params), params),
        _clamp(loser_rating - base * loss_drag(loser_rating, params), params),
    )


def _draw_delta(own: float, other: float, weight: float, params: LobbyParams) -> float:
    # Half a win and half a loss at draw_margin against the same opponent, so a draw sits
    # exactly between the two results and inherits the ratio and the drag.
    gain = _base(own, other, params.draw_margin, weight, params) * gain_drag(own, params)
    loss = _base(other, own, params.draw_margin, weight, params) * loss_drag(own, params)
    return 0.5 * (gain - loss)


def lobby_draw(
    rating_a: float,
    rating_b: float,
    *,
    robot: bool = False,
    params: LobbyParams = LOBBY_PARAMS,
) -> tuple[float, float]:
    """Ratings after a tied game: ``(new_a, new_b)``.

    The lower-rated side moves up and the higher-rated down; between equals both move a little
    toward the centre of the scale, where gain_drag and loss_drag cross.
    """
    if params.draw_margin == 0:
        return rating_a, rating_b
    weight = _weight(robot, params)
    return (
        _clamp(rating_a + _draw_delta(rating_a, rating_b, weight, params), params),
        _clamp(rating_b + _draw_delta(rating_b, rating_a, weight, params), params),
    )


def lobby_game(
    rating_a: float,
    rating_b: float,
    score_a: int,
    score_b: int,
    *,
    robot: bool = False,
    params: LobbyParams = LOBBY_PARAMS,
) -> tuple[float, float]:
    """Ratings after a two-player game given both scores: ``(new_a, new_b)``."""
    return _by_scores(lobby_update, lobby_draw, rating_a, rating_b, score_a, score_b, robot, params)


Pair = tuple[float, float]


def doubles_update(
    winners: Pair,
    losers: Pair,
    margin: float,
    *,
    robot: bool = False,
    params: LobbyParams = DOUBLES_PARAMS,
) -> tuple[Pair, Pair]:
    """Doubles ratings after a won pairs game: ``((winner1, winner2), (loser1, loser2))``.

    The exchange is computed once from the team averages (the partners won or lost together,
    against the pair as a whole); each partner's drag is their own, so a 950 partner gains
    little even beside a 500 one.
    """
    if margin <= 0:
        raise ValueError("a won game has a positive margin; use doubles_draw for a tie")
    avg_w = (winners[0] + winners[1]) / 2.0
    avg_l = (losers[0] + losers[1]) / 2.0
    base = _base(avg_w, avg_l, margin, _weight(robot, params), params)
    w1, w2 = winners
    l1, l2 = losers
    return (
        (
            _clamp(w1 + base * gain_drag(w1, params), params),
            _clamp(w2 + base * gain_drag(w2, params), params),
        ),
        (
            _clamp(l1 - base * loss_drag(l1, params), params),
            _clamp(l2 - base * loss_drag(l2, params), params),
        ),
    )


def doubles_draw(
    team_a: Pair,
    team_b: Pair,
    *,
    robot: bool = False,
    params: LobbyParams = DOUBLES_PARAMS,
) -> tuple[Pair, Pair]:
    """Doubles ratings after a tied pairs game: half a win and half a loss for every partner,
    computed from the team averages with each partner's own drag."""
    if params.draw_margin == 0:
        return team_a, team_b
    weight = _weight(robot, params)
    avg_a = (team_a[0] + team_a[1]) / 2.0
    avg_b = (team_b[0] + team_b[1]) / 2.0
    m = params.draw_margin
    a_wins = _base(avg_a, avg_b, m, weight, params)
    b_wins = _base(avg_b, avg_a, m, weight, params)

    def moved(own: float, own_wins: float, own_loses: float) -> float:
        delta = 0.5 * (own_wins * gain_drag(own, params) - own_loses * loss_drag(own, params))
        return _clamp(own + delta, params)

    return (
        (moved(team_a[0], a_wins, b_wins), moved(team_a[1], a_wins, b_wins)),
        (moved(team_b[0], b_wins, a_wins), moved(team_b[1], b_wins, a_wins)),
    )


def doubles_game(
    team_a: Pair,
    team_b: Pair,
    score_a: int,
    score_b: int,
    *,
    robot: bool = False,
    params: LobbyParams = DOUBLES_PARAMS,
) -> tuple[Pair, Pair]:
    """Doubles ratings after a pairs game given both team scores: ``(new_team_a, new_team_b)``."""
    return _by_scores(doubles_update, doubles_draw, team_a, team_b, score_a, score_b, robot, params)
