"""The permission matrix's world, continued: reports of match games, table opens, teams and
pairs in every championship of the world (issue 26: authority is per championship everywhere).

Seen from the roles, the scopes of these objects are:
  own               C1: the player's own (their report, their table, the team they captain)
  own_authored      a report the player wrote (C1, the player's match)
  own_opposed       a report the player's opponent wrote (C1, the same match): the player answers
  own_ruled         a ruled result of the player's match (C1): organisers reopen it
  own_accountless   a casual game the organiser reported against a player without an account
                    whom the organiser entered: the organiser wrote it, so only staff answer it
  *_accountless     (other_player_, other_, unpublished_) a match game of C1, C2, C3 reported
                    against a player without an account: that championship's organisers and
                    controllers answer for them
  own_asked         a pair the player asked for (C1), waiting for the partner
  own_named         a pair someone asked the player to join (C1): the player confirms it
  other_player      C1, but another table, team, pair or match (the player is not in it; the
                    organiser and the controller run it)
  other_player_disputed, other_player_ruled  C1, another table whose result is disputed, ruled
  other             C2 (published): another organiser's and another controller's
  unpublished       C3 (not published): another organiser's; only staff may know of it
Everything is built through the services (as organisers and controllers would), except the
reports, written as rows as in world.py (their versions, states and authors are the point).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from games.models import GameRecord, GameReport, RecordSource, ReportedGame, ResultState
from players.models import Player
from tests.factories import PlayerFactory
from tournaments import services
from tournaments.models import Entry, Event, Match, Round, Team
from tournaments.opens.services.score_sheets import table_results_enter
from tournaments.opens.services.table_disputes import table_result_dispute, table_result_rule
from tournaments.opens.services.table_opens import table_open_create, table_open_start
from tournaments.sides.services.pairs import pair_register
from tournaments.standings import round_tables


@dataclass
class More:
    reported: dict[str, ReportedGame] = field(default_factory=dict)
    versions: dict[str, GameReport] = field(default_factory=dict)
    table_opens: dict[str, Event] = field(default_factory=dict)  # started Swiss opens
    waiting_opens: dict[str, Event] = field(default_factory=dict)  # not started yet
    open_rounds: dict[str, Round] = field(default_factory=dict)
    open_entries: dict[str, Entry] = field(default_factory=dict)
    tables: dict[str, Match] = field(default_factory=dict)  # with a typed result
    teams: dict[str, Team] = field(default_factory=dict)
    team_events: dict[str, Event] = field(default_factory=dict)  # taking entries
    team_rounds: dict[str, Round] = field(default_factory=dict)  # of a drawn team event
    team_matches: dict[str, Match] = field(default_factory=dict)
    pair_events: dict[str, Event] = field(default_factory=dict)  # taking entries, no pairs yet
    pair_entries: dict[str, Entry] = field(default_factory=dict)  # waiting pairs
    spare_players: list[Player] = field(default_factory=list)  # in no team, pair or table


def _players(n: int, *, with_user: bool = False) -> list[Player]:
    return [PlayerFactory(with_user=with_user, country="DE") for _ in range(n)]


# --- Reports -----------------------------------------------------------------------------------


def _report(
    players: list[Player],
    *,
    match: Match | None,
    author: Player,
    state: str = ResultState.REPORTED,
    status: str = "open",
) -> tuple[ReportedGame, GameReport]:
    """A reported game with its first version: `author`'s score sheet, 20-11 for seat 0."""
    extensions = {"match": match.pk} if match else {}
    reported = ReportedGame.objects.create(
        seat_players=[p.pk for p in players],
        extensions=extensions,
        match_id=match.pk if match else None,
        state=state,
        played_at=timezone.now(),
    )
    version = GameReport.objects.create(
        reported_game=reported,
        number=1,
        kind="sheet",
        role="side",
        author=author.user,
        side_player=author,
        record=sheet_record(author, reported, [20, 11]),
        scores=[20, 11],
        winner_seat=0,
        end_reason="completed",
        status=status,
    )
    return reported, version


def sheet_record(author: Player, reported: ReportedGame, scores: list[int]) -> GameRecord:
    """The record every score sheet is kept as (a ruling that lets it stand makes its Game)."""
    return GameRecord.objects.create(
        body=b"{}",
        submitter=author.user,
        source=RecordSource.SCORE_SHEET,
        status="valid",
        seat_players=list(reported.seat_players),
        extensions=dict(reported.extensions),
        verdict={"valid": True, "scores": scores, "end": "completed", "score_sheet": True},
        adjudicated_at=timezone.now(),
    )


