"""Championship web pages and organiser screens: who sees what, and each form's service effect."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db.models import Q
from django.urls import reverse

from players.models import AuditEntry
from tests.factories import PlayerFactory, make_organiser
from tests.games.helpers import confirm_open_reports, selfplay_record
from tournaments import services
from tournaments.models import (
    Championship,
    Entry,
    EntryStatus,
    EventStatus,
    Match,
    MatchStatus,
)

pytestmark = pytest.mark.django_db

EVENT_FORM = {
    "name": "Main draw",
    "stage": 1,
    "format": "knockout",
    "games_per_match": 2,
    "extra_game_margin": "0",
    "max_extra_games": 0,
    "tp_scheme": 1,
    "time_limit_seconds": 900,
    "round_days": 14,
    "sections": 1,
    "groups_count": 0,
    "swiss_rounds": 0,
    "eligibility": "open",
    "junior_age_limit": 16,
    "cutoff_date": "",
    "countries": "",
    "minimum_ranking": "",
    "feeds_from": "",
    "qualifiers_count": "",
    "qualifier_policy": "against_top_seeds",
    "draw_seed": "",
}


def html(response) -> str:
    return response.content.decode()


@pytest.fixture
def championship(organiser):
    return services.championship_create(
        actor=organiser, name="World Championship", year=2026, category="world", published=True
    )


def knockout(organiser, championship, players: int, *, accounts=False, **config):
    """A knockout with `players` registered (with user accounts when they must log in)."""
    config.setdefault("name", "Main draw")
    event = services.event_create(
        actor=organiser, championship=championship, format="knockout", **config
    )
    entrants = [PlayerFactory(with_user=accounts) for _ in range(players)]
    for player in entrants:
        services.entry_register(actor=organiser, event=event, player=player)
    return event, entrants


@pytest.fixture
def drawn(organiser, championship):
    """A drawn 4-player knockout: (event, players)."""
    event, players = knockout(organiser, championship, 4)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    return event, players


# --- Public pages ---------------------------------------------------------------------------


def test_list_searches_filters_by_year_and_offers_new_to_organisers(client, organiser, user_player):
    for name, year in [("Tantrix World Championship", 2025), ("German Open", 2026)]:
        services.championship_create(
            actor=organiser, name=name, year=year, category="open", published=True
        )
    services.championship_create(actor=organiser, name="Secret Cup", year=2026, category="open")
    page = html(client.get("/championships/"))
    assert "German Open" in page and "Tantrix World Championship" in page
    assert "Secret Cup" not in page and "New championship" not in page
    page = html(client.get("/championships/?q=german"))
    assert "German Open" in page and "Tantrix World" not in page
    page = html(client.get("/championships/?year=2025"))
    assert "Tantrix World Championship" in page and "German Open" not in page
    client.force_login(user_player.user)
    assert "New championship" not in html(client.get("/championships/"))
    client.force_login(organiser)
    page = html(client.get("/championships/"))
    assert "New championship" in page and "Secret Cup" in page and "unpublished" in page


def test_list_paginates(client, organiser):
    for i in range(35):
        Championship.objects.create(name=f"Open {i:02d}", year=2026, published=True)
    page = html(client.get("/championships/"))
    assert "Page 1 of 2" in page
    assert "Open 29" in page and "Open 34" not in page
    assert "Open 34" in html(client.get("/championships/?page=2"))


def test_pages_render_for_the_public(client, organiser, championship, drawn):
    event, players = drawn
    match = Match.objects.filter(event=event, round__number=1).first()
    page = html(client.get(reverse("championship-page", args=[championship.pk])))
    assert "Main draw" in page and organiser.username in page and "Stage 1" in page
    page = html(client.get(reverse("event-page", args=[event.pk])))
    assert 'class="bracket-grid"' in page and "Semi-finals" in page and "Final" in page
    for player in players:
        assert player.display_name in page
    assert "Deadline" in page and "Close registration" not in page
    page = html(client.get(reverse("match-page", args=[match.pk])))
    assert match.entry_a.player.display_name in page and "Scheduled" in page
    assert "Submit a result for this match" not in page and "Ruling" not in page


def test_unpublished_championship_is_hidden_from_the_public(client, organiser, user_player):
    hidden = services.championship_create(
        actor=organiser, name="Draft Cup", year=2026, category="open"
    )
    event, _ = knockout(organiser, hidden, 2)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    urls = [
        reverse("championship-page", args=[hidden.pk]),
        reverse("event-page", args=[event.pk]),
        reverse("match-page", args=[match.pk]),
    ]
    for url in urls:
        assert client.get(url).status_code == 404
    for user in (user_player.user, make_organiser()):
        client.force_login(user)
        for url in [*urls, reverse("championship-edit", args=[hidden.pk])]:
            assert client.get(url).status_code == 404, url
    client.force_login(organiser)
    for url in urls:
        assert client.get(url).status_code == 200
    assert "unpublished" in html(client.get(urls[0]))


def test_player_page_lists_their_entries(client, organiser, championship):
    event, players = knockout(organiser, championship, 2)
    page = html(client.get(reverse("player-detail", args=[players[0].pk])))
    assert "Championships" in page and "Main draw" in page
    assert reverse("event-page", args=[event.pk]) in page


# --- Permission boundaries ------------------------------------------------------------------

ORGANISER_PAGES = [
    ("championship-edit", "championship"),
    ("championship-staff-edit", "championship"),
    ("championship-audit-log", "championship"),
    ("event-new", "championship"),
    ("event-registration-set", "event"),
    ("event-seed-set", "event"),
    ("event-draw-make", "event"),
    ("event-qualifiers-advance", "event"),
    ("round-deadline-set", "round"),
    ("entry-withdraw-form", "entry"),
]


@pytest.mark.parametrize(
    "role, expected",
    [
        ("owner", 200),
        ("co_organiser", 200),
        ("other_organiser", 403),
        ("player", 403),
        ("anonymous", 302),
    ],
)
def test_organiser_screens_by_role(
    client, organiser, co_organiser, user_player, championship, drawn, role, expected
):
    event, players = drawn
    services.championship_staff_set(
        actor=organiser, championship=championship, user=co_organiser, role="organiser"
    )
    objects = {
        "championship": championship.pk,
        "event": event.pk,
        "round": event.rounds.first().pk,
        "entry": event.entries.first().pk,
    }
    users = {
        "owner": organiser,
        "co_organiser": co_organiser,
        "other_organiser": make_organiser(),
        "player": user_player.user,
        "anonymous": None,
    }
    if users[role] is not None:
        client.force_login(users[role])
    for name, kind in ORGANISER_PAGES:
        url = reverse(name, args=[objects[kind]])
        response = client.get(url)
        assert response.status_code == expected, (name, role)
        if expected == 302:
            assert response["Location"].startswith(reverse("login"))
    created = client.get(reverse("championship-new")).status_code
    assert created == {"player": 403, "anonymous": 302}.get(role, 200)


def test_posting_as_another_organiser_or_a_player_is_forbidden_and_changes_nothing(
    client, organiser, user_player, championship
):
    event, _ = knockout(organiser, championship, 4)
    for user in (make_organiser(), user_player.user):
        client.force_login(user)
        assert (
            client.post(reverse("event-draw-make", args=[event.pk]), {"draw_seed": 1}).status_code
            == 403
        )
        assert (
            client.post(
                reverse("event-registration-set", args=[event.pk]), {"open": "0"}
            ).status_code
            == 403
        )
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION and not event.matches.exists()


# --- Championship screens -------------------------------------------------------------------


def test_create_edit_and_publish_a_championship(client, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("championship-new"), {"name": "Kiwi Open", "year": 2026, "category": "national"}
    )
    championship = Championship.objects.get(name="Kiwi Open")
    assert response["Location"] == reverse("championship-page", args=[championship.pk])
    assert not championship.published and list(championship.organisers.all()) == [organiser]
    response = client.post(
        reverse("championship-new"), {"name": "kiwi open", "year": 2026, "category": "open"}
    )
    assert response.status_code == 200 and "already exists" in html(response)
    response = client.post(
        reverse("championship-edit", args=[championship.pk]),
        {"name": "Kiwi Open", "year": 2026, "category": "national", "published": "on"},
        follow=True,
    )
    championship.refresh_from_db()
    assert championship.published and "is saved" in html(response)
    assert AuditEntry.objects.filter(championship_id=championship.pk, action="championship_update")


def test_staff_form_adds_and_removes_co_organisers_and_controllers(
    client, organiser, co_organiser, championship
):
    client.force_login(organiser)
    url = reverse("championship-staff-edit", args=[championship.pk])
    response = client.post(
        url, {"username": co_organiser.username, "role": "organiser", "present": "1"}, follow=True
    )
    assert "is now a co-organiser" in html(response)
    assert championship.organisers.filter(pk=co_organiser.pk).exists()
    response = client.post(url, {"username": "nobody-here", "role": "controller", "present": "1"})
    assert "No user is named" in html(response)
    client.post(url, {"username": co_organiser.username, "role": "organiser", "present": "0"})
    assert not championship.organisers.filter(pk=co_organiser.pk).exists()
    response = client.post(
        url, {"username": organiser.username, "role": "organiser", "present": "0"}
    )
    assert "keeps at least one organiser" in html(response)
    client.post(url, {"username": co_organiser.username, "role": "controller", "present": "1"})
    assert championship.controllers.filter(pk=co_organiser.pk).exists()
    # A controller reads the audit log but may not manage.
    client.force_login(co_organiser)
    page = html(client.get(reverse("championship-audit-log", args=[championship.pk])))
    assert "Controller added" in page and "Co-organiser removed" in page
    assert client.get(reverse("championship-edit", args=[championship.pk])).status_code == 403


def test_audit_log_paginates(client, organiser, championship):
    for i in range(60):
        services.audit(
            actor=organiser, championship=championship, action="championship_update", target=f"{i}"
        )
    client.force_login(organiser)
    url = reverse("championship-audit-log", args=[championship.pk])
    assert "Page 1 of 2" in html(client.get(url))
    assert "Championship created" in html(client.get(url + "?page=2"))


# --- Event screens --------------------------------------------------------------------------


def test_event_form_creates_an_event_and_shows_service_errors(client, organiser, championship):
    client.force_login(organiser)
    url = reverse("event-new", args=[championship.pk])
    page = html(client.get(url))
    assert 'data-formats="groups"' in page and 'name="swiss_rounds"' in page
    response = client.post(url, {**EVENT_FORM, "format": "groups", "eligibility": "junior"})
    assert response.status_code == 200
    page = html(response)
    assert "A group stage needs at least one group." in page
    assert "A junior event needs the cut-off date" in page
    response = client.post(
        url,
        {
            **EVENT_FORM,
            "name": "Nationals",
            "eligibility": "national",
            "countries": "de, at",
            "games_per_match": 3,
        },
    )
    event = championship.events.get(name="Nationals")
    assert response["Location"] == reverse("event-page", args=[event.pk])
    assert event.countries == ["DE", "AT"] and event.games_per_match == 3
    assert AuditEntry.objects.filter(event_id=event.pk, action="event_create").exists()
    page = html(client.get(response["Location"]))
    assert "DE, AT" in page and "3 games" in page


def test_registration_open_close_and_register_forms(client, organiser, championship):
    event = services.event_create(
        actor=organiser, championship=championship, name="Open", format="knockout"
    )
    player = PlayerFactory(display_name="Tilly Tile")
    client.force_login(organiser)
    url = reverse("event-register-player", args=[event.pk])
    response = client.post(url, {"player": "tilly tile"}, follow=True)
    assert "Tilly Tile is entered" in html(response)
    assert Entry.objects.filter(event=event, player=player).exists()
    response = client.post(url, {"player": str(player.pk)})
    assert "is already entered" in html(response)
    response = client.post(url, {"player": "Nobody Atall"})
    assert "No player is named" in html(response)
    response = client.post(
        reverse("event-registration-set", args=[event.pk]), {"open": "0"}, follow=True
    )
    assert "Registration for Open is closed" in html(response)
    event.refresh_from_db()
    assert event.status == EventStatus.CLOSED
    response = client.post(url, {"player": PlayerFactory().display_name})
    assert "Registration for this event is closed." in html(response)
    client.post(reverse("event-registration-set", args=[event.pk]), {"open": "1"})
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION
    actions = list(AuditEntry.objects.filter(event_id=event.pk).values_list("action", flat=True))
    assert {"entry_register", "registration_close", "registration_open"} <= set(actions)


def test_a_player_registers_themselves_and_eligibility_errors_show(
    client, organiser, championship, user_player
):
    junior = services.event_create(
        actor=organiser,
        championship=championship,
        name="Juniors",
        format="swiss",
        swiss_rounds=3,
        eligibility="junior",
        cutoff_date=dt.date(2026, 7, 1),
    )
    user_player.date_of_birth = dt.date(2000, 5, 5)
    user_player.save()
    client.force_login(user_player.user)
    page = html(client.get(reverse("event-page", args=[junior.pk])))
    assert "Register me" in page
    response = client.post(reverse("event-register-player", args=[junior.pk]))
    assert response.status_code == 200
    assert "is not under 16 on the cut-off date (1 Jul 2026)" in html(response)
    assert not junior.entries.exists()
    # A player may not enter someone else.
    other = PlayerFactory()
    assert (
        client.post(
            reverse("event-register-player", args=[junior.pk]), {"player": other.display_name}
        ).status_code
        == 403
    )
    open_event = services.event_create(
        actor=organiser, championship=championship, name="Open", format="knockout"
    )
    response = client.post(reverse("event-register-player", args=[open_event.pk]), follow=True)
    assert f"{user_player.display_name} is entered in Open" in html(response)
    entry = open_event.entries.get()
    assert entry.player == user_player and entry.registered_by == user_player.user
    page = html(client.get(reverse("event-page", args=[open_event.pk])))
    assert "You are entered" in page and "Register me" not in page
    # ...and withdraws again.
    response = client.post(
        reverse("entry-withdraw-form", args=[entry.pk]), {"reason": "exams"}, follow=True
    )
    entry.refresh_from_db()
    assert entry.status == EntryStatus.WITHDRAWN and "is withdrawn" in html(response)


def test_seed_forms_manual_order_and_from_ratings(client, organiser, championship):
    event, players = knockout(organiser, championship, 4)
    client.force_login(organiser)
    url = reverse("event-seed-set", args=[event.pk])
    assert players[0].display_name in html(client.get(url))
    entries = {e.player_id: e for e in event.entries.all()}
    order = [players[2].display_name, str(entries[players[0].pk].pk), players[3].display_name]
    response = client.post(url, {"method": "manual", "order": "\n".join(order)})
    assert "Give every active entry id exactly once" in html(response)
    response = client.post(url, {"method": "manual", "order": "\n".join([*order, "Who Else"])})
    assert "Not an active entry of this event: &#x27;Who Else&#x27;" in html(response)
    response = client.post(
        url, {"method": "manual", "order": "\n".join([*order, players[1].display_name])}
    )
    assert response.status_code == 302
    seeds = {e.player_id: e.seed for e in event.entries.all()}
    assert [seeds[p.pk] for p in (players[2], players[0], players[3], players[1])] == [1, 2, 3, 4]
    response = client.post(url, {"method": "ratings", "order": ""})
    assert response.status_code == 302
    assert AuditEntry.objects.filter(event_id=event.pk, action="event_seed").count() == 2


def test_draw_errors_and_withdraw_after_the_draw(client, organiser, championship):
    event, players = knockout(organiser, championship, 1)
    client.force_login(organiser)
    response = client.get(reverse("event-draw-make", args=[event.pk]))
    assert "A draw needs at least 2 active entries, not 1." in html(response)
    assert "Make this draw" not in html(response)
    for _ in range(3):
        services.entry_register(actor=organiser, event=event, player=PlayerFactory())
    token = services.draw_preview(actor=organiser, event=event, draw_seed=42).token
    response = client.post(
        reverse("event-draw-make", args=[event.pk]), {"draw_seed": "42", "preview": token}
    )
    event.refresh_from_db()
    assert event.status == EventStatus.DRAWN and event.draw_seed == 42
    entry = event.entries.get(player=players[0])
    page = html(client.get(reverse("entry-withdraw-form", args=[entry.pk])))
    assert "goes to the opponent by walkover" in page
    response = client.post(
        reverse("entry-withdraw-form", args=[entry.pk]), {"reason": "ill"}, follow=True
    )
    assert "is withdrawn" in html(response)
    first = Match.objects.get(Q(entry_a=entry) | Q(entry_b=entry), event=event, round__number=1)
    assert first.status == MatchStatus.WALKOVER and first.winner_id not in (None, entry.pk)


def test_round_deadline_form(client, organiser, drawn):
    event, _ = drawn
    round_ = event.rounds.get(number=1)
    client.force_login(organiser)
    page = html(client.get(reverse("event-page", args=[event.pk])))
    assert reverse("round-deadline-set", args=[round_.pk]) in page
    response = client.post(
        reverse("round-deadline-set", args=[round_.pk]),
        {"deadline": "2026-12-24T18:30", "reason": "Christmas"},
        follow=True,
    )
    round_.refresh_from_db()
    assert round_.deadline.isoformat().startswith("2026-12-24")
    assert "deadline 24 Dec 2026" in html(response)
    entry = AuditEntry.objects.get(event_id=event.pk, action="deadline_set")
    assert entry.reason == "Christmas"
    response = client.post(reverse("round-deadline-set", args=[round_.pk]), {"deadline": "soon"})
    assert "Enter a valid date/time." in html(response)


def test_groups_stage_tables_and_qualifiers_advance_into_a_knockout(
    client, organiser, championship
):
    groups = services.event_create(
        actor=organiser, championship=championship, name="Groups", format="groups", groups_count=2
    )
    for _ in range(8):
        services.entry_register(actor=organiser, event=groups, player=PlayerFactory())
    main = services.event_create(
        actor=organiser,
        championship=championship,
        name="Main draw",
        format="knockout",
        stage=2,
        feeds_from=groups,
        qualifiers_count=4,
    )
    services.draw_generate(actor=organiser, event=groups, draw_seed=3)
    page = html(client.get(reverse("event-page", args=[groups.pk])))
    assert "Group 1" in page and "Group 2" in page and "TP%" in page
    client.force_login(organiser)
    response = client.post(reverse("event-qualifiers-advance", args=[main.pk]))
    assert "still has 12 open matches" in html(response)
    for match in groups.matches.all():
        services.match_rule(
            actor=organiser, match=match, winner_entry_id=match.entry_a_id, reason="sheet"
        )
    response = client.post(reverse("event-qualifiers-advance", args=[main.pk]), follow=True)
    assert "4 qualifiers entered Main draw" in html(response)
    assert main.entries.count() == 4
    page = html(client.get(reverse("event-page", args=[groups.pk])))
    assert page.count('class="qualifier"') == 4


def test_swiss_event_page_shows_standings_and_rounds(client, organiser, championship):
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Table Open",
        format="swiss",
        swiss_rounds=3,
    )
    for _ in range(5):
        services.entry_register(actor=organiser, event=event, player=PlayerFactory())
    services.draw_generate(actor=organiser, event=event, draw_seed=5)
    page = html(client.get(reverse("event-page", args=[event.pk])))
    assert "Swiss standings" in page and "Round 1" in page and "Bye" in page


# --- Matches --------------------------------------------------------------------------------


def test_match_page_for_its_players_walkover_claim_and_submit_link(client, organiser, championship):
    event, players = knockout(organiser, championship, 2, accounts=True)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    a, b = match.entry_a.player, match.entry_b.player
    client.force_login(a.user)
    page = html(client.get(reverse("match-page", args=[match.pk])))
    assert f"{reverse('record-submit')}?match={match.pk}" in page
    assert "Claim a walkover" in page and "Record the ruling" not in page
    response = client.post(reverse("match-walkover-claim", args=[match.pk]), follow=True)
    assert "Walkover claimed" in html(response)
    match.refresh_from_db()
    assert match.walkover_claimed_by.player == a
    client.force_login(b.user)
    response = client.post(reverse("match-walkover-claim", args=[match.pk]), follow=True)
    assert "Your opponent has claimed too" in html(response)
    assert client.post(reverse("match-rule-form", args=[match.pk]), {}).status_code == 403
    client.force_login(PlayerFactory(with_user=True).user)
    assert client.post(reverse("match-walkover-claim", args=[match.pk])).status_code == 403
    page = html(client.get(reverse("match-page", args=[match.pk])))
    assert "Submit a result for this match" not in page and "Claim a walkover" not in page


def test_game_submitted_from_the_match_page_counts_and_penalty_claims(
    client, organiser, championship, django_capture_on_commit_callbacks
):
    event, _ = knockout(organiser, championship, 2, accounts=True, games_per_match=2)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    a, b = match.entry_a.player, match.entry_b.player
    record = selfplay_record(11, [a.display_name, b.display_name])
    record["clock"] = [1000, 400]  # A ran over the 15 minutes
    client.force_login(b.user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"{reverse('record-submit')}?match={match.pk}",
            {"record": json.dumps(record), "match": match.pk},
        )
    assert response.status_code == 302, html(response)
    # B's game is a report: it counts once A, the other side, agrees.
    assert Match.objects.get(pk=match.pk).games_played == 0
    with django_capture_on_commit_callbacks(execute=True):
        confirm_open_reports()
    match = Match.objects.get(pk=match.pk)
    assert match.games_played == 1
    game = match.match_games.get()
    page = html(client.get(reverse("match-page", args=[match.pk])))
    assert reverse("game-detail", args=[game.game_id]) in page
    assert "Claim the penalty" in page and str(game.tps_a) in page
    response = client.post(
        reverse("match-penalty-claim", args=[match.pk]), {"game": 1, "side": 0}, follow=True
    )
    assert "Time penalty applied" in html(response)
    game.refresh_from_db()
    assert game.penalty_a > 0 and game.tps_a == game.base_tps_a - game.penalty_a
    # B's clock is within the limit: the service says so on the form.
    client.force_login(organiser)
    response = client.post(reverse("match-penalty-claim", args=[match.pk]), {"game": 1, "side": 1})
    assert response.status_code == 200 and "within the 900 s limit" in html(response)


def test_ruling_needs_a_reason_and_controllers_may_rule(
    client, organiser, co_organiser, championship, drawn
):
    event, _ = drawn
    services.championship_staff_set(
        actor=organiser, championship=championship, user=co_organiser, role="controller"
    )
    match = Match.objects.filter(event=event, round__number=1).first()
    client.force_login(co_organiser)
    assert "Record the ruling" in html(client.get(reverse("match-page", args=[match.pk])))
    url = reverse("match-rule-form", args=[match.pk])
    response = client.post(url, {"winner": str(match.entry_b_id), "reason": " "})
    assert response.status_code == 200 and "A ruling needs a reason." in html(response)
    response = client.post(url, {"winner": str(match.entry_b_id), "reason": "no-show"})
    match.refresh_from_db()
    assert match.status == MatchStatus.RULED and match.winner_id == match.entry_b_id
    rule = AuditEntry.objects.get(action="match_rule")
    assert rule.actor == co_organiser and rule.reason == "no-show"


def test_a_knockout_of_eight_run_entirely_through_the_forms(client, organiser):
    client.force_login(organiser)
    client.post(
        reverse("championship-new"),
        {"name": "Web Open", "year": 2026, "category": "open", "published": "on"},
    )
    championship = Championship.objects.get(name="Web Open")
    client.post(reverse("event-new", args=[championship.pk]), {**EVENT_FORM, "name": "Knockout"})
    event = championship.events.get()
    players = [PlayerFactory(display_name=f"Knight {i}") for i in range(8)]
    for i, player in enumerate(players):
        response = client.post(
            reverse("event-register-player", args=[event.pk]),
            {"player": player.display_name if i % 2 else str(player.pk)},
        )
        assert response.status_code == 302
    client.post(reverse("event-registration-set", args=[event.pk]), {"open": "0"})
    order = "\n".join(p.display_name for p in reversed(players))
    client.post(reverse("event-seed-set", args=[event.pk]), {"method": "manual", "order": order})
    token = services.draw_preview(actor=organiser, event=event, draw_seed=8).token
    client.post(reverse("event-draw-make", args=[event.pk]), {"draw_seed": "8", "preview": token})
    event.refresh_from_db()
    assert event.status == EventStatus.DRAWN and event.matches.count() == 7
    for number in (1, 2, 3):
        for match in Match.objects.filter(event=event, round__number=number):
            response = client.post(
                reverse("match-rule-form", args=[match.pk]),
                {"winner": str(match.entry_a_id), "reason": "Score sheet from the venue"},
            )
            assert response.status_code == 302, html(response)
    event.refresh_from_db()
    top_seed = event.entries.get(seed=1).player
    assert top_seed == players[-1] and event.champion.player == top_seed
    client.logout()
    page = html(client.get(reverse("event-page", args=[event.pk])))
    link = reverse("player-detail", args=[top_seed.pk])
    banner = f'Champion: <strong class="champion"><a href="{link}">{top_seed.display_name}</a>'
    assert banner in page
    assert page.count('class="side winner"') == 7
    page = html(client.get(reverse("championship-page", args=[championship.pk])))
    assert "Champion" in page and top_seed.display_name in page
    actions = list(
        AuditEntry.objects.filter(championship_id=championship.pk).values_list("action", flat=True)
    )
    assert actions.count("match_rule") == 7 and actions.count("entry_register") == 8
    assert {
        "championship_create",
        "event_create",
        "event_seed",
        "draw_generate",
        "champion",
    } <= set(actions)
