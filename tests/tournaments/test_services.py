import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from games.models import Game
from players.models import AuditEntry
from tests.factories import PlayerFactory, UserFactory, make_organiser
from tests.tournaments.helpers import submit_match_game
from tournaments import formats, selectors, services
from tournaments.models import (
    AuditAction,
    Entry,
    EntryStatus,
    EventStatus,
    Match,
    MatchStatus,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def championship(organiser):
    return services.championship_create(
        actor=organiser, name="World Championship", year=2026, category="world", published=True
    )


def knockout(organiser, championship, players: int, **config):
    event = services.event_create(
        actor=organiser, championship=championship, name="Main draw", format="knockout", **config
    )
    entrants = [PlayerFactory(country=["DE", "NZ", "US", "HU"][i % 4]) for i in range(players)]
    for player in entrants:
        services.entry_register(actor=organiser, event=event, player=player)
    return event, entrants


def test_only_organisers_create_championships(user_player, organiser):
    with pytest.raises(PermissionDenied):
        services.championship_create(actor=user_player.user, name="X", year=2026, category="open")
    championship = services.championship_create(
        actor=organiser, name="X", year=2026, category="open"
    )
    assert list(championship.organisers.all()) == [organiser]
    assert AuditEntry.objects.filter(action="championship_create").count() == 1
    with pytest.raises(ValidationError, match="already exists"):
        services.championship_create(actor=organiser, name="x", year=2026, category="open")


def test_event_settings_are_checked(organiser, championship):
    with pytest.raises(ValidationError) as error:
        services.event_create(
            actor=organiser,
            championship=championship,
            name="Bad",
            format="groups",
            groups_count=0,
            max_extra_games=2,
            eligibility="junior",
            tp_scheme=9,
            sections=3,
        )
    assert {"groups_count", "extra_game_margin", "cutoff_date", "tp_scheme", "sections"} <= set(
        error.value.message_dict
    )


def test_co_organiser_and_outsider(organiser, co_organiser, championship):
    event, _ = knockout(organiser, championship, 4)
    with pytest.raises(PermissionDenied):
        services.draw_generate(actor=co_organiser, event=event)
    services.championship_staff_set(
        actor=organiser, championship=championship, user=co_organiser, role="organiser"
    )
    services.draw_generate(actor=co_organiser, event=event, draw_seed=1)
    assert event.matches.count() == 3


def test_registration_rules(organiser, championship, user_player, other_player):
    event = services.event_create(
        actor=organiser, championship=championship, name="Open", format="knockout"
    )
    services.entry_register(actor=user_player.user, event=event, player=user_player)
    with pytest.raises(ValidationError, match="already entered"):
        services.entry_register(actor=user_player.user, event=event, player=user_player)
    with pytest.raises(PermissionDenied, match="only yourself"):
        services.entry_register(actor=user_player.user, event=event, player=other_player)
    services.event_registration_set(actor=organiser, event=event, open_=False)
    with pytest.raises(ValidationError, match="closed"):
        services.entry_register(actor=organiser, event=event, player=other_player)


def test_junior_eligibility_on_the_cutoff_date(organiser, championship):
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Juniors",
        format="swiss",
        swiss_rounds=3,
        eligibility="junior",
        cutoff_date=dt.date(2026, 7, 1),
    )
    # Players without an account whom the organiser entered, with their dates of birth: the
    # organiser enters them and is told whether they are young enough (docs/organisers.md).
    young = PlayerFactory(
        display_name="Young", date_of_birth=dt.date(2010, 7, 2), created_by=organiser
    )  # 15
    too_old = PlayerFactory(
        display_name="Old", date_of_birth=dt.date(2010, 7, 1), created_by=organiser
    )  # 16 that day
    unknown = PlayerFactory(display_name="Unknown", created_by=organiser)
    services.entry_register(actor=organiser, event=event, player=young)
    with pytest.raises(ValidationError, match=r"Old is not under 16 on the cut-off") as refused:
        services.entry_register(actor=organiser, event=event, player=too_old)
    assert "is 16" not in str(refused.value)  # the age would give the date of birth away
    with pytest.raises(ValidationError, match="date of birth"):
        services.entry_register(actor=organiser, event=event, player=unknown)


