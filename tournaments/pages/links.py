"""Where a side's name links to: the player's page or the team's; a pair has no page of its own.

URLs belong to views and templates, not to models: templates ask `{{ entry|side_url }}`
(tournament_tags), the bracket's view model asks `side_url(entry)`.
"""

from __future__ import annotations

from django.urls import reverse

from tournaments.models import Entry


def side_url(entry: Entry | None) -> str:
    if entry is None:
        return ""
    if entry.team_id is not None:
        return reverse("team-page", args=[entry.team_id])
    if entry.player_id is not None:
        return reverse("player-detail", args=[entry.player_id])
    return ""
