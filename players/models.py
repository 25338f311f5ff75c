from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django_countries.fields import CountryField


class Colour(models.TextChoices):
    RED = "red", "Red"
    YELLOW = "yellow", "Yellow"
    BLUE = "blue", "Blue"
    GREEN = "green", "Green"


class Player(models.Model):
    """A Tantrix player. May exist before (or without) a user account: organisers enter players."""

    display_name = models.CharField(max_length=40)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    country = CountryField(help_text="ISO 3166-1 alpha-2 code")
    # Private: used for junior eligibility, shown only to the player and staff.
    date_of_birth = models.DateField(null=True, blank=True)
    first_colour = models.CharField(max_length=6, choices=Colour.choices, blank=True)
    second_colour = models.CharField(max_length=6, choices=Colour.choices, blank=True)
    # Robot opponents exist in the lobby; games against them count half in the ranking.
    is_robot = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["display_name"]
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                name="player_display_name_ci_unique",
                violation_error_message="A player with this display name already exists.",
            ),
            models.CheckConstraint(
                condition=models.Q(first_colour="")
                | models.Q(second_colour="")
                | ~models.Q(first_colour=models.F("second_colour")),
                name="player_colour_preferences_differ",
                violation_error_message="The two colour preferences must differ.",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name
