"""Forms of arranging a match. Times are typed in the reader's own zone (the profile's, which
the time-zone middleware activates), so Django's DateTimeField reads them in it; each form
calls one service in `apply`."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from players.models import Player
from players.preferences.timezones import zone_choices
from players.types import User
from tournaments.arrangements import services
from tournaments.arrangements.times import zone_named
from tournaments.forms import ServiceForm
from tournaments.models import Event, Match, MatchArrangement, MatchProposal, NoShowClaim

PROPOSAL_FIELDS = 3
WINDOW_FIELDS = 7


def _moment_field(*, required: bool, label: Any) -> forms.DateTimeField:
    return forms.DateTimeField(
        required=required,
        label=label,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )


class ProposeForm(ServiceForm):
    """One to three times, in the reader's zone, and a note for the opponent."""

    time_1 = _moment_field(required=True, label=_("Time"))
    time_2 = _moment_field(required=False, label=_("Another time (optional)"))
    time_3 = _moment_field(required=False, label=_("Another time (optional)"))
    note = forms.CharField(
        required=False,
        max_length=300,
        label=_("Note for your opponent"),
        widget=forms.TextInput(attrs={"placeholder": _("Optional")}),
    )

    def apply(self, *, actor: User, match: Match) -> list[MatchProposal] | None:
        times = [self.cleaned_data[f"time_{i}"] for i in range(1, PROPOSAL_FIELDS + 1)]
        made = self._call(
            services.proposals_make,
            actor=actor,
            match=match,
            times=[t for t in times if t is not None],
            note=self.cleaned_data["note"],
        )
        if made is None and "times" in self.errors:
            # The service speaks of all times; the form shows it under the first.
            self.errors["time_1"] = self.errors.pop("times")
        return made


class AcceptForm(ServiceForm):
    proposal = forms.ModelChoiceField(queryset=MatchProposal.objects.none(), label=_("Time"))

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["proposal"].queryset = MatchProposal.objects.filter(match=match)

    def apply(self, *, actor: User) -> MatchArrangement | None:
        return self._call(
            services.proposal_accept, actor=actor, proposal=self.cleaned_data["proposal"]
        )


class WithdrawForm(ServiceForm):
    reason = forms.CharField(
        max_length=300,
        label=_("Reason"),
        help_text=_("Your opponent is told; it is kept in the audit log."),
    )

    def apply(self, *, actor: User, match: Match) -> MatchArrangement | None:
        return self._call(
            services.arrangement_withdraw,
            actor=actor,
            match=match,
            reason=self.cleaned_data["reason"],
        )


class SetTimeForm(ServiceForm):
    """An organiser sets the time (in the organiser's own zone)."""

    starts_at = _moment_field(required=True, label=_("Time"))
    reason = forms.CharField(
        required=False,
        max_length=300,
        label=_("Reason"),
        help_text=_("Needed when it replaces an agreed time; the players are told."),
    )

    def apply(self, *, actor: User, match: Match) -> MatchArrangement | None:
        return self._call(
            services.arrangement_set,
            actor=actor,
            match=match,
            starts_at=self.cleaned_data["starts_at"],
            reason=self.cleaned_data["reason"],
        )


class NoShowForm(ServiceForm):
    message = forms.CharField(
        max_length=2000,
        label=_("What happened"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("The controller reads it with the agreed time and your opponent's answer."),
    )

    def apply(self, *, actor: User, match: Match) -> NoShowClaim | None:
        return self._call(
            services.no_show_claim, actor=actor, match=match, message=self.cleaned_data["message"]
        )


class NoShowReplyForm(ServiceForm):
    claim = forms.ModelChoiceField(queryset=NoShowClaim.objects.none(), widget=forms.HiddenInput)
    message = forms.CharField(
        max_length=2000,
        label=_("Your answer"),
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["claim"].queryset = NoShowClaim.objects.filter(match=match)

    def apply(self, *, actor: User) -> NoShowClaim | None:
        return self._call(
            services.no_show_reply,
            actor=actor,
            claim=self.cleaned_data["claim"],
            message=self.cleaned_data["message"],
        )


class PolicyForm(ServiceForm):
    response_hours = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=24 * 30,
        label=_("Response window (hours)"),
        help_text=_(
            "After this many hours without an answer, the first proposed time is accepted for "
            "the silent opponent. Empty: never."
        ),
    )

    def apply(self, *, actor: User, event: Event) -> Any:
        return self._call(
            services.arrangement_policy_set,
            actor=actor,
            event=event,
            response_hours=self.cleaned_data["response_hours"],
        )


class NudgeForm(ServiceForm):
    matches = forms.TypedMultipleChoiceField(
        coerce=int, widget=forms.CheckboxSelectMultiple, label=_("Matches")
    )

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["matches"].choices = choices

    def apply(self, *, actor: User, event: Event) -> int | None:
        return self._call(
            services.matches_nudge,
            actor=actor,
            event=event,
            match_ids=self.cleaned_data["matches"],
        )


WEEKDAYS = [
    (0, _("Monday")),
    (1, _("Tuesday")),
    (2, _("Wednesday")),
    (3, _("Thursday")),
    (4, _("Friday")),
    (5, _("Saturday")),
    (6, _("Sunday")),
]


class AvailabilityForm(ServiceForm):
    """Up to seven weekly free times, in a zone (the profile's by default)."""

    time_zone = forms.ChoiceField(label=_("Time zone"))

    def __init__(self, *args: Any, player: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player = player
        self.fields["time_zone"].choices = zone_choices()[1:]
        for i in range(WINDOW_FIELDS):
            self.fields[f"day_{i}"] = forms.TypedChoiceField(
                required=False,
                coerce=int,
                empty_value=None,
                choices=[("", "—"), *WEEKDAYS],
                label=_("Day"),
                widget=forms.Select(attrs={"aria-label": _("Day")}),
            )
            self.fields[f"from_{i}"] = forms.TimeField(
                required=False,
                label=_("From"),
                widget=forms.TimeInput(attrs={"type": "time", "aria-label": _("From")}),
            )
            self.fields[f"to_{i}"] = forms.TimeField(
                required=False,
                label=_("To"),
                widget=forms.TimeInput(attrs={"type": "time", "aria-label": _("To")}),
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for i in range(WINDOW_FIELDS):
            given = [data.get(f"day_{i}"), data.get(f"from_{i}"), data.get(f"to_{i}")]
            if any(v is not None for v in given) and any(v is None for v in given):
                self.add_error(f"day_{i}", _("Give the day, and when you are free from and to."))
            elif given[0] is not None and given[2] <= given[1]:
                self.add_error(f"to_{i}", _("A free time ends after it starts."))
        return data

    def windows(self) -> list[tuple[int, Any, Any]]:
        data = self.cleaned_data
        return [
            (data[f"day_{i}"], data[f"from_{i}"], data[f"to_{i}"])
            for i in range(WINDOW_FIELDS)
            if data.get(f"day_{i}") is not None
        ]

    def apply(self, *, actor: User) -> Any:
        zone_named(self.cleaned_data["time_zone"])
        return self._call(
            services.availability_set,
            actor=actor,
            player=self.player,
            windows=self.windows(),
            time_zone=self.cleaned_data["time_zone"],
        )
