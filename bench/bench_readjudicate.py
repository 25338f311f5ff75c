"""Re-adjudication throughput on PostgreSQL: `manage.py readjudicate`'s engine path.

Stores N judged records (distinct self-play games of 2, 3, 4 players and pairs, each stored
several times over) in a scratch database, then re-judges them all with 1 and with 2 worker
processes through games.verdict_reviews.readjudication (reading in batches, judging in the workers,
checkpointing), and extrapolates to a year of about 500,000 games.
Run with `python -m bench.bench_readjudicate [--records N]`.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from bench.scratch import scratch_database

YEAR = 500_000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_readjudicate")
    parser.add_argument("--records", type=int, default=6000)
    parser.add_argument("--games", type=int, default=300, help="distinct games among them")
    args = parser.parse_args(argv)
    with scratch_database("tantrix_bench_readjudicate") as url:
        os.environ["DATABASE_URL"] = url
        os.environ.setdefault("DEBUG", "1")
        os.environ["CELERY_BROKER_URL"] = ""
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tantrix_site.settings")
        import django

        django.setup()
        from games.engine import adjudicate, selfplay
        from games.models import GameRecord, RecordStatus
        from games.verdict_reviews.readjudication import readjudicate, run_for

        kinds = ("2", "3", "4", "pairs")
        bodies = []
        for seed in range(args.games):
            body = json.dumps(selfplay(seed, kinds[seed % 4])).encode()
            bodies.append((body, adjudicate(body)))
        GameRecord.objects.bulk_create(
            (
                GameRecord(
                    body=bodies[i % len(bodies)][0],
                    source="import",
                    status=RecordStatus.VALID,
                    verdict=bodies[i % len(bodies)][1],
                    attempts=1,
                )
                for i in range(args.records)
            ),
            batch_size=1000,
        )
        print(f"re-adjudication of {args.records} stored records (2/3/4 players and pairs)")
        for workers in (1, 2):
            run = run_for(since=None, event_id=None, apply=False, fresh=True)
            started = time.perf_counter()
            run = readjudicate(run, workers=workers)
            elapsed = time.perf_counter() - started
            rate = run.checked / elapsed
            print(
                f"  {workers} process{'es' if workers > 1 else '  '}  {rate:7.0f} records/s"
                f"  ({run.changed} changed)  a year of {YEAR:,} games: {YEAR / rate / 60:5.1f} min"
            )


if __name__ == "__main__":
    main()
