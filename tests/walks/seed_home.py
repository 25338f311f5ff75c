"""What the home walk finds (tests/walks/test_home.py): a knockout of two players of the demo
who have accounts, drawn, with a result the opponent reported and the walker has not answered,
and the walker's time zone set far from the site's, so the deadline reads in their own time.

Called from seed.py's `seed()` with tasks eager; the players are read from the demo (the
first and last with an account), not named, so the demo's names may change."""

from __future__ import annotations

import json


def seed_home(organiser) -> dict:
    from django.utils import formats, timezone

    from games import services as game_services
    from games.engine import selfplay
    from games.models import RecordSource
    from players.models import Player
    from players.preferences.timezones import zone_for
    from tournaments import services
    from tournaments.models import Match

    with_accounts = Player.objects.filter(user__isnull=False, user__is_staff=False).exclude(
        user=organiser
    )
    walker = with_accounts.order_by("pk").first()
    opponent = with_accounts.order_by("-pk").first()
    walker.time_zone = "Pacific/Auckland"
    walker.save(update_fields=["time_zone"])

    cup = services.championship_create(
        actor=organiser, name="Fireside Cup", year=2026, category="open", published=True
    )
    final = services.event_create(
        actor=organiser, championship=cup, name="Final", format="knockout", games_per_match=1
    )
    for player in (walker, opponent):
        services.entry_register(actor=organiser, event=final, player=player)
    services.draw_generate(actor=organiser, event=final, draw_seed=5)
    match = Match.objects.select_related("round").get(event=final)

    # The opponent reports their game; it waits for the walker's answer.
    record = selfplay(9_001, "2")
    for seat, player in zip(record["players"], (opponent, walker), strict=True):
        seat["name"] = player.display_name
    game_services.record_submit(
        actor=opponent.user,
        body=json.dumps(record).encode(),
        source=RecordSource.API,
        extensions={"match": match.pk},
    )
    deadline = timezone.localtime(match.round.deadline, zone_for(walker.time_zone))
    return {
        "player": walker.user.username,
        "name": walker.display_name,
        "opponent": opponent.display_name,
        "match": match.pk,
        # The deadline as the walker reads it: in Auckland's time, with its zone.
        "deadline": formats.date_format(deadline, "DATETIME_FORMAT"),
    }
