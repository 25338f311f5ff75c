"""The walks' seed for arranging matches (issue 30): two players with accounts on different
continents (Haruka in Tokyo, Rafael in São Paulo) drawn against each other in the Far Apart Cup's
knockout, its one match not yet arranged."""

from __future__ import annotations

PASSWORD = "tantrix-demo"  # the seed_demo accounts' password, so the walks log in the same way


def seed_arrange(organiser) -> dict:
    from django.contrib.auth import get_user_model

    from players.models import Player
    from tournaments import services
    from tournaments.models import Match

    users = get_user_model().objects
    players = {}
    for name, zone, country in (
        ("Haruka", "Asia/Tokyo", "JP"),
        ("Rafael", "America/Sao_Paulo", "BR"),
    ):
        user = users.create_user(name.lower(), f"{name.lower()}@example.org", PASSWORD)
        players[name] = Player.objects.create(
            display_name=name, country=country, user=user, time_zone=zone
        )
    cup = services.championship_create(
        actor=organiser, name="Far Apart Cup", year=2026, category="open", published=True
    )
    event = services.event_create(
        actor=organiser, championship=cup, name="Knockout", format="knockout", games_per_match=1
    )
    for player in players.values():
        services.entry_register(actor=organiser, event=event, player=player)
    services.draw_generate(actor=organiser, event=event, draw_seed=3)
    ours = Match.objects.get(event=event)
    return {"far_apart_event": event.pk, "far_apart_match": ours.pk}
