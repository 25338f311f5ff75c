"""Team championships: teams and their rosters, entering a team, lineups and lineup deadlines.

A team belongs to the championship and has an ordered roster (board 1 first) of at least five
players of its country or region, each in one team of the championship. Its captain or deputy
changes the roster and the board order until the lineup deadline of the team's current round
(or until that match's first game counts, which fixes its lineup); the championship's
organisers may change it at any time, which applies to every match whose lineup is not fixed
yet. Every change is audited with who, when, why, and the roster before and after; the audit
trail is the roster's log (`sides.selectors.roster_changes`), kept nowhere else.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django_countries import countries as country_registry

from players.audit.registry import register_audit_type
from players.models import Player
from players.types import User
from tournaments import selectors
from tournaments.formats.teams import MIN_ROSTER
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    AuditAction,
    Championship,
    Entry,
    EntryKind,
    EntryStatus,
    Event,
    EventStatus,
    Match,
    RosterChangeKind,
    Round,
    Team,
    TeamBoard,
    TeamMember,
)
from tournaments.permissions import can_manage, leads_team
from tournaments.services.access import require_manager
from tournaments.services.audit import audit
from tournaments.services.registration import registration_check
from tournaments.services.rounds import DRAW_START_WINDOW
from tournaments.sides.selectors import match_lineup, roster_ids


def _country_codes(codes: Sequence[str] | None, field: str) -> list[str]:
    if codes is None:
        return []
    if not isinstance(codes, list | tuple) or not all(isinstance(c, str) for c in codes):
        raise ValidationError({field: _('Give the countries as a list of ISO codes, e.g. ["GB"].')})
    upper = [c.strip().upper() for c in codes if c.strip()]
    bad = [c for c in upper if c not in dict(country_registry)]
    if bad:
        raise ValidationError(
            {field: _("Unknown country codes: %(codes)s.") % {"codes": ", ".join(bad)}}
        )
    return upper


def _events_of(team: Team) -> list[Event]:
    """The events the team is entered in and still plays (or waits to play)."""
    entered = Entry.objects.filter(team=team).exclude(status=EntryStatus.WITHDRAWN)
    return list(
        Event.objects.filter(pk__in=entered.values("event_id")).exclude(status=EventStatus.FINISHED)
    )


def _roster_problems(
    team: Team, roster: list[Player], events: list[Event], *, actor: User
) -> list[str]:
    problems = []
    if len(roster) != len({p.pk for p in roster}):
        problems.append(_("A player is named twice in the roster."))
    need = max([MIN_ROSTER, *(e.team_boards for e in events)])
    if len(roster) < need:
        problems.append(
            _("A team's roster has at least %(need)s players (got %(got)s).")
            % {"need": need, "got": len(roster)}
        )
    allowed = team.eligible_countries()
    for player in roster:
        if allowed and player.country.code not in allowed:
            params = {
                "player": player.display_name,
                "country": player.country.name,
                "team": team.name,
                "countries": ", ".join(allowed),
            }
            problems.append(
                (
                    _(
                        "%(player)s plays for %(country)s; %(team)s takes players of "
                        "%(countries)s only."
                    )
                    if player.country.name
                    else _(
                        "%(player)s plays for no country; %(team)s takes players of "
                        "%(countries)s only."
                    )
                )
                % params
            )
    taken = (
        TeamMember.objects.filter(
            team__championship_id=team.championship_id, player__in=[p.pk for p in roster]
        )
        .exclude(team_id=team.pk)
        .select_related("team", "player")
    )
    for member in taken:
        problems.append(
            _("%(player)s already plays for %(team)s in this championship.")
            % {"player": member.player.display_name, "team": member.team.name}
        )
    for event in events:
        for player in roster:
            # A junior event: each player's age is checked only for whoever may know it; for
            # the others (a captain, an organiser) the player's own confirmation counts.
            problems += selectors.eligibility_problems(event, player, actor=actor)
    return problems


def captain_lock(team: Team, *, now: dt.datetime | None = None) -> str | None:
    """Why the captain and deputy may no longer change the roster now (None: they may)."""
    now = now or timezone.now()
    open_matches = (
        Match.objects.filter(Q(entry_a__team=team) | Q(entry_b__team=team))
        .exclude(status__in=FINAL_MATCH_STATUSES)
        .filter(event__status=EventStatus.DRAWN)
        .select_related("round")
        .order_by("round__number")
    )
    for match in open_matches:
        if TeamBoard.objects.filter(match=match).exists():
            return _(
                "The lineup of %(round)s is fixed (its games have started): only an "
                "organiser can change the roster now."
            ) % {"round": match.round}
        deadline = match.round.lineup_deadline
        if deadline is not None and deadline <= now:
            # The reader's way of writing a moment, with its time zone (DATETIME_FORMAT).
            when = formats.date_format(timezone.localtime(deadline), "DATETIME_FORMAT")
            return _(
                "The lineup deadline of %(round)s (%(when)s) has passed: only an organiser "
                "can change the roster now."
            ) % {"round": match.round, "when": when}
    return None


def _write_roster(team: Team, roster: list[Player]) -> None:
    team.members.all().delete()
    TeamMember.objects.bulk_create(
        TeamMember(team=team, player=player, board=board)
        for board, player in enumerate(roster, start=1)
    )


@transaction.atomic
def team_create(
    *,
    actor: User,
    championship: Championship,
    name: str,
    roster: Sequence[Player],
    country: str = "",
    region_countries: Sequence[str] | None = None,
    captain: Player | None = None,
    deputy: Player | None = None,
) -> Team:
    """An organiser creates a team with its roster in board order, captain and deputy."""
    require_manager(actor, championship)
    Championship.objects.select_for_update().get(pk=championship.pk)
    name = (name or "").strip()
    errors: dict[str, list[str]] = {}
    if not name:
        errors["name"] = [_("A team needs a name.")]
    elif len(name) > 60:
        errors["name"] = [_("A team's name has at most 60 characters.")]
    elif Team.objects.filter(championship=championship, name__iexact=name).exists():
        errors["name"] = [
            _("%(championship)s already has a team %(team)s.")
            % {"championship": championship, "team": name}
        ]
    code = (country or "").strip().upper()
    if code and code not in dict(country_registry):
        errors["country"] = [_("Unknown country code: %(code)s.") % {"code": code}]
    try:
        region = _country_codes(region_countries, "region_countries")
    except ValidationError as exc:
        errors.update(exc.message_dict)
        region = []
    if captain is not None and deputy is not None and captain.pk == deputy.pk:
        errors["deputy"] = [_("The deputy is someone other than the captain.")]
    if errors:
        raise ValidationError(errors)
    team = Team(
        championship=championship,
        name=name,
        country=code,
        region_countries=region,
        captain=captain,
        deputy=deputy,
        created_by=actor,
    )
    roster = list(roster)
    problems = _roster_problems(team, roster, [], actor=actor)
    if problems:
        raise ValidationError({"roster": problems})
    team.save()
    _write_roster(team, roster)
    audit(
        actor=actor,
        championship=championship,
        action=AuditAction.TEAM_CREATE,
        target=team.name,
        details={"team": team.pk, "roster": [p.pk for p in roster]},
    )
    return team


@transaction.atomic
def team_roster_set(*, actor: User, team: Team, roster: Sequence[Player], reason: str = "") -> Team:
    """Set the roster in board order: a substitution, a new board order, or both.

    The captain or deputy until the lineup deadline (`captain_lock`); organisers always."""
    manager = can_manage(actor, team.championship)
    if not (manager or leads_team(actor, team)):
        raise PermissionDenied(
            _("Only the team's captain or deputy, or an organiser, may do that.")
        )
    Championship.objects.select_for_update().get(pk=team.championship_id)
    team = Team.objects.select_for_update().get(pk=team.pk)
    if not manager:
        lock = captain_lock(team)
        if lock:
            raise ValidationError({"roster": lock})
    roster = list(roster)
    before = roster_ids(team)
    after = [p.pk for p in roster]
    if before == after:
        raise ValidationError({"roster": _("That is the roster as it stands: nothing to change.")})
    events = _events_of(team)
    problems = _roster_problems(team, roster, events, actor=actor)
    if problems:
        raise ValidationError({"roster": problems})
    _write_roster(team, roster)
    # A substitution brings someone onto the boards that play (a reserve in, or a new player);
    # otherwise the same players only change boards.
    boards = max([MIN_ROSTER, *(e.team_boards for e in events)])
    kind = (
        RosterChangeKind.BOARD_ORDER
        if set(before[:boards]) == set(after[:boards]) and set(before) == set(after)
        else RosterChangeKind.SUBSTITUTION
    )
    audit(
        actor=actor,
        championship=team.championship,
        action=AuditAction.TEAM_ROSTER,
        target=team.name,
        reason=reason,
        details={"team": team.pk, "kind": str(kind), "before": before, "after": after},
    )
    return team


@transaction.atomic
def team_officers_set(
    *, actor: User, team: Team, captain: Player | None, deputy: Player | None, reason: str = ""
) -> Team:
    """An organiser names the team's captain and deputy."""
    require_manager(actor, team.championship)
    if captain is not None and deputy is not None and captain.pk == deputy.pk:
        raise ValidationError({"deputy": _("The deputy is someone other than the captain.")})
    team = Team.objects.select_for_update().get(pk=team.pk)
    before = [team.captain_id, team.deputy_id]
    team.captain, team.deputy = captain, deputy
    team.save(update_fields=["captain", "deputy"])
    audit(
        actor=actor,
        championship=team.championship,
        action=AuditAction.TEAM_ROSTER,
        target=team.name,
        reason=reason,
        details={
            "team": team.pk,
            "kind": str(RosterChangeKind.CAPTAINCY),
            "before": before,
            "after": [team.captain_id, team.deputy_id],
        },
    )
    return team


