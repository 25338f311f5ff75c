"""The rating systems' parameters: versioned parameter sets in code (docs/ratings.md §8).

The constants of the formulas are not settings: a plausible but wrong value in the environment
would silently change the maths until a recompute. Each set of them has a version number, and
every ``RatingChange`` stores the version in force when it was written
(``RatingChange.params_version``), so a history says which constants made it.

To change a constant: add a new ``ParameterSet`` with the next version to ``PARAMETER_SETS``,
point ``CURRENT_VERSION`` at it, explain it in docs/ratings.md, and run ``manage.py
recompute_ratings`` after deploying. Never edit a published set.

The only setting here is the Master title cap (``RATINGS_MASTER_CAP``: the federation chooses
100 or 120), which ``title_params`` lays over the current set.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from ratings.systems import EloParams, LobbyParams, MasterTitleParams


@dataclass(frozen=True)
class ParameterSet:
    """Every constant of every table, under one version number."""

    version: int
    lobby: LobbyParams
    monthly: LobbyParams
    doubles: LobbyParams
    master: LobbyParams
    elo: EloParams
    titles: MasterTitleParams

    @classmethod
    def build(
        cls,
        *,
        version: int,
        lobby: LobbyParams,
        monthly_start: float,
        doubles_k: float,
        master_start: float,
        master_k: float,
        elo: EloParams,
        titles: MasterTitleParams,
    ) -> ParameterSet:
        """The monthly, doubles and Master tables take the lobby's constants except their own
        start or K (the Master table also without drag)."""
        return cls(
            version=version,
            lobby=lobby,
            monthly=replace(lobby, start=monthly_start),
            doubles=replace(lobby, k=doubles_k),
            master=replace(lobby, start=master_start, k=master_k, drag=False),
            elo=elo,
            titles=titles,
        )

    def table(self, system: str) -> LobbyParams:
        """One lobby-style table's constants by its ``RatingSystem`` value (this module sits
        below ``ratings.models``, so it names the tables by their stored strings)."""
        tables = {
            "lobby": self.lobby,
            "monthly": self.monthly,
            "doubles": self.doubles,
            "master": self.master,
        }
        return tables[system]


PARAMETER_SETS: dict[int, ParameterSet] = {
    # Version 1: the constants docs/ratings.md §1-§7 explains.
    1: ParameterSet.build(
        version=1,
        lobby=LobbyParams(
            start=500.0,
            k=2.0,
            margin_cap=36,
            ratio_cap=4.0,
            gain_drag_exponent=0.6,
            loss_drag_ceiling=1.25,
            robot_weight=0.5,
            draw_margin=1.0,
        ),
        monthly_start=700.0,
        doubles_k=2.0,
        master_start=500.0,
        master_k=2.0,
        elo=EloParams(
            scale=565.7,
            anchor=1850.0,
            initial=1850.0,
            memory_games=60,
            provisional_games=36,
            performance_cap=800.0,
            # Was the setting RATINGS_ELO_ANCHOR_TOLERANCE (0.05 unless set otherwise) until it
            # joined the sets (issue 27), with its value: what versions 1 and 2 computed stands.
            anchor_tolerance=0.05,
        ),
        titles=MasterTitleParams(
            min_lobby=950.0,
            min_elo_tournaments=1,
            cap=120,
            games_to_keep=5,
            window_months=3,
        ),
    ),
}

# Version 2: the loss drag as the design means it (docs/ratings.md §1, "Version 2"): a loss is
# never smaller than undragged and grows towards 1000 (1 up to the centre, 500, then rising
# linearly to 1.25 at 1000); the gain drag is centred on the same 500 (((1 − x) / 0.5)^1.1:
# 1 at 500, 0.467 at 750, 0 at 1000), so a crowd of equals still settles at the start, 500.
_V1 = PARAMETER_SETS[1]
PARAMETER_SETS[2] = ParameterSet.build(
    version=2,
    lobby=replace(_V1.lobby, gain_drag_exponent=1.1, drag_centre=500.0),
    monthly_start=_V1.monthly.start,
    doubles_k=_V1.doubles.k,
    master_start=_V1.master.start,
    master_k=_V1.master.k,
    elo=_V1.elo,
    titles=_V1.titles,
)

CURRENT_VERSION = 2


def current() -> ParameterSet:
    """The parameter set in force (read on every call, so a test may swap it)."""
    return PARAMETER_SETS[CURRENT_VERSION]


def current_version() -> int:
    """The version stored on each new rating change."""
    return current().version


def table_params(system: str) -> LobbyParams:
    """The constants in force of one lobby-style table, named by its ``RatingSystem`` value
    (``"lobby"``, ``"monthly"``, ``"doubles"`` or ``"master"``)."""
    return current().table(system)


def lobby_params() -> LobbyParams:
    """The lobby ranking's constants in force (the table most callers mean)."""
    return current().lobby


def elo_params() -> EloParams:
    """The tournament Elo's constants in force."""
    return current().elo


def title_params() -> MasterTitleParams:
    return replace(current().titles, cap=settings.RATINGS_MASTER_CAP)


def check_settings() -> None:
    """At start-up: the current version exists and the title cap is consistent with it."""
    if CURRENT_VERSION not in PARAMETER_SETS:
        raise ImproperlyConfigured(f"ratings: no parameter set version {CURRENT_VERSION}")
    try:
        title_params()
    except ValueError as exc:
        raise ImproperlyConfigured(f"ratings settings (RATINGS_MASTER_CAP): {exc}") from None
