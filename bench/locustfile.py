"""Locust scenario for `make load`: spectators reading public pages and the API, and players
submitting their own valid self-play games.

bench.load seeds the data, starts the system and runs this file in its own locust process
(gevent patches the standard library, which must not happen in a process that uses psycopg and
Django). It reads the seeded ids, tokens and record pool from the JSON file named by
TANTRIX_LOAD_DATA. Requests are grouped by name (one row per endpoint, not per id); a
submission counts as a failure unless it answers 202, any other request unless it answers 2xx.
When locust quits, the final figures go to the JSON file named by TANTRIX_LOAD_RESULT (locust's
own CSV is written once a second and can miss the last requests).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import uuid
from collections.abc import Callable
from pathlib import Path

from locust import FastHttpUser, between, events, task

DATA = json.loads(Path(os.environ["TANTRIX_LOAD_DATA"]).read_text())
PLAYERS: list[dict] = DATA["players"]
RECORDS: list[dict] = DATA["records"]
BROWSE_WEIGHT = int(os.environ.get("TANTRIX_LOAD_BROWSE_WEIGHT", "4"))
SUBMIT_WEIGHT = int(os.environ.get("TANTRIX_LOAD_SUBMIT_WEIGHT", "1"))
WAIT_MIN = float(os.environ.get("TANTRIX_LOAD_WAIT_MIN", "0.5"))
WAIT_MAX = float(os.environ.get("TANTRIX_LOAD_WAIT_MAX", "1.5"))

# Each simulated user plays as the next seeded player; records are dealt from one shared pool.
_next_player = itertools.count()
_next_record = itertools.count()


def _pages() -> list[tuple[str, Callable[[], str]]]:
    """(name, url maker) for every public read; each is picked with equal chance."""
    championship, event = DATA["championship"], DATA["event"]

    def player_id() -> int:
        return random.choice(PLAYERS)["id"]

    def game_id() -> int:
        return random.choice(DATA["games"])

    return [
        ("/", lambda: "/"),
        ("/rankings/", lambda: "/rankings/"),
        ("/rankings/players/[id]/", lambda: f"/rankings/players/{player_id()}/"),
        ("/championships/", lambda: "/championships/"),
        ("/championships/[id]/", lambda: f"/championships/{championship}/"),
        ("/championships/events/[id]/", lambda: f"/championships/events/{event}/"),
        (
            "/championships/matches/[id]/",
            lambda: f"/championships/matches/{random.choice(DATA['matches'])}/",
        ),
        ("/players/[id]/", lambda: f"/players/{player_id()}/"),
        ("/games/", lambda: "/games/"),
        ("/games/[id]/", lambda: f"/games/{game_id()}/"),
        ("/static/css/site.css", lambda: "/static/css/site.css"),
        ("/api/games/", lambda: "/api/games/"),
        ("/api/games/[id]/", lambda: f"/api/games/{game_id()}/"),
        ("/api/players/", lambda: "/api/players/"),
        ("/api/championships/", lambda: "/api/championships/"),
        ("/api/events/[id]/matches/", lambda: f"/api/events/{event}/matches/"),
        ("/api/ratings/rankings/", lambda: "/api/ratings/rankings/"),
    ]


PAGES = _pages()


class TantrixUser(FastHttpUser):
    """Reads public pages anonymously; now and then submits one of its own games with its token."""

    wait_time = between(WAIT_MIN, WAIT_MAX)

    def on_start(self) -> None:
        self.player = PLAYERS[next(_next_player) % len(PLAYERS)]
        self.opponents = [p["name"] for p in PLAYERS if p["id"] != self.player["id"]]

    @task(BROWSE_WEIGHT)
    def browse(self) -> None:
        name, url = random.choice(PAGES)
        with self.client.get(url(), name=name, catch_response=True) as response:
            if not 200 <= response.status_code < 300:
                response.failure(f"HTTP {response.status_code}")

    @task(SUBMIT_WEIGHT)
    def submit(self) -> None:
        record = dict(RECORDS[next(_next_record) % len(RECORDS)])
        names = [self.player["name"], random.choice(self.opponents)]
        if random.random() < 0.5:
            names.reverse()
        record["players"] = [
            {**seat, "name": name} for seat, name in zip(record["players"], names, strict=True)
        ]
        with self.client.post(
            "/api/games/records/",
            data=json.dumps(record),
            headers={
                "Authorization": f"Token {self.player['token']}",
                "Content-Type": "application/json",
                "Idempotency-Key": str(uuid.uuid4()),
            },
            name="/api/games/records/",
            catch_response=True,
        ) as response:
            if response.status_code != 202:
                response.failure(f"HTTP {response.status_code}: {(response.text or '')[:200]}")


def _figures(entry) -> dict:
    return {
        "method": entry.method or "",
        "name": entry.name,
        "requests": entry.num_requests,
        "failures": entry.num_failures,
        "p50": entry.get_response_time_percentile(0.50),
        "p95": entry.get_response_time_percentile(0.95),
        "p99": entry.get_response_time_percentile(0.99),
        "max": entry.max_response_time,
        "rps": entry.total_rps,
    }


@events.init.add_listener
def _on_init(environment, **kwargs) -> None:
    @events.quit.add_listener
    def _write_result(exit_code: int, **kwargs) -> None:
        path = os.environ.get("TANTRIX_LOAD_RESULT")
        if not path:
            return
        stats = environment.runner.stats
        result = {
            "endpoints": [_figures(entry) for entry in stats.entries.values()],
            "total": _figures(stats.total),
            "errors": [
                {
                    "method": error.method,
                    "name": error.name,
                    "error": str(error.error),
                    "occurrences": error.occurrences,
                }
                for error in stats.errors.values()
            ],
        }
        Path(path).write_text(json.dumps(result))
