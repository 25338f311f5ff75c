"""Organiser and player forms for championships. Each form calls one service in `apply`.

The services own every rule: a form only turns text into the service's arguments and shows the
service's `ValidationError` messages on the matching fields (or above the form when the error
names no field of the form). `PermissionDenied` is left to propagate: the view answers 403.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from players.models import Player
from players.roles import player_of
from players.types import User
from tantrix_site.http.forms import apply_service_errors
from tournaments import selectors, services
from tournaments.models import (
    Category,
    Championship,
    Eligibility,
    Entry,
    EntryKind,
    EntryStatus,
    Event,
    EventFormat,
    QualifierPolicy,
)


class ServiceForm(forms.Form):
    """A form whose `apply` calls one service and returns its result, or None on errors."""

    def _call(self, service, **kwargs: Any) -> Any:
        try:
            return service(**kwargs)
        except ValidationError as exc:
            apply_service_errors(self, exc)
            return None


# --- Championships -------------------------------------------------------------------------


class ChampionshipForm(ServiceForm):
    name = forms.CharField(
        max_length=120,
        label=pgettext_lazy("the name of a championship, an event or a team", "Name"),
    )
    year = forms.IntegerField(min_value=1988, max_value=2200, label=_("Year"))
    category = forms.ChoiceField(
        choices=Category.choices, initial=Category.OPEN, label=_("Category")
    )
    published = forms.BooleanField(
        required=False,
        label=_("Published"),
        help_text=_("The public sees published championships only; its staff always see it."),
    )

    def create(self, *, actor: User) -> Championship | None:
        return self._call(services.championship_create, actor=actor, **self.cleaned_data)

    def update(self, *, actor: User, championship: Championship) -> Championship | None:
        return self._call(
            services.championship_update,
            actor=actor,
            championship=championship,
            **self.cleaned_data,
        )


class StaffForm(ServiceForm):
    """Add or remove a co-organiser or a controller, by username."""

    username = forms.CharField(max_length=150, label=_("Username"))
    role = forms.ChoiceField(
        choices=[("organiser", _("Co-organiser")), ("controller", _("Controller"))],
        label=_("Role"),
        help_text=_("Organisers run the championship; controllers rule on disputed matches."),
    )
    present = forms.TypedChoiceField(
        choices=[("1", _("Add")), ("0", _("Remove"))],
        coerce=lambda value: value == "1",
        initial="1",
        label=_("Action"),
    )

    def clean_username(self) -> str:
        username = self.cleaned_data["username"].strip()
        self.user = get_user_model().objects.filter(username__iexact=username).first()
        if self.user is None:
            raise ValidationError(
                gettext("No user is named %(username)s.") % {"username": repr(username)}
            )
        return username

    def apply(self, *, actor: User, championship: Championship) -> Any:
        """The user added or removed, or None when the service refused."""
        data = self.cleaned_data
        self._call(
            services.championship_staff_set,
            actor=actor,
            championship=championship,
            user=self.user,
            role=data["role"],
            present=data["present"],
        )
        return None if self.errors else self.user


# --- Events --------------------------------------------------------------------------------


class EventForm(ServiceForm):
    """Every event setting. The template shows the format's fields (see `fieldsets`)."""

    name = forms.CharField(
        max_length=120,
        label=pgettext_lazy("the name of a championship, an event or a team", "Name"),
        help_text=_("For example: Qualifying groups, Main draw."),
    )
    stage = forms.IntegerField(
        min_value=1,
        initial=1,
        label=_("Stage"),
        help_text=_("Order within the championship (1 = first)."),
    )
    format = forms.ChoiceField(
        choices=EventFormat.choices, initial=EventFormat.KNOCKOUT, label=_("Format")
    )
    entry_kind = forms.ChoiceField(
        choices=EntryKind.choices,
        initial=EntryKind.SINGLE,
        required=False,
        label=_("Entries"),
        help_text=_("Who plays each match: one player, a pair (doubles) or a team."),
    )
    games_per_match = forms.IntegerField(min_value=1, initial=2, label=_("Games per match"))
    extra_game_margin = forms.DecimalField(
        min_value=0,
        max_digits=4,
        decimal_places=1,
        initial=0,
        label=_("Extra game margin"),
        help_text=_("Play extra games while the lead is under this many TPs (0: no extra games)."),
    )
    max_extra_games = forms.IntegerField(min_value=0, initial=0, label=_("Extra games at most"))
    tp_scheme = forms.IntegerField(min_value=1, initial=1, label=_("TP scheme version"))
    time_limit_seconds = forms.IntegerField(
        min_value=0,
        required=False,
        label=_("Time limit per player (seconds)"),
        help_text=_("Blank: 900 for singles (15 minutes), 720 for pairs (12 minutes)."),
    )
    round_days = forms.IntegerField(
        min_value=1,
        initial=14,
        label=_("Round days"),
        help_text=_("Days each round lasts; sets the round deadlines."),
    )
    sections = forms.IntegerField(
        min_value=1,
        initial=1,
        label=_("Sections"),
        help_text=_("Seeded sections with a random draw inside: 1, 2, 4..."),
    )
    groups_count = forms.IntegerField(min_value=0, initial=0, label=_("Number of groups"))
    double_round_robin = forms.BooleanField(
        required=False, label=_("Double round robin"), help_text=_("Everyone plays twice.")
    )
    swiss_rounds = forms.IntegerField(min_value=0, initial=0, label=_("Swiss rounds"))
    eligibility = forms.ChoiceField(
        choices=Eligibility.choices, initial=Eligibility.OPEN, label=_("Eligibility")
    )
    junior_age_limit = forms.IntegerField(
        min_value=1,
        initial=16,
        label=_("Junior age limit"),
        help_text=_("Juniors are under this age on the cut-off date."),
    )
    cutoff_date = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label=_("Cut-off date")
    )
    countries = forms.CharField(
        required=False,
        label=_("Countries"),
        help_text=_("National events: ISO country codes separated by commas, e.g. DE, AT, CH."),
    )
    minimum_ranking = forms.IntegerField(min_value=1, required=False, label=_("Minimum ranking"))
    feeds_from = forms.ModelChoiceField(
        queryset=Event.objects.none(),
        required=False,
        label=_("Qualifiers come from"),
        help_text=_("An earlier stage whose qualifiers enter this event."),
    )
    qualifiers_count = forms.IntegerField(min_value=1, required=False, label=_("Qualifiers"))
    qualifier_policy = forms.ChoiceField(
        choices=QualifierPolicy.choices,
        initial=QualifierPolicy.AGAINST_TOP_SEEDS,
        label=_("Qualifier policy"),
    )
    draw_seed = forms.IntegerField(
        min_value=0,
        max_value=2**62,
        required=False,
        label=_("Draw seed"),
        help_text=_("Optional: fixes the random parts of the draw so it can be reproduced."),
    )
    team_boards = forms.IntegerField(
        min_value=1,
        max_value=12,
        initial=5,
        required=False,
        label=_("Boards per team match"),
        help_text=_(
            "Team events: each board plays the games per match (5 boards x 2 games: "
            "200 TPs at stake)."
        ),
    )
    team_tiebreaks = forms.CharField(
        required=False,
        label=_("Team tie-breaks"),
        help_text=_(
            "Team events, a team match level on TPs: boards_won, board_1, extra_games "
            "(in your order, extra games last). Blank: all three in that order."
        ),
    )

    # (legend, fields, formats the fieldset applies to: empty = all)
    FIELDSETS = [
        (
            _("Event"),
            [
                "name",
                "stage",
                "format",
                "entry_kind",
                "games_per_match",
                "extra_game_margin",
                "max_extra_games",
            ],
            [],
        ),
        (
            pgettext_lazy("event form section: how games are played", "Play"),
            ["tp_scheme", "time_limit_seconds", "round_days", "draw_seed"],
            [],
        ),
        (_("Knockout"), ["sections", "qualifier_policy"], [EventFormat.KNOCKOUT]),
        (_("Groups"), ["groups_count"], [EventFormat.GROUPS]),
        (
            _("Round robin"),
            ["double_round_robin"],
            [EventFormat.GROUPS, EventFormat.ROUND_ROBIN],
        ),
        (_("Swiss"), ["swiss_rounds"], [EventFormat.SWISS]),
        (
            _("Who may enter"),
            ["eligibility", "junior_age_limit", "cutoff_date", "countries", "minimum_ranking"],
            [],
        ),
        (_("Qualifiers from an earlier stage"), ["feeds_from", "qualifiers_count"], []),
        (_("Teams"), ["team_boards", "team_tiebreaks"], []),
    ]

    def __init__(self, *args: Any, championship: Championship, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.championship = championship
        self.fields["feeds_from"].queryset = championship.events.order_by("stage", "id")

    def fieldsets(self) -> list[dict]:
        return [
            {"legend": legend, "fields": [self[name] for name in names], "formats": formats}
            for legend, names, formats in self.FIELDSETS
        ]

    def clean_team_boards(self) -> int:
        return self.cleaned_data.get("team_boards") or 5

    def clean_team_tiebreaks(self) -> list[str]:
        text = self.cleaned_data.get("team_tiebreaks") or ""
        return [key.strip() for key in text.replace(";", ",").split(",") if key.strip()]

    def clean_entry_kind(self) -> str:
        return self.cleaned_data.get("entry_kind") or EntryKind.SINGLE

    def clean_countries(self) -> list[str]:
        text = self.cleaned_data.get("countries") or ""
        return [code.strip().upper() for code in text.replace(";", ",").split(",") if code.strip()]

    def apply(self, *, actor: User) -> Event | None:
        return self._call(
            services.event_create, actor=actor, championship=self.championship, **self.cleaned_data
        )


class RegistrationForm(ServiceForm):
    open = forms.TypedChoiceField(
        choices=[("1", _("Open registration")), ("0", _("Close registration"))],
        coerce=lambda value: value == "1",
        label=pgettext_lazy("registration is", "Open"),
    )

    def apply(self, *, actor: User, event: Event) -> Event | None:
        return self._call(
            services.event_registration_set,
            actor=actor,
            event=event,
            open_=self.cleaned_data["open"],
        )


class RegisterForm(ServiceForm):
    """An organiser registers any player (by name or id); a player leaves it blank: themselves."""

    player = forms.CharField(
        required=False,
        max_length=40,
        label=_("Player (name or id)"),
        help_text=_("Leave blank to register yourself."),
    )

    def __init__(self, *args: Any, actor: User, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.actor = actor
        self.event = event

    def clean_player(self) -> Player:
        text = (self.cleaned_data.get("player") or "").strip()
        if not text:
            own = player_of(self.actor)
            if own is None:
                raise ValidationError(gettext("Your account has no player profile: name a player."))
            return own
        player = None
        if text.isdigit():
            player = Player.objects.filter(pk=int(text)).first()
        if player is None:
            player = Player.objects.filter(display_name__iexact=text).first()
        if player is None:
            raise ValidationError(gettext("No player is named %(name)s.") % {"name": repr(text)})
        return player

    def apply(self) -> Entry | None:
        return self._call(
            services.entry_register,
            actor=self.actor,
            event=self.event,
            player=self.cleaned_data["player"],
        )


class WithdrawForm(ServiceForm):
    reason = forms.CharField(
        required=False,
        max_length=500,
        label=_("Reason"),
        help_text=_("Kept in the audit log."),
    )

    def apply(self, *, actor: User, entry: Entry) -> Entry | None:
        return self._call(
            services.entry_withdraw, actor=actor, entry=entry, reason=self.cleaned_data["reason"]
        )


class SeedForm(ServiceForm):
    """Seed from ratings, or in the organiser's order (one entry id or player name a line)."""

    method = forms.ChoiceField(
        choices=[("ratings", _("From ratings")), ("manual", _("In this order"))],
        initial="ratings",
        widget=forms.RadioSelect,
        label=_("Method"),
    )
    order = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 10}),
        label=_("Order"),
        help_text=_(
            "Best seed first: one player name or entry id a line, every active entry once."
        ),
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.event = event

    def clean(self) -> dict:
        data = super().clean()
        if data.get("method") != "manual":
            data["entry_ids"] = None
            return data
        lines = [line.strip() for line in (data.get("order") or "").splitlines() if line.strip()]
        if not lines:
            self.add_error("order", gettext("Give the seeding order, one player a line."))
            return data
        active = [
            e for e in selectors.entries_for_event(self.event) if e.status == EntryStatus.ACTIVE
        ]
        by_id = {str(e.pk): e.pk for e in active}
        by_name = {e.name.lower(): e.pk for e in active}
        ids, unknown = [], []
        for line in lines:
            entry_id = by_name.get(line.lower(), by_id.get(line))
            if entry_id is None:
                unknown.append(line)
            else:
                ids.append(entry_id)
        if unknown:
            self.add_error(
                "order",
                gettext("Not an active entry of this event: %(lines)s.")
                % {"lines": ", ".join(map(repr, unknown))},
            )
        data["entry_ids"] = ids
        return data

    def apply(self, *, actor: User) -> list[Entry] | None:
        return self._call(
            services.event_seed, actor=actor, event=self.event, order=self.cleaned_data["entry_ids"]
        )


