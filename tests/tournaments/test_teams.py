"""Team championships: teams and rosters, entering, seeding, the group draw keeping compatriots
apart, team matches of real board games (early finish, tie-breaks), substitutions before and
after a lineup deadline, a knockout to a champion team; pages and API."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.models import Game, RecordSource
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.games.helpers import as_body, confirm_after_commit, selfplay_record
from tournaments import selectors, services
from tournaments.consistency import tournaments_breaches
from tournaments.models import (
    Entry,
    EntryStatus,
    EventStatus,
    Match,
    MatchGame,
    MatchStatus,
    RosterChangeKind,
    Team,
    TeamBoard,
)
from tournaments.sides.selectors import match_lineup

pytestmark = pytest.mark.django_db

COUNTRIES = ["GB", "GB", "DE", "DE", "US", "US", "NZ", "HU"]  # 8 teams, 5 countries


@pytest.fixture
def championship(organiser):
    return services.championship_create(
        actor=organiser, name="Team Championship", year=2026, category="world", published=True
    )


def make_team(organiser, championship, name: str, country: str, size: int = 5) -> Team:
    roster = [PlayerFactory(with_user=True, country=country) for _ in range(size)]
    return services.team_create(
        actor=organiser,
        championship=championship,
        name=name,
        country=country,
        captain=roster[0],
        deputy=roster[1],
        roster=roster,
    )


_seeds = itertools.count(77_000)


def submit_board_game(actor, match: Match, board: int, capture, *, seed: int | None = None):
    """Board `board`'s two players play a self-played game, submitted by `actor` (one of them
    or staff) for the team match and confirmed by the other side."""
    lineup = {n: (a, b) for n, a, b in match_lineup(match)}
    a, b = lineup[board]
    names = [
        p.display_name
        for p in sorted(
            PlayerFactory._meta.model.objects.filter(pk__in=[a, b]), key=lambda p: p.pk != a
        )
    ]
    body = as_body(selfplay_record(next(_seeds) if seed is None else seed, names))
    with capture(execute=True):
        submission = game_services.record_submit(
            actor=actor, body=body, source=RecordSource.API, extensions={"match": match.pk}
        )
        if submission.accepted:
            confirm_after_commit(submission.record.pk)
    return submission


def play_team_match(organiser, match: Match, capture) -> None:
    """Play board after board (board 1 first), each game submitted by the board's player of
    side A, until the match is decided; extra games on board 1 when due; a ruling if level."""
    for _ in range(20):
        match.refresh_from_db()
        if match.is_final:
            return
        if match.state_reason == "level_needs_ruling":
            winner = min((match.entry_a, match.entry_b), key=lambda e: e.seed or 0)
            services.match_rule(
                actor=organiser, match=match, winner_entry_id=winner.pk, reason="level"
            )
            return
        played = {}
        for mg in match.match_games.all():
            played[mg.board] = played.get(mg.board, 0) + 1
        if match.state_reason == "extra_game_needed":
            board = 1
        else:
            board = next(
                n
                for n in range(1, match.event.team_boards + 1)
                if played.get(n, 0) < match.event.games_per_match
            )
        player_a = dict((n, a) for n, a, _ in match_lineup(match))[board]
        user = PlayerFactory._meta.model.objects.get(pk=player_a).user
        submission = submit_board_game(user, match, board, capture)
        assert submission.accepted, submission.refusal
    raise AssertionError(f"team match {match.pk} did not finish")


def play_event(organiser, event, capture) -> None:
    for _ in range(30):
        open_matches = list(
            Match.objects.filter(
                event=event, status__in=[MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS]
            ).order_by("round__number", "id")
        )
        if not open_matches:
            return
        for match in open_matches:
            play_team_match(organiser, match, capture)
    raise AssertionError("the event did not finish")


def test_eight_teams_through_groups_and_a_knockout_to_a_champion_team(
    client, organiser, championship, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    groups = services.event_create(
        actor=organiser,
        championship=championship,
        name="Team groups",
        format="groups",
        entry_kind="team",
        groups_count=2,
        team_boards=5,
        games_per_match=1,
        stage=1,
    )
    final = services.event_create(
        actor=organiser,
        championship=championship,
        name="Team knockout",
        format="knockout",
        entry_kind="team",
        team_boards=5,
        games_per_match=1,
        stage=2,
        feeds_from=groups,
        qualifiers_count=4,
    )
    names = [f"{c} {'AB'[i % 2]}" if COUNTRIES.count(c) > 1 else c for i, c in enumerate(COUNTRIES)]
    teams = [
        make_team(organiser, championship, name, country, size=6 if i == 0 else 5)
        for i, (name, country) in enumerate(zip(names, COUNTRIES, strict=True))
    ]
    gb_a = teams[0]
    # Captains enter their own teams; the organiser enters the rest.
    for i, team in enumerate(teams):
        actor = team.captain.user if i % 2 else organiser
        services.team_enter(actor=actor, event=groups, team=team)
    services.event_seed(actor=organiser, event=groups)
    services.draw_generate(actor=organiser, event=groups, draw_seed=2026)
    # The group draw keeps two teams of one country apart.
    entries = Entry.objects.filter(event=groups).select_related("team")
    by_country: dict[str, set[int]] = {}
    for entry in entries:
        by_country.setdefault(entry.team.country.code, set()).add(entry.group)
    assert all(len(g) == len([c for c in COUNTRIES if c == code]) for code, g in by_country.items())
    assert Match.objects.filter(event=groups).count() == 2 * 6
    rounds = list(groups.rounds.order_by("number"))
    assert all(r.lineup_deadline is not None for r in rounds)

    # A substitution before the lineup deadline: the reserve takes board 5.
    roster = [m.player_id for m in selectors.team_roster(gb_a)]
    captain_api = client_for(gb_a.captain.user)
    swapped = roster[:4] + [roster[5], roster[4]]
    response = captain_api.put(
        f"/api/teams/{gb_a.pk}/roster/",
        {"players": swapped, "reason": "board 5 is ill"},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert [r["player"] for r in response.json()["roster"]] == swapped
    kinds = [change.kind for change in selectors.roster_changes(gb_a)]
    assert kinds.count(RosterChangeKind.SUBSTITUTION) == 1
    gb_a_match = Match.objects.filter(event=groups, round__number=1).filter(
        entry_a__team=gb_a
    ).first() or Match.objects.get(event=groups, round__number=1, entry_b__team=gb_a)
    side = 0 if gb_a_match.entry_a.team_id == gb_a.pk else 1
    assert match_lineup(gb_a_match)[4][1 + side] == roster[5]

    # After the lineup deadline the captain is refused; an organiser still may.
    services.round_lineup_deadline_set(
        actor=organiser, round_=rounds[0], lineup_deadline=timezone.now() - dt.timedelta(minutes=1)
    )
    response = captain_api.put(f"/api/teams/{gb_a.pk}/roster/", {"players": roster}, format="json")
    assert response.status_code == 400
    assert "lineup deadline of Round 1" in response.json()["roster"][0]
    page = client.get(reverse("team-page", args=[gb_a.pk])).content.decode()
    assert gb_a.name in page

    play_event(organiser, groups, capture)
    groups.refresh_from_db()
    assert groups.status == EventStatus.FINISHED
    # Real board games, one per board, counted like individual match games.
    board_games = MatchGame.objects.filter(match__event=groups)
    assert board_games.exclude(board=None).count() == board_games.count() > 12
    assert Game.objects.filter(event_id=groups.pk, context="tournament").count() == (
        board_games.count()
    )
    # At least one match ended early, with boards left unplayed.
    early = Match.objects.filter(event=groups, state_reason="decided_early")
    assert early.exists()
    assert all(m.games_played < 5 for m in early)
    # The lineup GB A played was the substituted one.
    assert (
        TeamBoard.objects.filter(match=gb_a_match, board=5)
        .values_list("player_a_id" if side == 0 else "player_b_id", flat=True)
        .get()
        == roster[5]
    )

    moved = services.qualifiers_advance(actor=organiser, event=final)
    assert len(moved) == 4 and all(e.team_id for e in moved)
    services.event_seed(actor=organiser, event=final)
    services.draw_generate(actor=organiser, event=final, draw_seed=4)
    play_event(organiser, final, capture)
    final.refresh_from_db()
    assert final.status == EventStatus.FINISHED and final.champion.team_id is not None
    assert final.champion.status == EntryStatus.CHAMPION
    assert tournaments_breaches() == []

    # Pages: the bracket, group tables and match boards name teams.
    champion = final.champion.team
    page = client.get(reverse("event-page", args=[final.pk])).content.decode()
    assert champion.name in page and reverse("team-page", args=[champion.pk]) in page
    page = client.get(reverse("event-page", args=[groups.pk])).content.decode()
    assert all(t.name in page for t in teams)
    final_match = Match.objects.get(event=final, next_match=None)
    page = client.get(reverse("match-page", args=[final_match.pk])).content.decode()
    assert "Boards" in page and "Running total" in page
    boards = client_for(None).get(f"/api/matches/{final_match.pk}/boards/").json()
    assert boards["lineup_fixed"] and len(boards["boards"]) == 5
    page = client.get(reverse("team-page", args=[champion.pk])).content.decode()
    assert "Results per board" in page and final.name in page
    page = client.get(reverse("championship-page", args=[championship.pk])).content.decode()
    assert champion.name in page


def test_team_seeding_is_the_mean_of_the_rosters_ratings(organiser, championship):
    from ratings.models import Rating

    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Teams",
        format="knockout",
        entry_kind="team",
    )
    strong = make_team(organiser, championship, "Strong", "DE")
    weak = make_team(organiser, championship, "Weak", "NZ")
    lobby_only = make_team(organiser, championship, "Lobby", "US")
    for team, value in ((strong, 1900.0), (weak, 1800.0)):
        for member in team.members.all():
            Rating.objects.create(player_id=member.player_id, system="elo", value=value, games=3)
    # One unrated player does not pull the mean down.
    Rating.objects.filter(player_id=strong.members.get(board=5).player_id).delete()
    for member in lobby_only.members.all():
        Rating.objects.create(player_id=member.player_id, system="lobby", value=900.0, games=3)
    for team in (weak, lobby_only, strong):
        services.team_enter(actor=organiser, event=event, team=team)
    ranked = services.event_seed(actor=organiser, event=event)
    assert [e.team_id for e in ranked] == [strong.pk, weak.pk, lobby_only.pk]
    assert [e.seeding_basis for e in ranked] == ["elo", "elo", "lobby"]
    assert ranked[0].seeding_points == 1900.0


# --- Board games: only the lineup's boards, and only the games each board plays -------------


@pytest.fixture
def team_match(organiser, championship):
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Teams",
        format="knockout",
        entry_kind="team",
        team_boards=5,
        games_per_match=1,
        team_tiebreaks=["boards_won", "board_1"],
    )
    a = make_team(organiser, championship, "GB A", "GB", size=6)
    b = make_team(organiser, championship, "DE", "DE")
    services.team_enter(actor=organiser, event=event, team=a)
    services.team_enter(actor=organiser, event=event, team=b)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    return Match.objects.get(event=event)


def test_board_games_are_checked_against_the_lineup(team_match, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    lineup = match_lineup(team_match)
    a1 = PlayerFactory._meta.model.objects.get(pk=lineup[0][1])
    first = submit_board_game(a1.user, team_match, 1, capture)
    assert first.accepted, first.refusal
    team_match.refresh_from_db()
    assert team_match.games_played == 1 and team_match.boards.count() == 5
    assert tournaments_breaches() == []
    # The consistency check holds a board game to its board's two players.
    board_1 = team_match.boards.get(board=1)
    TeamBoard.objects.filter(pk=board_1.pk).update(player_b_id=lineup[1][2])
    assert any(b.code == "match_game" for b in tournaments_breaches())
    TeamBoard.objects.filter(pk=board_1.pk).update(player_b_id=lineup[0][2])
    # Board 1 has played its one game.
    again = submit_board_game(a1.user, team_match, 1, capture)
    assert not again.accepted and "board 1 has played its 1 games" in str(again.refusal)
    # The reserve is not in the lineup: a game of theirs is no board game.
    reserve = Team.objects.get(name="GB A").members.get(board=6).player
    opponent = PlayerFactory._meta.model.objects.get(pk=lineup[1][2])
    body = as_body(selfplay_record(3, [reserve.display_name, opponent.display_name]))
    submission = game_services.record_submit(
        actor=reserve.user, body=body, source=RecordSource.API, extensions={"match": team_match.pk}
    )
    assert not submission.accepted and "board 1 v board 1" in str(submission.refusal)


# --- Permissions and refusals on every team endpoint ----------------------------------------


@pytest.fixture
def people(organiser, championship):
    gb = make_team(organiser, championship, "GB A", "GB", size=6)
    de = make_team(organiser, championship, "DE", "DE")
    return {
        "organiser": organiser,
        "captain": gb.captain.user,
        "deputy": gb.deputy.user,
        "member": gb.members.get(board=3).player.user,
        "other_captain": de.captain.user,
        "outsider": PlayerFactory(with_user=True, country="GB").user,
        "anonymous": None,
        "gb": gb,
        "de": de,
    }


ROLES = ["organiser", "captain", "deputy", "member", "other_captain", "outsider", "anonymous"]


def _status(response) -> str:
    return {200: "ok", 201: "ok", 204: "ok", 400: "bad", 401: "denied", 403: "denied"}.get(
        response.status_code, str(response.status_code)
    )


@pytest.mark.parametrize("role", ROLES)
def test_who_may_change_a_roster(people, role):
    gb = people["gb"]
    roster = [m.player_id for m in selectors.team_roster(gb)]
    swapped = [roster[1], roster[0], *roster[2:]]
    response = client_for(people[role]).put(
        f"/api/teams/{gb.pk}/roster/", {"players": swapped}, format="json"
    )
    expected = "ok" if role in ("organiser", "captain", "deputy") else "denied"
    assert _status(response) == expected, response.content
    # Reading the team is public.
    assert client_for(people[role]).get(f"/api/teams/{gb.pk}/").status_code == 200


@pytest.mark.parametrize("role", ROLES)
def test_who_may_create_a_team_and_name_its_captain(people, championship, role):
    players = [PlayerFactory(country="FR").pk for _ in range(5)]
    response = client_for(people[role]).post(
        f"/api/championships/{championship.pk}/teams/",
        {"name": f"FR {role}", "country": "FR", "roster": players},
        format="json",
    )
    assert _status(response) == ("ok" if role == "organiser" else "denied")
    response = client_for(people[role]).post(
        f"/api/teams/{people['gb'].pk}/officers/",
        {"captain": people["gb"].members.get(board=4).player_id, "deputy": None},
        format="json",
    )
    assert _status(response) == ("ok" if role == "organiser" else "denied")


@pytest.mark.parametrize("role", ROLES)
def test_who_may_enter_a_team(people, organiser, championship, role):
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Teams",
        format="knockout",
        entry_kind="team",
    )
    response = client_for(people[role]).post(
        f"/api/events/{event.pk}/enter-team/", {"team": people["gb"].pk}, format="json"
    )
    expected = "ok" if role in ("organiser", "captain", "deputy") else "denied"
    assert _status(response) == expected, response.content


@pytest.mark.parametrize("role", ROLES)
def test_who_may_move_a_lineup_deadline_and_claim_a_team_walkover(
    people, organiser, championship, role
):
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Teams",
        format="knockout",
        entry_kind="team",
    )
    for team in (people["gb"], people["de"]):
        services.team_enter(actor=organiser, event=event, team=team)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    round_ = event.rounds.get()
    response = client_for(people[role]).post(
        f"/api/rounds/{round_.pk}/lineup-deadline/",
        {"lineup_deadline": (timezone.now() + dt.timedelta(days=2)).isoformat()},
        format="json",
    )
    assert _status(response) == ("ok" if role == "organiser" else "denied")
    match = Match.objects.get(event=event)
    response = client_for(people[role]).post(f"/api/matches/{match.pk}/claim-walkover/")
    # Only a side's captain or deputy claims for a team; the other captain claims for DE.
    expected = "ok" if role in ("captain", "deputy", "other_captain") else "denied"
    if role == "organiser":
        expected = "denied"  # an organiser plays in neither team
    assert _status(response) == expected, response.content
    boards = client_for(people[role]).get(f"/api/matches/{match.pk}/boards/")
    assert boards.status_code == 200 and len(boards.json()["boards"]) == 5


def test_team_refusals_name_the_field(people, organiser, championship):
    api = client_for(organiser)
    url = f"/api/championships/{championship.pk}/teams/"
    gb = people["gb"]
    french = [PlayerFactory(country="FR").pk for _ in range(5)]
    cases = [
        ({"name": "X", "country": "FR", "roster": french[:3]}, "roster"),  # too few
        ({"name": "X", "country": "ZZ", "roster": french}, "country"),
        ({"name": "GB A", "country": "FR", "roster": french}, "name"),
        ({"name": "X", "country": "DE", "roster": french}, "roster"),  # wrong country
        ({"name": "X", "roster": french + [10**9]}, "roster"),  # unknown player
        ({"name": "X", "roster": "abc"}, "roster"),
        ({"roster": french}, "name"),
        ({"name": "X", "region_countries": ["QQ"], "roster": french}, "region_countries"),
        (
            {"name": "X", "country": "GB", "roster": [gb.members.get(board=1).player_id] + french},
            "roster",
        ),  # already plays for GB A (and the others are French)
    ]
    for body, field in cases:
        response = api.post(url, body, format="json")
        assert response.status_code == 400 and field in response.json(), (body, response.json())
    roster_url = f"/api/teams/{gb.pk}/roster/"
    for body, field in (
        ({"players": [m.player_id for m in selectors.team_roster(gb)][:2]}, "roster"),
        ({"players": "x"}, "players"),
        ({}, "players"),
        ({"players": [10**9] * 5}, "players"),
    ):
        response = api.put(roster_url, body, format="json")
        assert response.status_code == 400 and field in response.json(), (body, response.json())
    event = services.event_create(
        actor=organiser, championship=championship, name="Singles", format="knockout"
    )
    response = api.post(f"/api/events/{event.pk}/enter-team/", {"team": gb.pk}, format="json")
    assert response.status_code == 400 and "team" in response.json()
    response = api.post(f"/api/events/{event.pk}/enter-team/", {"team": 10**9}, format="json")
    assert response.status_code == 400 and "team" in response.json()
    response = api.post(
        f"/api/championships/{championship.pk}/teams/", {"name": "Y"}, format="json"
    )
    assert response.status_code == 400 and "roster" in response.json()
    assert client_for(None).get("/api/teams/999999/").status_code == 404


def test_team_web_pages(client, people, organiser, championship):
    gb = people["gb"]
    page = client.get(reverse("team-page", args=[gb.pk]))
    assert page.status_code == 200 and "Roster" in page.content.decode()
    assert "Save the roster" not in page.content.decode()
    client.force_login(people["outsider"])
    assert client.post(reverse("team-page", args=[gb.pk]), {"roster": "x"}).status_code == 403
    assert client.get(reverse("team-new", args=[championship.pk])).status_code == 403
    client.force_login(people["captain"])
    names = [m.player.display_name for m in selectors.team_roster(gb)]
    response = client.post(
        reverse("team-page", args=[gb.pk]),
        {"roster": "\n".join([names[1], names[0], *names[2:]]), "reason": "form"},
    )
    assert response.status_code == 302
    assert selectors.team_roster(gb)[0].player.display_name == names[1]
    bad = client.post(reverse("team-page", args=[gb.pk]), {"roster": "Nobody At All"})
    assert bad.status_code == 200 and "No player is named" in bad.content.decode()
    client.force_login(organiser)
    response = client.post(
        reverse("team-new", args=[championship.pk]),
        {
            "name": "NZ",
            "country": "NZ",
            "roster": "\n".join(PlayerFactory(country="NZ").display_name for _ in range(5)),
        },
    )
    assert response.status_code == 302 and Team.objects.filter(name="NZ").exists()
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Teams",
        format="knockout",
        entry_kind="team",
    )
    client.force_login(people["member"])
    assert client.get(reverse("team-enter", args=[event.pk])).status_code == 403
    client.force_login(people["captain"])
    response = client.post(reverse("team-enter", args=[event.pk]), {"team": gb.pk})
    assert response.status_code == 302 and Entry.objects.filter(event=event, team=gb).exists()


def test_team_event_settings_are_checked(organiser, championship):
    api = client_for(organiser)
    base = {"championship": championship.pk, "name": "Teams", "format": "knockout"}
    for extra, field in (
        ({"entry_kind": "trio"}, "entry_kind"),
        ({"entry_kind": "team", "team_tiebreaks": ["coin"]}, "team_tiebreaks"),
        ({"entry_kind": "team", "team_tiebreaks": ["extra_games", "board_1"]}, "team_tiebreaks"),
        ({"entry_kind": "team", "team_tiebreaks": "boards_won"}, "team_tiebreaks"),
        ({"entry_kind": "team", "team_boards": 0}, "team_boards"),
        ({"entry_kind": "team", "team_boards": 13}, "team_boards"),
    ):
        response = api.post("/api/events/", {**base, **extra}, format="json")
        assert response.status_code == 400 and field in response.json(), (extra, response.json())
    response = api.post(
        "/api/events/",
        {**base, "entry_kind": "team", "team_boards": 4, "team_tiebreaks": ["board_1"]},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["team_tiebreaks"] == ["board_1"]
    assert response.json()["time_limit_seconds"] == 900
    pairs = api.post("/api/events/", {**base, "name": "P", "entry_kind": "pair"}, format="json")
    assert pairs.json()["time_limit_seconds"] == 720