def test_national_eligibility(organiser, championship):
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="NZ open",
        format="knockout",
        eligibility="national",
        countries=["nz"],
    )
    assert event.countries == ["NZ"]
    services.entry_register(actor=organiser, event=event, player=PlayerFactory(country="NZ"))
    with pytest.raises(ValidationError, match="open to NZ only"):
        services.entry_register(
            actor=organiser, event=event, player=PlayerFactory(display_name="Helga", country="DE")
        )
    with pytest.raises(ValidationError, match="Unknown country codes: XQ"):
        services.event_create(
            actor=organiser,
            championship=championship,
            name="Bad",
            format="knockout",
            eligibility="national",
            countries=["XQ"],
        )


def test_minimum_ranking_eligibility(organiser, championship):
    from ratings.models import Rating

    with pytest.raises(ValidationError, match="Give the minimum ranking"):
        services.event_create(
            actor=organiser,
            championship=championship,
            name="No minimum",
            format="knockout",
            eligibility="minimum_ranking",
        )
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Masters",
        format="knockout",
        eligibility="minimum_ranking",
        minimum_ranking=600,
    )
    above = PlayerFactory(display_name="Above")
    at = PlayerFactory(display_name="Exactly")
    below = PlayerFactory(display_name="Below")
    elo_only = PlayerFactory(display_name="Elo only")
    unrated = PlayerFactory(display_name="Unrated")
    no_games = PlayerFactory(display_name="No games")
    Rating.objects.create(player=above, system="lobby", value=700, games=12)
    Rating.objects.create(player=at, system="lobby", value=600, games=12)
    Rating.objects.create(player=below, system="lobby", value=599, games=12)
    Rating.objects.create(player=elo_only, system="elo", value=2000, games=30)
    Rating.objects.create(player=no_games, system="lobby", value=900, games=0)
    for player in (above, at):
        services.entry_register(actor=organiser, event=event, player=player)
    with pytest.raises(
        ValidationError, match=r"Below's ranking \(599\.?0?\) is below this event's"
    ):
        services.entry_register(actor=organiser, event=event, player=below)
    # The minimum is on the lobby ranking: a tournament Elo does not stand in for it, and a
    # ranking without games is no ranking.
    for player in (elo_only, unrated, no_games):
        with pytest.raises(ValidationError, match=r"ranking \(none\) is below .* minimum of 600"):
            services.entry_register(actor=organiser, event=event, player=player)
    assert sorted(event.entries.values_list("player__display_name", flat=True)) == [
        "Above",
        "Exactly",
    ]


def test_knockout_draw_of_12_gives_byes_to_the_top_4(organiser, championship):
    event, players = knockout(organiser, championship, 12)
    entries = list(event.entries.order_by("id"))
    services.event_seed(actor=organiser, event=event, order=[e.pk for e in entries])
    services.draw_generate(actor=organiser, event=event, draw_seed=7)
    first_round = list(Match.objects.filter(event=event, round__number=1).order_by("bracket_index"))
    assert len(first_round) == 8
    byes = [m for m in first_round if m.is_bye]
    assert sorted(m.winner.seed for m in byes) == [1, 2, 3, 4]
    assert all(m.status == MatchStatus.WALKOVER for m in byes)
    pairs = [(m.entry_a.seed, m.entry_b.seed if m.entry_b else None) for m in first_round]
    assert pairs[:2] == [(1, None), (8, 9)]
    # Seed 1's bye puts them straight into round 2.
    assert Match.objects.get(event=event, round__number=2, bracket_index=0).entry_a.seed == 1
    assert event.rounds.count() == 4


