from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django_countries import countries
from django_countries.fields import LazyTypedChoiceField

from players import services
from players.models import Colour, Player


def _apply_service_errors(form: forms.Form, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


class SignupForm(forms.Form):
    username = forms.CharField(max_length=150)
    email = forms.EmailField(required=False)
    password = forms.CharField(widget=forms.PasswordInput)
    password_again = forms.CharField(widget=forms.PasswordInput)
    display_name = forms.CharField(max_length=40, help_text="Shown in standings and brackets.")
    country = LazyTypedChoiceField(choices=countries)
    date_of_birth = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Private; needed only for junior events.",
    )

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", "The two passwords differ.")
        return data

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
            _apply_service_errors(self, exc)
            return None


class PlayerCreateForm(forms.Form):
    """An organiser or admin enters a player who has no account yet."""

    display_name = forms.CharField(max_length=40)
    country = LazyTypedChoiceField(choices=countries)
    date_of_birth = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Private; needed only for junior events.",
    )

    def save(self, *, actor) -> Player | None:
        try:
            return services.player_create(actor=actor, **self.cleaned_data)
        except ValidationError as exc:
            _apply_service_errors(self, exc)
            return None


class PlayerProfileForm(forms.Form):
    display_name = forms.CharField(max_length=40)
    country = LazyTypedChoiceField(choices=countries)
    date_of_birth = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    first_colour = forms.ChoiceField(choices=[("", "—"), *Colour.choices], required=False)
    second_colour = forms.ChoiceField(choices=[("", "—"), *Colour.choices], required=False)

    def apply(self, *, actor, player: Player) -> Player | None:
        try:
            return services.player_update(actor=actor, player=player, **self.cleaned_data)
        except ValidationError as exc:
            _apply_service_errors(self, exc)
            return None
