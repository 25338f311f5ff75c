"""Public championship pages on PostgreSQL: p50/p95 per page for a 128-player knockout (two
rounds played) and a 200-player group stage (25 groups, first round played), through Django's
test client as an anonymous visitor. Warm: the fragments cached (the usual case, goal p95 under
50 ms); cold: the page cache emptied before every request; poll: a live fragment answering
304 to a page that is up to date."""

from __future__ import annotations

import os
import statistics
import time

from bench.scratch import scratch_database

WARM_RUNS = int(os.environ.get("BENCH_PAGES_RUNS", "200"))
COLD_RUNS = max(10, WARM_RUNS // 5)


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def main() -> None:
    with scratch_database("tantrix_bench_pages") as url:
        os.environ["DATABASE_URL"] = url
        os.environ.setdefault("DEBUG", "1")
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tantrix_site.settings")
        import django

        django.setup()
        from django.core.cache import caches
        from django.test import Client
        from django.urls import reverse

        from tests.factories import make_organiser
        from tests.tournaments.pages import builders
        from tournaments.models import Match
        from tournaments.pages import cache as page_cache

        organiser = make_organiser(username="bench-organiser")
        started = time.perf_counter()
        knockout = builders.knockout(
            organiser, builders.championship(organiser), 128, ruled_rounds=2
        )
        groups = builders.group_stage(organiser, builders.championship(organiser), 200, groups=25)
        built = time.perf_counter() - started
        print(f"data: a 128 knockout and 200 players in 25 groups, built in {built:.1f} s")
        backend = caches["pages"].__class__.__name__
        print(f"pages cache: {backend}; warm {WARM_RUNS} runs, cold {COLD_RUNS} runs")

        def pages(event, label: str) -> list[tuple[str, str, object]]:
            match = Match.objects.filter(event=event, round__number=3).first() or (
                Match.objects.filter(event=event, round__number=2).first()
            )
            return [
                (f"{label}: event page", reverse("event-page", args=[event.pk]), event),
                (f"{label}: live fragment", reverse("event-live", args=[event.pk]), event),
                (f"{label}: match page", reverse("match-page", args=[match.pk]), event),
                (f"{label}: match fragment", reverse("match-live", args=[match.pk]), event),
                (
                    f"{label}: championship",
                    reverse("championship-page", args=[event.championship_id]),
                    event,
                ),
            ]

        client = Client()
        print(f"{'page':<38} {'warm p50':>9} {'warm p95':>9} {'cold p50':>9} {'cold p95':>9}  (ms)")
        worst = 0.0
        for name, path, event in pages(knockout, "128 knockout") + pages(groups, "200 in groups"):
            cold = []
            for _ in range(COLD_RUNS):
                page_cache.forget(championship_id=event.championship_id, event_id=event.pk)
                begin = time.perf_counter()
                response = client.get(path)
                cold.append((time.perf_counter() - begin) * 1000)
                assert response.status_code == 200, (path, response.status_code)
            warm = []
            for _ in range(WARM_RUNS):
                begin = time.perf_counter()
                response = client.get(path)
                warm.append((time.perf_counter() - begin) * 1000)
            warm50, warm95 = _percentiles(warm)
            cold50, cold95 = _percentiles(cold)
            worst = max(worst, warm95)
            print(f"{name:<38} {warm50:9.1f} {warm95:9.1f} {cold50:9.1f} {cold95:9.1f}")
        etag = client.get(reverse("event-live", args=[knockout.pk]))["ETag"]
        polls = []
        for _ in range(WARM_RUNS):
            begin = time.perf_counter()
            response = client.get(
                reverse("event-live", args=[knockout.pk]), HTTP_IF_NONE_MATCH=etag
            )
            polls.append((time.perf_counter() - begin) * 1000)
            assert response.status_code == 304
        p50, p95 = _percentiles(polls)
        print(f"{'128 knockout: poll, nothing new (304)':<38} {p50:9.1f} {p95:9.1f}")
        print(f"worst warm p95: {worst:.1f} ms (goal: under 50 ms)")


if __name__ == "__main__":
    main()