def test_match_decided_on_tps_and_winner_advances(
    organiser, championship, django_capture_on_commit_callbacks
):
    event, _ = knockout(
        organiser,
        championship,
        2,
        games_per_match=1,
        max_extra_games=3,
        extra_game_margin=Decimal("0.1"),
    )
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    final = Match.objects.get(event=event)
    played = 0
    while final.status in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS) and played < 4:
        with django_capture_on_commit_callbacks(execute=True):
            submission = submit_match_game(organiser, final)
        assert submission.accepted, submission.refusal
        played += 1
        final.refresh_from_db()
    if final.status != MatchStatus.DECIDED:  # level after every extra game: a ruling
        services.match_rule(
            actor=organiser,
            match=final,
            winner_entry_id=final.entry_a_id,
            reason="level after the extra games",
        )
        final.refresh_from_db()
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED and event.champion_id == final.winner_id
    assert Entry.objects.get(pk=final.winner_id).status == EntryStatus.CHAMPION
    game = Game.objects.filter(event_id=event.pk).first()
    assert game.context == "tournament"
    seat_tps = [s.tournament_points for s in game.seats.order_by("seat")]
    assert sum(seat_tps) == Decimal("20.0")
    assert final.tps_a + final.tps_b == Decimal("20.0") * final.games_played


def test_submission_for_a_match_must_be_between_its_players(organiser, championship):
    event, _ = knockout(organiser, championship, 2)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    stranger = PlayerFactory(display_name="Stranger")
    from games import services as game_services
    from tests.games.helpers import as_body, selfplay_record

    body = as_body(selfplay_record(3, [match.entry_a.player.display_name, "Stranger"]))
    refused = game_services.record_submit(
        actor=organiser, body=body, extensions={"match": match.pk}
    )
    assert refused.refusal.code == "REJECTED" and not refused.refusal.forbidden
    assert "players must be exactly these two" in refused.refusal.errors["match"][0]
    assert stranger.pk  # the stranger exists: the refusal is about the match, not the name
    missing = game_services.record_submit(actor=organiser, body=body, extensions={"match": 999999})
    assert not missing.refusal.forbidden and "no match 999999" in missing.refusal.errors["match"][0]


def test_a_player_of_the_match_may_submit_but_not_an_outsider(
    championship, organiser, django_capture_on_commit_callbacks
):
    event = services.event_create(
        actor=organiser, championship=championship, name="KO", format="knockout"
    )
    a = PlayerFactory(with_user=True)
    b = PlayerFactory(with_user=True)
    for p in (a, b):
        services.entry_register(actor=p.user, event=event, player=p)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        ok = submit_match_game(a.user, match)
    assert ok.accepted, ok.refusal
    outsider = make_organiser()  # an organiser of another championship is still an outsider
    refused = submit_match_game(outsider, match)
    # The same answer as for a match that does not exist: who plays whom is not told.
    assert refused.refusal.code == "REJECTED" and not refused.refusal.forbidden
    assert refused.refusal.errors["match"] == [
        f"You have no match {match.pk}: only the match's players and the championship's staff "
        "may submit its games."
    ]


def test_deadline_walkovers(organiser, championship):
    event, players = knockout(organiser, championship, 4)
    services.draw_generate(
        actor=organiser, event=event, draw_seed=3, start=timezone.now() - dt.timedelta(days=30)
    )
    first, second = Match.objects.filter(event=event, round__number=1).order_by("bracket_index")
    # In match 1 one side said it was available; in match 2 nobody did.
    claimant = first.entry_a.player
    claimant.user = UserFactory()
    claimant.save()
    services.match_walkover_claim(actor=claimant.user, match=first)
    assert services.deadlines_process() == 2
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == MatchStatus.WALKOVER and first.winner.player == claimant
    assert second.status == MatchStatus.VOID and second.winner is None
    final = Match.objects.get(event=event, round__number=2)
    # The final has no opponent for the walkover winner: they win it by walkover too.
    assert final.status == MatchStatus.WALKOVER and final.winner.player == claimant
    event.refresh_from_db()
    assert event.champion.player == claimant
    assert services.deadlines_process() == 0  # processed once only
    # The audit says what happened to each match, in words people read.
    settled = {
        entry.target: (entry.action, entry.get_action_display())
        for entry in AuditEntry.objects.filter(action__startswith="deadline_")
    }
    assert settled == {
        f"match {first.pk}": (
            AuditAction.DEADLINE_WALKOVER,
            "Deadline passed: walkover to the claimant",
        ),
        f"match {second.pk}": (
            AuditAction.DEADLINE_BOTH_OUT,
            "Deadline passed, no game and no claim: both out",
        ),
    }


