"""Recompute the lobby and monthly tables from 500,000 games stored in PostgreSQL, and insert a
late game a week back, through the services.

Run: ``DATABASE_URL=postgres://... python -m bench.bench_ratings_db [--games N] [--players N]``
(``make bench`` runs it). It creates its own scratch database (migrated), fills it with synthetic
results written straight into the games tables with COPY (a record row, a game row and two seats
per game, one game a minute up to an hour ago), then times through the services:

- ``ratings_recompute(systems=["lobby", "monthly"])`` twice: the first rates every game (every
  step written by COPY), the second verifies every step and finds nothing to correct;
- inserting a game played a week back between two active players (``game_ratings_apply``): the
  tables are replayed from its place (docs/ratings.md §10), and a recompute afterwards must find
  nothing to correct.

The stored lobby ratings are checked against the pure ``recompute_lobby`` bit for bit. The
database is dropped after. The 60 s target was set for the former recompute, which compared
final ratings only; it is printed for comparison.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import time

from bench.scratch import scratch_database

TARGET_SECONDS = 60.0


def synthetic_results(games: int, players: int, seed: int):
    """(player_a, player_b, score_a, score_b, winner_seat) per game, players as 0-based indexes.

    Hidden strengths decide the winner; margins 1-30 tiles with small ones commoner; one game
    in fifty is a draw. Robots are the first 1 % of the players.
    """
    rnd = random.Random(seed)
    strength = [rnd.lognormvariate(0.0, 1.0) for _ in range(players)]
    for _ in range(games):
        a = rnd.randrange(players)
        b = rnd.randrange(players - 1)
        if b >= a:
            b += 1
        low = rnd.randrange(5, 30)
        if rnd.random() < 0.02:
            yield a, b, low, low, None
            continue
        margin = min(30, 1 + int(rnd.expovariate(1 / 7)))
        if rnd.random() * (strength[a] + strength[b]) < strength[a]:
            yield a, b, low + margin, low, 0
        else:
            yield a, b, low, low + margin, 1


def _copy(cursor, model, rows, values_for) -> None:
    """COPY rows into a model's table; every concrete column gets a value (its default when
    ``values_for`` does not name it), so a field added later does not break the bench."""
    from django.db.models import JSONField
    from psycopg.types.json import Jsonb

    fields = model._meta.concrete_fields
    columns = ", ".join(f'"{f.column}"' for f in fields)
    defaults = {
        f.attname: (f.get_default() if f.has_default() or not f.null else None) for f in fields
    }
    json_fields = {f.attname for f in fields if isinstance(f, JSONField)}
    with cursor.copy(f'COPY "{model._meta.db_table}" ({columns}) FROM STDIN') as copy:
        for row in rows:
            values = values_for(row)
            out = []
            for f in fields:
                v = values[f.attname] if f.attname in values else defaults[f.attname]
                if f.attname in json_fields and v is not None:
                    v = Jsonb(v)
                out.append(v)
            copy.write_row(out)


def fill(games: int, players: int, seed: int) -> list[tuple]:
    """Write the synthetic history; returns it as recompute_lobby tuples for the check."""
    from django.db import connection, transaction
    from django.utils import timezone

    from games.models import Game, GameRecord, GameSeat
    from players.models import Player

    now = timezone.now()
    # One game a minute, the last an hour ago: "a week back" has a week of games after it.
    start = now - dt.timedelta(minutes=games + 60)
    robots = max(1, players // 100)
    results = list(synthetic_results(games, players, seed))
    with transaction.atomic(), connection.cursor() as wrapper:
        cursor = wrapper.cursor  # psycopg's own cursor, for COPY
        cursor.execute("SELECT COALESCE(MAX(id), 0) FROM players_player")
        (player_base,) = cursor.fetchone()
        player_ids = [player_base + 1 + i for i in range(players)]
        _copy(
            cursor,
            Player,
            range(players),
            lambda i: {
                "id": player_ids[i],
                "display_name": f"Bench{i:05d}",
                "country": ("DE", "NZ", "US", "HU", "GB", "FR")[i % 6],
                "is_robot": i < robots,
                "created": now,
                "updated": now,
            },
        )
        _copy(
            cursor,
            GameRecord,
            range(games),
            lambda i: {
                "id": i + 1,
                "body": b"",
                "source": "import",
                "status": "valid",
                "seat_players": [],
                "extensions": {},
                "created": now,
                "updated": now,
            },
        )
        _copy(
            cursor,
            Game,
            range(games),
            lambda i: {
                "id": i + 1,
                "record_id": i + 1,
                "players_count": 2,
                "is_pairs": False,
                "winner_seat": results[i][4],
                "is_draw": results[i][4] is None,
                "end_reason": "completed",
                "placements": [],
                "placements_count": 56,
                "turns": 56,
                "context": "casual",
                "played_at": start + dt.timedelta(seconds=60 * i),
                "created": now,
            },
        )
        _copy(
            cursor,
            GameSeat,
            ((i, seat) for i in range(games) for seat in (0, 1)),
            lambda key: {
                "id": 2 * key[0] + key[1] + 1,
                "game_id": key[0] + 1,
                "seat": key[1],
                "player_id": player_ids[results[key[0]][key[1]]],
                "colour": ("red", "yellow")[key[1]],
                "score": results[key[0]][2 + key[1]],
                "tournament_points": None,
            },
        )
        for table in ("players_player", "games_gamerecord", "games_game", "games_gameseat"):
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT MAX(id) FROM {table}))"
            )
    with connection.cursor() as cursor:
        for table in ("players_player", "games_gamerecord", "games_game", "games_gameseat"):
            cursor.execute(f"ANALYZE {table}")

    from ratings.services import duel_tuple

    robot_ids = set(player_ids[:robots])
    history = []
    for a, b, score_a, score_b, winner in results:
        pa, pb = player_ids[a], player_ids[b]
        history.append(
            duel_tuple(pa, score_a, pb, score_b, winner, pa in robot_ids or pb in robot_ids)
        )
    return history


def late_game(seed: int) -> None:
    """Insert a game played a week back between two active players, through the live path
    (``game_ratings_apply``): the lobby and monthly tables are replayed from its place. Then a
    recompute of both tables must find nothing to correct."""
    import random

    from django.utils import timezone

    from games.models import Game, GameRecord, GameSeat, RecordSource, RecordStatus
    from ratings import services
    from ratings.models import RatingChange

    now = timezone.now()
    played = now - dt.timedelta(days=7)
    recent = list(
        GameSeat.objects.filter(game__played_at__gte=played).values_list("player_id", flat=True)[
            :2000
        ]
    )
    rnd = random.Random(seed)
    a, b = rnd.sample(sorted(set(recent)), 2)
    record = GameRecord.objects.create(
        body=b"{}", source=RecordSource.IMPORT, status=RecordStatus.VALID, adjudicated_at=now
    )
    game = Game.objects.create(
        record=record,
        players_count=2,
        winner_seat=0,
        end_reason="completed",
        placements=[],
        placements_count=56,
        turns=56,
        played_at=played,
    )
    GameSeat.objects.create(game=game, seat=0, player_id=a, colour="red", score=22)
    GameSeat.objects.create(game=game, seat=1, player_id=b, colour="yellow", score=13)
    after = Game.objects.filter(played_at__gt=played).count()
    mark = RatingChange.objects.order_by("-id").values_list("id", flat=True).first() or 0
    began = time.perf_counter()
    tables = services.game_ratings_apply(game_id=game.pk)
    elapsed = time.perf_counter() - began
    written = RatingChange.objects.filter(pk__gt=mark)
    replayed = written.filter(reason="replay").count()
    print(
        f"a late game a week back ({', '.join(tables)}), {after:,} games after it: inserted in "
        f"{elapsed:.2f} s, {replayed:,} later steps recalculated, "
        f"{written.values('player_id').distinct().count():,} players moved"
    )
    began = time.perf_counter()
    check = services.ratings_recompute(systems=["lobby", "monthly"])
    steps = {s: r.steps for s, r in check.systems.items()}
    print(
        f"  recompute of lobby and monthly afterwards: {time.perf_counter() - began:.1f} s, "
        f"steps to correct {steps}"
    )
    if any(steps.values()):
        raise SystemExit("the live insertion disagrees with a recompute")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500_000)
    parser.add_argument("--players", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--database", default="tantrix_bench_ratings")
    args = parser.parse_args(argv)

    with scratch_database(args.database) as url:
        os.environ["DATABASE_URL"] = url
        os.environ.setdefault("DEBUG", "1")
        os.environ["CELERY_BROKER_URL"] = ""
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tantrix_site.settings")
        import django

        django.setup()
        from django.db import connection

        from ratings import services
        from ratings.models import Rating
        from ratings.params import lobby_params
        from ratings.systems import recompute_lobby

        connection.force_debug_cursor = False  # DEBUG=1 must not keep every query in memory
        began = time.perf_counter()
        history = fill(args.games, args.players, args.seed)
        print(
            f"filled {args.database}: {args.games:,} games, {args.players:,} players "
            f"({2 * args.games:,} seats) by COPY in {time.perf_counter() - began:.1f} s"
        )
        print(f"lobby recompute through ratings_recompute, {args.games:,} games:")
        for label in ("first run (rates every game)", "second run (nothing to correct)"):
            began = time.perf_counter()
            result = services.ratings_recompute(systems=["lobby", "monthly"])
            elapsed = time.perf_counter() - began
            lobby = result.systems["lobby"]
            print(
                f"  {label:34} {elapsed:6.2f} s  {lobby.games / elapsed:10,.0f} games/s  "
                f"({lobby.players:,} players, {lobby.corrected:,} corrected)"
            )
            if label.startswith("first"):
                first = elapsed

        expected = recompute_lobby(history, params=lobby_params()).ratings
        stored = dict(Rating.objects.filter(system="lobby").values_list("player_id", "value"))
        mismatches = sum(1 for pid, v in expected.items() if stored.get(pid) != v)
        print(
            f"  check against the pure recompute: {len(expected):,} ratings, "
            f"{mismatches} differ; top {max(stored.values()):.1f}"
        )
        late_game(args.seed)
        verdict = "within" if first <= TARGET_SECONDS else "OVER"
        print(
            f"total {first:.2f} s for the first recompute: "
            f"{verdict} the {TARGET_SECONDS:.0f} s target"
        )
        connection.close()
        if mismatches:
            raise SystemExit("the database recompute disagrees with the pure maths")


if __name__ == "__main__":
    main()
