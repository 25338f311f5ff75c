"""What the walks find on a fresh site, made with the project's own commands and services.

Run in the walked server's environment before the server starts (``python -m tests.walks.seed
<manifest.json>``), with tasks eager. It loads ``seed_demo`` (admin, an organiser, sixteen players
with accounts, the Demo Open knockout drawn, its doubles, the Demo Team Cup) and adds only what a
journey cannot reasonably make through the site: a controller of the Demo Open, a table open with
a round typed (for the standings a visitor reads), a team cup drawn with no game played yet (whose
captains may still change their lineups), a history whose results follow the players' strengths
with a knockout to forecast (the history command's evaluation lets the pages show forecasts), and
a stored verdict that the current engine would change (``readjudicate --apply`` opens its
review). The manifest names what the walks use.
"""

from __future__ import annotations

import copy
import io
import json
import os
import sys

from tests.walks.seed_home import seed_home
from tests.walks.seed_results import seed_results


def seed() -> dict:
    # The apps can be imported only once Django is set up (main), in the server's environment.
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from games.models import GameRecord, RecordStatus, VerdictReview
    from players.models import Player
    from tests.walks.seed_arrange import seed_arrange
    from tournaments import services
    from tournaments.models import Championship, Event, Match, MatchStatus, Round, Team
    from tournaments.opens.services.score_sheets import table_results_enter
    from tournaments.opens.services.table_opens import table_open_create, table_open_start
    from tournaments.standings import round_tables

    call_command("seed_demo", verbosity=0)
    users = get_user_model().objects
    organiser = users.get(username="organiser")
    demo_open = Championship.objects.get(name="Demo Open")
    knockout = Event.objects.get(championship=demo_open, name="Knockout")
    services.championship_staff_set(
        actor=organiser, championship=demo_open, user=users.get(username="jana"), role="controller"
    )

    # The first round's matches nobody has played yet: one for a result that is confirmed, one
    # for a result that is disputed.
    free = [
        {
            "id": match.pk,
            "players": [match.entry_a.player.display_name, match.entry_b.player.display_name],
        }
        for match in Match.objects.filter(
            event=knockout, round__number=1, status=MatchStatus.SCHEDULED, games_played=0
        ).order_by("bracket_index")
    ]

    # A face-to-face round robin of four with its first round typed: standings to read.
    spring = services.championship_create(
        actor=organiser, name="Spring Table Open", year=2026, category="open", published=True
    )
    table_open = table_open_create(
        actor=organiser, championship=spring, name="Open", system="round_robin"
    )
    for name in ("Giulia", "Sven", "Noah", "Lucas"):
        services.entry_register(
            actor=organiser, event=table_open, player=Player.objects.get(display_name=name)
        )
    table_open_start(actor=organiser, event=table_open, draw_seed=7)
    first = Round.objects.get(event=table_open, number=1)
    sheets = {
        table.number: {"score_a": 30 + table.number, "score_b": 21}
        for table in round_tables(first)
        if not table.match.is_bye
    }
    table_results_enter(actor=organiser, round_=first, sheets=sheets)

    # A team cup drawn with no game played yet: its captains may still change their lineups.
    nations = services.championship_create(
        actor=organiser, name="Nations Cup", year=2026, category="open", published=True
    )
    cup = services.event_create(
        actor=organiser,
        championship=nations,
        name="Final",
        format="knockout",
        entry_kind="team",
        team_boards=5,
        games_per_match=1,
    )
    for name, members in {
        "East": ["Kasia", "Jana", "Csilla", "Bela", "Sven"],
        "West": ["Lucas", "Emma", "Ana", "Giulia", "Pieter"],
    }.items():
        roster = [Player.objects.get(display_name=member) for member in members]
        team = services.team_create(
            actor=organiser,
            championship=nations,
            name=name,
            region_countries=sorted({player.country.code for player in roster}),
            captain=roster[0],
            deputy=roster[1],
            roster=roster,
        )
        services.team_enter(actor=organiser, event=cup, team=team)
    services.draw_generate(actor=organiser, event=cup, draw_seed=1)

    autumn_cup = _forecast_history(organiser)
    arranged = seed_arrange(organiser)

    # A verdict stored wrong (as an older engine might have judged): re-adjudication finds it and
    # opens a review for staff.
    record = GameRecord.objects.filter(status=RecordStatus.VALID, extensions={}).order_by("pk")[0]
    verdict = copy.deepcopy(record.verdict)
    verdict["scores"] = [score + 1 for score in verdict["scores"]]
    GameRecord.objects.filter(pk=record.pk).update(verdict=verdict)
    call_command("readjudicate", apply=True, workers=1, no_progress=True, verbosity=0)
    review = VerdictReview.objects.get(record=record)

    return {
        "free_matches": free,
        "knockout": knockout.pk,
        "demo_open": demo_open.pk,
        "table_open": table_open.pk,
        "team": Team.objects.get(championship=nations, name="East").pk,
        "verdict_review": review.pk,
        "autumn_cup": autumn_cup,
        "results": seed_results(organiser),  # tests/walks/seed_results.py
        **arranged,
        "home": seed_home(organiser),
    }


