from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django_countries import countries
from django_countries.fields import LazyTypedChoiceField

from players import selectors, services
from players.models import LANGUAGE_CHOICES, ClaimRequest, Colour, Player
from players.preferences.timezones import zone_choices
from players.services import SiteRole
from tantrix_site.http.forms import apply_service_errors

# A date input takes ISO dates only: in the site's locale format (03/02/2011) the browser shows
# an empty box, and saving the form would then wipe the date.
_DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def _country_choices() -> list[tuple[str, str]]:
    # A blank first choice: no country is preselected (the list would otherwise start at
    # Afghanistan and a hurried form would keep it); the field stays required.
    return [("", _("Choose a country")), *countries]


class SignupForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    email = forms.EmailField(label=_("Email"), required=False)
    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput)
    password_again = forms.CharField(label=_("Password again"), widget=forms.PasswordInput)
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        help_text=_("Shown in standings and brackets."),
    )
    country = LazyTypedChoiceField(choices=_country_choices, label=_("Country"))
    date_of_birth = forms.DateField(
        label=_("Date of birth"),
        required=False,
        widget=_DATE_INPUT,
        help_text=_("Private; needed only for junior events."),
    )

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", _("The two passwords differ."))
        return data

    # Set when the display name belongs to a player an organiser entered without an account:
    # the sign-up page then offers "this is me — ask to claim" (templates/registration/signup).
    claimable_player: Player | None = None

    def save(self) -> Player | None:
        data = self.cleaned_data
        try:
            return services.player_signup(
                username=data["username"],
                password=data["password"],
                display_name=data["display_name"],
                country=data["country"],
                email=data.get("email", ""),
                date_of_birth=data.get("date_of_birth"),
            )
        except ValidationError as exc:
            display_name = data["display_name"]  # add_error drops it from cleaned_data
            apply_service_errors(self, exc)
            if "display_name" in self.errors:
                self.claimable_player = selectors.claimable_player_named(display_name)
            return None


class PlayerCreateForm(forms.Form):
    """An organiser or admin enters a player who has no account yet."""

    display_name = forms.CharField(label=_("Display name"), max_length=40)
    country = LazyTypedChoiceField(choices=_country_choices, label=_("Country"))
    date_of_birth = forms.DateField(
        label=_("Date of birth"),
        required=False,
        widget=_DATE_INPUT,
        help_text=_("Private; needed only for junior events."),
    )

    def save(self, *, actor) -> Player | None:
        try:
            return services.player_create(actor=actor, **self.cleaned_data)
        except ValidationError as exc:
            apply_service_errors(self, exc)
            return None


class PlayerProfileForm(forms.Form):
    display_name = forms.CharField(label=_("Display name"), max_length=40)
    country = LazyTypedChoiceField(choices=_country_choices, label=_("Country"))
    date_of_birth = forms.DateField(label=_("Date of birth"), required=False, widget=_DATE_INPUT)
    first_colour = forms.ChoiceField(
        label=_("First colour"), choices=[("", "—"), *Colour.choices], required=False
    )
    second_colour = forms.ChoiceField(
        label=_("Second colour"), choices=[("", "—"), *Colour.choices], required=False
    )
    time_zone = forms.ChoiceField(
        choices=zone_choices,
        required=False,
        label=_("Time zone"),
        help_text=_("Times on the site are shown in this zone."),
    )
    language = forms.ChoiceField(
        choices=[("", _("The browser's")), *LANGUAGE_CHOICES],
        required=False,
        label=_("Language"),
        help_text=_("The site speaks to you in this language."),
    )

    def __init__(self, *args, show_private: bool, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not show_private:
            # Not shown, not accepted: the same rule as the API (services.can_see_private).
            for name in services.PRIVATE_FIELDS:
                del self.fields[name]

    def apply(self, *, actor, player: Player) -> Player | None:
        try:
            return services.player_update(actor=actor, player=player, **self.cleaned_data)
        except ValidationError as exc:
            apply_service_errors(self, exc)
            return None


def _password_fields(form: forms.Form) -> None:
    if form.cleaned_data.get("password") and form.cleaned_data.get(
        "password"
    ) != form.cleaned_data.get("password_again"):
        form.add_error("password_again", _("The two passwords differ."))


_MESSAGE_HELP = _(
    "Tell the organiser how to recognise you: where you played, who entered you, a club."
)


class _NewAccountForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    email = forms.EmailField(label=_("Email"), required=False)
    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput)
    password_again = forms.CharField(label=_("Password again"), widget=forms.PasswordInput)

    def clean(self):
        data = super().clean()
        _password_fields(self)
        return data

    def _signup(self, service, **extra):
        """Call a sign-up service with the account fields; its refusals become form errors."""
        data = self.cleaned_data
        account = {
            "username": data["username"],
            "password": data["password"],
            "email": data.get("email", ""),
        }
        try:
            return service(**account, **extra)
        except ValidationError as exc:
            apply_service_errors(self, exc)
            return None


def _claim_message_field() -> forms.CharField:
    return forms.CharField(
        label=_("Message"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_MESSAGE_HELP,
    )


class ClaimLinkSignupForm(_NewAccountForm):
    """Sign up through a claim link: the account gets the link's player."""

    def save(self, *, token: str) -> Player | None:
        return self._signup(services.claim_link_signup, token=token)


class ClaimRequestForm(forms.Form):
    message = _claim_message_field()

    def save(self, *, requester, player: Player) -> ClaimRequest | None:
        try:
            return services.claim_request_create(
                requester=requester, player=player, message=self.cleaned_data["message"]
            )
        except ValidationError as exc:
            apply_service_errors(self, exc)
            return None


class ClaimRequestSignupForm(_NewAccountForm):
    message = _claim_message_field()

    def save(self, *, player: Player) -> ClaimRequest | None:
        return self._signup(
            services.claim_request_signup, player=player, message=self.cleaned_data["message"]
        )


class ClaimDecisionForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Needed to refuse; the requester reads it."),
    )


class RoleChangeForm(forms.Form):
    """Staff grant or withdraw a site-wide role (superusers also the staff role)."""

    GRANT, WITHDRAW = "grant", "withdraw"

    name = forms.CharField(label=_("Username or player name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=SiteRole.choices)
    change = forms.ChoiceField(
        label=_("Change"), choices=[(GRANT, _("Grant")), (WITHDRAW, _("Withdraw"))]
    )
    reason = forms.CharField(
        label=_("Reason"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Kept in the audit trail."),
    )

    def __init__(self, *args, actor, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.actor = actor
        self.fields["role"].choices = [
            (value, label) for value, label in SiteRole.choices if services.can_grant(actor, value)
        ]

    def apply(self):
        data = self.cleaned_data
        change = services.role_grant if data["change"] == self.GRANT else services.role_withdraw
        try:
            user = selectors.user_for_name(data["name"])
            return change(actor=self.actor, user=user, role=data["role"], reason=data["reason"])
        except ValidationError as exc:
            apply_service_errors(self, exc)
            return None