def _match_against(championship, a: Player, b: Player) -> Match:
    """A one-match knockout in play (its own event, so the world's brackets stay as they are)."""
    event = Event.objects.create(
        championship=championship, name="Side draw", stage=4, format="knockout", status="drawn"
    )
    round_ = Round.objects.create(
        event=event, number=1, name="Final", deadline=timezone.now() + dt.timedelta(days=14)
    )
    return Match.objects.create(
        event=event,
        round=round_,
        bracket_index=0,
        entry_a=Entry.objects.create(event=event, player=a, seed=1),
        entry_b=Entry.objects.create(event=event, player=b, seed=2),
        status="in_progress",
    )


def build_reports(
    more: More,
    *,
    users: dict,
    scenes: dict,
    pia,
    quinn,
    accountless,
    other_accountless,
    field_players,
) -> None:
    own_match, other_table = scenes["own"].matches
    x3 = field_players[2]
    for scope, (players, match, author) in {
        "own_authored": ([pia, quinn], own_match, pia),
        "own_opposed": ([pia, quinn], own_match, quinn),
        "own_accountless": ([users["organiser"].player, accountless], None, None),
    }.items():
        author = author or users["organiser"].player
        more.reported[scope], more.versions[scope] = _report(players, match=match, author=author)
    # Disputed, waiting for a ruling: C1's other table, and the matches of C2 and C3.
    for scope, match in {
        "other_player": other_table,
        "other": scenes["other"].matches[0],
        "unpublished": scenes["unpublished"].matches[0],
    }.items():
        a, b = match.entry_a.player, match.entry_b.player
        more.reported[scope], more.versions[scope] = _report(
            [a, b], match=match, author=a, state=ResultState.DISPUTED, status="disputed"
        )
    # Against a player without an account, entered by the championship's organiser: its
    # organisers and controllers answer for them (staff too), nobody of another championship.
    for scope, (base, ghost) in {
        "other_player_accountless": ("own", accountless),
        "other_accountless": ("other", other_accountless),
        "unpublished_accountless": ("unpublished", other_accountless),
    }.items():
        match = _match_against(scenes[base].championship, ghost, x3)
        more.reported[scope], more.versions[scope] = _report([x3, ghost], match=match, author=x3)
    # Ruled: two sheets that differ, and the controller's ruling, which stands.
    reported, first = _report(
        [pia, quinn], match=own_match, author=pia, state=ResultState.STANDING, status="disputed"
    )
    GameReport.objects.create(
        reported_game=reported,
        number=2,
        kind="sheet",
        role="side",
        author=quinn.user,
        side_player=quinn,
        record=sheet_record(quinn, reported, [11, 20]),
        scores=[11, 20],
        winner_seat=1,
        end_reason="completed",
        status="disputed",
    )
    GameReport.objects.create(
        reported_game=reported,
        number=3,
        kind="ruling",
        role="controller",
        author=users["controller"],
        based_on=first,
        scores=[20, 11],
        winner_seat=0,
        end_reason="completed",
        status="ruled",
        standing=True,
        reason="matrix",
    )
    more.reported["own_ruled"], more.versions["own_ruled"] = reported, first


# --- Table opens -------------------------------------------------------------------------------


def _table_open(organiser, controller, championship, players: list[Player], name: str) -> Event:
    """A started Swiss open whose round 1 is typed in full."""
    event = table_open_create(
        actor=organiser, championship=championship, name=name, system="swiss", swiss_rounds=3
    )
    for player in players:
        services.entry_register(actor=organiser, event=event, player=player)
    event = table_open_start(actor=organiser, event=event, draw_seed=5)
    round_ = event.rounds.get(number=1)
    sheets = {t.number: {"score_a": 20, "score_b": 11} for t in round_tables(round_)}
    table_results_enter(actor=controller, round_=round_, sheets=sheets)
    return event


def _waiting_open(organiser, championship, players: list[Player]) -> Event:
    event = table_open_create(
        actor=organiser, championship=championship, name="Next open", system="round_robin"
    )
    for player in players:
        services.entry_register(actor=organiser, event=event, player=player)
    return event


def _dispute(match: Match, reason: str = "matrix") -> None:
    table_result_dispute(actor=match.entry_a.player.user, match_id=match.pk, reason=reason)


