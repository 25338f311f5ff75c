"""The permission matrix's world: one set of people and objects, built once per module.

Roles (test_permission_matrix.ROLES): anonymous; a player (a user with a Player); an organiser (in
the "organisers" group) who organises the "own" championships; a controller named on the "own"
championships; staff. Everyone with an account has a Player, so "my own game" means something
for every role.

Scopes name the object a request is about, seen from the roles above:
  own              championship C1 (published): organised by the organiser, controlled by the
                   controller; the player is entered and plays a match in it
  other_player     C1 again, but another player's entry or match (the organiser's, not the
                   player's)
  other            C2 (published): another organiser's, another controller's, other players
  unpublished      C3 (not published): another organiser's; none of the roles may see it
                   except staff
  own_unpublished  C4 (not published): the organiser's and the controller's
Player profiles and records are relative to the acting role: "own" is the role's own Player or
its own submitted record (anonymous gets the player's). Accountless players: "accountless" was
entered by the organiser, "other_accountless" by another organiser, "legacy_accountless" before
who entered a player was recorded (Player.created_by empty: only staff hand it out).

Profile claims: a claim link for "accountless" (its token kept, as only its maker ever sees it);
a waiting claim request for each accountless player, each by a person with an account but no
player; and for every role an "own" request (closed when the role's account got its player),
which its requester still reads.

The fixture `world` (conftest.py) builds it once per module inside a transaction that is rolled
back at the end; each test runs in a savepoint inside it (pytest-django's `db`), so whatever a
permitted request changes is undone before the next one.
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import timezone

from games.models import (
    Game,
    GameRecord,
    GameReport,
    GameSeat,
    RecordSource,
    ReportedGame,
)
from players import services as player_services
from players.models import ClaimRequest, ClaimStatus, Player
from players.roles import ORGANISERS_GROUP
from ratings.models import RatingChange, Review, ReviewKind, Title
from tests.factories import PlayerFactory
from tests.security.world_more import More, build_more, sheet_record
from tournaments.models import (
    Championship,
    Entry,
    EntryStatus,
    Event,
    EventStatus,
    Match,
    MatchGame,
    MatchStatus,
    Round,
)

# An id no object has: the "does not exist" twin of a request about a hidden object.
MISSING_ID = 987_654_321
# A token no claim link has (the shape of secrets.token_urlsafe(32)).
MISSING_TOKEN = "M" * 43


@dataclass
class Scene:
    """One championship's objects."""

    championship: Championship
    open_event: Event  # registration open
    knockout: Event | None = None  # drawn, round 1 in play
    round_: Round | None = None
    matches: list[Match] = field(default_factory=list)  # round 1, both with game 1 played
    games: list[Game] = field(default_factory=list)  # the matches' games


@dataclass
class World:
    users: dict[str, Any]  # role -> user (None for anonymous)
    sessions: dict[str, str]  # role -> session key of a web login
    own_players: dict[str, Player]  # role -> the role's Player (anonymous: the player's)
    other_player: Player  # Q: has an account, no role over anything
    accountless: Player  # no account, entered by the organiser
    other_accountless: Player  # no account, entered by another organiser
    legacy_accountless: Player  # no account, entered before created_by was recorded
    other_organiser: Any  # organises C2 and C3, entered other_accountless
    other_staff: Any  # staff too, so withdrawing the staff role names someone who holds it
    claim_token: str  # a usable claim link for `accountless`
    claim_requests: dict[str, ClaimRequest]  # accountless scope -> a waiting request for it
    own_claim_requests: dict[str, ClaimRequest]  # role -> the role's own (closed) request
    scenes: dict[str, Scene]  # own / other / unpublished / own_unpublished
    entries: dict[str, Entry]
    casual_game: Game
    records: dict[str, GameRecord]  # role -> a record the role's user submitted
    other_record: GameRecord
    report: GameReport  # Q's open report of a casual game against the other organiser
    review: Review
    title: Title
    change: RatingChange
    field_players: list[Player]  # X1..X4: play in C1's other match and in C2/C3
    more: More  # reports of match games, table opens, teams, pairs (world_more.py)


_numbers = itertools.count(1)


def _user(**kwargs: Any):
    """A user with no usable password: hashing one costs a good part of a second."""
    kwargs.setdefault("username", f"matrix-user-{next(_numbers)}")
    user = get_user_model()(**kwargs)
    user.set_unusable_password()
    user.save()
    return user


def _user_with_player(**kwargs: Any):
    user = _user(**kwargs)
    PlayerFactory(user=user)
    return user


def _session(user) -> str:
    """A logged-in session for the web pages, made once (force_login writes to the database)."""
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _organiser(**kwargs: Any):
    user = _user_with_player(**kwargs)
    user.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    return user


