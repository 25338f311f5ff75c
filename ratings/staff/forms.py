"""Forms of the admins' review page and its staff tools; each hands its data to one service."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from players.models import Player
from players.selectors import players_by_names
from ratings import selectors
from ratings.models import RatingSystem
from ratings.staff.review_forms import ReviewAdjustForm


class PlayerNameField(forms.CharField):
    """A player typed by display name (case does not matter)."""

    def clean(self, value) -> Player:
        name = super().clean(value).strip()
        player = players_by_names([name]).get(name.lower())
        if player is None:
            raise ValidationError(_("No player is named %(name)s.") % {"name": repr(name)})
        return player


class NoteForm(forms.Form):
    note = forms.CharField(
        max_length=2000,
        widget=forms.TextInput(attrs={"size": 40}),
        label=gettext_lazy("Note"),
        help_text=gettext_lazy("Why: kept in the audit trail."),
    )


class AdjustmentForm(ReviewAdjustForm):
    """A review item's adjustment, for a player and table the admin names."""

    field_order = ["player", "system", "delta", "value", "reason"]

    player = PlayerNameField(max_length=40, label=gettext_lazy("Player name"))
    system = forms.ChoiceField(
        choices=RatingSystem.choices, label=pgettext_lazy("rating table", "Table")
    )


class TitleAwardForm(forms.Form):
    player = PlayerNameField(max_length=40, label=gettext_lazy("Player name"))
    note = forms.CharField(
        max_length=2000,
        label=gettext_lazy("Note"),
        help_text=gettext_lazy("Why: kept in the audit trail."),
    )


class TitleWithdrawForm(NoteForm):
    lapsed = forms.BooleanField(required=False, label=gettext_lazy("Lapsed (too few Master games)"))


class RecomputeForm(forms.Form):
    systems = forms.MultipleChoiceField(
        choices=RatingSystem.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Tables"),
        help_text=gettext_lazy("None ticked: every table."),
    )


class EventEloForm(forms.Form):
    event = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Event"), choices=())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["event"].choices = selectors.elo_events_named()
