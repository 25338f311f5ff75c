from __future__ import annotations

from django.db.models import Q, QuerySet

from players.models import Player


def player_list(*, search: str = "", country: str = "") -> QuerySet[Player]:
    players = Player.objects.all()
    if search:
        players = players.filter(Q(display_name__icontains=search))
    if country:
        players = players.filter(country=country.upper())
    return players.order_by("display_name")


def players_by_names(names: list[str]) -> dict[str, Player]:
    """Map each name (lower-cased) to its Player, matching display names case-insensitively."""
    wanted = {name.lower() for name in names}
    query = Q()
    for name in wanted:
        query |= Q(display_name__iexact=name)
    if not wanted:
        return {}
    return {p.display_name.lower(): p for p in Player.objects.filter(query)}
