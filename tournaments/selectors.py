from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

from django.db.models import Prefetch, Q, QuerySet
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext as _

from games.models import Game
from players.models import AuditEntry, Player
from players.types import User
from ratings.models import Rating, RatingSystem
from ratings.selectors import seeding_ratings as ratings_for_seeding
from tournaments import formats
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    SIDES,
    Championship,
    Eligibility,
    Entry,
    EntryStatus,
    Event,
    EventFormat,
    EventStatus,
    Match,
    MatchGame,
    MatchStatus,
    Team,
    TeamMember,
    sides_of,
)
from tournaments.permissions import can_manage, can_rule, can_see


def championships_visible_to(user: User) -> QuerySet[Championship]:
    championships = Championship.objects.prefetch_related("organisers", "controllers")
    if user and user.is_authenticated:
        if user.is_staff:
            return championships
        return championships.filter(
            Q(published=True) | Q(organisers=user) | Q(controllers=user)
        ).distinct()
    return championships.filter(published=True)


def games_visible_to(user: User, games: QuerySet) -> QuerySet:
    """Hide the games of events in championships this user may not see (a games hook)."""
    if user and user.is_authenticated and user.is_staff:
        return games
    hidden = Event.objects.exclude(
        championship__in=championships_visible_to(user).values("pk")
    ).values("pk")
    return games.exclude(event_id__in=hidden)


def events_visible_to(user: User) -> QuerySet[Event]:
    visible = championships_visible_to(user).values("pk")
    return Event.objects.filter(championship__in=visible).select_related(
        "championship", *sides_of("champion")
    )


def entries_for_event(event: Event) -> QuerySet[Entry]:
    return event.entries.select_related(*SIDES).order_by("seed", "created", "id")


def matches_for_event(event: Event) -> QuerySet[Match]:
    return (
        event.matches.select_related(
            "round", *sides_of("entry_a"), *sides_of("entry_b"), *sides_of("winner")
        )
        .prefetch_related(Prefetch("match_games", queryset=MatchGame.objects.order_by("number")))
        .order_by("round__number", "group", "bracket_index", "id")
    )


def match_visible_to(user: User, match_id: int) -> Match | None:
    """The match with what its page shows, if it exists and ``user`` may see its championship."""
    try:
        match = match_detail(match_id)
    except Match.DoesNotExist:
        return None
    return match if can_see(user, match.event.championship) else None


def match_detail(match_id: int) -> Match:
    return (
        Match.objects.select_related(
            "event__championship",
            "round",
            *sides_of("entry_a"),
            *sides_of("entry_b"),
            *sides_of("winner"),
        )
        .prefetch_related(
            Prefetch(
                "match_games", queryset=MatchGame.objects.select_related("game").order_by("number")
            )
        )
        .get(pk=match_id)
    )


def bracket_rounds(event: Event) -> list[dict]:
    """A knockout's rounds, each with its matches top to bottom (for the bracket page)."""
    if event.format != EventFormat.KNOCKOUT:
        return []
    rounds: dict[int, dict] = {}
    for match in matches_for_event(event):
        slot = rounds.setdefault(match.round.number, {"round": match.round, "matches": []})
        slot["matches"].append(match)
    return [rounds[n] for n in sorted(rounds)]


def group_table_rows(event: Event) -> list[dict]:
    entries = {e.pk: e for e in entries_for_event(event)}
    result = []
    for group, table in group_tables(event).items():
        result.append(
            {
                "group": group,
                "rows": [
                    {
                        "entry": row.key,
                        "player": entries[row.key].name,
                        "player_id": entries[row.key].player_id,
                        "place": row.place,
                        "seed": row.seed,
                        "games": row.games,
                        "tps": row.tps,
                        "tps_available": row.tps_available,
                        "tp_percent": row.tp_percent,
                        "status": entries[row.key].status,
                    }
                    for row in table
                ],
            }
        )
    return result


def audit_for(championship: Championship) -> QuerySet[AuditEntry]:
    """The championship's lines of the one audit trail, newest first."""
    return (
        AuditEntry.objects.filter(championship_id=championship.pk)
        .select_related("actor")
        .order_by("-created", "-id")
    )


def can_see_audit(user: User, championship: Championship) -> bool:
    return can_rule(user, championship)


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


def swiss_standings(event: Event) -> list[tuple[Entry, Decimal]]:
    """Active entries with their total TPs so far, best first (Tantrix Swiss ranks on TPs)."""
    totals: dict[int, Decimal] = {}
    for match in event.matches.filter(status__in=FINAL_MATCH_STATUSES):
        for entry_id, tps in ((match.entry_a_id, match.tps_a), (match.entry_b_id, match.tps_b)):
            if entry_id:
                totals[entry_id] = totals.get(entry_id, Decimal("0.0")) + tps
    entries = event.entries.filter(status__in=[EntryStatus.ACTIVE, EntryStatus.CHAMPION])
    rows = [(e, totals.get(e.pk, Decimal("0.0"))) for e in entries.select_related(*SIDES)]
    rows.sort(key=lambda row: (-row[1], row[0].seed or 0))
    return rows