# Eight players whose results follow a hidden strength (an Elo-like number each): the forecasts
# have something to find, and the history command finds it (the demo's games, random
# self-play, give the forecasts nothing to find, so on them nothing would be shown).
AUTUMN = ["Ingrid", "Tomas", "Csilla", "Bela", "Ana", "Dora", "Mike", "Aroha"]


def _forecast_history(organiser) -> int:
    """Two leagues of the eight, played game by game through the submission path with each
    game won as their strengths say; then a knockout of the eight, drawn and not yet played,
    and the history command run: a visitor reads the knockout's forecasts. The Harvest Cup's
    knockout's id."""
    import random

    from django.core.management import call_command

    from games import services as game_services
    from games.engine import selfplay
    from games.models import RecordSource
    from players.models import Player
    from tournaments import services
    from tournaments.forecasts.selectors import latest_evaluation
    from tournaments.forecasts.sides import game_model
    from tournaments.models import Match, MatchStatus

    players = {name: Player.objects.get(display_name=name) for name in AUTUMN}
    strength = {players[name].pk: 2700.0 - 250 * i for i, name in enumerate(AUTUMN)}
    model = game_model()
    rng = random.Random(2026)
    seeds = iter(range(5000, 100_000))
    cup = services.championship_create(
        actor=organiser, name="Harvest Cup", year=2026, category="open", published=True
    )
    # The return league plays two games a match: more games to judge the forecasts on.
    for stage, name, games in ((1, "League", 1), (2, "Return league", 2)):
        league = services.event_create(
            actor=organiser,
            championship=cup,
            name=name,
            stage=stage,
            format="groups",
            groups_count=1,
            games_per_match=games,
        )
        for player in players.values():
            services.entry_register(actor=organiser, event=league, player=player)
        services.event_seed(actor=organiser, event=league)
        services.draw_generate(actor=organiser, event=league, draw_seed=stage)
        for _ in range(40):
            matches = list(
                Match.objects.filter(
                    event=league, status__in=[MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS]
                ).select_related("entry_a__player", "entry_b__player", "event__championship")
            )
            if not matches:
                break
            for match in matches:
                a, b = match.entry_a.player, match.entry_b.player
                if match.state_reason == "level_needs_ruling":
                    stronger = match.entry_a if strength[a.pk] > strength[b.pk] else match.entry_b
                    services.match_rule(
                        actor=organiser,
                        match=match,
                        winner_entry_id=stronger.pk,
                        reason="Level after both games: the stronger player goes on.",
                    )
                    continue
                a_wins = rng.random() < model.win_chance(strength[a.pk] - strength[b.pk])
                record = selfplay(next(seeds), "2")
                while len(set(record["claimed_scores"])) == 1:  # a draw: play another
                    record = selfplay(next(seeds), "2")
                winner_seat = record["claimed_scores"].index(max(record["claimed_scores"]))
                first, second = (a, b) if (winner_seat == 0) == a_wins else (b, a)
                record["players"][0]["name"] = first.display_name
                record["players"][1]["name"] = second.display_name
                game_services.record_submit(
                    actor=organiser,
                    body=json.dumps(record).encode(),
                    source=RecordSource.IMPORT,
                    extensions={"match": match.pk},
                )
    knockout = services.event_create(
        actor=organiser, championship=cup, name="Knockout", stage=3, format="knockout"
    )
    for player in players.values():
        services.entry_register(actor=organiser, event=knockout, player=player)
    services.event_seed(actor=organiser, event=knockout)
    services.draw_generate(actor=organiser, event=knockout, draw_seed=3)
    report = io.StringIO()
    call_command("forecast_history", stdout=report)
    if not latest_evaluation().better:
        raise RuntimeError(
            f"the walks' history did not make the forecasts pass:\n{report.getvalue()}"
        )
    return knockout.pk


def main(path: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tantrix_site.settings")
    import django

    django.setup()
    with open(path, "w") as manifest:
        json.dump(seed(), manifest)


if __name__ == "__main__":
    main(sys.argv[1])
