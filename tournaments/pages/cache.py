"""Cached public fragments of championship pages, dropped when a result changes.

Each cached fragment's key carries two version tokens: the championship's and the event's.
A change bumps a token (a fresh random value) at once and again when its transaction commits,
so every fragment built before it is never read again and expires on its own. The bump after
the commit is the one that counts for other processes: a fragment built from pre-commit data
under the first new token is abandoned by the second, and whoever reads the second token
reads the committed data.

Who bumps (`connect_receivers`, from `TournamentsConfig.ready`):
- a saved or deleted Match, MatchGame, Round, Entry or Event bumps its event;
- a saved Championship bumps the championship;
- every audit trail entry naming a championship bumps it (and its event): every change to
  results, draws and brackets is audited in the transaction that makes it, including the
  changes the services make with `QuerySet.update()`, which sends no signal.

Player names come from the players app and are not watched: a renamed player shows on cached
pages within `TOURNAMENTS_PAGE_CACHE_SECONDS`.

The cache is the "pages" alias, shared by every process that changes results (workers too).
If the cache is unreachable the page is built without it: a cache outage never fails a page.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.db import connection, transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone, translation

from players.models import AuditEntry
from tournaments.models import Championship, Entry, Event, Match, MatchGame, Round

logger = logging.getLogger(__name__)

ALIAS = "pages"


def _cache():
    return caches[ALIAS]


def _prefix() -> str:
    # The database name keeps test runs (one database each, one shared Redis) apart.
    return f"tantrix:pages:{connection.settings_dict['NAME']}"


def _version_key(kind: str, pk: int) -> str:
    return f"{_prefix()}:v:{kind}:{pk}"


def versions(*, championship_id: int, event_id: int | None = None) -> str:
    """The current version tokens of a championship (and one of its events), as one string."""
    keys = [_version_key("c", championship_id)]
    if event_id is not None:
        keys.append(_version_key("e", event_id))
    cache = _cache()
    if len(_READ) > 10_000:
        _READ.clear()  # only an optimisation: forgetting means one more bump, never a stale page
    _READ.update(keys)
    found = cache.get_many(keys)
    missing = {key: secrets.token_hex(6) for key in keys if key not in found}
    if missing:
        # add, not set: two first readers must agree on the token.
        for key, token in missing.items():
            cache.add(key, token, timeout=None)
        found = cache.get_many(keys)
    return ".".join(str(found.get(key, "-")) for key in keys)


def cached_fragment(
    name: str, *, championship_id: int, event_id: int | None, build: Callable[[], str]
) -> tuple[str, str]:
    """(html, version): the fragment from the cache, or built and stored."""
    try:
        version = versions(championship_id=championship_id, event_id=event_id)
        # Times are rendered in the viewer's zone (a profile setting) and words in their
        # language: one copy per zone and language.
        zone = timezone.get_current_timezone_name()
        language = translation.get_language() or ""
        key = f"{_prefix()}:f:{championship_id}:{event_id}:{name}:{zone}:{language}:{version}"
        html = _cache().get(key)
    except Exception:  # a cache outage must not fail the page
        logger.warning("page cache unreachable; building %s without it", name, exc_info=True)
        return build(), ""
    if html is None:
        html = build()
        try:
            _cache().set(key, html, timeout=settings.TOURNAMENTS_PAGE_CACHE_SECONDS)
        except Exception:
            logger.warning("page cache unreachable; %s not stored", name, exc_info=True)
    return html, version


def _set_tokens(keys: set[tuple[str, int]]) -> None:
    try:
        _cache().set_many(
            {_version_key(kind, pk): secrets.token_hex(6) for kind, pk in keys}, timeout=None
        )
    except Exception:  # the fragments expire on their own
        logger.warning("page cache unreachable; %s not refreshed", sorted(keys), exc_info=True)


class _Pending:
    """The versions a transaction changed: bumped again once it commits."""

    def __init__(self) -> None:
        self.keys: set[tuple[str, int]] = set()

    def flush(self) -> None:
        _set_tokens(self.keys)


_ATTRIBUTE = "_tantrix_page_versions"
# Version keys this process has read since it last bumped them. Only this process can read
# its own uncommitted changes, so the immediate bump matters only for a version it has read:
# a draw that saves a thousand matches, reading no page in between, bumps once.
_READ: set[str] = set()


def _bump(kind: str, pk: int | None) -> None:
    """Bump a version now (so this transaction's own later reads, and tests, see fresh pages)
    and again after the commit (so a fragment another process built from the pre-commit data
    in between is never read); the after-commit bump is registered once per transaction."""
    if pk is None:
        return
    conn = transaction.get_connection()
    if not conn.in_atomic_block:
        _set_tokens({(kind, pk)})
        return
    pending = getattr(conn, _ATTRIBUTE, None)
    # A rolled-back transaction drops its callbacks: then this is a new transaction.
    if pending is None or not any(item[1] == pending.flush for item in conn.run_on_commit):
        pending = _Pending()
        setattr(conn, _ATTRIBUTE, pending)
        transaction.on_commit(pending.flush)
    pending.keys.add((kind, pk))
    key = _version_key(kind, pk)
    if key in _READ:
        _READ.discard(key)
        _set_tokens({(kind, pk)})


def forget(*, championship_id: int, event_id: int | None = None) -> None:
    """Drop every cached fragment of a championship (and event) now, outside any transaction's
    bookkeeping: for measuring pages cold. Never `clear()` the alias: on Redis that empties the
    whole database, which it may share with the broker."""
    keys = {("c", championship_id)} | ({("e", event_id)} if event_id is not None else set())
    _set_tokens(keys)


def championship_changed(championship_id: int | None) -> None:
    _bump("c", championship_id)


def event_changed(event_id: int | None) -> None:
    _bump("e", event_id)


# --- Receivers: dispatch only -------------------------------------------------------------


def _on_event_row(sender, instance, **kwargs) -> None:
    event_changed(instance.event_id)


def _on_match_game(sender, instance, **kwargs) -> None:
    event_changed(
        Match.objects.filter(pk=instance.match_id).values_list("event_id", flat=True).first()
    )


def _on_event(sender, instance, **kwargs) -> None:
    event_changed(instance.pk)
    event_changed(instance.feeds_from_id)
    championship_changed(instance.championship_id)


def _on_championship(sender, instance, **kwargs) -> None:
    championship_changed(instance.pk)


def _on_audit_entry(sender, instance, created=False, **kwargs) -> None:
    if instance.championship_id is not None:
        championship_changed(instance.championship_id)
        event_changed(instance.event_id)


def connect_receivers() -> None:
    for model in (Match, Round, Entry):
        for signal in (post_save, post_delete):
            signal.connect(_on_event_row, sender=model, dispatch_uid=f"pages.{model.__name__}")
    for signal in (post_save, post_delete):
        signal.connect(_on_event, sender=Event, dispatch_uid="pages.Event")
        signal.connect(_on_championship, sender=Championship, dispatch_uid="pages.Championship")
    post_save.connect(_on_match_game, sender=MatchGame, dispatch_uid="pages.MatchGame")
    post_save.connect(_on_audit_entry, sender=AuditEntry, dispatch_uid="pages.AuditEntry")
