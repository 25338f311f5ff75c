"""A player's entries and whether they may enter or withdraw: eligibility, and the figures
seeding ranks entries by."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.db.models import Q, QuerySet
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.models import Player
from players.types import User
from ratings.models import Rating, RatingSystem
from ratings.selectors import seeding_ratings as ratings_for_seeding
from tournaments.models import (
    SIDES,
    AgeConfirmation,
    Eligibility,
    Entry,
    EntryStatus,
    Event,
    EventStatus,
    Team,
    TeamMember,
)
from tournaments.permissions import can_manage, speaks_for_age


def _plays_for(player_id: int) -> Q:
    """Entries the player plays for: alone, in a pair, or on a team's roster."""
    return (
        Q(player_id=player_id)
        | Q(pair__player_a_id=player_id)
        | Q(pair__player_b_id=player_id)
        | Q(team__in=Team.objects.filter(members__player_id=player_id).values("pk"))
    )


def entries_of_player(player_id: int) -> QuerySet[Entry]:
    return (
        Entry.objects.filter(_plays_for(player_id), event__championship__published=True)
        .select_related("event__championship", *SIDES)
        .order_by("-event__championship__year", "event__stage")
    )


def entries_with_player(event: Event, player_id: int) -> QuerySet[Entry]:
    """This event's entries (any status) the player plays for."""
    return Entry.objects.filter(_plays_for(player_id), event=event).select_related(*SIDES)


def withdrawal_refusal(user: User, entry: Entry) -> str | None:
    """Why `entry_withdraw` would refuse this user this entry (None: it would not), so pages
    never offer a withdrawal the service refuses."""
    event = entry.event
    if entry.status == EntryStatus.WITHDRAWN:
        return _("This entry is already withdrawn.")
    if event.status == EventStatus.FINISHED:
        return _("The event is finished: its results stand.")
    if entry.status != EntryStatus.ACTIVE:
        return _("This entry is no longer in play.")
    if event.status == EventStatus.DRAWN and not can_manage(user, event.championship):
        return _("After the draw only an organiser may withdraw a player.")
    return None


