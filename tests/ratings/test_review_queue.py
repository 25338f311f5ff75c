"""The review queue's reads and actions (ratings.queue): what each item is about, the actions
per kind and their refusals for the wrong kind, the audit lines they leave, the same in the API,
and histories dated by the game played (ratings.history.dating)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from players.models import AuditEntry
from ratings import selectors, services
from ratings.history.charts import history_chart
from ratings.models import (
    EloStanding,
    Rating,
    RatingChange,
    Review,
    ReviewKind,
    Title,
)
from ratings.queue import kinds
from ratings.queue import services as queue_services
from ratings.queue.selectors import describe_reviews, review_item, review_queue
from ratings.systems import EloRating, elo_tournament
from tests.factories import PlayerFactory
from tests.ratings.helpers import assert_chains_consistent, make_game, value
from tests.ratings.review_world import PLAYED, review_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(settings):
    return review_world(settings)


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


# --- What an item is about ------------------------------------------------------------------


def test_an_elo_swing_is_described_by_its_event_games_and_size(world):
    swing = review_item(world.elo_swing(world.ingrid).pk)
    assert swing.table == "elo" and str(swing.table_label) == "Tournament Elo"
    assert swing.history_table == "elo"
    assert swing.event_id == world.event_id and swing.event_name == "Review Cup 2026 · Singles"
    assert swing.item_name == "Ingrid: Large swing"
    games = swing.games_behind
    assert [g.game_id for g in games] == [g.pk for g in world.elo_games]  # oldest first
    first, second = games
    assert (first.outcome, first.score, str(first.tps)) == ("won", 25, "19.4")
    assert [(o.name, o.score, str(o.tps)) for o in first.opponents] == [("Tomas", 5, "0.6")]
    assert (second.outcome, second.opponent_names, second.played_at) == ("won", "Noah", PLAYED)
    assert all(g.counts and not g.reverted for g in games)
    # The change's date is the last game's, not the day the Elo was computed.
    assert swing.played == PLAYED
    assert swing.standing == EloStanding.objects.get(event_id=world.event_id, player=world.ingrid)
    assert swing.actions == (kinds.ACKNOWLEDGE, kinds.REVERT_GAMES, kinds.ADJUST)


def test_a_page_of_items_costs_the_same_queries_whatever_it_holds(world):
    def page_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            describe_reviews(list(review_queue(status="")))
        return len(queries)

    few = page_queries()
    extra = PlayerFactory(display_name="Sven")
    Rating.objects.create(player=extra, system="elo", value=1850.0, games=40)
    for _ in range(3):
        change = services.rating_adjust(
            actor=None, player_id=extra.pk, system="lobby", delta=30.0, reason="seed"
        )
        Review.objects.create(kind=ReviewKind.LARGE_SWING, change=change, player=extra)
    assert page_queries() == few


def test_both_players_flagged_in_one_game_each_see_the_game_as_they_played_it(world):
    ingrid, aroha = (
        review_item(world.lobby_swing(player).pk) for player in (world.ingrid, world.aroha)
    )
    assert [(g.game_id, g.outcome, g.opponent_names) for g in ingrid.games_behind] == [
        (world.lobby_game.pk, "won", "Aroha")
    ]
    assert [(g.game_id, g.outcome, g.score) for g in aroha.games_behind] == [
        (world.lobby_game.pk, "lost", 4)
    ]
    both = describe_reviews([world.lobby_swing(world.ingrid), world.lobby_swing(world.aroha)])
    assert [len(r.games_behind) for r in both] == [1, 1]


@pytest.mark.parametrize(
    ("kind", "table", "title", "expected"),
    [
        ("large_swing", "lobby", None, ("acknowledge", "revert", "adjust")),
        ("large_swing", "elo", None, ("acknowledge", "revert_games", "adjust")),
        ("repeated_results", "lobby", None, ("acknowledge", "revert", "revert_series")),
        ("game_invalidated", "lobby", None, ("acknowledge", "revert")),
        ("title_lapse", None, "active", ("acknowledge", "end_title")),
        ("title_lapse", None, "lapsed", ("acknowledge",)),
    ],
)
def test_the_actions_that_work_for_each_kind(kind, table, title, expected):
    player = PlayerFactory()
    change = None
    if table is not None:
        change = RatingChange(system=table, reason="game", event_id=7 if table == "elo" else None)
    held = Title(player=player, status=title) if title else None
    review = Review(kind=kind, change=change, player=player, title=held, game_id=None)
    if table == "lobby":
        review.game_id = 1
    assert kinds.review_actions(review) == expected
    review.status = "approved"
    assert kinds.review_actions(review) == ()


# --- Acknowledge -------------------------------------------------------------------------------


def test_acknowledging_keeps_the_ratings_needs_no_note_and_is_audited(world, admin_user):
    swing = world.elo_swing(world.tomas)
    before = RatingChange.objects.count()
    services.review_approve(actor=admin_user, review_id=swing.pk)
    swing.refresh_from_db()
    assert (swing.status, swing.reviewer, swing.note) == ("approved", admin_user, "")
    assert RatingChange.objects.count() == before
    entry = AuditEntry.objects.get(action="review_approve", review_id=swing.pk)
    assert entry.actor == admin_user and entry.reason == ""
    with pytest.raises(ValidationError) as refused:
        services.review_approve(actor=admin_user, review_id=swing.pk, note="again")
    assert "review" in refused.value.message_dict


# --- Revert games behind an Elo swing ------------------------------------------------------------


def test_reverting_a_game_behind_an_elo_swing(
    world, admin_user, django_capture_on_commit_callbacks
):
    swing = world.elo_swing(world.ingrid)
    lobby_swing = Review.objects.filter(
        kind="large_swing", change__game=world.elo_games[0], change__system="lobby"
    ).first()
    assert lobby_swing is not None and lobby_swing.is_open
    flags_before = Review.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        queue_services.review_revert_games(
            actor=admin_user,
            review_id=swing.pk,
            game_ids=[world.elo_games[0].pk],
            note="Tomas never sat down",
        )
    swing.refresh_from_db()
    assert swing.status == "reverted" and swing.note == "Tomas never sat down"
    # The game left every table it counted in...
    game = world.elo_games[0]
    assert RatingChange.objects.filter(reverts__game=game, reason="revert").count() == 4
    # ...and the event's Elo was recalculated at once, without it: each player as if only the
    # other game had been played, from the 1850 over 40 games they brought.
    brought = {p.pk: EloRating(1850.0, 40) for p in (world.ingrid, world.tomas, world.noah)}
    kept = elo_tournament(brought, [(world.noah.pk, world.ingrid.pk, 6.0, 14.0)])
    assert value(world.ingrid, "elo") == pytest.approx(kept[world.ingrid.pk].rating, abs=1e-9)
    assert value(world.tomas, "elo") == pytest.approx(1850.0, abs=1e-9)
    assert EloStanding.objects.get(event_id=world.event_id, player=world.ingrid).games == 1
    assert not EloStanding.objects.filter(event_id=world.event_id, player=world.tomas).exists()
    # The lobby swing of that game closed with it; the admin's own correction is not flagged.
    lobby_swing.refresh_from_db()
    assert lobby_swing.status == "reverted"
    assert Review.objects.count() == flags_before
    # Audited: the game, the Elo recalculation (by the admin), the review.
    assert AuditEntry.objects.filter(action="game_revert", details__game=game.pk).exists()
    assert AuditEntry.objects.filter(
        action="elo_recalculate", actor=admin_user, event_id=world.event_id
    ).exists()
    entry = AuditEntry.objects.get(action="review_revert", review_id=swing.pk)
    assert entry.details["reverted"] == [game.pk] and entry.reason == "Tomas never sat down"
    # The item now shows the game reverted and how the event stands.
    item = review_item(swing.pk)
    assert [g.reverted for g in item.games_behind] == [True, False]
    assert item.actions == ()
    assert_chains_consistent()


def test_reverting_games_is_refused_for_the_wrong_kind_or_game(world, admin_user):
    swing = world.elo_swing(world.ingrid)
    lobby = world.lobby_swing(world.aroha)
    changes = RatingChange.objects.count()
    cases = [
        (lobby.pk, [world.lobby_game.pk], "review"),  # a lobby swing reverts as a whole
        (swing.pk, [world.lobby_game.pk], "games"),  # not behind this swing
        (swing.pk, [], "games"),
    ]
    for review_id, games, field in cases:
        with pytest.raises(ValidationError) as refused:
            queue_services.review_revert_games(
                actor=admin_user, review_id=review_id, game_ids=games, note="why"
            )
        assert field in refused.value.message_dict, (review_id, games)
    with pytest.raises(ValidationError) as no_note:
        queue_services.review_revert_games(
            actor=admin_user, review_id=swing.pk, game_ids=[world.elo_games[0].pk], note=" "
        )
    assert "note" in no_note.value.message_dict
    assert RatingChange.objects.count() == changes
    # A game reverted already (from Noah's swing) is no longer one to revert.
    noah = world.elo_swing(world.noah)
    queue_services.review_revert_games(
        actor=admin_user, review_id=noah.pk, game_ids=[world.elo_games[1].pk], note="why"
    )
    with pytest.raises(ValidationError) as again:
        queue_services.review_revert_games(
            actor=admin_user, review_id=swing.pk, game_ids=[world.elo_games[1].pk], note="why"
        )
    assert "games" in again.value.message_dict


def test_reverting_an_elo_swing_as_a_whole_is_refused_in_words(world, admin_user):
    swing = world.elo_swing(world.tomas)
    changes = RatingChange.objects.count()
    with pytest.raises(ValidationError) as refused:
        services.review_revert(actor=admin_user, review_id=swing.pk, note="why")
    assert "revert one of the games behind it, or adjust" in refused.value.message_dict["review"][0]
    assert RatingChange.objects.count() == changes


# --- Adjust ------------------------------------------------------------------------------------


@pytest.mark.parametrize("table", ["elo", "lobby"])
def test_adjusting_settles_a_swing_in_its_own_table(world, admin_user, table):
    swing = world.elo_swing(world.noah) if table == "elo" else world.lobby_swing(world.aroha)
    player = swing.player
    before = value(player, table)
    queue_services.review_adjust(
        actor=admin_user, review_id=swing.pk, delta=-4.0, reason="A misread score sheet"
    )
    assert value(player, table) == pytest.approx(before - 4.0)
    swing.refresh_from_db()
    assert swing.status == "adjusted" and swing.note == "A misread score sheet"
    adjustment = RatingChange.objects.get(reason="adjustment", player=player, system=table)
    entry = AuditEntry.objects.get(action="review_adjust", review_id=swing.pk)
    assert entry.rating_change_id == adjustment.pk and entry.subject_player_id == player.pk
    assert AuditEntry.objects.filter(action="adjustment", rating_change_id=adjustment.pk).exists()


def test_adjusting_is_refused_where_it_does_not_work(world, admin_user):
    title = Title.objects.create(player=world.ingrid, awarded_by=admin_user)
    lapse = Review.objects.create(kind="title_lapse", player=world.ingrid, title=title)
    with pytest.raises(ValidationError) as refused:
        queue_services.review_adjust(actor=admin_user, review_id=lapse.pk, delta=1.0, reason="x")
    assert "review" in refused.value.message_dict
    swing = world.elo_swing(world.noah)
    with pytest.raises(ValidationError) as both:
        queue_services.review_adjust(
            actor=admin_user, review_id=swing.pk, delta=1.0, value=1800.0, reason="x"
        )
    assert "delta" in both.value.message_dict
    swing.refresh_from_db()
    assert swing.is_open  # nothing half-done


# --- Dated by the game played --------------------------------------------------------------------


def test_every_history_point_is_dated_by_its_game(world, admin_user, parameter_set):
    parameter_set(elo={"anchor_tolerance": 0.0})
    services.elo_event_recalculate(event_id=world.event_id)  # an anchoring after it, too
    services.rating_adjust(
        actor=admin_user, player_id=world.ingrid.pk, system="elo", delta=1.0, reason="x"
    )
    elo = list(selectors.rating_history(player_id=world.ingrid.pk, system="elo"))
    by_reason = {c.reason: c.played for c in elo}
    assert by_reason["tournament"] == PLAYED  # her last game of the event
    assert by_reason["anchor"] == PLAYED  # the event it followed
    adjustment = next(c for c in elo if c.reason == "adjustment")
    assert adjustment.played == adjustment.created  # an adjustment: its own date
    lobby = list(selectors.rating_history(player_id=world.ingrid.pk, system="lobby"))
    assert [c.played for c in lobby if c.game_id] == sorted(
        g.played_at for g in (world.lobby_game, *world.elo_games)
    )
    labels = [d.label for d in history_chart(elo).dots]
    assert labels[0].startswith(f"{PLAYED:%-d %b %Y}")
    # The API's history says the same.
    body = _api(admin_user).get(
        f"/api/ratings/players/{world.ingrid.pk}/history/", {"system": "elo"}
    )
    tournament = next(c for c in body.json()["results"] if c["reason"] == "tournament")
    assert dt.datetime.fromisoformat(tournament["played_at"]) == PLAYED
    assert PLAYED.date() != timezone.now().date()


def test_a_tournament_change_is_dated_by_the_games_it_had_counted(world):
    """A running event is recalculated after each result: each change is dated by the latest
    game of the player counted when it was written, not by the event's later games."""
    later = PLAYED + dt.timedelta(days=2)
    make_game(
        [world.tomas, world.noah],
        [20, 10],
        event_id=world.event_id,
        tps=[14.0, 6.0],
        played_at=later,
        context="tournament",
    )
    services.elo_event_recalculate(event_id=world.event_id, anchor=False)
    tomas = list(selectors.rating_history(player_id=world.tomas.pk, system="elo"))
    assert [c.played for c in tomas] == [PLAYED - dt.timedelta(hours=2), later]


