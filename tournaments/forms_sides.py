"""Forms for doubles and team championships. Each form calls one service in `apply`."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from players.models import Player
from players.types import User
from tournaments import services
from tournaments.forms import ServiceForm
from tournaments.models import Entry, Event


def player_from_text(text: str) -> Player:
    """A player named by display name or id, or a ValidationError saying none is."""
    text = (text or "").strip()
    player = None
    if text.isdigit():
        player = Player.objects.filter(pk=int(text)).first()
    if player is None and text:
        player = Player.objects.filter(display_name__iexact=text).first()
    if player is None:
        raise ValidationError(f"No player is named {text!r}.")
    return player


class PairRegisterForm(ServiceForm):
    """A player names a partner; an organiser may also name the first player."""

    player = forms.CharField(
        required=False,
        max_length=40,
        label="Player (name or id)",
        help_text="Leave blank to register a pair you play in.",
    )
    partner = forms.CharField(max_length=40, label="Partner (name or id)")

    def __init__(self, *args: Any, actor: User, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.actor = actor
        self.event = event

    def clean_player(self) -> Player | None:
        text = (self.cleaned_data.get("player") or "").strip()
        return player_from_text(text) if text else None

    def clean_partner(self) -> Player:
        return player_from_text(self.cleaned_data.get("partner") or "")

    def apply(self) -> Entry | None:
        return self._call(
            services.pair_register,
            actor=self.actor,
            event=self.event,
            player=self.cleaned_data.get("player"),
            partner=self.cleaned_data["partner"],
        )