def build_table_opens(more: More, *, scenes: dict, staff: dict, pia, quinn, field_players) -> None:
    """C1: the player's table and another one as typed, a third disputed, a fourth ruled. C2 and
    C3: one table disputed each."""
    x1, x2, x3, x4 = field_players
    for scope, players in {
        "own": [pia, quinn, x1, x2, x3, x4, *_players(2, with_user=True)],
        "other": [x1, x2, x3, x4],
        "unpublished": [x1, x2, x3, x4],
    }.items():
        organiser, controller = staff[scope]
        championship = scenes[scope].championship
        event = _table_open(organiser, controller, championship, players, "Matrix open")
        more.table_opens[scope] = event
        more.waiting_opens[scope] = _waiting_open(organiser, championship, [x1, x2])
        more.open_rounds[scope] = round_ = event.rounds.get(number=1)
        tables = [t.match for t in round_tables(round_) if not t.match.is_bye]
        if scope == "own":
            mine = next(m for m in tables if pia.pk in (m.entry_a.player_id, m.entry_b.player_id))
            others = [m for m in tables if m != mine]
            more.tables["own"] = mine
            (
                more.tables["other_player"],
                more.tables["other_player_disputed"],
                more.tables["other_player_ruled"],
            ) = others
            _dispute(others[1])
            _dispute(others[2])
            table_result_rule(actor=controller, match_id=others[2].pk, reason="matrix")
            more.open_entries["own"] = event.entries.get(player=pia)
            more.open_entries["other_player"] = event.entries.get(player=x1)
        else:
            more.tables[scope] = tables[0]
            _dispute(tables[0])
            more.open_entries[scope] = event.entries.get(player=x1)


# --- Teams and pairs ---------------------------------------------------------------------------


def _team(organiser, championship, name: str, roster: list[Player]) -> Team:
    return services.team_create(
        actor=organiser,
        championship=championship,
        name=name,
        country="DE",
        captain=roster[0],
        deputy=roster[1],
        roster=roster,
    )


def build_teams(more: More, *, scenes: dict, staff: dict, pia, quinn, field_players) -> None:
    """Every championship C1-C3: two teams, a drawn team event (one team match, its round) and
    a team event taking entries. In C1 the player captains one team and Quinn the other; in C2
    and C3 the field's X1 and X3 captain them."""
    x1, _x2, x3, _x4 = field_players
    for scope, (first, second) in {
        "own": (pia, quinn),
        "other": (x1, x3),
        "unpublished": (x1, x3),
    }.items():
        organiser, _controller = staff[scope]
        championship = scenes[scope].championship
        team = _team(organiser, championship, "Matrix A", [first, *_players(4)])
        rival = _team(organiser, championship, "Matrix B", [second, *_players(4)])
        drawn = services.event_create(
            actor=organiser,
            championship=championship,
            name="Team match",
            format="knockout",
            entry_kind="team",
            team_boards=5,
            stage=5,
        )
        for side in (team, rival):
            services.team_enter(actor=organiser, event=drawn, team=side)
        services.draw_generate(actor=organiser, event=drawn, draw_seed=3)
        more.team_rounds[scope] = drawn.rounds.get(number=1)
        more.team_matches[scope] = drawn.matches.exclude(entry_a=None).get()
        more.team_events[scope] = services.event_create(
            actor=organiser,
            championship=championship,
            name="Team cup",
            format="knockout",
            entry_kind="team",
            team_boards=5,
            stage=6,
        )
        more.teams[scope] = team
        if scope == "own":
            more.teams["other_player"] = rival


def build_pairs(more: More, *, scenes: dict, staff: dict, pia, quinn, field_players) -> None:
    """Doubles events taking entries: in C1 one where the player asked Quinn, one where Quinn
    asked the player and X1 asked X2, and one with no pair yet; in C2 and C3 one where X1 asked
    X2 (and no other)."""
    x1, x2, _x3, _x4 = field_players

    def doubles(scope: str, name: str, stage: int) -> Event:
        organiser, _controller = staff[scope]
        return services.event_create(
            actor=organiser,
            championship=scenes[scope].championship,
            name=name,
            format="knockout",
            entry_kind="pair",
            stage=stage,
        )

    asked = doubles("own", "Doubles", 7)
    named = doubles("own", "Doubles two", 8)
    more.pair_entries["own_asked"] = pair_register(actor=pia.user, event=asked, partner=quinn)
    more.pair_entries["own_named"] = pair_register(actor=quinn.user, event=named, partner=pia)
    more.pair_entries["other_player"] = pair_register(actor=x1.user, event=named, partner=x2)
    more.pair_events["own"] = doubles("own", "Doubles three", 9)
    for scope in ("other", "unpublished"):
        event = doubles(scope, "Doubles", 7)
        more.pair_entries[scope] = pair_register(actor=x1.user, event=event, partner=x2)
        more.pair_events[scope] = event


def build_more(
    *,
    users: dict,
    scenes: dict,
    pia,
    quinn,
    accountless,
    other_accountless,
    field_players,
    staff: dict,
) -> More:
    more = More(spare_players=_players(6, with_user=True))
    common: dict[str, Any] = {"scenes": scenes, "pia": pia, "quinn": quinn}
    build_reports(
        more,
        users=users,
        accountless=accountless,
        other_accountless=other_accountless,
        field_players=field_players,
        **common,
    )
    build_table_opens(more, staff=staff, field_players=field_players, **common)
    build_teams(more, staff=staff, field_players=field_players, **common)
    build_pairs(more, staff=staff, field_players=field_players, **common)
    return more
