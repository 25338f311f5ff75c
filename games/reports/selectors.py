"""Reads of reported games: what waits for a person, what they may rule, one game's history."""

from __future__ import annotations

from django.db.models import Prefetch, Q
from django.utils.translation import pgettext

from games.models import GameReport, ReportedGame, ReportStatus, ResultState
from games.reports.access import may_confirm, may_rule, may_see
from players.models import Player
from players.roles import is_admin, is_controller_anywhere, is_organiser, player_of
from players.types import User

# Open reports and disputes are few (a report stands after GAME_REPORT_CONFIRM_HOURS), so the
# per-object checks run in Python over at most this many rows.
SCAN_LIMIT = 500
# A game seats 2 to 4 players (docs/game-records.md).
MAX_SEATS = 4


def seated(player_id: int, *, field: str = "seat_players") -> Q:
    """Games whose JSON list of seated players holds this player.

    One key lookup per seat: PostgreSQL and SQLite (`make run`) both read an element of a JSON
    list, while the `contains` lookup exists on PostgreSQL only and answered 500 on SQLite.
    """
    condition = Q()
    for seat in range(MAX_SEATS):
        condition |= Q(**{f"{field}__{seat}": player_id})
    return condition


def _versions() -> Prefetch:
    return Prefetch(
        "versions",
        queryset=GameReport.objects.select_related("author", "side_player", "answered_by").order_by(
            "number"
        ),
    )


def reports_waiting_for(user: User) -> list[GameReport]:
    """Open reports this person may confirm or dispute, oldest first: their opponents'
    reports, and for those who answer for players without an account (the championship's
    organisers and controllers, the organiser who entered the player, staff) those reports."""
    if not (user and user.is_authenticated):
        return []
    own = player_of(user)
    open_reports = GameReport.objects.filter(status=ReportStatus.OPEN).select_related(
        "reported_game", "side_player", "author"
    )
    if not (is_organiser(user) or is_controller_anywhere(user)):
        if own is None:
            return []
        open_reports = open_reports.filter(seated(own.pk, field="reported_game__seat_players"))
    candidates = list(open_reports.order_by("created", "pk")[:SCAN_LIMIT])
    return [report for report in candidates if may_confirm(user, report)]


def reported_games_to_rule(user: User) -> list[ReportedGame]:
    """Disputed games this person rules (the championship's staff; site staff for all)."""
    if not (user and user.is_authenticated):
        return []
    disputed = ReportedGame.objects.filter(state=ResultState.DISPUTED).order_by("updated", "pk")
    if is_admin(user):
        return list(disputed[:SCAN_LIMIT])
    return [game for game in disputed[:SCAN_LIMIT] if may_rule(user, game)]


def reported_game_detail(*, reported_game_id: int, viewer: User) -> ReportedGame:
    """One reported game with its versions; ReportedGame.DoesNotExist when the viewer may not
    see it (the same answer as for a game that does not exist)."""
    reported = ReportedGame.objects.prefetch_related(_versions()).get(pk=reported_game_id)
    if not may_see(viewer, reported):
        raise ReportedGame.DoesNotExist
    return reported


def seat_names(reported: ReportedGame) -> list[str]:
    names = dict(
        Player.objects.filter(pk__in=reported.seat_players).values_list("pk", "display_name")
    )
    return [names.get(player_id, "?") for player_id in reported.seat_players]


def names_versus(names: list[str]) -> str:
    """The players' names as a game's title says them ("Ana v Bela"), in the reader's words."""
    versus = pgettext("versus, between players' names", "v")
    return f" {versus} ".join(names)


def match_reports_open(*, match_id: int, user: User) -> tuple[list[GameReport], list[GameReport]]:
    """A match's open reports, oldest first, as its page shows them to this person: those they
    may confirm or dispute, and those they reported that wait for the other side."""
    if not (user and user.is_authenticated):
        return [], []
    open_reports = list(
        GameReport.objects.filter(reported_game__match_id=match_id, status=ReportStatus.OPEN)
        .select_related("reported_game", "side_player", "author")
        .order_by("created", "pk")[:SCAN_LIMIT]
    )
    to_answer = [report for report in open_reports if may_confirm(user, report)]
    sent = [report for report in open_reports if report.author_id == user.pk]
    return to_answer, sent


def match_games_unsettled(match_id: int) -> int:
    """How many of a match's reported games do not stand yet (waiting, or disputed)."""
    return ReportedGame.objects.filter(
        match_id=match_id, state__in=(ResultState.REPORTED, ResultState.DISPUTED)
    ).count()
