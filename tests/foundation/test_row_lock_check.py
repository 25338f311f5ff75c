"""The suite-wide check that row locks are taken only inside `transaction.atomic` (issue 26).

tests/conftest.py fails any test in which row-locking SQL runs with no atomic block of the code's
own open. Checked here on a small test file run by pytest in a subprocess, with the check and the
per-run test database name taken from the shared conftest, so the failures it must produce do
not fail this run.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

CONFTEST = """
from tests.conftest import _row_locks_only_inside_atomic, django_db_modify_db_settings  # noqa
"""

PROBES = """
import pytest
from django.db import connection, transaction

from players.models import Player


@pytest.mark.django_db
def test_lock_in_the_tests_transaction_only():
    list(Player.objects.select_for_update())


@pytest.mark.django_db
def test_lock_inside_atomic():
    with transaction.atomic():
        list(Player.objects.select_for_update(no_key=True))


@pytest.mark.django_db
def test_lock_swallowed_by_the_code():
    try:
        list(Player.objects.select_for_update(of=("self",)))
    except Exception:
        pass


@pytest.mark.django_db
def test_shared_lock_in_the_tests_transaction_only():
    list(Player.objects.raw("SELECT * FROM players_player FOR SHARE"))


@pytest.mark.django_db(transaction=True)
def test_advisory_lock_in_autocommit():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [26, 1])


@pytest.mark.django_db(transaction=True)
def test_advisory_lock_inside_atomic():
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [26, 2])


@pytest.mark.django_db
def test_plain_reads_and_writes():
    Player.objects.create(display_name="Free", country="GB")
    assert Player.objects.filter(display_name="Free").exists()
"""


def _outcomes(summary: str) -> dict[str, str]:
    """Test name → what the short summary of `-rA` says of its run ("PASSED", "FAILED") and of
    its end ("ERROR")."""
    outcomes: dict[str, list[str]] = {}
    for line in summary.splitlines():
        word, _, rest = line.partition(" ")
        if word in {"PASSED", "FAILED", "ERROR"} and "::" in rest:
            name = rest.split("::", 1)[1].split(" ", 1)[0]
            outcomes.setdefault(name, []).append(word)
    return {name: " and ".join(sorted(words)) for name, words in outcomes.items()}


def test_row_locks_outside_atomic_fail_the_test(tmp_path):
    probes = tmp_path / "test_probes.py"
    probes.write_text(PROBES)
    (tmp_path / "conftest.py").write_text(CONFTEST)
    ran = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(probes),
            "-c",
            str(REPO / "pyproject.toml"),
            "-p",
            "no:cacheprovider",
            "-q",
            f"--rootdir={REPO}",
            "-rA",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    # A lock outside atomic fails the test where it runs, and again when the test ends.
    assert _outcomes(ran.stdout) == {
        "test_lock_in_the_tests_transaction_only": "ERROR and FAILED",
        "test_lock_inside_atomic": "PASSED",
        # The code under test caught the error; the check still fails the test when it ends.
        "test_lock_swallowed_by_the_code": "ERROR and PASSED",
        "test_shared_lock_in_the_tests_transaction_only": "ERROR and FAILED",
        "test_advisory_lock_in_autocommit": "ERROR and FAILED",
        "test_advisory_lock_inside_atomic": "PASSED",
        "test_plain_reads_and_writes": "PASSED",
    }
