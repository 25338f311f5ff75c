"""Reads of game records: who may see a record, and a person's own records."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy

from games.models import GameRecord
from players.roles import is_admin, player_of
from players.types import User


def record_visible_to(user: User, record: GameRecord) -> bool:
    """The submitter, the players seated in it, and staff may see a record."""
    if not (user and user.is_authenticated):
        return False
    if is_admin(user) or record.submitter_id == user.pk:
        return True
    own = player_of(user)
    return own is not None and own.pk in (record.seat_players or [])


def records_for(user: User) -> QuerySet[GameRecord]:
    records = GameRecord.objects.select_related("submitter").defer("body")
    if is_admin(user):
        return records
    return records.filter(submitter=user)


# The named rule a record's page and endpoint declare (GamesConfig.ready registers it).
RULES: dict[str, tuple[Callable[[User, Any], bool], Any]] = {
    "see_record": (
        record_visible_to,
        gettext_lazy("Only the submitter, the players in this game and staff may see it."),
    ),
}
