"""Doubles: pairs register (the partner confirms), are seeded, and play matches of pairs games
(four seats, partners sharing a colour) submitted by one of their players; the games are rated
in the doubles table only."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from games.models import Game
from ratings.models import Rating, RatingChange
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.tournaments.helpers import submit_match_game
from tournaments import services
from tournaments.models import (
    Entry,
    EntrySource,
    EntryStatus,
    EventStatus,
    Match,
    MatchGame,
    MatchStatus,
    Pair,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def championship(organiser):
    return services.championship_create(
        actor=organiser, name="Doubles Cup", year=2026, category="open", published=True
    )


def doubles_event(organiser, championship, **config):
    config.setdefault("format", "knockout")
    return services.event_create(
        actor=organiser,
        championship=championship,
        name=config.pop("name", "Doubles"),
        entry_kind="pair",
        **config,
    )


def enter_pairs(organiser, event, count: int) -> list[Entry]:
    entries = []
    for i in range(count):
        a = PlayerFactory(with_user=True, country=["DE", "NZ", "US"][i % 3])
        b = PlayerFactory(with_user=True, country=["DE", "NZ", "US"][i % 3])
        entries.append(services.pair_register(actor=organiser, event=event, player=a, partner=b))
    return entries


def play_out(event, capture, organiser) -> int:
    """Play every open match of the event with pairs games submitted by one of side A's
    players (confirmed by the other side), until none is open; returns the games played.
    A match level after everything is ruled for the better seed, as an organiser would."""
    played = 0
    for _ in range(40):
        open_matches = list(
            Match.objects.filter(
                event=event, status__in=[MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS]
            ).select_related(
                "entry_a__pair__player_a__user",
                "entry_a__pair__player_b",
                "entry_b__pair__player_a",
                "entry_b__pair__player_b",
            )
        )
        if not open_matches:
            return played
        for match in open_matches:
            if match.state_reason == "level_needs_ruling":
                winner = min((match.entry_a, match.entry_b), key=lambda e: e.seed or 0)
                services.match_rule(
                    actor=organiser, match=match, winner_entry_id=winner.pk, reason="level"
                )
                continue
            submitter = match.entry_a.pair.player_a.user
            with capture(execute=True):
                submission = submit_match_game(submitter, match)
            assert submission.accepted, submission.refusal
            played += 1
    raise AssertionError("the event did not finish")


def test_twelve_pairs_through_groups_and_a_knockout_to_champions(
    organiser, championship, django_capture_on_commit_callbacks
):
    groups = doubles_event(
        organiser,
        championship,
        name="Doubles groups",
        format="groups",
        groups_count=3,
        games_per_match=1,
        stage=1,
    )
    final = doubles_event(
        organiser,
        championship,
        name="Doubles final",
        games_per_match=1,
        max_extra_games=3,
        extra_game_margin="0.1",
        stage=2,
        feeds_from=groups,
        qualifiers_count=4,
    )
    assert groups.time_limit_seconds == 12 * 60  # pairs: 12 minutes per player
    entries = enter_pairs(organiser, groups, 12)
    services.event_seed(actor=organiser, event=groups)
    services.draw_generate(actor=organiser, event=groups, draw_seed=12)
    assert Match.objects.filter(event=groups).count() == 3 * 6
    play_out(groups, django_capture_on_commit_callbacks, organiser)
    groups.refresh_from_db()
    assert groups.status == EventStatus.FINISHED
    # Group tables on TP%: the pairs' TPs, every game sharing 20.
    for game in MatchGame.objects.filter(match__event=groups):
        assert game.tps_a + game.tps_b == Decimal("20")
        assert game.game.is_pairs and game.game.players_count == 4

    moved = services.qualifiers_advance(actor=organiser, event=final)
    assert len(moved) == 4 and all(e.source == EntrySource.QUALIFIER for e in moved)
    assert {e.pair_id for e in moved} <= {e.pair_id for e in entries}
    services.draw_generate(actor=organiser, event=final, draw_seed=1)
    play_out(final, django_capture_on_commit_callbacks, organiser)
    final.refresh_from_db()
    assert final.status == EventStatus.FINISHED and final.champion is not None
    assert final.champion.status == EntryStatus.CHAMPION and final.champion.pair_id

    # Pairs games are rated in the doubles table only: no lobby, monthly, Master or Elo.
    games = Game.objects.filter(event_id__in=[groups.pk, final.pk])
    assert games.count() >= 18 + 3
    systems = set(RatingChange.objects.filter(game__in=games).values_list("system", flat=True))
    assert systems == {"doubles"}
    players = {p for e in entries for p in e.pair.player_ids}
    assert set(
        Rating.objects.filter(player_id__in=players, games__gt=0).values_list("system", flat=True)
    ) == {"doubles"}
    # Each seat carries its pair's TPs.
    mg = MatchGame.objects.filter(match__event=final).select_related("game").first()
    seats = {s.seat: s.tournament_points for s in mg.game.seats.all()}
    assert seats[mg.seat_a] == seats[mg.seat_a + 2] == mg.tps_a

    from tournaments.consistency import tournaments_breaches

    assert tournaments_breaches() == []
    page = client_for(None).get(f"/api/events/{final.pk}/").json()
    assert page["champion_name"] == final.champion.pair.name
    assert page["entry_kind"] == "pair"


def test_pair_seeding_uses_the_doubles_table_then_elo(organiser, championship):
    event = doubles_event(organiser, championship)
    entries = enter_pairs(organiser, event, 3)
    strong, unrated, middling = entries
    for entry, value in ((strong, 800.0), (middling, 600.0)):
        for player_id in entry.pair.player_ids:
            Rating.objects.create(player_id=player_id, system="doubles", value=value, games=5)
    # One partner rated only: the pair has no doubles figure and falls back (here to nothing).
    Rating.objects.create(
        player_id=unrated.pair.player_a_id, system="doubles", value=999.0, games=5
    )
    ranked = services.event_seed(actor=organiser, event=event)
    assert [e.pk for e in ranked] == [strong.pk, middling.pk, unrated.pk]
    assert [e.seeding_basis for e in ranked] == ["doubles", "doubles", "registration"]
    assert ranked[0].seeding_points == 800.0


# --- Registration: the partner confirms; permissions and refusals ------------------------


@pytest.fixture
def pair_event(organiser, championship):
    return doubles_event(organiser, championship, eligibility="national", countries=["DE"])


def test_a_player_names_a_partner_who_confirms(pair_event, organiser):
    ana = PlayerFactory(with_user=True, country="DE")
    bela = PlayerFactory(with_user=True, country="DE")
    outsider = PlayerFactory(with_user=True, country="DE")
    response = client_for(ana.user).post(
        f"/api/events/{pair_event.pk}/register-pair/", {"partner": bela.pk}, format="json"
    )
    assert response.status_code == 201, response.content
    entry_id = response.json()["id"]
    assert response.json()["status"] == "pending" and response.json()["kind"] == "pair"
    # Waiting pairs are neither seeded nor drawn.
    assert services.event_seed(actor=organiser, event=pair_event) == []
    # Nobody but the partner (or an organiser) confirms; the asker cannot confirm for them.
    assert client_for(None).post(f"/api/entries/{entry_id}/confirm-pair/").status_code in (
        401,
        403,
    )
    for user in (outsider.user, ana.user):
        assert client_for(user).post(f"/api/entries/{entry_id}/confirm-pair/").status_code == 403
    response = client_for(bela.user).post(f"/api/entries/{entry_id}/confirm-pair/")
    assert response.status_code == 200 and response.json()["status"] == "active"
    # Confirmed: there is nothing left to confirm or decline.
    again = client_for(bela.user).post(f"/api/entries/{entry_id}/confirm-pair/")
    assert again.status_code == 400 and "entry" in again.json()


def test_a_withdrawn_pair_is_not_entered_twice(pair_event, organiser):
    ana, bela = (PlayerFactory(with_user=True, country="DE") for _ in range(2))
    entry = services.pair_register(actor=organiser, event=pair_event, player=ana, partner=bela)
    services.entry_withdraw(actor=bela.user, entry=entry)
    response = client_for(ana.user).post(
        f"/api/events/{pair_event.pk}/register-pair/", {"partner": bela.pk}, format="json"
    )
    assert response.status_code == 400 and "withdrawn" in response.json()["partner"][0]
    # Each may still pair with someone else.
    cleo = PlayerFactory(with_user=True, country="DE")
    services.pair_register(actor=ana.user, event=pair_event, partner=cleo)


def test_either_player_may_call_a_waiting_pair_off(pair_event):
    ana = PlayerFactory(with_user=True, country="DE")
    bela = PlayerFactory(with_user=True, country="DE")
    entry = services.pair_register(actor=ana.user, event=pair_event, partner=bela)
    assert (
        client_for(PlayerFactory(with_user=True).user)
        .post(f"/api/entries/{entry.pk}/decline-pair/")
        .status_code
        == 403
    )
    response = client_for(bela.user).post(
        f"/api/entries/{entry.pk}/decline-pair/", {"reason": "other plans"}, format="json"
    )
    assert response.status_code == 204
    assert not Entry.objects.filter(pk=entry.pk).exists()
    # Both are free to pair up again.
    services.pair_register(actor=bela.user, event=pair_event, partner=ana)


def test_organisers_enter_pairs_directly_and_refusals_name_the_field(pair_event, organiser):
    ana, bela, cleo = (PlayerFactory(with_user=True, country="DE") for _ in range(3))
    kiwi = PlayerFactory(with_user=True, country="NZ")
    api = client_for(organiser)
    url = f"/api/events/{pair_event.pk}/register-pair/"
    response = api.post(url, {"player": ana.pk, "partner": bela.pk}, format="json")
    assert response.status_code == 201 and response.json()["status"] == "active"
    # Each player is in one pair of the event.
    response = api.post(url, {"player": cleo.pk, "partner": ana.pk}, format="json")
    assert response.status_code == 400 and "already in a pair" in response.json()["partner"][0]
    # Both must be eligible (a national event for DE).
    response = api.post(url, {"player": cleo.pk, "partner": kiwi.pk}, format="json")
    assert response.status_code == 400 and "partner" in response.json()
    for body, field in (
        ({}, "partner"),
        ({"partner": "x"}, "partner"),
        ({"partner": 10**9}, "partner"),
        ({"partner": cleo.pk, "player": cleo.pk}, "partner"),
        ({"partner": cleo.pk, "player": -1}, "player"),
    ):
        response = api.post(url, body, format="json")
        assert response.status_code == 400 and field in response.json(), (body, response.json())


def test_who_may_register_a_pair(pair_event, organiser):
    ana, bela, cleo = (PlayerFactory(with_user=True, country="DE") for _ in range(3))
    url = f"/api/events/{pair_event.pk}/register-pair/"
    assert client_for(None).post(url, {"partner": bela.pk}, format="json").status_code in (
        401,
        403,
    )
    # A player registers only a pair they play in.
    response = client_for(cleo.user).post(
        url, {"player": ana.pk, "partner": bela.pk}, format="json"
    )
    assert response.status_code == 403
    # A user without a player profile names nobody.
    response = client_for(organiser).post(url, {"partner": bela.pk}, format="json")
    assert response.status_code in (201, 400)


def test_singles_and_pairs_registration_do_not_mix(organiser, championship, pair_event):
    singles = services.event_create(
        actor=organiser, championship=championship, name="Singles", format="knockout"
    )
    ana, bela = (PlayerFactory(with_user=True, country="DE") for _ in range(2))
    response = client_for(ana.user).post(f"/api/events/{pair_event.pk}/register/", {})
    assert response.status_code == 400 and "register a pair" in response.json()["player"][0]
    response = client_for(ana.user).post(
        f"/api/events/{singles.pk}/register-pair/", {"partner": bela.pk}, format="json"
    )
    assert response.status_code == 400 and "partner" in response.json()


def test_the_web_pages_register_and_confirm_a_pair(client, pair_event):
    ana, bela = (PlayerFactory(with_user=True, country="DE") for _ in range(2))
    client.force_login(ana.user)
    page = client.get(reverse("event-page", args=[pair_event.pk])).content.decode()
    assert reverse("pair-register", args=[pair_event.pk]) in page
    response = client.post(
        reverse("pair-register", args=[pair_event.pk]), {"partner": bela.display_name}
    )
    assert response.status_code == 302
    entry = Entry.objects.get(event=pair_event)
    assert entry.status == EntryStatus.PENDING
    bad = client.post(reverse("pair-register", args=[pair_event.pk]), {"partner": "Nobody"})
    assert bad.status_code == 200 and "No player is named" in bad.content.decode()
    client.force_login(bela.user)
    page = client.get(reverse("event-page", args=[pair_event.pk])).content.decode()
    assert "Confirm the pair" in page
    client.post(reverse("pair-answer", args=[entry.pk, "confirm"]))
    entry.refresh_from_db()
    assert entry.status == EntryStatus.ACTIVE
    client.logout()
    assert client.get(reverse("pair-register", args=[pair_event.pk])).status_code == 302


# --- Match games ----------------------------------------------------------------------------


@pytest.fixture
def drawn_pairs(organiser, championship):
    event = doubles_event(organiser, championship, games_per_match=2)
    enter_pairs(organiser, event, 2)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    return event, match


def test_who_may_submit_a_pairs_match_game(drawn_pairs, django_capture_on_commit_callbacks):
    event, match = drawn_pairs
    outsider = PlayerFactory(with_user=True)
    refused = submit_match_game(outsider.user, match)
    assert not refused.accepted
    partner = match.entry_b.pair.player_b.user
    with django_capture_on_commit_callbacks(execute=True):
        assert submit_match_game(partner, match).accepted
    match.refresh_from_db()
    assert match.games_played == 1


def test_a_record_seating_partners_apart_is_refused_with_the_reason(drawn_pairs):
    from games import services as game_services
    from games.models import RecordSource
    from tests.games.helpers import as_body, selfplay_record

    event, match = drawn_pairs
    a, b = match.entry_a.pair, match.entry_b.pair
    # Partners in seats 0 and 1 (not 0 and 2).
    names = [p.display_name for p in (a.player_a, a.player_b, b.player_a, b.player_b)]
    submission = game_services.record_submit(
        actor=a.player_a.user,
        body=as_body(selfplay_record(5, names, players="pairs")),
        source=RecordSource.API,
        extensions={"match": match.pk},
    )
    assert not submission.accepted
    assert "first and third seats" in str(submission.refusal)
    # A two-player game between two of the four players is no doubles game either.
    names = [a.player_a.display_name, b.player_a.display_name]
    submission = game_services.record_submit(
        actor=a.player_a.user,
        body=as_body(selfplay_record(6, names)),
        source=RecordSource.API,
        extensions={"match": match.pk},
    )
    assert not submission.accepted


def test_a_pairs_time_penalty_sums_both_partners(
    drawn_pairs, organiser, django_capture_on_commit_callbacks
):
    event, match = drawn_pairs
    with django_capture_on_commit_callbacks(execute=True):
        submit_match_game(organiser, match)
    mg = MatchGame.objects.get(match=match)
    seat = 1 - mg.seat_a  # side B's seats: seat and seat + 2
    clock = [600] * 4
    clock[seat], clock[seat + 2] = 12 * 60 + 30, 12 * 60 + 70  # 1 TP and 2 TPs
    Game.objects.filter(pk=mg.game_id).update(clock=clock)
    services.match_penalty_claim(actor=organiser, match_game=mg, side=1)
    mg.refresh_from_db()
    assert mg.penalty_b == 3
    assert Pair.objects.count() == 2


def test_the_event_form_makes_doubles_and_team_events(client, organiser, championship):
    from tests.tournaments.test_web import EVENT_FORM

    client.force_login(organiser)
    url = reverse("event-new", args=[championship.pk])
    page = client.get(url).content.decode()
    assert 'name="entry_kind"' in page and 'name="team_boards"' in page
    response = client.post(
        url, {**EVENT_FORM, "name": "Pairs", "entry_kind": "pair", "time_limit_seconds": ""}
    )
    assert response.status_code == 302
    event = championship.events.get(name="Pairs")
    assert event.entry_kind == "pair" and event.time_limit_seconds == 12 * 60
    response = client.post(
        url,
        {**EVENT_FORM, "name": "Teams", "entry_kind": "team", "team_tiebreaks": "coin"},
    )
    # The tie-breaks are chosen in words from the orders allowed (issue 28), never typed as keys.
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    form = client.get(url).content.decode()
    assert "More boards won → The better result on board 1 → Extra games on board 1" in form
    response = client.post(
        url,
        {
            **EVENT_FORM,
            "name": "Teams",
            "entry_kind": "team",
            "team_boards": 4,
            "team_tiebreaks": "board_1,extra_games",
        },
    )
    event = championship.events.get(name="Teams")
    assert event.team_boards == 4 and event.team_tiebreaks == ["board_1", "extra_games"]
    page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    assert "Enter a team" in page and "4 boards" in page


def test_the_championship_audit_names_a_pair_by_its_players(championship, organiser, client):
    """A ruling's winner in the audit is an entry; a pair's entry has no player of its own, and
    the audit page once crashed on it."""
    event = doubles_event(organiser, championship)
    enter_pairs(organiser, event, 4)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.filter(event=event).exclude(entry_a=None).exclude(entry_b=None).first()
    services.match_rule(
        actor=organiser, match=match, winner_entry_id=match.entry_a_id, reason="sheet"
    )
    client.force_login(organiser)
    page = client.get(reverse("championship-audit-log", args=[championship.pk]))
    assert page.status_code == 200
    assert match.entry_a.name.replace("&", "&amp;") in page.content.decode()
