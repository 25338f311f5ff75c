"""Forms of a review item's actions (``ratings.staff.review_views``); each hands its data to one
service of ``ratings.services`` or ``ratings.queue.services``."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.queue.selectors import GameBehind

NOTE_HELP = gettext_lazy("Why: kept in the audit trail.")


class AcknowledgeForm(forms.Form):
    """Acknowledging keeps the ratings as they are: a note is welcome, not needed."""

    note = forms.CharField(
        max_length=2000, required=False, label=gettext_lazy("Note (optional)"), help_text=NOTE_HELP
    )


class RevertGamesForm(forms.Form):
    """Games behind a tournament Elo swing, chosen among those still counting."""

    games = forms.TypedMultipleChoiceField(
        coerce=int, widget=forms.CheckboxSelectMultiple, label=gettext_lazy("Games")
    )
    note = forms.CharField(max_length=2000, label=gettext_lazy("Note"), help_text=NOTE_HELP)

    def __init__(self, *args, games: Sequence[GameBehind] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["games"].choices = [(g.game_id, str(g.game_id)) for g in games if g.counts]
        self.fields["games"].error_messages["required"] = _(
            "Choose a game behind the swing to revert."
        )


class ReviewAdjustForm(forms.Form):
    """A manual adjustment of the item's player in the item's table."""

    delta = forms.FloatField(
        required=False,
        label=gettext_lazy("Delta"),
        help_text=gettext_lazy("Add this (negative to subtract)…"),
    )
    value = forms.FloatField(
        required=False,
        label=gettext_lazy("New value"),
        help_text=gettext_lazy("…or set this value."),
    )
    reason = forms.CharField(
        max_length=2000,
        label=gettext_lazy("Reason"),
        help_text=gettext_lazy("Kept with the change and in the audit."),
    )

    def clean(self):
        data = super().clean()
        if (data.get("delta") is None) == (data.get("value") is None):
            self.add_error("delta", _("Give either a delta or a new value, not both."))
        return data
