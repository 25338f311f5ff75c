"""Tournaments on PostgreSQL: draws for 1,024 entries (groups, Swiss round, knockout) through
the services, and advancing a full 128-player knockout from stored results."""

from __future__ import annotations

import os
import time

from bench.scratch import scratch_database


def main() -> None:
    with scratch_database("tantrix_bench_tournaments") as url:
        os.environ["DATABASE_URL"] = url
        os.environ.setdefault("DEBUG", "1")
        os.environ["CELERY_BROKER_URL"] = ""
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tantrix_site.settings")
        import django

        django.setup()
        from django.contrib.auth import get_user_model

        from players.models import Player
        from tournaments import services
        from tournaments.models import Entry, Match, MatchStatus

        admin = get_user_model().objects.create_user("bench", is_staff=True)
        countries = ["DE", "NZ", "US", "HU", "GB", "FR", "PL", "CZ", "AU", "NL", "IT", "ES"]
        players = Player.objects.bulk_create(
            Player(display_name=f"Bench{i:04d}", country=countries[i % len(countries)])
            for i in range(1024)
        )
        championship = services.championship_create(
            actor=admin, name="Bench", year=2026, category="world"
        )

        def event_with_entries(name: str, entries: int, **config):
            event = services.event_create(
                actor=admin, championship=championship, name=name, **config
            )
            Entry.objects.bulk_create(Entry(event=event, player=p) for p in players[:entries])
            services.event_seed(actor=admin, event=event)
            return event

        print(
            "draws for 1,024 entries (service call: seeding already done; includes writing "
            "rounds and matches)"
        )
        for name, config in [
            ("groups of 8", {"format": "groups", "groups_count": 128}),
            ("Swiss round 1", {"format": "swiss", "swiss_rounds": 7}),
            ("knockout", {"format": "knockout"}),
        ]:
            event = event_with_entries(name, 1024, **config)
            started = time.perf_counter()
            services.draw_generate(actor=admin, event=event, draw_seed=1)
            elapsed = time.perf_counter() - started
            print(f"  {name:<16} {elapsed * 1000:8.0f} ms  ({event.matches.count()} matches)")

        event = event_with_entries("128 knockout", 128, format="knockout")
        services.draw_generate(actor=admin, event=event, draw_seed=1)
        # Each result tells ratings that the event's results changed. Here tasks run eagerly, so
        # that recalculation runs inside the ruling; with a broker it is a worker's task, queued
        # once however many results come in. Timed apart, so the organiser's share shows.
        from tournaments import rating_seam

        told = rating_seam.enqueue_event_elo
        elo_seconds = 0.0

        def timed_elo(event_id: int) -> bool:
            nonlocal elo_seconds
            began = time.perf_counter()
            try:
                return told(event_id)
            finally:
                elo_seconds += time.perf_counter() - began

        rating_seam.enqueue_event_elo = timed_elo
        started = time.perf_counter()
        decided = 0
        while True:
            ready = list(
                Match.objects.filter(event=event, status=MatchStatus.SCHEDULED).select_related(
                    "event__championship"
                )
            )
            if not ready:
                break
            for match in ready:
                services.match_rule(
                    actor=admin, match=match, winner_entry_id=match.entry_a_id, reason="bench"
                )
                decided += 1
        elapsed = time.perf_counter() - started
        rating_seam.enqueue_event_elo = told
        event.refresh_from_db()
        print(
            f"advance a 128-player knockout: {decided} stored results ruled and advanced in "
            f"{elapsed:.2f} s ({elapsed / decided * 1000:.1f} ms per match), champion: "
            f"{event.champion.player.display_name}"
        )
        print(
            f"  of which the event's Elo, told of each result and run eagerly here (a worker's "
            f"task with a broker): {elo_seconds / decided * 1000:.1f} ms per match; the ruling "
            f"itself {(elapsed - elo_seconds) / decided * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