def test_deadline_leader_wins_and_a_level_match_waits_for_a_ruling(organiser, championship):
    event, _ = knockout(organiser, championship, 4)
    services.draw_generate(
        actor=organiser, event=event, draw_seed=3, start=timezone.now() - dt.timedelta(days=30)
    )
    first, second = Match.objects.filter(event=event, round__number=1).order_by("bracket_index")
    # One game each played by the deadline: match 1 led by side B, match 2 level.
    Match.objects.filter(pk=first.pk).update(
        status=MatchStatus.IN_PROGRESS, games_played=1, tps_a=Decimal("6.1"), tps_b=Decimal("13.9")
    )
    Match.objects.filter(pk=second.pk).update(
        status=MatchStatus.IN_PROGRESS, games_played=1, tps_a=Decimal("10.0"), tps_b=Decimal("10.0")
    )
    assert services.deadlines_process() == 1
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == MatchStatus.DECIDED and first.winner_id == first.entry_b_id
    assert first.state_reason == "deadline_leader"
    assert second.status == MatchStatus.IN_PROGRESS and second.winner is None
    actions = dict(
        AuditEntry.objects.filter(action__startswith="deadline_").values_list("target", "action")
    )
    assert actions == {
        f"match {first.pk}": AuditAction.DEADLINE_LEADER,
        f"match {second.pk}": AuditAction.DEADLINE_LEVEL,
    }


def test_ruling_needs_a_reason_and_a_ruler(organiser, championship, outsider):
    event, _ = knockout(organiser, championship, 2)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    with pytest.raises(PermissionDenied):
        services.match_rule(
            actor=outsider, match=match, winner_entry_id=match.entry_a_id, reason="x"
        )
    with pytest.raises(ValidationError, match="needs a reason"):
        services.match_rule(
            actor=organiser, match=match, winner_entry_id=match.entry_a_id, reason=" "
        )
    controller = make_organiser()
    services.championship_staff_set(
        actor=organiser, championship=championship, user=controller, role="controller"
    )
    services.match_rule(
        actor=controller,
        match=match,
        winner_entry_id=match.entry_b_id,
        reason="disconnection ruling",
    )
    match.refresh_from_db()
    assert match.status == MatchStatus.RULED and match.winner_id == match.entry_b_id
    entry = AuditEntry.objects.get(action="match_rule")
    assert entry.actor == controller and entry.reason == "disconnection ruling"


def test_time_penalty_claim_moves_tps(organiser, championship, django_capture_on_commit_callbacks):
    event, _ = knockout(organiser, championship, 2, games_per_match=2)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    import json

    from games import services as game_services
    from tests.tournaments.helpers import match_record_body

    record = json.loads(match_record_body(match, seed=77))
    record["clock"] = [17 * 60 + 5, 600]  # seat 0: 2:05 over → 1 + 2 = 3 TPs
    with django_capture_on_commit_callbacks(execute=True):
        game_services.record_submit(
            actor=organiser, body=json.dumps(record).encode(), extensions={"match": match.pk}
        )
    match_game = match.match_games.get()
    side = 0 if match_game.seat_a == 0 else 1
    with pytest.raises(ValidationError, match="no penalty"):
        services.match_penalty_claim(actor=organiser, match_game=match_game, side=1 - side)
    services.match_penalty_claim(actor=organiser, match_game=match_game, side=side)
    match_game.refresh_from_db()
    base = match_game.base_tps_a if side == 0 else match_game.base_tps_b
    after = match_game.tps_a if side == 0 else match_game.tps_b
    assert after == max(base - 3, Decimal("0.0"))
    assert match_game.tps_a + match_game.tps_b == Decimal("20.0")