# --- The API -----------------------------------------------------------------------------------


def test_the_api_describes_items_filters_by_table_and_acts(world, admin_user):
    api = _api(admin_user)
    listed = api.get("/api/ratings/reviews/", {"table": "elo"}).json()["results"]
    assert {r["player_name"] for r in listed} == {"Ingrid", "Tomas", "Noah"}
    ingrid = next(r for r in listed if r["player_name"] == "Ingrid")
    assert ingrid["event_name"] == "Review Cup 2026 · Singles"
    assert ingrid["table_label"] == "Tournament Elo" and ingrid["history_table"] == "elo"
    assert [g["game_id"] for g in ingrid["games_behind"]] == [g.pk for g in world.elo_games]
    assert ingrid["games_behind"][0]["opponents"][0]["name"] == "Tomas"
    assert ingrid["actions"] == ["acknowledge", "revert_games", "adjust"]
    assert dt.datetime.fromisoformat(ingrid["played_at"]) == PLAYED
    bad = api.get("/api/ratings/reviews/", {"table": "bogus"})
    assert bad.status_code == 400 and "table" in bad.json()

    tomas = world.elo_swing(world.tomas)
    acknowledged = api.post(f"/api/ratings/reviews/{tomas.pk}/acknowledge/", {}, format="json")
    assert acknowledged.status_code == 200
    assert acknowledged.json()["status_label"] == "Acknowledged"
    assert acknowledged.json()["actions"] == []

    wrong = api.post(f"/api/ratings/reviews/{ingrid['id']}/revert/", {"note": "why"}, format="json")
    assert wrong.status_code == 400 and "review" in wrong.json()
    empty = api.post(
        f"/api/ratings/reviews/{ingrid['id']}/revert-games/", {"games": [], "note": "x"}
    )
    assert empty.status_code == 400 and "games" in empty.json()
    reverted = api.post(
        f"/api/ratings/reviews/{ingrid['id']}/revert-games/",
        {"games": [world.elo_games[1].pk], "note": "Noah's clock stopped"},
        format="json",
    )
    assert reverted.status_code == 200 and reverted.json()["status"] == "reverted"
    assert [g["reverted"] for g in reverted.json()["games_behind"]] == [False, True]

    aroha = world.lobby_swing(world.aroha)
    both = api.post(
        f"/api/ratings/reviews/{aroha.pk}/adjust/",
        {"delta": 1, "value": 500, "reason": "x"},
        format="json",
    )
    assert both.status_code == 400 and "delta" in both.json()
    adjusted = api.post(
        f"/api/ratings/reviews/{aroha.pk}/adjust/",
        {"delta": 2.5, "reason": "Half the swing stands"},
        format="json",
    )
    assert adjusted.status_code == 200 and adjusted.json()["status"] == "adjusted"
