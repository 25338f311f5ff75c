"""Cached public fragments of championship pages, dropped when a result changes.

Each cached fragment's key carries two version tokens: the championship's and the event's.
A change bumps a token (a fresh random value) once its transaction commits, so every fragment
built before it is never read again and expires on its own. Bumping after the commit, not
before, means a reader can never store pre-change HTML under the new token: whoever reads the
new token reads the committed data.

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
        key = f"{_prefix()}:f:{championship_id}:{event_id}:{name}:{version}"
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


def _bump(kind: str, pk: int | None) -> None:
    if pk is None:
        return

    def bump() -> None:
        try:
            _cache().set(_version_key(kind, pk), secrets.token_hex(6), timeout=None)
        except Exception:  # the fragments expire on their own
            logger.warning("page cache unreachable; %s %s not refreshed", kind, pk, exc_info=True)

    transaction.on_commit(bump)


def championship_changed(championship_id: int | None) -> None:
    _bump("c", championship_id)


def event_changed(event_id: int | None) -> None:
    _bump("e", event_id)


# --- Receivers: dispatch only -------------------------------------------------------------


def _on_event_row(sender, instance, **kwargs) -> None:
    event_changed(instance.event_id)


def _on_match_game(sender, instance, **kwargs) -> None:
    from tournaments.models import Match

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
    from players.models import AuditEntry
    from tournaments.models import Championship, Entry, Event, Match, MatchGame, Round

    for model in (Match, Round, Entry):
        for signal in (post_save, post_delete):
            signal.connect(_on_event_row, sender=model, dispatch_uid=f"pages.{model.__name__}")
    for signal in (post_save, post_delete):
        signal.connect(_on_event, sender=Event, dispatch_uid="pages.Event")
        signal.connect(_on_championship, sender=Championship, dispatch_uid="pages.Championship")
    post_save.connect(_on_match_game, sender=MatchGame, dispatch_uid="pages.MatchGame")
    post_save.connect(_on_audit_entry, sender=AuditEntry, dispatch_uid="pages.AuditEntry")