def _championship(name: str, *, published: bool, organiser, controller) -> Championship:
    championship = Championship.objects.create(
        name=name, year=2026, category="open", published=published, created_by=organiser
    )
    championship.organisers.add(organiser)
    championship.controllers.add(controller)
    return championship


def _game(players: list[Player], *, event_id: int | None, clock: list[int] | None) -> Game:
    record = GameRecord.objects.create(
        body=b"{}",
        source=RecordSource.IMPORT,
        status="valid",
        seat_players=[p.pk for p in players],
        adjudicated_at=timezone.now(),
    )
    game = Game.objects.create(
        record=record,
        players_count=2,
        winner_seat=0,
        end_reason="completed",
        placements=[],
        placements_count=56,
        turns=56,
        clock=clock,
        context="tournament" if event_id else "casual",
        event_id=event_id,
        played_at=timezone.now() - dt.timedelta(days=1),
    )
    for seat, (player, colour) in enumerate(zip(players, ["red", "yellow"], strict=True)):
        GameSeat.objects.create(game=game, seat=seat, player=player, colour=colour, score=20 - seat)
    return game


def _knockout(scene: Scene, pairs: list[tuple[Player, Player]]) -> None:
    """A drawn two-round knockout whose round-1 matches each have game 1 played.

    In game 1 side B (seat 1) used 1000 s of the 900 s limit, so side A may claim a penalty.
    """
    event = Event.objects.create(
        championship=scene.championship,
        name="Main draw",
        stage=2,
        format="knockout",
        status=EventStatus.DRAWN,
    )
    deadline = timezone.now() + dt.timedelta(days=14)
    round_1 = Round.objects.create(event=event, number=1, name="Semi-finals", deadline=deadline)
    round_2 = Round.objects.create(event=event, number=2, name="Final", deadline=deadline)
    final = Match.objects.create(event=event, round=round_2, bracket_index=0)
    seed = 0
    for index, (a, b) in enumerate(pairs):
        entry_a = Entry.objects.create(event=event, player=a, seed=seed + 1)
        entry_b = Entry.objects.create(event=event, player=b, seed=seed + 2)
        seed += 2
        match = Match.objects.create(
            event=event,
            round=round_1,
            bracket_index=index,
            entry_a=entry_a,
            entry_b=entry_b,
            status=MatchStatus.IN_PROGRESS,
            next_match=final,
            next_side=index,
            games_played=1,
            tps_a=Decimal("10.0"),
            tps_b=Decimal("10.0"),
        )
        game = _game([a, b], event_id=event.pk, clock=[300, 1000])
        MatchGame.objects.create(
            match=match,
            game=game,
            number=1,
            seat_a=0,
            base_tps_a=Decimal("10.0"),
            base_tps_b=Decimal("10.0"),
            tps_a=Decimal("10.0"),
            tps_b=Decimal("10.0"),
        )
        scene.matches.append(match)
        scene.games.append(game)
    scene.knockout, scene.round_ = event, round_1


