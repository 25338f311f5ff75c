"""Forms for doubles and team championships. Each form calls one service in `apply`."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

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
        raise ValidationError(gettext("No player is named %(name)s.") % {"name": repr(text)})
    return player


class PairRegisterForm(ServiceForm):
    """A player names a partner; an organiser may also name the first player."""

    player = forms.CharField(
        required=False,
        max_length=40,
        label=_("Player (name or id)"),
        help_text=_("Leave blank to register a pair you play in."),
    )
    partner = forms.CharField(max_length=40, label=_("Partner (name or id)"))

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


def players_from_lines(text: str) -> list[Player]:
    """One player (name or id) a line, in order; a ValidationError naming every unknown one."""
    players, unknown = [], []
    for line in (text or "").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            players.append(player_from_text(line))
        except ValidationError:
            unknown.append(line)
    if unknown:
        raise ValidationError(
            gettext("No player is named %(name)s.") % {"name": ", ".join(repr(u) for u in unknown)}
        )
    return players


def _codes(text: str) -> list[str]:
    return [c.strip().upper() for c in (text or "").replace(";", ",").split(",") if c.strip()]


class TeamForm(ServiceForm):
    """An organiser creates a team: its name, country or region, captain, deputy and roster."""

    name = forms.CharField(
        max_length=60,
        label=pgettext_lazy("the name of a championship, an event or a team", "Name"),
        help_text=_('For example "GBR A".'),
    )
    country = forms.CharField(
        max_length=2,
        required=False,
        label=_("Country"),
        help_text=_("ISO code of the country it represents, e.g. GB."),
    )
    region_countries = forms.CharField(
        required=False,
        label=_("Region (countries)"),
        help_text=_(
            "A regional team: the ISO codes whose players may play for it, e.g. DK, SE, NO."
            " Blank: the team's country only."
        ),
    )
    captain = forms.CharField(required=False, max_length=40, label=_("Captain (name or id)"))
    deputy = forms.CharField(required=False, max_length=40, label=_("Deputy (name or id)"))
    roster = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 7}),
        label=_("Roster"),
        help_text=_("One player (name or id) a line, board 1 first; at least five."),
    )

    def __init__(self, *args: Any, championship, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.championship = championship

    def clean_captain(self) -> Player | None:
        text = self.cleaned_data.get("captain") or ""
        return player_from_text(text) if text.strip() else None

    def clean_deputy(self) -> Player | None:
        text = self.cleaned_data.get("deputy") or ""
        return player_from_text(text) if text.strip() else None

    def clean_roster(self) -> list[Player]:
        return players_from_lines(self.cleaned_data.get("roster") or "")

    def apply(self, *, actor: User):
        data = self.cleaned_data
        return self._call(
            services.team_create,
            actor=actor,
            championship=self.championship,
            name=data["name"],
            country=data.get("country") or "",
            region_countries=_codes(data.get("region_countries") or ""),
            captain=data.get("captain"),
            deputy=data.get("deputy"),
            roster=data["roster"],
        )


class RosterForm(ServiceForm):
    """The captain, deputy or an organiser sets the roster in board order."""

    roster = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 7}),
        label=_("Roster"),
        help_text=_(
            "One player (name or id) a line, board 1 first. Reorder the lines to change "
            "the board order; replace a name to substitute."
        ),
    )
    reason = forms.CharField(required=False, max_length=2000, label=_("Reason"))

    def clean_roster(self) -> list[Player]:
        return players_from_lines(self.cleaned_data.get("roster") or "")

    def apply(self, *, actor: User, team):
        return self._call(
            services.team_roster_set,
            actor=actor,
            team=team,
            roster=self.cleaned_data["roster"],
            reason=self.cleaned_data.get("reason") or "",
        )


class TeamEnterForm(ServiceForm):
    team = forms.ModelChoiceField(queryset=None, label=_("Team"))

    def __init__(self, *args: Any, event: Event, teams, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.event = event
        self.fields["team"].queryset = teams

    def apply(self, *, actor: User):
        return self._call(
            services.team_enter, actor=actor, event=self.event, team=self.cleaned_data["team"]
        )


class LineupDeadlineForm(ServiceForm):
    lineup_deadline = forms.DateTimeField(
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        label=_("Lineup deadline"),
    )
    reason = forms.CharField(required=False, max_length=2000, label=_("Reason"))

    def apply(self, *, actor: User, round_):
        return self._call(
            services.round_lineup_deadline_set,
            actor=actor,
            round_=round_,
            lineup_deadline=self.cleaned_data["lineup_deadline"],
            reason=self.cleaned_data.get("reason") or "",
        )


class TeamOfficersForm(ServiceForm):
    """An organiser names the team's captain and deputy (blank: none)."""

    captain = forms.CharField(required=False, max_length=40, label=_("Captain (name or id)"))
    deputy = forms.CharField(required=False, max_length=40, label=_("Deputy (name or id)"))
    reason = forms.CharField(required=False, max_length=2000, label=_("Reason"))

    def clean_captain(self) -> Player | None:
        text = self.cleaned_data.get("captain") or ""
        return player_from_text(text) if text.strip() else None

    def clean_deputy(self) -> Player | None:
        text = self.cleaned_data.get("deputy") or ""
        return player_from_text(text) if text.strip() else None

    def apply(self, *, actor: User, team):
        return self._call(
            services.team_officers_set,
            actor=actor,
            team=team,
            captain=self.cleaned_data.get("captain"),
            deputy=self.cleaned_data.get("deputy"),
            reason=self.cleaned_data.get("reason") or "",
        )
