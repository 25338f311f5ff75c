"""Whether forecasts are shown is cached in the shared pages cache, which the test database's
rollback does not empty: each test here starts and ends without that answer cached."""

from __future__ import annotations

import pytest

from tournaments.forecasts import selectors


@pytest.fixture(autouse=True)
def _no_cached_verdict():
    selectors.forget_shown_evaluation()
    yield
    selectors.forget_shown_evaluation()
