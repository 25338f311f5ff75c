"""The permission matrix's rows for reports, score sheets, table results, table opens, exports,
teams and pairs (issue 26: authority is per championship everywhere).

For each of these views the matrix asks, besides the visitor and staff: an organiser and a
controller of another championship (the organiser and controller roles on the scopes "other"
and "unpublished"), the report's author (the player on "own_authored"), the opponent (the player
on "own_opposed"), a player of another table, team or pair ("other_player"), and the
championship's own organiser and controller. The objects are built in world_more.py.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.utils import timezone

from tests.security.matrix_base import (
    BAD,
    DENIED,
    EVERYONE,
    HIDDEN,
    NOBODY,
    OK,
    ORGANISERS,
    OWN_UNPUBLISHED_ORGANISERS,
    OWN_UNPUBLISHED_READ,
    OWN_UNPUBLISHED_RULERS,
    PASS,
    RULERS,
    SIGNED_IN,
    STAFF,
    UNSEEN,
    UNSEEN_SIGNED_IN,
    Context,
    Payload,
    permitted_as,
)
from tests.security.world import World

# --- Reports ------------------------------------------------------------------------------------
# Who reads a reported game: its players and whoever reported it, its championship's organisers
# and controllers, staff; nobody of another championship, nobody but staff of an unpublished one.
SIDES_AND_RULERS = (DENIED, OK, OK, OK, OK)
REPORT_READ = {
    "casual_others": UNSEEN_SIGNED_IN,
    "own_authored": SIDES_AND_RULERS,
    "own_opposed": SIDES_AND_RULERS,
    "own_ruled": SIDES_AND_RULERS,
    "own_accountless": (DENIED, HIDDEN, OK, HIDDEN, OK),  # the organiser wrote it
    "other_player": (DENIED, HIDDEN, OK, OK, OK),
    "other": UNSEEN_SIGNED_IN,
    "unpublished": UNSEEN_SIGNED_IN,
    "other_player_accountless": (DENIED, HIDDEN, OK, OK, OK),
    "other_accountless": UNSEEN_SIGNED_IN,
    "unpublished_accountless": UNSEEN_SIGNED_IN,
}
# Who answers a version (confirm, or dispute with a reason): the other side; for a player
# without an account, staff or (match games) the championship's rulers; never its author.
REPORT_ANSWER = {
    "casual_others": (DENIED, HIDDEN, HIDDEN, HIDDEN, DENIED),
    "own_authored": NOBODY,  # the player wrote it; the opponent has an account
    "own_opposed": (DENIED, OK, DENIED, DENIED, DENIED),
    "own_accountless": (DENIED, HIDDEN, DENIED, HIDDEN, OK),
    "other_player": (DENIED, HIDDEN, DENIED, DENIED, DENIED),
    "other": (DENIED, HIDDEN, HIDDEN, HIDDEN, DENIED),
    "unpublished": (DENIED, HIDDEN, HIDDEN, HIDDEN, DENIED),
    "other_player_accountless": (DENIED, HIDDEN, OK, OK, OK),
    "other_accountless": UNSEEN_SIGNED_IN,
    "unpublished_accountless": UNSEEN_SIGNED_IN,
}
# A ruling (version 1 stands): the championship's rulers who are no party to it, staff. A ruled
# result is ruled again only after a reopening (bad).
REPORT_RULE = {
    "casual_others": UNSEEN_SIGNED_IN,
    "own_authored": RULERS,
    "own_opposed": RULERS,
    "own_ruled": permitted_as(BAD, RULERS),
    "own_accountless": (DENIED, HIDDEN, DENIED, HIDDEN, OK),  # casual: staff; the author never
    "other_player": (DENIED, HIDDEN, OK, OK, OK),
    "other": UNSEEN_SIGNED_IN,
    "unpublished": UNSEEN_SIGNED_IN,
    "other_player_accountless": (DENIED, HIDDEN, OK, OK, OK),
    "other_accountless": UNSEEN_SIGNED_IN,
    "unpublished_accountless": UNSEEN_SIGNED_IN,
}
# Reopening: the championship's organisers and staff; only a ruled result (else bad).
REPORT_REOPEN = {
    "casual_others": permitted_as(BAD, UNSEEN_SIGNED_IN),
    "own_authored": permitted_as(BAD, ORGANISERS),
    "own_opposed": permitted_as(BAD, ORGANISERS),
    "own_ruled": ORGANISERS,
    "own_accountless": (DENIED, HIDDEN, DENIED, HIDDEN, BAD),
    "other_player": (DENIED, HIDDEN, BAD, DENIED, BAD),
    "other": permitted_as(BAD, UNSEEN_SIGNED_IN),
    "unpublished": permitted_as(BAD, UNSEEN_SIGNED_IN),
    "other_player_accountless": (DENIED, HIDDEN, BAD, DENIED, BAD),
    "other_accountless": permitted_as(BAD, UNSEEN_SIGNED_IN),
    "unpublished_accountless": permitted_as(BAD, UNSEEN_SIGNED_IN),
}
# A score sheet for a match: its players and its championship's rulers (as for records).
SCORE_SHEET = {
    "match_own": SIGNED_IN,
    "match_other_player": RULERS,
    "match_other": STAFF,
    "match_unpublished": UNSEEN_SIGNED_IN,
}

# --- Table opens and exports -------------------------------------------------------------------
OPEN_READ = {"own": EVERYONE, "other": EVERYONE, "unpublished": UNSEEN}
OPEN_RULE = {"own": RULERS, "other": STAFF, "unpublished": UNSEEN_SIGNED_IN}
OPEN_MANAGE = {"own": ORGANISERS, "other": STAFF, "unpublished": UNSEEN_SIGNED_IN}
ENTRY_RULE = {**OPEN_RULE, "other_player": RULERS}
EVENT_READ = {
    "own": EVERYONE,
    "other": EVERYONE,
    "unpublished": UNSEEN,
    "own_unpublished": OWN_UNPUBLISHED_READ,
}
EVENT_RULERS = {
    "own": RULERS,
    "other": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
    "own_unpublished": OWN_UNPUBLISHED_RULERS,
}
EVENT_SIGNED_IN = {
    "own": SIGNED_IN,
    "other": SIGNED_IN,
    "unpublished": UNSEEN_SIGNED_IN,
    "own_unpublished": OWN_UNPUBLISHED_RULERS,
}
CHAMPIONSHIP_MANAGE = {
    "own": ORGANISERS,
    "other": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
    "own_unpublished": OWN_UNPUBLISHED_ORGANISERS,
}
CHAMPIONSHIP_READ = EVENT_READ
# A match's forecast: whoever sees the match (a team match's too: MORE_MATCH_ROWS).
FORECAST_MATCH_READ = {
    "own": EVERYONE,
    "other_player": EVERYONE,
    "other": EVERYONE,
    "unpublished": UNSEEN,
}
# A table's typed result: everyone reads it; the table's two players dispute it (typed, not yet
# disputed); the championship's rulers rule (disputed); its organisers reopen (ruled). A
# permitted step in another state is bad.
TABLE_READ = {
    "own": EVERYONE,
    "other_player": EVERYONE,
    "other_player_disputed": EVERYONE,
    "other_player_ruled": EVERYONE,
    "other": EVERYONE,
    "unpublished": UNSEEN,
}
TABLE_PLAYER = (DENIED, OK, DENIED, DENIED, DENIED)
TABLE_DISPUTE = {
    "own": TABLE_PLAYER,
    "other_player": NOBODY,
    "other_player_disputed": NOBODY,
    "other": NOBODY,
    "unpublished": (DENIED, HIDDEN, HIDDEN, HIDDEN, DENIED),
}
TABLE_RULE = {
    "own": permitted_as(BAD, RULERS),
    "other_player": permitted_as(BAD, RULERS),
    "other_player_disputed": RULERS,
    "other_player_ruled": permitted_as(BAD, RULERS),
    "other": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
}
TABLE_REOPEN = {
    "own": permitted_as(BAD, ORGANISERS),
    "other_player_disputed": permitted_as(BAD, ORGANISERS),
    "other_player_ruled": ORGANISERS,
    "other": (DENIED, DENIED, DENIED, DENIED, BAD),
    "unpublished": (DENIED, HIDDEN, HIDDEN, HIDDEN, BAD),
}
# The web page offers each step only in its state: the scope says which step is posted.
TABLE_WEB_STEP = {
    "own+dispute": TABLE_PLAYER,
    "other_player+dispute": NOBODY,
    "other_player_disputed+rule": RULERS,
    "other_player_ruled+reopen": ORGANISERS,
    "other+rule": STAFF,
    "unpublished+rule": UNSEEN,
}

# --- Teams, pairs, walkovers -------------------------------------------------------------------
TEAM_READ = {"own": EVERYONE, "other_player": EVERYONE, "other": EVERYONE, "unpublished": UNSEEN}
# The roster: the team's captain (the player captains the own team) until the lineup deadline,
# and the championship's organisers.
CAPTAIN_OR_ORGANISERS = (DENIED, OK, OK, DENIED, OK)
TEAM_ROSTER = {
    "own": CAPTAIN_OR_ORGANISERS,
    "other_player": ORGANISERS,
    "other": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
}
TEAM_ROSTER_WEB = {**TEAM_ROSTER, "unpublished": UNSEEN}
TEAM_OFFICERS = {
    "own": ORGANISERS,
    "other_player": ORGANISERS,
    "other": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
}
# Entering a team: its captain or deputy, the championship's organisers. "+rival" names the
# other team of C1 (captained by Quinn): the player's form does not offer it (bad).
TEAM_ENTER_API = {
    "own": CAPTAIN_OR_ORGANISERS,
    "own+rival": ORGANISERS,
    "other": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
}
TEAM_ENTER_WEB = {**TEAM_ENTER_API, "own+rival": (DENIED, BAD, OK, DENIED, OK)}
TEAM_ENTER_PAGE = {"own": CAPTAIN_OR_ORGANISERS, "other": STAFF, "unpublished": UNSEEN_SIGNED_IN}
# A pair: every player registers one they play in; "+someone" names two other players
# (organisers of the championship only).
PAIR_REGISTER = {
    "own": SIGNED_IN,
    "own+someone": ORGANISERS,
    "other": SIGNED_IN,
    "other+someone": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
}
# A waiting pair: the partner named in it confirms (or the championship's organisers); either of
# its players calls it off.
PAIR_CONFIRM = {
    "own_asked": ORGANISERS,  # the player asked: Quinn confirms, not the player
    "own_named": CAPTAIN_OR_ORGANISERS,  # the player was named: they confirm
    "other_player": ORGANISERS,
    "other": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
}
PAIR_DECLINE = {**PAIR_CONFIRM, "own_asked": CAPTAIN_OR_ORGANISERS}
# A team match's walkover is claimed by a team's captain or deputy (the player captains one).
TEAM_WALKOVER = (DENIED, OK, DENIED, DENIED, DENIED)

MORE_EXPECTED: dict[str, dict[str, Any]] = {
    # --- reports (games/reports) ---
    "reported-game-detail": {"GET": REPORT_READ},
    "api:api-reported-game": {"GET": REPORT_READ},
    "report-confirm": {"POST": REPORT_ANSWER},
    "api:api-report-confirm": {"POST": REPORT_ANSWER},
    "report-dispute": {"POST": REPORT_ANSWER},
    "api:api-report-dispute": {"POST": REPORT_ANSWER},
    "report-rule": {"POST": REPORT_RULE},
    "api:api-report-rule": {"POST": REPORT_RULE},
    "report-reopen": {"POST": REPORT_REOPEN},
    "api:api-report-reopen": {"POST": REPORT_REOPEN},
    "score-sheet-submit": {"GET": SIGNED_IN, "POST": SCORE_SHEET},
    "api:api-score-sheet-submit": {"POST": SCORE_SHEET},
    # --- table results ---
    "api:api-table-result": {"GET": TABLE_READ},
    "api:api-table-result-dispute": {"POST": TABLE_DISPUTE},
    "api:api-table-result-rule": {"POST": TABLE_RULE},
    "api:api-table-result-reopen": {"POST": TABLE_REOPEN},
    "open-table-result": {"GET": TABLE_READ, "POST": TABLE_WEB_STEP},
    # --- table opens ---
    "open-new": {
        "GET": CHAMPIONSHIP_MANAGE,
        "POST": permitted_as(BAD, CHAMPIONSHIP_MANAGE),  # an empty form
    },
    "api:api-table-open-create": {"POST": CHAMPIONSHIP_MANAGE},
    "open-start": {"GET": OPEN_MANAGE, "POST": OPEN_MANAGE},
    "api:api-table-open-start": {"POST": OPEN_MANAGE},
    "event-tiebreaks": {"GET": OPEN_MANAGE, "POST": permitted_as(PASS, OPEN_MANAGE)},
    "api:api-event-tiebreaks": {"GET": OPEN_READ, "PUT": OPEN_MANAGE},
    "api:api-event-standings": {"GET": OPEN_READ},
    "open-late-entry": {"GET": OPEN_RULE, "POST": OPEN_RULE},
    "api:api-late-entry": {"POST": OPEN_RULE},
    "open-entry-drop": {"GET": ENTRY_RULE, "POST": ENTRY_RULE},
    "api:api-entry-drop": {"POST": ENTRY_RULE},
    "open-round-pairings": {"GET": OPEN_READ},
    "open-round-sheets": {"GET": OPEN_RULE},
    "open-round-results": {"GET": OPEN_RULE, "POST": permitted_as(PASS, OPEN_RULE)},
    "api:api-round-results": {"POST": permitted_as(PASS, OPEN_RULE)},
    "api:api-round-tables": {"GET": OPEN_READ},
    # --- exports ---
    "event-standings-csv": {"GET": EVENT_READ},
    "event-results-csv": {"GET": EVENT_READ},
    "open-round-pairings-csv": {"GET": OPEN_READ},
    "event-export-json": {"GET": EVENT_RULERS},
    "api:api-event-export": {"GET": EVENT_RULERS},
    # --- teams ---
    "api:api-teams": {"GET": CHAMPIONSHIP_READ, "POST": CHAMPIONSHIP_MANAGE},
    "team-new": {"GET": CHAMPIONSHIP_MANAGE, "POST": CHAMPIONSHIP_MANAGE},
    "api:api-team": {"GET": TEAM_READ},
    "team-page": {"GET": TEAM_READ, "POST": TEAM_ROSTER_WEB},
    "api:api-team-roster": {"PUT": TEAM_ROSTER},
    "team-officers": {"POST": TEAM_OFFICERS},
    "api:api-team-officers": {"POST": TEAM_OFFICERS},
    "team-enter": {"GET": TEAM_ENTER_PAGE, "POST": TEAM_ENTER_WEB},
    "api:api-team-enter": {"POST": TEAM_ENTER_API},
    "api:api-match-boards": {"GET": OPEN_READ},
    # --- forecasts: read as the event and the match they belong to are read ---
    "api:api-event-forecast": {"GET": EVENT_READ},
    "api:api-match-forecast": {"GET": FORECAST_MATCH_READ},
    "round-lineup-deadline-set": {"GET": OPEN_MANAGE, "POST": permitted_as(PASS, OPEN_MANAGE)},
    "api:api-round-lineup-deadline": {"POST": permitted_as(PASS, OPEN_MANAGE)},
    # --- a player's age for junior events: their own word, for any event they see. The
    # world's events have no age limit, so a permitted confirmation is refused (bad; the web
    # button says so in a message on the event's page).
    "api:event-confirm-age": {"POST": permitted_as(BAD, EVENT_SIGNED_IN)},
    "event-age-confirm": {"POST": EVENT_SIGNED_IN},
    # --- pairs ---
    "pair-register": {
        "GET": {"own": SIGNED_IN, "other": SIGNED_IN, "unpublished": UNSEEN_SIGNED_IN},
        "POST": PAIR_REGISTER,
    },
    "api:api-pair-register": {"POST": PAIR_REGISTER},
    "api:api-pair-confirm": {"POST": PAIR_CONFIRM},
    "api:api-pair-decline": {"POST": PAIR_DECLINE},
    "pair-answer": {"POST": PAIR_CONFIRM},
}
# Walkover claims and the match pages, for a team match too (added to the singles scopes).
MORE_MATCH_ROWS = {
    ("match-walkover-claim", "POST"): TEAM_WALKOVER,
    ("api:match-claim-walkover", "POST"): TEAM_WALKOVER,
    ("match-page", "GET"): EVERYONE,
    ("match-live", "GET"): EVERYONE,
    ("api:match-detail", "GET"): EVERYONE,
    ("api:api-match-forecast", "GET"): EVERYONE,
}

MORE_PATH_KIND = {
    "reported-game-detail": "reported_game",
    "report-rule": "reported_game",
    "report-reopen": "reported_game",
    "api:api-reported-game": "reported_game",
    "api:api-report-rule": "reported_game",
    "api:api-report-reopen": "reported_game",
    "report-confirm": "report",
    "report-dispute": "report",
    "api:api-report-confirm": "report",
    "api:api-report-dispute": "report",
    "api:api-table-result": "table",
    "api:api-table-result-dispute": "table",
    "api:api-table-result-rule": "table",
    "api:api-table-result-reopen": "table",
    "open-table-result": "table",
    "open-new": "championship",
    "api:api-table-open-create": "championship",
    "open-start": "waiting_open",
    "api:api-table-open-start": "waiting_open",
    "event-tiebreaks": "open_event",
    "api:api-event-tiebreaks": "open_event",
    "api:api-event-standings": "open_event",
    "open-late-entry": "open_event",
    "api:api-late-entry": "open_event",
    "open-entry-drop": "open_entry",
    "api:api-entry-drop": "open_entry",
    "open-round-pairings": "open_round",
    "open-round-pairings-csv": "open_round",
    "open-round-sheets": "open_round",
    "open-round-results": "open_round",
    "api:api-round-results": "open_round",
    "api:api-round-tables": "open_round",
    "event-standings-csv": "event",
    "event-results-csv": "event",
    "event-export-json": "event",
    "api:api-event-export": "event",
    "api:api-teams": "championship",
    "team-new": "championship",
    "api:api-team": "team",
    "team-page": "team",
    "api:api-team-roster": "team",
    "team-officers": "team",
    "api:api-team-officers": "team",
    "team-enter": "team_event",
    "api:api-team-enter": "team_event",
    "api:api-match-boards": "team_match",
    "api:api-event-forecast": "event",
    "api:api-match-forecast": "match",
    "round-lineup-deadline-set": "team_round",
    "api:api-round-lineup-deadline": "team_round",
    "pair-register": "pair_event",
    "api:api-pair-register": "pair_event",
    "api:api-pair-confirm": "pair_entry",
    "api:api-pair-decline": "pair_entry",
    "pair-answer": "pair_entry",
    "api:event-confirm-age": "event",
    "event-age-confirm": "event",
}
MORE_EXTRA_KWARGS = {"pair-answer": {"answer": "confirm"}}

OWN_OTHER_UNPUBLISHED = ("own", "other", "unpublished")
MORE_KIND_SCOPES = {
    "reported_game": tuple(REPORT_READ),
    "report": tuple(REPORT_ANSWER),
    "table": tuple(TABLE_READ),
    "open_event": OWN_OTHER_UNPUBLISHED,
    "waiting_open": OWN_OTHER_UNPUBLISHED,
    "open_round": OWN_OTHER_UNPUBLISHED,
    "open_entry": ("own", "other_player", "other", "unpublished"),
    "team": tuple(TEAM_READ),
    "team_event": OWN_OTHER_UNPUBLISHED,
    "team_round": OWN_OTHER_UNPUBLISHED,
    "team_match": OWN_OTHER_UNPUBLISHED,
    "pair_event": OWN_OTHER_UNPUBLISHED,
    "pair_entry": tuple(PAIR_CONFIRM),
}


def more_path_object(world: World, kind: str, scope: str, role: str) -> Any:
    more = world.more
    if kind == "reported_game":
        return world.report.reported_game if scope == "casual_others" else more.reported[scope]
    if kind == "report":
        return world.report if scope == "casual_others" else more.versions[scope]
    return {
        "table": more.tables,
        "open_event": more.table_opens,
        "waiting_open": more.waiting_opens,
        "open_round": more.open_rounds,
        "open_entry": more.open_entries,
        "team": more.teams,
        "team_event": more.team_events,
        "team_round": more.team_rounds,
        "team_match": more.team_matches,
        "pair_event": more.pair_events,
        "pair_entry": more.pair_entries,
    }[kind][scope]


# --- Bodies ------------------------------------------------------------------------------------


def _data(**fields: Any) -> Callable[[Context], Payload]:
    return lambda ctx: Payload(data=fields)


def _score_sheet(*, web: bool) -> Callable[[Context], Payload]:
    def build(ctx: Context) -> Payload:
        scenes = ctx.world.scenes
        match = {
            "match_own": scenes["own"].matches[0],
            "match_other_player": scenes["own"].matches[1],
            "match_other": scenes["other"].matches[0],
            "match_unpublished": scenes["unpublished"].matches[0],
        }[ctx.scope]
        if web:
            return Payload(
                data={
                    "match": ctx.ref(match),
                    "score_a": "20",
                    "score_b": "11",
                    "ending": "completed",
                }
            )
        return Payload(data={"match": ctx.ref(match), "score_a": 20, "score_b": 11})

    return build


def _table_step(ctx: Context) -> Payload:
    step = ctx.scope.split("+")[1]
    return Payload(data={"action": step, f"{step}-reason": "matrix"})


def _spares(ctx: Context) -> list:
    return ctx.world.more.spare_players


def _team_create(*, web: bool) -> Callable[[Context], Payload]:
    def build(ctx: Context) -> Payload:
        roster = _spares(ctx)[:5]
        if web:
            return Payload(
                data={
                    "name": "Matrix C",
                    "country": "DE",
                    "captain": roster[0].display_name,
                    "deputy": roster[1].display_name,
                    "roster": "\n".join(p.display_name for p in roster),
                }
            )
        return Payload(
            data={
                "name": "Matrix C",
                "country": "DE",
                "captain": roster[0].pk,
                "deputy": roster[1].pk,
                "roster": [p.pk for p in roster],
            }
        )

    return build


def _roster(ctx: Context) -> list:
    return [m.player for m in ctx.obj.members.order_by("board").select_related("player")]


def _roster_change(*, web: bool) -> Callable[[Context], Payload]:
    def build(ctx: Context) -> Payload:
        turned = list(reversed(_roster(ctx)))
        if web:
            return Payload(data={"roster": "\n".join(p.display_name for p in turned)})
        return Payload(data={"players": [p.pk for p in turned], "reason": "matrix"})

    return build


def _officers(*, web: bool) -> Callable[[Context], Payload]:
    def build(ctx: Context) -> Payload:
        roster = _roster(ctx)
        if web:
            return Payload(
                data={"captain": roster[2].display_name, "deputy": roster[3].display_name}
            )
        return Payload(data={"captain": roster[2].pk, "deputy": roster[3].pk, "reason": "matrix"})

    return build


def _team_to_enter(*, web: bool) -> Callable[[Context], Payload]:
    def build(ctx: Context) -> Payload:
        more = ctx.world.more
        team = more.teams["other_player" if ctx.scope == "own+rival" else ctx.scope.split("+")[0]]
        return Payload(data={"team": str(team.pk) if web else team.pk})

    return build


def _pair(*, web: bool) -> Callable[[Context], Payload]:
    def build(ctx: Context) -> Payload:
        spares = _spares(ctx)
        value = (lambda p: str(p.pk)) if web else (lambda p: p.pk)
        if ctx.scope.endswith("+someone"):
            return Payload(data={"player": value(spares[1]), "partner": value(spares[2])})
        return Payload(data={"partner": value(spares[0])})

    return build


def _late_entry(ctx: Context) -> Payload:
    return Payload(data={"player": _spares(ctx)[3].display_name})


def _in_a_month() -> dt.datetime:
    return timezone.now() + dt.timedelta(days=30)


def _round_result(ctx: Context) -> Payload:
    return Payload(data={"results": [{"table": 1, "score_a": 20, "score_b": 11}]})


REASON = _data(reason="matrix")
MORE_BODIES: dict[tuple[str, str], Callable[[Context], Payload]] = {
    ("report-dispute", "POST"): REASON,
    ("api:api-report-dispute", "POST"): REASON,
    ("report-rule", "POST"): _data(version="1", reason="matrix"),
    ("api:api-report-rule", "POST"): _data(version=1, reason="matrix"),
    ("report-reopen", "POST"): REASON,
    ("api:api-report-reopen", "POST"): REASON,
    ("score-sheet-submit", "POST"): _score_sheet(web=True),
    ("api:api-score-sheet-submit", "POST"): _score_sheet(web=False),
    ("api:api-table-result-dispute", "POST"): REASON,
    ("api:api-table-result-rule", "POST"): REASON,
    ("api:api-table-result-reopen", "POST"): REASON,
    ("open-table-result", "POST"): _table_step,
    ("api:api-table-open-create", "POST"): _data(
        name="Matrix open 2", system="round_robin", stage=9
    ),
    ("open-start", "POST"): _data(draw_seed="3"),
    ("api:api-table-open-start", "POST"): _data(draw_seed=3),
    ("api:api-event-tiebreaks", "PUT"): _data(tiebreaks=["tp_total", "wins"], confirm=True),
    ("open-late-entry", "POST"): _late_entry,
    ("api:api-late-entry", "POST"): _late_entry,
    ("open-entry-drop", "POST"): REASON,
    ("api:api-entry-drop", "POST"): REASON,
    ("api:api-round-results", "POST"): _round_result,
    ("api:api-teams", "POST"): _team_create(web=False),
    ("team-new", "POST"): _team_create(web=True),
    ("team-page", "POST"): _roster_change(web=True),
    ("api:api-team-roster", "PUT"): _roster_change(web=False),
    ("team-officers", "POST"): _officers(web=True),
    ("api:api-team-officers", "POST"): _officers(web=False),
    ("team-enter", "POST"): _team_to_enter(web=True),
    ("api:api-team-enter", "POST"): _team_to_enter(web=False),
    ("round-lineup-deadline-set", "POST"): lambda ctx: Payload(
        data={"lineup_deadline": _in_a_month().strftime("%Y-%m-%dT%H:%M")}
    ),
    ("api:api-round-lineup-deadline", "POST"): lambda ctx: Payload(
        data={"lineup_deadline": _in_a_month().isoformat()}
    ),
    ("pair-register", "POST"): _pair(web=True),
    ("api:api-pair-register", "POST"): _pair(web=False),
}
MORE_BODY_SCOPES = {
    ("score-sheet-submit", "POST"): tuple(SCORE_SHEET),
    ("api:api-score-sheet-submit", "POST"): tuple(SCORE_SHEET),
}