class DrawForm(ServiceForm):
    """Makes the draw the page showed: its seed and the preview's token (hidden fields).
    An outdated preview is refused with a fresh one (`fresh`)."""

    draw_seed = forms.IntegerField(min_value=0, max_value=2**62, widget=forms.HiddenInput)
    preview = forms.CharField(max_length=40, widget=forms.HiddenInput)

    fresh: services.DrawPreview | None = None

    def apply(self, *, actor: User, event: Event) -> Event | None:
        try:
            return services.draw_make(
                actor=actor,
                event=event,
                draw_seed=self.cleaned_data["draw_seed"],
                preview=self.cleaned_data["preview"],
            )
        except services.PreviewOutdated as outdated:
            self.fresh = outdated.fresh
            apply_service_errors(self, outdated)
            return None
        except ValidationError as exc:
            apply_service_errors(self, exc)
            return None


class DrawSeedForm(forms.Form):
    """The seed a preview shows (GET): blank for a new random one."""

    seed = forms.IntegerField(
        min_value=0,
        max_value=2**62,
        required=False,
        label=_("Draw seed"),
        help_text=_("The same seed and the same entries make the same draw."),
    )


class AdvanceQualifiersForm(ServiceForm):
    def apply(self, *, actor: User, event: Event) -> list[Entry] | None:
        return self._call(services.qualifiers_advance, actor=actor, event=event)