def group_tables(event: Event) -> dict[int, tuple]:
    """Each group's table (formats.TableRow with entry ids as keys), by group number."""
    entries = list(event.entries.exclude(group=None))
    games: dict[int, list] = {}
    for mg in MatchGame.objects.filter(match__event=event).select_related("match"):
        games.setdefault(mg.match.group, []).append(
            formats.PlayedGame(mg.match.entry_a_id, mg.match.entry_b_id, mg.tps_a, mg.tps_b)
        )
    tables = {}
    for group in sorted({e.group for e in entries}):
        members = {e.pk: e.seed or 0 for e in entries if e.group == group}
        tables[group] = formats.group_table(members, games.get(group, []))
    return tables


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


def eligibility_problems(event: Event, player: Player) -> list[str]:
    """Why this player may not enter this event (empty when they may)."""
    problems = []
    if event.eligibility == Eligibility.JUNIOR:
        if player.date_of_birth is None:
            problems.append(
                _(
                    "%(player)s has no date of birth on their profile: a junior event needs the "
                    "player's date of birth to check the age limit (the player, or the staff, "
                    "can add it on the player's profile page)."
                )
                % {"player": player.display_name}
            )
        elif _age_on(player.date_of_birth, event.cutoff_date) >= event.junior_age_limit:
            # Never the age or the date of birth: organisers, captains and partners read this
            # answer, and the date of birth is private (only the event's public cut-off).
            problems.append(
                _(
                    "%(player)s is not under %(age)s on the cut-off date (%(cutoff)s): not "
                    "eligible for this junior event, born before the cut-off for players under "
                    "%(age)s on that day."
                )
                % {
                    "player": player.display_name,
                    "age": event.junior_age_limit,
                    # Day, month's name, year ("05 March 2026"), the month in the reader's
                    # language.
                    "cutoff": date_format(event.cutoff_date, "d F Y"),
                }
            )
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


def match_open_for_games(match: Match) -> bool:
    """Whether games may still be counted for this match (a table open's are typed from the
    score sheets by its controllers, never submitted: tournaments/services/score_sheets.py)."""
    return (
        not match.event.table_open
        and match.status in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)
        and match.entry_a_id is not None
        and match.entry_b_id is not None
    )


