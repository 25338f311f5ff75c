"""Forms on a round or a match: its deadline, a ruling, a time-penalty claim. Each calls one
service in `apply`, like the championship and event forms of tournaments/forms.py."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from players.types import User
from tournaments import services
from tournaments.forms import ServiceForm
from tournaments.models import Match, MatchGame, Round


class DeadlineForm(ServiceForm):
    deadline = forms.DateTimeField(
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        label=_("Deadline"),
        help_text=_("Open matches are settled when it passes (walkovers, or the leader on TPs)."),
    )
    reason = forms.CharField(
        required=False,
        max_length=500,
        label=_("Reason"),
        widget=forms.TextInput(attrs={"placeholder": _("Reason (optional)")}),
    )

    def apply(self, *, actor: User, round_: Round) -> Round | None:
        return self._call(
            services.round_deadline_set,
            actor=actor,
            round_=round_,
            deadline=self.cleaned_data["deadline"],
            reason=self.cleaned_data["reason"],
        )


# --- Matches -------------------------------------------------------------------------------

VOID = "void"


class RuleForm(ServiceForm):
    """An organiser's or controller's ruling: a winner (or neither) and the reason."""

    winner = forms.ChoiceField(widget=forms.RadioSelect, label=_("Winner"))
    reason = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=_("Reason"),
        help_text=_("Required; kept in the audit log."),
    )

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        choices = [
            (str(entry.pk), entry.name)
            for entry in (match.entry_a, match.entry_b)
            if entry is not None
        ]
        self.fields["winner"].choices = [*choices, (VOID, gettext("Neither (void: both out)"))]

    def apply(self, *, actor: User) -> Match | None:
        winner = self.cleaned_data["winner"]
        return self._call(
            services.match_rule,
            actor=actor,
            match=self.match,
            winner_entry_id=None if winner == VOID else int(winner),
            reason=self.cleaned_data["reason"],
        )


class PenaltyForm(ServiceForm):
    """Claim a time penalty: the game, and the side that ran over time."""

    game = forms.TypedChoiceField(coerce=int, label=_("Game"))
    side = forms.TypedChoiceField(coerce=int, label=_("Over time"), widget=forms.RadioSelect)

    def __init__(self, *args: Any, match: Match, sides: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        self.fields["game"].choices = [
            (mg.number, gettext("Game %(number)s") % {"number": mg.number})
            for mg in match.match_games.all()
        ]
        names = [
            match.entry_a.name if match.entry_a else gettext("side A"),
            match.entry_b.name if match.entry_b else gettext("side B"),
        ]
        self.fields["side"].choices = [(side, names[side]) for side in sides]
        if len(sides) == 1:
            self.fields["side"].initial = sides[0]

    def apply(self, *, actor: User) -> MatchGame | None:
        match_game = self.match.match_games.filter(number=self.cleaned_data["game"]).first()
        if match_game is None:
            self.add_error("game", gettext("This match has no game with that number."))
            return None
        return self._call(
            services.match_penalty_claim,
            actor=actor,
            match_game=match_game,
            side=self.cleaned_data["side"],
        )