def test_swiss_rounds_are_paired_on_the_tps_of_real_games(
    organiser, championship, django_capture_on_commit_callbacks
):
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Swiss",
        format="swiss",
        swiss_rounds=3,
        games_per_match=1,
    )
    for _ in range(5):
        services.entry_register(actor=organiser, event=event, player=PlayerFactory())
    services.draw_generate(actor=organiser, event=event, draw_seed=2)
    seeds = {e.pk: e.seed for e in event.entries.all()}
    totals = dict.fromkeys(seeds, Decimal("0.0"))  # TPs so far, added up here from the games
    played, byes = [], []
    for number in (1, 2, 3):
        matches = list(Match.objects.filter(event=event, round__number=number))
        if number > 1:
            # The round was paired on the TPs the earlier rounds' games gave.
            expected = formats.swiss_pairings(
                [formats.SwissPlayer(pk, totals[pk], seeds[pk]) for pk in seeds],
                played=played,
                byes=byes,
                round_no=number,
            )
            assert sorted((m.entry_a_id, m.entry_b_id) for m in matches if not m.is_bye) == sorted(
                expected.pairings
            )
        (bye,) = [m for m in matches if m.is_bye]
        byes.append(bye.entry_a_id)
        totals[bye.entry_a_id] += bye.tps_a
        for match in (m for m in matches if not m.is_bye):
            with django_capture_on_commit_callbacks(execute=True):
                submit_match_game(organiser, match, seed=100 * number + match.bracket_index)
            match.refresh_from_db()
            assert match.status == MatchStatus.DECIDED and match.games_played == 1
            match_game = match.match_games.get()
            assert match_game.tps_a + match_game.tps_b == Decimal("20.0")
            totals[match.entry_a_id] += match_game.tps_a
            totals[match.entry_b_id] += match_game.tps_b
            played.append((match.entry_a_id, match.entry_b_id))
        if number == 1:
            assert len(set(totals.values())) > 2  # real margins, not a handful of equal scores
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    assert {e.pk: tps for e, tps in selectors.swiss_standings(event)} == totals
    pairs = [frozenset(pair) for pair in played]
    assert len(pairs) == len(set(pairs)) == 6  # no rematch
    assert len(set(byes)) == 3


def test_withdrawal_after_the_draw_gives_a_walkover(organiser, championship):
    event, _ = knockout(organiser, championship, 4)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.filter(event=event, round__number=1).first()
    services.entry_withdraw(actor=organiser, entry=match.entry_a, reason="illness")
    match.refresh_from_db()
    assert match.status == MatchStatus.WALKOVER and match.winner_id == match.entry_b_id


def test_withdrawing_a_bye_holder_waits_for_the_opponent(organiser, championship):
    event, _ = knockout(organiser, championship, 3)
    services.event_seed(
        actor=organiser,
        event=event,
        order=list(event.entries.order_by("id").values_list("pk", flat=True)),
    )
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    final = Match.objects.get(event=event, round__number=2)
    top_seed = final.entry_a  # seed 1 had the bye and waits in the final
    services.entry_withdraw(actor=organiser, entry=top_seed, reason="cannot travel")
    final.refresh_from_db()
    assert final.entry_a is None and not final.is_final
    event.refresh_from_db()
    assert event.status == EventStatus.DRAWN and event.champion is None
    semi = Match.objects.get(event=event, round__number=1, is_bye=False)
    services.match_rule(
        actor=organiser, match=semi, winner_entry_id=semi.entry_b_id, reason="result by phone"
    )
    final.refresh_from_db()
    event.refresh_from_db()
    assert final.status == MatchStatus.WALKOVER and final.winner_id == semi.entry_b_id
    assert event.champion_id == semi.entry_b_id


def test_ruling_flags_the_match_games_for_rating_review(
    organiser, championship, django_capture_on_commit_callbacks
):
    from ratings.models import Review

    event, _ = knockout(organiser, championship, 2, games_per_match=2)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        submit_match_game(organiser, match)
    game_id = match.match_games.get().game_id
    services.match_rule(
        actor=organiser,
        match=match,
        winner_entry_id=match.entry_b_id,
        reason="opponent disconnected in game 2",
    )
    review = Review.objects.get(game_id=game_id)
    assert review.status == "open" and "ruled" in review.detail["note"]


def test_seeding_from_ratings_then_registration_order(organiser, championship):
    from ratings.models import Rating

    event, players = knockout(organiser, championship, 4)
    # players[3] has an Elo; players[1] only a lobby ranking; the others nothing.
    Rating.objects.create(player=players[3], system="elo", value=1900, games=40)
    Rating.objects.create(player=players[1], system="lobby", value=700, games=10)
    ranked = services.event_seed(actor=organiser, event=event)
    assert [e.player for e in ranked] == [players[3], players[1], players[0], players[2]]
    assert [e.seeding_basis for e in ranked] == ["elo", "lobby", "registration", "registration"]
