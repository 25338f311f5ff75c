import os
from pathlib import Path

import pytest

SHARED_SPEC = Path(__file__).resolve().parents[2].parent / "shared" / "spec"


@pytest.mark.skipif(not os.environ.get("CI"), reason="only CI promises ../shared beside the clone")
def test_ci_has_the_shared_spec_so_the_spec_checks_run():
    """The tile-data, TP-table and spec-example tests skip without ../shared; in CI it must be
    there, so that they run and nothing skips silently."""
    for name in ("tiles.csv", "tournament-points.csv", "examples/two-player.json"):
        assert (SHARED_SPEC / name).is_file(), f"{SHARED_SPEC / name} is missing in CI"
