"""Confirming a bulk entry: one transaction, every line or none."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.models import Player
from players.services.profiles import player_create
from players.types import User
from tournaments.models import Entry, EntryKind, Event
from tournaments.services.access import require_manager
from tournaments.services.registration import entry_register


@dataclass(frozen=True)
class Choice:
    """The organiser's choice for one line: an existing player, a new one, or leave it out."""

    line: int
    name: str
    country: str = ""
    player_id: int | None = None
    create: bool = False

    @property
    def skipped(self) -> bool:
        return self.player_id is None and not self.create


@dataclass(frozen=True)
class BulkEntered:
    entries: list[Entry]
    created: list[Player]


class LinesRefused(ValidationError):
    """Some lines cannot be entered: nothing is stored. `lines` maps a line to its reasons."""

    def __init__(self, lines: dict[int, list[str]]) -> None:
        self.lines = lines
        super().__init__(
            {
                "lines": ngettext(
                    "%(count)s line cannot be entered: nothing is stored. Correct or leave it "
                    "out, and confirm again.",
                    "%(count)s lines cannot be entered: nothing is stored. Correct or leave them "
                    "out, and confirm again.",
                    len(lines),
                )
                % {"count": len(lines)}
            }
        )


def _messages(exc: ValidationError | PermissionDenied) -> list[str]:
    if isinstance(exc, PermissionDenied):
        return [str(exc)]
    return list(exc.messages)


@transaction.atomic
def bulk_enter(*, actor: User, event: Event, choices: list[Choice]) -> BulkEntered:
    """Create the new players (without an account) and register every chosen player through
    `entry_register` (eligibility and all), or, if any line fails, store nothing and say why
    for each line."""
    require_manager(actor, event.championship)
    if event.entry_kind != EntryKind.SINGLE:
        raise ValidationError(
            {
                "lines": _(
                    "Bulk entry enters single players: pairs and teams are entered one by one."
                )
            }
        )
    chosen = [c for c in choices if not c.skipped]
    if not chosen:
        raise ValidationError({"lines": _("No line is chosen to be entered.")})
    problems: dict[int, list[str]] = {}
    seen: dict[int, int] = {}  # player -> the first line that enters them
    entries, created = [], []
    for choice in chosen:
        try:
            with transaction.atomic():
                if choice.create:
                    if not choice.country:
                        raise ValidationError(
                            {"country": _("Give the new player's country (a code such as DE).")}
                        )
                    player = player_create(
                        actor=actor, display_name=choice.name, country=choice.country
                    )
                    created.append(player)
                else:
                    player = Player.objects.filter(pk=choice.player_id).first()
                    if player is None:
                        raise ValidationError({"player": _("This player no longer exists.")})
                    if player.pk in seen:
                        raise ValidationError(
                            {
                                "player": _("%(player)s is chosen on line %(line)s already.")
                                % {"player": player.display_name, "line": seen[player.pk]}
                            }
                        )
                seen[player.pk] = choice.line
                entries.append(entry_register(actor=actor, event=event, player=player))
        except (ValidationError, PermissionDenied) as exc:
            problems[choice.line] = _messages(exc)
    if problems:
        raise LinesRefused(problems)
    return BulkEntered(entries=entries, created=created)
