"""The results walk's own cup (tests/walks/test_results.py): four players with accounts of their
own, so no other walk's journey and no change to the demo's names meets them, in a knockout of
two games a match, drawn: two first-round matches nobody has played yet, one for a game file
and one for a face-to-face score form."""

from __future__ import annotations

PLAYERS = [
    ("rosa.results", "Rosa Lindqvist", "SE"),
    ("oskar.results", "Oskar Brandt", "DE"),
    ("mirela.results", "Mirela Popescu", "RO"),
    ("finn.results", "Finn Gallagher", "IE"),
]


def seed_results(organiser) -> dict:
    from django.contrib.auth import get_user_model

    from players.models import Player
    from tournaments import services
    from tournaments.demo import PASSWORD
    from tournaments.models import Match

    users = get_user_model().objects
    players = []
    for username, name, country in PLAYERS:
        user = users.create_user(username, f"{username}@example.org", PASSWORD)
        players.append(Player.objects.create(display_name=name, country=country, user=user))
    cup = services.championship_create(
        actor=organiser, name="Club Results Cup", year=2026, category="open", published=True
    )
    event = services.event_create(
        actor=organiser, championship=cup, name="Knockout", format="knockout", games_per_match=2
    )
    for player in players:
        services.entry_register(actor=organiser, event=event, player=player)
    services.draw_generate(actor=organiser, event=event, draw_seed=3)
    matches = Match.objects.filter(event=event, round__number=1).order_by("bracket_index")
    return {
        "matches": [
            {
                "id": match.pk,
                "players": [match.entry_a.player.display_name, match.entry_b.player.display_name],
                "usernames": [
                    match.entry_a.player.user.username,
                    match.entry_b.player.user.username,
                ],
            }
            for match in matches
        ]
    }
