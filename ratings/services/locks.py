"""The tables' advisory locks: one writer per table, taken in a fixed order."""

from __future__ import annotations

from django.conf import settings
from django.db import OperationalError, connection
from django.utils.translation import gettext as _

from ratings.models import RatingSystem
from tantrix_site.errors import ServiceBusy

# --- Locks -------------------------------------------------------------------------------------

# pg_advisory_xact_lock(int, int): a namespace of our own, then one key per table (and titles).
_LOCK_NAMESPACE = 7_000_006
_LOCK_KEYS = {
    RatingSystem.LOBBY: 1,
    RatingSystem.MONTHLY: 2,
    RatingSystem.DOUBLES: 3,
    RatingSystem.MASTER: 4,
    RatingSystem.ELO: 5,
    "titles": 6,
}


LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE when lock_timeout ran out


class RatingsBusy(OperationalError, ServiceBusy):
    """The rating tables' locks were not free in time. Tasks retry on OperationalError; views
    answer 503 (ServiceBusy)."""

    def __init__(self, message: str):
        ServiceBusy.__init__(self, message, retry_after=60)


def lock_tables(*names: str, wait_seconds: float | None = None) -> None:
    """Take the advisory locks of these tables for the current transaction, in a fixed order.

    Waits at most `wait_seconds` (default RATINGS_LOCK_WAIT_SECONDS), then raises
    OperationalError: an apply task behind a long recompute gives up and is retried later
    instead of holding a worker and a connection indefinitely. The transaction's own
    lock_timeout is restored afterwards, so row locks later in it are not affected.

    SQLite (the zero-setup local run, tasks eager, one process) has no advisory locks and no
    concurrent writers; there this is a no-op.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("rating locks are transaction-scoped: call inside transaction.atomic")
    if connection.vendor != "postgresql":
        return
    wait = settings.RATINGS_LOCK_WAIT_SECONDS if wait_seconds is None else wait_seconds
    keys = sorted({_LOCK_KEYS[name] for name in names})
    # One statement, one round trip: PostgreSQL evaluates the select list left to right, so the
    # previous timeout is read, ours set, and the locks taken one after the other in key order.
    sql = (
        "SELECT current_setting('lock_timeout'), set_config('lock_timeout', %s, true), "
        + ", ".join(["pg_advisory_xact_lock(%s, %s)"] * len(keys))
    )
    with connection.cursor() as cursor:
        try:
            cursor.execute(
                sql,
                [f"{max(1, round(wait * 1000))}ms"]
                + [arg for key in keys for arg in (_LOCK_NAMESPACE, key)],
            )
        except OperationalError as exc:
            if getattr(exc.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE:
                raise RatingsBusy(
                    _("The ratings are being recalculated; try again in a minute.")
                ) from exc
            raise
        previous = cursor.fetchone()[0]
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [previous])
