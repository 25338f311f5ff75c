from __future__ import annotations

import pytest

from tests.factories import PlayerFactory


@pytest.fixture
def pair(db):
    """Two players with accounts, the names the page tests look for."""
    return (
        PlayerFactory(display_name="Ingrid", with_user=True),
        PlayerFactory(display_name="Tomas", with_user=True),
    )
