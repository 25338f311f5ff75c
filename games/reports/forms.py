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


class GameScoreForm(forms.Form):
    """One game's row of a match's score form: the sides named after the match's players.
    The shape only, as ScoreSheetForm; games.score_sheet checks the values."""

    score_a = forms.CharField(max_length=12)
    score_b = forms.CharField(max_length=12)
    ending = forms.ChoiceField(
        choices=[(e.value, ENDING_LABELS[e]) for e in Ending],
        initial=Ending.COMPLETED.value,
        label=_("How the game ended"),
    )
    conceded_by = forms.ChoiceField(required=False, label=_("Who resigned or lost on time"))

    def __init__(self, *args, names: tuple[str, str] = ("A", "B"), **kwargs):
        super().__init__(*args, **kwargs)
        name_a, name_b = names
        self.fields["score_a"].label = _("%(player)s's score") % {"player": name_a}
        self.fields["score_b"].label = _("%(player)s's score") % {"player": name_b}
        for field in ("score_a", "score_b"):
            self.fields[field].widget.attrs.update(
                {"inputmode": "numeric", "pattern": "[0-9]*", "size": "3"}
            )
        self.fields["conceded_by"].choices = [
            ("", _("Nobody (played to the end)")),
            ("a", name_a),
            ("b", name_b),
        ]


class BaseScoreFormSet(forms.BaseFormSet):
    def clean(self):
        super().clean()
        if not any(form.has_changed() for form in self.forms):
            raise forms.ValidationError(_("Give the scores of at least one game."))

    def filled(self) -> list[tuple[int, forms.Form]]:
        """(index, form) of the games given, in order; rows left blank are skipped."""
        return [(i, form) for i, form in enumerate(self.forms) if form.has_changed()]


def score_formset(games: int):
    """A formset class of `games` rows (a match's games still to report, at least one)."""
    return forms.formset_factory(
        GameScoreForm,
        formset=BaseScoreFormSet,
        extra=max(1, games),
        max_num=max(1, games),
        validate_max=True,
    )