@transaction.atomic
def team_enter(*, actor: User, event: Event, team: Team) -> Entry:
    """Enter a team in a team event (organisers, or the team's captain or deputy)."""
    if not (can_manage(actor, event.championship) or leads_team(actor, team)):
        raise PermissionDenied(
            _("Only the team's captain or deputy, or an organiser, may enter it.")
        )
    event = Event.objects.select_for_update().select_related("championship").get(pk=event.pk)
    registration_check(event)
    if event.entry_kind != EntryKind.TEAM:
        raise ValidationError({"team": _("This is not a team event.")})
    if team.championship_id != event.championship_id:
        raise ValidationError(
            {"team": _("%(team)s is a team of another championship.") % {"team": team.name}}
        )
    if Entry.objects.filter(event=event, team=team).exists():
        raise ValidationError({"team": _("%(team)s is already entered.") % {"team": team.name}})
    roster = list(
        Player.objects.filter(team_memberships__team=team).order_by("team_memberships__board")
    )
    problems = _roster_problems(team, roster, [event], actor=actor)
    if problems:
        raise ValidationError({"team": problems})
    entry = Entry.objects.create(event=event, team=team, registered_by=actor)
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action=AuditAction.TEAM_ENTER,
        target=team.name,
    )
    return entry


# --- Lineups --------------------------------------------------------------------------------


