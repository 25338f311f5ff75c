"""The demo's championships, each built and played through the site's own services."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import date

from games import services as game_services
from games.engine import selfplay
from players.models import Player
from players.types import User
from tournaments import services
from tournaments.demo.state import (
    Demo,
    submit,
)
from tournaments.models import Championship, Event, Match, MatchStatus, Round
from tournaments.opens.services.score_sheets import table_results_enter
from tournaments.opens.services.table_opens import table_open_create, table_open_start
from tournaments.sides.selectors import match_lineup
from tournaments.standings import round_tables


def _championship(demo: Demo, name: str, category: str) -> Championship:
    return services.championship_create(
        actor=demo.organiser, name=name, year=2026, category=category, published=True
    )


def _event(demo: Demo, championship: Championship, **config) -> Event:
    return services.event_create(
        actor=demo.organiser,
        championship=championship,
        games_per_match=config.pop("games_per_match", 1),
        max_extra_games=config.pop("max_extra_games", 3),
        extra_game_margin=config.pop("extra_game_margin", "0.1"),
        **config,
    )


def _enter(demo: Demo, event: Event, players: Iterable[Player], draw_seed: int) -> None:
    for player in players:
        services.entry_register(actor=demo.organiser, event=event, player=player)
    services.event_seed(actor=demo.organiser, event=event)
    services.draw_generate(actor=demo.organiser, event=event, draw_seed=draw_seed)


def _open_matches(event: Event) -> list[Match]:
    return list(
        Match.objects.filter(
            event=event, status__in=[MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS]
        )
        .select_related("entry_a__player", "entry_b__player", "round")
        .order_by("round__number", "bracket_index", "pk")
    )


def _play(demo: Demo, event: Event, *, rounds: int | None = None, share: float = 1.0) -> None:
    """Play the event's open matches game by game: all of them, or rounds up to `rounds`, of the
    last of which only the first `share` of the matches (a round in progress)."""
    held_back: set[int] = set()
    if rounds is not None and share < 1.0:
        last_round = list(
            Match.objects.filter(event=event, round__number=rounds).order_by("bracket_index", "pk")
        )
        held_back = {m.pk for m in last_round[max(1, int(len(last_round) * share)) :]}
    for _ in range(200):
        matches = [
            m
            for m in _open_matches(event)
            if (rounds is None or m.round.number <= rounds) and m.pk not in held_back
        ]
        if not matches:
            return
        for match in matches:
            if match.state_reason == "level_needs_ruling":
                # Level after every extra game: the controller sends the higher seed on.
                winner = min((match.entry_a, match.entry_b), key=lambda e: e.seed or 10**6)
                services.match_rule(
                    actor=demo.organiser,
                    match=match,
                    winner_entry_id=winner.pk,
                    reason="Level after the extra games: the higher seed goes on.",
                )
                continue
            record = demo.duel(match.entry_a.player, match.entry_b.player)
            submit(demo, demo.organiser, record, match=match.pk)
    raise RuntimeError(f"the demo could not finish {event.name}")


def world_championship(demo: Demo, players: list[Player]) -> None:
    # Groups of six; the best of them (128 of 150) fill a knockout of a power of two.
    qualifiers = 1 << ((len(players) * 6 // 7).bit_length() - 1)
    championship = _championship(demo, "World Championship", "world")
    qualifier = _event(
        demo,
        championship,
        name="Qualifying groups",
        stage=1,
        format="groups",
        groups_count=len(players) // 6,
    )
    main = _event(
        demo,
        championship,
        name="Main draw",
        stage=2,
        format="knockout",
        feeds_from=qualifier,
        qualifiers_count=qualifiers,
        qualifier_policy="against_top_seeds",
    )
    _enter(demo, qualifier, players, draw_seed=2026)
    _play(demo, qualifier)
    services.qualifiers_advance(actor=demo.organiser, event=main)
    services.event_seed(actor=demo.organiser, event=main)
    services.draw_generate(actor=demo.organiser, event=main, draw_seed=7)
    # The first round played, the second half played: a bracket in progress.
    _play(demo, main, rounds=2, share=0.5)


def junior_championship(demo: Demo, juniors: list[Player]) -> None:
    championship = _championship(demo, "World Junior Championship", "junior")
    event = _event(
        demo,
        championship,
        name="Juniors",
        format="knockout",
        eligibility="junior",
        junior_age_limit=18,
        cutoff_date=date(2026, 1, 1),
    )
    _enter(demo, event, juniors, draw_seed=18)
    _play(demo, event)


def table_open(demo: Demo, players: list[Player]) -> None:
    """A face-to-face Swiss: results typed from score sheets, three rounds of five entered."""
    championship = _championship(demo, "Wellington Table Open", "open")
    event = table_open_create(
        actor=demo.organiser, championship=championship, name="Open", system="swiss", swiss_rounds=5
    )
    for player in players:
        services.entry_register(actor=demo.organiser, event=event, player=player)
    table_open_start(actor=demo.organiser, event=event, draw_seed=3)
    for number in range(1, 4):
        round_ = Round.objects.get(event=event, number=number)
        sheets = {}
        for table in round_tables(round_):
            if table.match.is_bye:
                continue
            score_a = 10 + demo.rng.randrange(25)
            score_b = 10 + demo.rng.randrange(25)
            sheets[table.number] = {"score_a": score_a, "score_b": score_b, "minutes_a": 25}
        table_results_enter(actor=demo.organiser, round_=round_, sheets=sheets)


def online_open(demo: Demo, players: list[Player]) -> None:
    championship = _championship(demo, "Online Open", "open")
    event = _event(demo, championship, name="Swiss", format="swiss", swiss_rounds=5)
    _enter(demo, event, players, draw_seed=5)
    _play(demo, event, rounds=3)


def doubles_and_team_cup(organiser: User, championship: Championship, by_name: dict) -> None:
    """A doubles event in the open, and a team cup of two regional teams, each with a game."""
    doubles = services.event_create(
        actor=organiser,
        championship=championship,
        name="Doubles",
        format="knockout",
        entry_kind="pair",
        games_per_match=1,
        max_extra_games=2,
        extra_game_margin="0.1",
    )
    for first, second in [
        ("Lucas", "Noah"),
        ("Giulia", "Sven"),
        ("Bela", "Emma"),
        ("Tomas", "Aroha"),
    ]:
        services.pair_register(
            actor=organiser, event=doubles, player=by_name[first], partner=by_name[second]
        )
    services.draw_generate(actor=organiser, event=doubles, draw_seed=2)
    match = Match.objects.filter(event=doubles, status=MatchStatus.SCHEDULED).first()
    a, b = match.entry_a.pair, match.entry_b.pair
    record = selfplay(200, "pairs")
    for seat, player in zip(
        record["players"], (a.player_a, b.player_a, a.player_b, b.player_b), strict=True
    ):
        seat["name"] = player.display_name
    game_services.record_submit(
        actor=organiser, body=json.dumps(record).encode(), extensions={"match": match.pk}
    )

    cup = services.championship_create(
        actor=organiser, name="Demo Team Cup", year=2026, category="open", published=True
    )
    rosters = {
        "North": (
            ["Ingrid", "Pieter", "Dora", "Kasia", "Jana", "Emma"],
            ["NO", "NL", "DE", "PL", "CZ", "GB"],
        ),
        "South": (
            ["Tomas", "Csilla", "Ana", "Mike", "Aroha"],
            ["NZ", "HU", "ES", "US", "FR", "AU", "IT"],
        ),
    }
    event = services.event_create(
        actor=organiser,
        championship=cup,
        name="Final",
        format="knockout",
        entry_kind="team",
        team_boards=5,
        games_per_match=1,
    )
    for name, (members, region) in rosters.items():
        team = services.team_create(
            actor=organiser,
            championship=cup,
            name=name,
            region_countries=region,
            captain=by_name[members[0]],
            deputy=by_name[members[1]],
            roster=[by_name[m] for m in members],
        )
        services.team_enter(actor=organiser, event=event, team=team)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    final = Match.objects.get(event=event)
    _board, player_a, player_b = match_lineup(final)[0]
    record = selfplay(300, "2")
    names = {p.pk: p.display_name for p in by_name.values()}
    record["players"][0]["name"], record["players"][1]["name"] = names[player_a], names[player_b]
    game_services.record_submit(
        actor=organiser, body=json.dumps(record).encode(), extensions={"match": final.pk}
    )