def unattached_tournament_games(*, since: dt.datetime) -> list[int]:
    """Valid games submitted for a match since `since` that were neither counted nor refused
    (their counting was lost, e.g. a worker died): the sweep counts them."""
    return list(
        Game.objects.filter(
            created__gte=since,
            record__extensions__has_key="match",
            match_game__isnull=True,
            uncounted__isnull=True,
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def championship_names(ids: set[int]) -> dict[int, str]:
    """Names for the audit trail's `championship_id`s (players.audit_registry)."""
    return {c.pk: str(c) for c in Championship.objects.filter(pk__in=ids)}


def event_names_for_audit(ids: set[int]) -> dict[int, str]:
    """Names for the audit trail's `event_id`s: the championship and the event."""
    events = Event.objects.filter(pk__in=ids).select_related("championship")
    return {e.pk: f"{e.championship} · {e.name}" for e in events}


def rounds_open_for_deadlines(event: Event) -> QuerySet:
    """The rounds whose deadline an organiser may still move: some match is not over."""
    open_statuses = [s for s in MatchStatus.values if s not in FINAL_MATCH_STATUSES]
    return event.rounds.filter(matches__status__in=open_statuses).distinct().order_by("number")


# --- Teams ----------------------------------------------------------------------------------


def teams_of(championship: Championship) -> QuerySet[Team]:
    return championship.teams.select_related("captain", "deputy").order_by("name")


def team_roster(team: Team) -> list[TeamMember]:
    return list(team.members.select_related("player").order_by("board"))


def team_match_boards(match: Match) -> dict:
    """A team match's boards side by side: who plays whom (the fixed lineup, or the rosters'
    first boards as they stand), each board's games and totals, and the running total."""
    from tournaments.services.rounds import team_state
    from tournaments.services.teams import match_lineup

    games = list(match.match_games.order_by("number"))
    state = team_state(match, games)
    lineup = match_lineup(match)
    names = dict(
        Player.objects.filter(pk__in={p for _, a, b in lineup for p in (a, b)}).values_list(
            "pk", "display_name"
        )
    )
    by_board: dict[int, list[MatchGame]] = {}
    for game in games:
        by_board.setdefault(game.board or 1, []).append(game)
    rows = []
    players = {board: (a, b) for board, a, b in lineup}
    for board_state in state.boards:
        a, b = players.get(board_state.board, (None, None))
        rows.append(
            {
                "board": board_state.board,
                "player_a": names.get(a, ""),
                "player_b": names.get(b, ""),
                "player_a_id": a,
                "player_b_id": b,
                "games": by_board.get(board_state.board, []),
                "tps_a": board_state.totals[0],
                "tps_b": board_state.totals[1],
                "games_played": board_state.games_played,
                "winner": board_state.winner,
                "running_a": state.running[board_state.board - 1][0],
                "running_b": state.running[board_state.board - 1][1],
            }
        )
    return {
        "rows": rows,
        "fixed": match.boards.exists(),
        "games_left": state.games_left,
        "extra_games": state.extra_games_played,
        "planned_a": state.planned_totals[0],
        "planned_b": state.planned_totals[1],
        "at_stake": formats.GAME_TPS * match.event.team_boards * match.event.games_per_match,
    }


def team_results(team: Team) -> list[dict]:
    """The team's matches, newest first, with each board's result from the team's side."""
    matches = (
        Match.objects.filter(Q(entry_a__team=team) | Q(entry_b__team=team))
        .select_related("event", "round", *sides_of("entry_a"), *sides_of("entry_b"))
        .prefetch_related("boards__player_a", "boards__player_b", "match_games")
        .order_by("-event__stage", "-round__number", "-id")
    )
    result = []
    for match in matches:
        ours = 0 if match.entry_a and match.entry_a.team_id == team.pk else 1
        opponent = match.entry_b if ours == 0 else match.entry_a
        totals: dict[int, list] = {}
        for game in match.match_games.all():
            got = game.tps_a if ours == 0 else game.tps_b
            gave = game.tps_b if ours == 0 else game.tps_a
            row = totals.setdefault(game.board or 1, [Decimal("0.0"), Decimal("0.0"), 0])
            row[0] += got
            row[1] += gave
            row[2] += 1
        boards = []
        for board in match.boards.all():
            player, other = (
                (board.player_a, board.player_b) if ours == 0 else (board.player_b, board.player_a)
            )
            got, gave, played = totals.get(board.board, [Decimal("0.0"), Decimal("0.0"), 0])
            boards.append(
                {
                    "board": board.board,
                    "player": player,
                    "opponent": other,
                    "tps": got,
                    "tps_against": gave,
                    "games": played,
                }
            )
        result.append(
            {
                "match": match,
                "opponent": opponent,
                "tps": match.tps_a if ours == 0 else match.tps_b,
                "tps_against": match.tps_b if ours == 0 else match.tps_a,
                "won": match.winner_id is not None
                and match.winner_id == (match.entry_a_id if ours == 0 else match.entry_b_id),
                "boards": boards,
            }
        )
    return result


# --- Final places (the junior standings on the championship page) ----------------------------


def final_places(event: Event) -> list[tuple[int, Entry]]:
    """The event's entries with their places as its format ranks them.

    A knockout: the champion 1, the runner-up 2, the semi-final losers 3 (shared), the
    quarter-final losers 5, ...; groups and round robins: by place in the group, then TP%,
    then seed; a Swiss: its standings. Withdrawn entries and pairs still awaiting a partner are
    left out."""
    entries = {
        e.pk: e
        for e in entries_for_event(event).exclude(
            status__in=[EntryStatus.WITHDRAWN, EntryStatus.PENDING]
        )
    }
    if event.format == EventFormat.KNOCKOUT:
        rounds = event.rounds.count()
        places: dict[int, int] = {}
        for match in event.matches.filter(status__in=FINAL_MATCH_STATUSES).select_related("round"):
            for entry_id in (match.entry_a_id, match.entry_b_id):
                if entry_id and entry_id != match.winner_id:
                    places[entry_id] = 2 ** (rounds - match.round.number) + 1
        if event.champion_id:
            places[event.champion_id] = 1
        ranked = [(place, entries[pk]) for pk, place in places.items() if pk in entries]
        return sorted(ranked, key=lambda row: (row[0], row[1].seed or 0, row[1].pk))
    if event.format == EventFormat.SWISS:
        rows = [e for e, _ in swiss_standings(event) if e.pk in entries]
        return list(enumerate(rows, start=1))
    rows = []
    for table in group_tables(event).values():
        for row in table:
            if row.key in entries:
                ratio = row.tps / row.tps_available if row.tps_available else Decimal(0)
                rows.append((row.place, -ratio, row.seed, entries[row.key]))
    rows.sort(key=lambda row: row[:3])
    return [(place, row[3]) for place, row in enumerate(rows, start=1)]