def lineup_fix(match: Match) -> None:
    """Fix the match's lineup (the match row is locked): its first game is counted."""
    if match.boards.exists():
        return
    TeamBoard.objects.bulk_create(
        TeamBoard(match=match, board=board, player_a_id=a, player_b_id=b)
        for board, a, b in match_lineup(match)
    )


@transaction.atomic
def round_lineup_deadline_set(
    *, actor: User, round_: Round, lineup_deadline: dt.datetime, reason: str = ""
) -> Round:
    """An organiser moves a team round's lineup deadline."""
    require_manager(actor, round_.event.championship)
    if round_.event.entry_kind != EntryKind.TEAM:
        raise ValidationError({"lineup_deadline": _("Only team events have lineup deadlines.")})
    now = timezone.now()
    if not now - DRAW_START_WINDOW <= lineup_deadline <= now + DRAW_START_WINDOW:
        raise ValidationError({"lineup_deadline": _("A deadline must be within a year of today.")})
    previous = round_.lineup_deadline
    round_.lineup_deadline = lineup_deadline
    round_.save(update_fields=["lineup_deadline"])
    audit(
        actor=actor,
        championship=round_.event.championship,
        event=round_.event,
        action=AuditAction.LINEUP_DEADLINE_SET,
        target=round_.english_name,
        reason=reason,
        details={
            "before": previous.isoformat() if previous else None,
            "after": lineup_deadline.isoformat(),
        },
    )
    return round_


# --- Audit types: the actions this module writes -------------------------------------------

# Both name the team: together they are the roster's log (sides.selectors.roster_changes).
register_audit_type(AuditAction.TEAM_CREATE, details={"team": int, "roster": list})
register_audit_type(
    AuditAction.TEAM_ROSTER, details={"team": int, "kind": str, "before": list, "after": list}
)
register_audit_type(AuditAction.TEAM_ENTER)
register_audit_type(AuditAction.LINEUP_DEADLINE_SET, details={"before": str, "after": str})
