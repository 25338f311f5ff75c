"""What the permission matrix's tables are written in: outcome classes, rows of outcomes (one
per role), and what a request body is built from. Shared by test_permission_matrix.py and the
rows it takes from matrix_more.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.security.world import MISSING_ID, World

ROLES = ("anonymous", "player", "organiser", "controller", "staff")

OK, DENIED, HIDDEN, BAD, PASS, REFUSED = "ok", "denied", "hidden", "bad", "pass", "refused"
ACCEPTED = {
    OK: {OK},
    DENIED: {DENIED},
    HIDDEN: {HIDDEN},
    BAD: {BAD},
    PASS: {OK, BAD},
    REFUSED: {DENIED, BAD},
}
NO_SCOPE = "-"

# Rows, one outcome per role in ROLES order:
#                 anonymous  player  organiser  controller  staff
EVERYONE = (OK, OK, OK, OK, OK)
SIGNED_IN = (DENIED, OK, OK, OK, OK)
ORGANISERS = (DENIED, DENIED, OK, DENIED, OK)  # the organisers group, or the object's organiser
RULERS = (DENIED, DENIED, OK, OK, OK)  # the championship's organisers and controllers
STAFF = (DENIED, DENIED, DENIED, DENIED, OK)
NOBODY = (DENIED, DENIED, DENIED, DENIED, DENIED)
# Unpublished, not theirs: a page nobody but staff may know of. Behind a login (web) or a write
# (API), the anonymous visitor is stopped before the lookup.
UNSEEN = (HIDDEN, HIDDEN, HIDDEN, HIDDEN, OK)
UNSEEN_SIGNED_IN = (DENIED, HIDDEN, HIDDEN, HIDDEN, OK)
# Unpublished, the organiser's and the controller's own: they see it, the player does not.
OWN_UNPUBLISHED_READ = (HIDDEN, HIDDEN, OK, OK, OK)
OWN_UNPUBLISHED_RULERS = (DENIED, HIDDEN, OK, OK, OK)
OWN_UNPUBLISHED_ORGANISERS = (DENIED, HIDDEN, OK, DENIED, OK)


def permitted_as(outcome: str, rows: Any) -> Any:
    """The same rows with every permitted (ok) outcome replaced, e.g. by bad where the body is
    an empty form that is shown again with its errors."""
    if isinstance(rows, dict):
        return {scope: permitted_as(outcome, row) for scope, row in rows.items()}
    return tuple(outcome if cell == OK else cell for cell in rows)


@dataclass(frozen=True)
class Context:
    world: World
    role: str
    scope: str
    obj: Any  # the object the path names, or None
    twin: bool  # build the "does not exist" twin: name MISSING_ID instead of the hidden object

    def ref(self, obj: Any) -> int:
        return MISSING_ID if self.twin else obj.pk


@dataclass(frozen=True)
class Payload:
    query: dict | None = None
    data: dict | None = None  # JSON (API) or form fields (web)
    raw: bytes | None = None  # an API body sent as is (application/json)
