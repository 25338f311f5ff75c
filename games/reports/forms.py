from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.score_sheet import ENDING_LABELS, Ending


class DisputeForm(forms.Form):
    reason = forms.CharField(
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=_("What is wrong with this report?"),
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=2000, widget=forms.Textarea(attrs={"rows": 3}), label=_("Reason")
    )


class RulingForm(ReasonForm):
    version = forms.ChoiceField(label=_("The result that stands"))

    def __init__(self, *args, versions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["version"].choices = [
            (str(v.number), _("Version %(n)s: %(what)s") % {"n": v.number, "what": v.summary})
            for v in versions
        ] + [("void", _("No game: the game is void"))]

    def version_number(self) -> int | None:
        value = self.cleaned_data["version"]
        return None if value == "void" else int(value)


class ScoreSheetForm(forms.Form):
    """The shape only; games.score_sheet checks the values field by field."""

    score_a = forms.CharField(max_length=12, label=_("Score a"))
    score_b = forms.CharField(max_length=12, label=_("Score b"))
    minutes_a = forms.CharField(max_length=12, required=False, label=_("Minutes used (A)"))
    minutes_b = forms.CharField(max_length=12, required=False, label=_("Minutes used (B)"))
    ending = forms.ChoiceField(
        choices=[(e.value, ENDING_LABELS[e]) for e in Ending],
        initial=Ending.COMPLETED.value,
        label=_("How the game ended"),
    )
    conceded_by = forms.ChoiceField(
        choices=[("", _("Nobody (played to the end)")), ("a", _("Side A")), ("b", _("Side B"))],
        required=False,
        label=_("Who resigned or lost on time"),
    )
