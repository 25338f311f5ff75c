import dataclasses

import pytest

from ratings import params as rating_params

# The real-worker fixtures live with the other integration tests; the ratings' own integration
# tests use them from here.
from tests.integration.conftest import start_worker  # noqa: F401


@pytest.fixture
def parameter_set(monkeypatch):
    """Put a new parameter-set version in force for one test: ``parameter_set(k=4.0)`` changes
    the lobby constants (the monthly, doubles and Master tables follow, as in ratings.params),
    ``parameter_set(elo={"anchor": 1500.0})`` the Elo's."""

    def use(*, elo: dict | None = None, **lobby_changes) -> rating_params.ParameterSet:
        base = rating_params.current()
        version = max(rating_params.PARAMETER_SETS) + 1
        new = rating_params.ParameterSet.build(
            version=version,
            lobby=dataclasses.replace(base.lobby, **lobby_changes),
            monthly_start=base.monthly.start,
            doubles_k=base.doubles.k,
            master_start=base.master.start,
            master_k=base.master.k,
            elo=dataclasses.replace(base.elo, **(elo or {})),
            titles=base.titles,
        )
        monkeypatch.setattr(
            rating_params, "PARAMETER_SETS", {**rating_params.PARAMETER_SETS, version: new}
        )
        monkeypatch.setattr(rating_params, "CURRENT_VERSION", version)
        return new

    return use
