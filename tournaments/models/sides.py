"""What plays for an entry besides a single player: pairs and teams, with a team's roster."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from players.models import Player
from tournaments.models.championships import Championship


class Pair(models.Model):
    """Two players who play a championship's doubles together (seats 0 and 2, or 1 and 3, of a
    pairs record). Belongs to the championship so the same pair moves on from a qualifying
    stage; its entries say in which events it plays."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="pairs")
    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="pairs_as_a")
    player_b = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="pairs_as_b")
    # "Ana & Bela", written when the pair is formed (a later rename of a player is not followed).
    name = models.CharField(max_length=90)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["championship", "name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(player_a=models.F("player_b")), name="pair_two_players"
            ),
            models.UniqueConstraint(
                fields=["championship", "player_a", "player_b"], name="pair_once_per_championship"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def player_ids(self) -> tuple[int, int]:
        return (self.player_a_id, self.player_b_id)


class Team(models.Model):
    """A national (or regional) team of a championship, with an ordered roster (TeamMember).

    Belongs to the championship, so the same team plays its group stage and its knockout."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=60, help_text=_('e.g. "GBR A"'))
    # The country the team represents: the group draw keeps two teams of one country apart.
    country = CountryField(blank=True)
    # Who may play for it: these countries' players; empty means the team's country only.
    region_countries = models.JSONField(default=list, blank=True)
    captain = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="teams_captained"
    )
    deputy = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="teams_deputised"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["championship", "name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "name"], name="team_name_unique_in_championship"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def eligible_countries(self) -> list[str]:
        return list(self.region_countries or ([self.country.code] if self.country else []))


class TeamMember(models.Model):
    """One player of a team's roster; `board` is the roster order (1 plays board 1)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="team_memberships")
    board = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])

    class Meta:
        ordering = ["team", "board"]
        constraints = [
            models.UniqueConstraint(fields=["team", "player"], name="team_member_once"),
            models.UniqueConstraint(fields=["team", "board"], name="team_member_board_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.team}: board {self.board} {self.player}"


# What a change of a team's roster was. The roster's log is the audit trail itself (the
# `team_create` and `team_roster` entries, which name the team): `sides.selectors.roster_changes`.
class RosterChangeKind(models.TextChoices):
    CREATED = "created", _("Team created")
    SUBSTITUTION = "substitution", _("Substitution")
    BOARD_ORDER = "board_order", _("Board order changed")
    CAPTAINCY = "captaincy", _("Captain or deputy changed")