def build_world() -> World:
    users = {
        "anonymous": None,
        "player": _user_with_player(username="matrix-player"),
        "organiser": _organiser(username="matrix-organiser"),
        "controller": _user_with_player(username="matrix-controller"),
        "staff": _user_with_player(username="matrix-staff", is_staff=True),
    }
    own_players = {role: user.player for role, user in users.items() if user is not None}
    own_players["anonymous"] = own_players["player"]
    pia = own_players["player"]
    other_organiser = _organiser(username="matrix-organiser-2")
    other_controller = _user_with_player(username="matrix-controller-2")
    quinn = PlayerFactory(user=_user())
    accountless = PlayerFactory(created_by=users["organiser"])
    other_accountless = PlayerFactory(created_by=other_organiser)
    legacy_accountless = PlayerFactory(created_by=None)
    x1, x2, x3, x4 = (PlayerFactory(user=_user()) for _ in range(4))

    own = dict(organiser=users["organiser"], controller=users["controller"])
    other = dict(organiser=other_organiser, controller=other_controller)
    scenes = {}
    for scope, name, published, staff in [
        ("own", "Matrix Own Open", True, own),
        ("other", "Matrix Other Open", True, other),
        ("unpublished", "Matrix Secret Open", False, other),
        ("own_unpublished", "Matrix Own Secret", False, own),
    ]:
        championship = _championship(name, published=published, **staff)
        open_event = Event.objects.create(
            championship=championship, name="Qualifier", stage=1, format="knockout"
        )
        scenes[scope] = Scene(championship=championship, open_event=open_event)

    # C1: the player and Quinn are entered in the open event; the knockout has the player's
    # match (player v Quinn) and another players' match (X1 v X2).
    c1 = scenes["own"]
    entries = {
        "own": Entry.objects.create(event=c1.open_event, player=pia),
        "other_player": Entry.objects.create(event=c1.open_event, player=quinn),
    }
    _knockout(c1, [(pia, quinn), (x1, x2)])
    entries["own_drawn"] = Entry.objects.get(event=c1.knockout, player=pia)
    finished = Event.objects.create(
        championship=c1.championship,
        name="Last year's cup",
        stage=3,
        format="knockout",
        status=EventStatus.FINISHED,
    )
    entries["own_finished"] = Entry.objects.create(
        event=finished, player=pia, status=EntryStatus.ELIMINATED
    )
    for scope in ("other", "unpublished"):
        scene = scenes[scope]
        entries[scope] = Entry.objects.create(event=scene.open_event, player=x1)
        _knockout(scene, [(x1, x2), (x3, x4)])
    for scope in ("other", "unpublished", "own_unpublished"):
        # Two entries in every open event, so a permitted draw can be made.
        Entry.objects.get_or_create(event=scenes[scope].open_event, player=x1)
        Entry.objects.create(event=scenes[scope].open_event, player=x2)

    records = {
        role: GameRecord.objects.create(
            body=b"{}",
            submitter=user,
            source=RecordSource.API,
            seat_players=[user.player.pk, quinn.pk],
        )
        for role, user in users.items()
        if user is not None
    }
    records["anonymous"] = records["player"]
    other_record = GameRecord.objects.create(
        body=b"{}", submitter=quinn.user, source=RecordSource.API, seat_players=[quinn.pk, x1.pk]
    )

    from ratings import services as rating_services

    change = rating_services.rating_adjust(
        actor=users["staff"], player_id=pia.pk, system="lobby", reason="matrix", delta=1.0
    )
    review = Review.objects.create(kind=ReviewKind.LARGE_SWING, change=change, player=pia)
    title = Title.objects.create(player=quinn, awarded_by=users["staff"], note="matrix")

    _, claim_token = player_services.claim_link_create(actor=users["organiser"], player=accountless)
    claim_requests = {
        scope: ClaimRequest.objects.create(
            player=player, requester=_user(username=f"matrix-claimant-{scope}"), message="matrix"
        )
        for scope, player in [
            ("accountless", accountless),
            ("other_accountless", other_accountless),
            ("legacy_accountless", legacy_accountless),
        ]
    }
    # Each role once asked for the other organiser's accountless player; the request was closed
    # when the account got its own player (as claiming does), and its requester still reads it.
    own_claim_requests = {
        role: ClaimRequest.objects.create(
            player=other_accountless,
            requester=user,
            message="matrix",
            status=ClaimStatus.CANCELLED,
            decided_at=timezone.now(),
            decision_reason="matrix",
        )
        for role, user in users.items()
        if user is not None
    }
    own_claim_requests["anonymous"] = own_claim_requests["player"]
    # A casual game Q reported against the other organiser (both have accounts), still open:
    # none of the roles plays in it, so only staff see it (and rule on it).
    reported = ReportedGame.objects.create(
        seat_players=[quinn.pk, other_organiser.player.pk], played_at=timezone.now()
    )
    report = GameReport.objects.create(
        reported_game=reported,
        number=1,
        kind="sheet",
        role="side",
        author=quinn.user,
        side_player=quinn,
        record=sheet_record(quinn, reported, [20, 11]),
        scores=[20, 11],
        winner_seat=0,
        end_reason="completed",
        status="open",
    )

    more = build_more(
        users=users,
        scenes=scenes,
        pia=pia,
        quinn=quinn,
        accountless=accountless,
        other_accountless=other_accountless,
        field_players=[x1, x2, x3, x4],
        staff={
            "own": (users["organiser"], users["controller"]),
            "other": (other_organiser, other_controller),
            "unpublished": (other_organiser, other_controller),
        },
    )
    return World(
        more=more,
        users=users,
        sessions={role: _session(user) for role, user in users.items() if user is not None},
        own_players=own_players,
        other_player=quinn,
        accountless=accountless,
        other_accountless=other_accountless,
        legacy_accountless=legacy_accountless,
        other_organiser=other_organiser,
        other_staff=_user(username="matrix-staff-2", is_staff=True),
        claim_token=claim_token,
        claim_requests=claim_requests,
        own_claim_requests=own_claim_requests,
        scenes=scenes,
        entries=entries,
        casual_game=_game([pia, quinn], event_id=None, clock=None),
        records=records,
        other_record=other_record,
        report=report,
        review=review,
        title=title,
        change=change,
        field_players=[x1, x2, x3, x4],
    )
