"""Fixtures of the permission matrix (see world.py for what is in the world)."""

from __future__ import annotations

import pytest
from django.db import transaction

from tests.security.world import build_world


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Built once; rolled back after the module (each test's changes roll back to here)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)
