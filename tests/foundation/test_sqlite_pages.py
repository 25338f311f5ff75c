"""Pages on `make run`'s SQLite database (issue 26): a signed-in player's own profile and Reports
page answered 500 there (`contains lookup is not supported on this database backend`, from the
reports waiting for them), so the time zone and language settings on that page were out of reach,
while the suite on PostgreSQL stayed green. The requests run in a subprocess on a fresh SQLite file
with tasks eager, as `make run` serves them; the walks (tests/walks) cover the same on a server."""

from __future__ import annotations

import json

from tests.foundation.test_make_run_sqlite import _manage

# Ana reports a casual game against Bela through the real submission path (adjudicated at once,
# tasks eager); each then opens their own profile and the Reports page.
SCRIPT = """
import json
from django.contrib.auth import get_user_model
from django.test import Client
from games import services
from games.engine import selfplay
from players.models import Player

User = get_user_model()
people = [
    Player.objects.create(
        display_name=name, country="HU", user=User.objects.create_user(name.lower(), password="x")
    )
    for name in ("Ana", "Bela")
]
record = selfplay(7, "2")
record["players"][0]["name"], record["players"][1]["name"] = "Ana", "Bela"
services.record_submit(actor=people[0].user, body=json.dumps(record).encode())
seen = {}
for player in people:
    client = Client(HTTP_HOST="localhost")
    client.force_login(player.user)
    for page, url in (("profile", f"/players/{player.pk}/"), ("reports", "/games/reports/")):
        response = client.get(url)
        seen[f"{player.display_name} {page}"] = [
            response.status_code, "Ana v Bela" in response.content.decode()
        ]
print("SEEN", json.dumps(seen))
"""


def test_own_profile_and_reports_pages_list_what_waits_on_sqlite(tmp_path):
    database = tmp_path / "db.sqlite3"
    migrated = _manage("migrate", "--noinput", "-v", "0", database=database)
    assert migrated.returncode == 0, migrated.stderr
    ran = _manage("shell", "-c", SCRIPT, database=database)
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert "Traceback" not in ran.stderr, ran.stderr[-3000:]
    seen = json.loads(ran.stdout.split("SEEN ", 1)[1])
    # Bela is asked to confirm Ana's report on both pages; Ana, its author, is not.
    assert seen == {
        "Ana profile": [200, False],
        "Ana reports": [200, False],
        "Bela profile": [200, True],
        "Bela reports": [200, True],
    }
