"""Services publish tasks by their registered names (tantrix_site/queueing.py): they import no
tasks module, and a process that has imported none (a web process) still finds the task."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SERVICES = [
    REPO / "games" / "services.py",
    *sorted((REPO / "games").glob("*/services.py")),
    REPO / "games" / "records" / "queueing.py",
    *sorted((REPO / "games" / "adjudication").glob("*.py")),
    *sorted((REPO / "games" / "reports").glob("*.py")),
    *sorted((REPO / "ratings" / "services").glob("*.py")),
]


def _imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return found


def test_services_never_import_a_tasks_module():
    offending = {
        str(path.relative_to(REPO)): sorted(
            name for name in _imported_modules(path) if name.split(".")[-1] == "tasks"
        )
        for path in SERVICES
    }
    assert {path: names for path, names in offending.items() if names} == {}


SCRIPT = """
import json, sys, django
django.setup()

def tasks_modules():
    return sorted(m for m in sys.modules if m in ("games.tasks", "ratings.tasks"))

import games.services, ratings.services, games.urls, games.api_urls, ratings.views, ratings.api
imported = tasks_modules()
from tantrix_site.queueing import registered_task
found = [registered_task(name).name for name in (
    "games.tasks.adjudicate_pending", "ratings.tasks.apply_game", "ratings.tasks.recompute_ratings"
)]
print(json.dumps({"imported": imported, "found": found}))
"""


def test_a_process_that_imported_no_tasks_module_finds_tasks_by_their_names():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tantrix_site.settings",
        "DEBUG": "1",
        "CELERY_BROKER_URL": "",  # no broker needed: nothing is published
    }
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["imported"] == []  # services, views and the API leave the tasks alone
    assert answer["found"] == [
        "games.tasks.adjudicate_pending",
        "ratings.tasks.apply_game",
        "ratings.tasks.recompute_ratings",
    ]
