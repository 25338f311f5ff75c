from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Q, QuerySet, Value
from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from players.models import ClaimRequest, ClaimStatus, Player
from players.roles import ORGANISERS_GROUP, is_admin, is_organiser
from players.types import User


def player_list(*, search: str = "", country: str = "") -> QuerySet[Player]:
    players = Player.objects.all()
    if search:
        players = players.filter(Q(display_name__icontains=search))
    if country:
        players = players.filter(country=country.upper())
    return players.order_by("display_name")


def players_by_names(names: list[str]) -> dict[str, Player]:
    """Map each name (lower-cased) to its Player, matching display names case-insensitively.

    Compared as `LOWER(display_name)`, the expression of the names' unique index, so the lookup
    is an index scan however many players there are (`iexact` compares UPPER and scans them all).
    """
    wanted = {name.lower() for name in names}
    if not wanted:
        return {}
    # SQLite's LOWER folds ASCII only ("Ş" stays): lowering the names as given, not Python's
    # lower case of them, finds "Ayşe Şahin" written as stored on make run's database too.
    candidates = wanted | set(names)
    players = (
        Player.objects.annotate(name_key=Lower("display_name"))
        .filter(name_key__in=[Lower(Value(name)) for name in candidates])
        # Unordered: the players' default ordering costs more to compile than the query to run.
        .order_by()
    )
    return {p.display_name.lower(): p for p in players if p.display_name.lower() in wanted}


def claimable_player_named(display_name: str) -> Player | None:
    """The accountless (human) player with this display name, if there is one."""
    return Player.objects.filter(
        display_name__iexact=(display_name or "").strip(), user__isnull=True, is_robot=False
    ).first()


# --- Roles ---------------------------------------------------------------------------------


def _with_roles() -> QuerySet:
    """Accounts with their player and `is_organiser_member` (in the organisers group)."""
    User = get_user_model()
    member = User.groups.through.objects.filter(
        user_id=OuterRef("pk"), group__name=ORGANISERS_GROUP
    )
    return User.objects.annotate(is_organiser_member=Exists(member)).select_related("player")


def role_holders() -> QuerySet:
    """Accounts that are organisers (group members) or staff, by username.

    Staff are organisers anyway; `is_organiser_member` says whether they are in the group too.
    """
    return _with_roles().filter(Q(is_organiser_member=True) | Q(is_staff=True)).order_by("username")


def user_with_roles(pk: int) -> Any:
    return _with_roles().get(pk=pk)


def user_for_name(name: str) -> Any:
    """The account named by a username or by its player's display name (case-insensitive).

    Refuses a name that means two different people, and a player who has no account.
    """
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": _("Give a username or a player's display name.")})
    User = get_user_model()
    by_username = User.objects.filter(username__iexact=name).first()
    player = Player.objects.filter(display_name__iexact=name).select_related("user").first()
    if (
        by_username is not None
        and player is not None
        and player.user_id
        not in (
            None,
            by_username.pk,
        )
    ):
        raise ValidationError(
            {
                "name": _(
                    "%(name)r is the username of one account and the player name of another "
                    "(%(other)s); give the username."
                )
                % {"name": name, "other": player.user.get_username()}
            }
        )
    if by_username is not None:
        return by_username
    if player is not None:
        if player.user_id is None:
            raise ValidationError(
                {
                    "name": _(
                        "The player %(name)s has no account yet; they must sign up or claim "
                        "their profile first."
                    )
                    % {"name": player.display_name}
                }
            )
        return player.user
    raise ValidationError({"name": _("No account or player is called %(name)r.") % {"name": name}})


# --- Claims and audit ----------------------------------------------------------------------


def claim_requests_visible_to(user: User, *, status: str = "") -> QuerySet[ClaimRequest]:
    """Staff see every request; an organiser those for players they entered; anyone their own."""
    requests = ClaimRequest.objects.select_related(
        "player", "requester", "decided_by", "player__created_by"
    )
    if not is_admin(user):
        mine = Q(requester=user)
        if is_organiser(user):
            mine |= Q(player__created_by=user)
        requests = requests.filter(mine)
    if status:
        requests = requests.filter(status=status)
    return requests.order_by("-created", "-id")


def pending_claim_request_of(user: User) -> ClaimRequest | None:
    return (
        ClaimRequest.objects.filter(requester=user, status=ClaimStatus.PENDING)
        .select_related("player")
        .first()
    )
