"""Fixtures of the permission matrix (see world.py for what is in the world)."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import override_settings

from tests.security.world import build_world


@pytest.fixture(scope="module", autouse=True)
def fast_password_hashing():
    """Permitted sign-ups (through a claim link or a claim request) hash a password: with the
    production hasher each costs a good part of a second, and the matrix makes several."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Built once; rolled back after the module (each test's changes roll back to here)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)
