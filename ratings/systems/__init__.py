"""Rating mathematics for Tantrix: pure Python, no Django, no imports from the apps.

- ``lobby``: the lobby ranking (0-1000, start 500) and the tables sharing its maths: monthly
  (start 700), doubles (team averages) and Master (no drag).
- ``monthly``: the period a game belongs to and the rating a player brings to it.
- ``recompute``: the lobby maths replayed over a whole history, fast.
- ``elo``: the tournament Elo from TP shares, anchored at 1850.
- ``titles``: Master title eligibility and lapse.
- ``duels``: one game's moves (two-player and pairs) for the Django side.

Every constant is a field of a frozen parameters dataclass; the Django side takes them from the
versioned parameter set in force (``ratings/params.py``); docs/ratings.md gives the formulas and
the reasons.
"""

from .duels import Duel, doubles_move, duel_move, duel_tuple
from .elo import (
    ELO_PARAMS,
    EloParams,
    EloRating,
    EloUpdate,
    anchor_pool,
    anchor_shift,
    anchor_step,
    elo_tournament,
    elo_update,
    expected_share,
    is_provisional,
    normal_cdf,
    normal_ppf,
    performance,
)
from .lobby import (
    DOUBLES_PARAMS,
    LOBBY_PARAMS,
    MASTER_PARAMS,
    MONTHLY_PARAMS,
    LobbyParams,
    doubles_draw,
    doubles_game,
    doubles_update,
    gain_drag,
    lobby_draw,
    lobby_game,
    lobby_update,
    loss_drag,
)
from .monthly import monthly_rating, period_key
from .recompute import LobbyRecompute, recompute_lobby
from .titles import (
    MASTER_TITLE_PARAMS,
    MasterTitleParams,
    TitleEligibility,
    TitleLapse,
    add_months,
    title_eligibility,
    title_lapse,
)

__all__ = [
    "Duel",
    "doubles_move",
    "duel_move",
    "duel_tuple",
    "DOUBLES_PARAMS",
    "ELO_PARAMS",
    "LOBBY_PARAMS",
    "MASTER_PARAMS",
    "MASTER_TITLE_PARAMS",
    "MONTHLY_PARAMS",
    "EloParams",
    "EloRating",
    "EloUpdate",
    "LobbyParams",
    "LobbyRecompute",
    "MasterTitleParams",
    "TitleEligibility",
    "TitleLapse",
    "add_months",
    "anchor_pool",
    "anchor_shift",
    "anchor_step",
    "doubles_draw",
    "doubles_game",
    "doubles_update",
    "elo_tournament",
    "elo_update",
    "expected_share",
    "gain_drag",
    "is_provisional",
    "lobby_draw",
    "lobby_game",
    "lobby_update",
    "loss_drag",
    "monthly_rating",
    "normal_cdf",
    "normal_ppf",
    "performance",
    "period_key",
    "recompute_lobby",
    "title_eligibility",
    "title_lapse",
]