def _age_on(birth: dt.date, day: dt.date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def _junior_refusal(event: Event, player: Player) -> str | None:
    """The age check against the player's date of birth: only for those who may know it."""
    if player.date_of_birth is None:
        return _(
            "%(player)s has no date of birth on their profile: a junior event needs the "
            "player's date of birth to check the age limit (the player, or the staff, "
            "can add it on the player's profile page)."
        ) % {"player": player.display_name}
    if _age_on(player.date_of_birth, event.cutoff_date) >= event.junior_age_limit:
        # Never the age or the date of birth: only the event's public rule.
        return ngettext(
            "%(player)s is not under %(age)s on the cut-off date (%(cutoff)s): not "
            "eligible for this junior event, born before the cut-off for players under "
            "%(age)s on that day.",
            "%(player)s is not under %(age)s on the cut-off date (%(cutoff)s): not "
            "eligible for this junior event, born before the cut-off for players under "
            "%(age)s on that day.",
            event.junior_age_limit,
        ) % {
            "player": player.display_name,
            "age": event.junior_age_limit,
            # The reader's way of writing a date (DATE_FORMAT: "5 March 2026").
            "cutoff": formats.date_format(event.cutoff_date),
        }
    return None


def age_confirmed(event: Event, player: Player) -> bool:
    """Whether the player has said, in their own name, that they meet this junior event's rule
    (and their date of birth still agrees)."""
    return (
        AgeConfirmation.objects.filter(
            player=player, age_limit=event.junior_age_limit, cutoff_date=event.cutoff_date
        ).exists()
        and _junior_refusal(event, player) is None
    )


def _unconfirmed_age(event: Event, player: Player) -> str:
    """The refusal for someone who may not know the player's date of birth: the same sentence
    whatever that date is, so entering a player says nothing about their birthday."""
    return ngettext(
        "%(player)s has not confirmed that they may play in this junior event (under %(age)s on "
        "%(cutoff)s). Their date of birth is private, so only they (or the site staff) can: "
        "they confirm it on the event's page.",
        "%(player)s has not confirmed that they may play in this junior event (under %(age)s on "
        "%(cutoff)s). Their date of birth is private, so only they (or the site staff) can: "
        "they confirm it on the event's page.",
        event.junior_age_limit,
    ) % {
        "player": player.display_name,
        "age": event.junior_age_limit,
        "cutoff": formats.date_format(event.cutoff_date),
    }


def eligibility_problems(
    event: Event, player: Player, *, actor: User, age_checked_later: bool = False
) -> list[str]:
    """Why this player may not enter this event when `actor` enters them (empty: they may).

    A junior event's age limit is checked against the date of birth only for an actor who may
    know it (`speaks_for_age`: the player, staff, the organiser who entered a player without
    an account). For anyone else only the player's own confirmation counts
    (`AgeConfirmation`), and the refusal does not depend on the date of birth: otherwise
    entering the player in junior events of chosen cut-off dates would find their birthday
    (issue 26). ``age_checked_later``: the player confirms the entry themselves (a pair's
    partner), and their age is checked then.
    """
    problems = []
    if event.eligibility == Eligibility.JUNIOR:
        if age_checked_later:
            pass
        elif speaks_for_age(actor, player):
            refusal = _junior_refusal(event, player)
            if refusal:
                problems.append(refusal)
        elif not age_confirmed(event, player):
            problems.append(_unconfirmed_age(event, player))
    elif event.eligibility == Eligibility.NATIONAL:
        if player.country.code not in event.countries:
            params = {
                "player": player.display_name,
                "country": player.country.name,
                "countries": ", ".join(event.countries),
            }
            problems.append(
                (
                    _("%(player)s plays for %(country)s; this event is open to %(countries)s only.")
                    if player.country.name
                    else _(
                        "%(player)s plays for no country; this event is open to %(countries)s only."
                    )
                )
                % params
            )
    elif event.eligibility == Eligibility.MINIMUM_RANKING:
        ranking = seeding_ratings([player.pk]).get(player.pk, (None, None))[1]
        if ranking is None or ranking < event.minimum_ranking:
            params = {
                "player": player.display_name,
                "ranking": ranking,
                "minimum": event.minimum_ranking,
            }
            problems.append(
                (
                    _(
                        "%(player)s's ranking (%(ranking)s) is below this event's minimum of "
                        "%(minimum)s."
                    )
                    if ranking is not None
                    else _(
                        "%(player)s's ranking (none) is below this event's minimum of %(minimum)s."
                    )
                )
                % params
            )
    return problems


# The bases of a seeding figure, best first: an entry with a figure on an earlier basis is seeded
# above every entry whose figure is on a later one (they are different scales).
SEEDING_BASES = ("doubles", "elo", "lobby")


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def entry_seeding_figures(entries: Sequence[Entry]) -> dict[int, tuple[str, float]]:
    """Each entry's seeding figure, (basis, value), or none (docs/organisers.md, "Seeding").

    A player: their tournament Elo, else their lobby ranking. A pair: the mean of the two
    players' doubles-table ratings when both have one, else the mean of their tournament Elo
    when both have one, else of their lobby rankings when both have one. A team: the mean
    tournament Elo of the roster players who have one, else the mean lobby ranking of those who
    have one. Entries without a figure are seeded last, in registration order.
    """
    members: dict[int, list[int]] = {}
    team_ids = [e.team_id for e in entries if e.team_id is not None]
    rosters: dict[int, list[int]] = {}
    for team_id, player_id in TeamMember.objects.filter(team_id__in=team_ids).values_list(
        "team_id", "player_id"
    ):
        rosters.setdefault(team_id, []).append(player_id)
    for entry in entries:
        if entry.team_id is not None:
            members[entry.pk] = rosters.get(entry.team_id, [])
        elif entry.pair_id is not None:
            members[entry.pk] = list(entry.pair.player_ids)
        else:
            members[entry.pk] = [entry.player_id]
    everyone = sorted({p for ids in members.values() for p in ids})
    ratings = seeding_ratings(everyone)
    doubles: dict[int, float] = {}
    if any(e.pair_id is not None for e in entries):
        doubles = dict(
            Rating.objects.filter(
                player_id__in=everyone, system=RatingSystem.DOUBLES, games__gt=0
            ).values_list("player_id", "value")
        )
    figures: dict[int, tuple[str, float]] = {}
    for entry in entries:
        ids = members[entry.pk]
        elos = [ratings[p][0] for p in ids if ratings.get(p, (None, None))[0] is not None]
        lobbies = [ratings[p][1] for p in ids if ratings.get(p, (None, None))[1] is not None]
        if entry.pair_id is not None:
            pair_doubles = [doubles[p] for p in ids if p in doubles]
            candidates = [
                ("doubles", pair_doubles if len(pair_doubles) == 2 else []),
                ("elo", elos if len(elos) == 2 else []),
                ("lobby", lobbies if len(lobbies) == 2 else []),
            ]
        else:
            candidates = [("elo", elos), ("lobby", lobbies)]
        for basis, values in candidates:
            mean = _mean(values)
            if mean is not None:
                figures[entry.pk] = (basis, float(mean))
                break
    return figures


def seeding_ratings(player_ids: Sequence[int]) -> dict[int, tuple[float | None, float | None]]:
    """(tournament Elo, lobby ranking) per player, as the ratings app has them."""
    return ratings_for_seeding(list(player_ids))
