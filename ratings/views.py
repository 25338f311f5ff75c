"""Public web pages: rankings, rating histories and Master titles. The admins' review page is
``ratings.staff.views``."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render

from players.models import Player
from ratings import selectors, services
from ratings.history.charts import history_chart
from ratings.models import RatingSystem, Title

PAGE_SIZE = 50


def _system(request) -> str:
    wanted = request.GET.get("system", "")
    return wanted if wanted in RatingSystem.values else RatingSystem.LOBBY


def ranking_list_view(request):
    system = _system(request)
    country = request.GET.get("country", "").strip()[:2]
    search = request.GET.get("q", "").strip()[:40]
    rows = list(selectors.ranking_table(system=system, country=country, search=search))
    for row in rows:
        row.provisional = selectors.is_provisional_elo(row)
    return render(
        request,
        "ratings/ranking_list.html",
        {
            "rows": rows,
            "systems": RatingSystem.choices,
            "system": system,
            "system_label": RatingSystem(system).label,
            "country": country,
            "search": search,
            "period": services.current_period(),
        },
    )


def rating_history_view(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    system = _system(request)
    history = list(selectors.rating_history(player_id=player.pk, system=system))
    chart = history_chart(history)
    page = Paginator(history[::-1], PAGE_SIZE).get_page(request.GET.get("page"))
    selectors.with_event_names(page.object_list)
    return render(
        request,
        "ratings/history.html",
        {
            "player": player,
            "system": system,
            "system_label": RatingSystem(system).label,
            "systems": RatingSystem.choices,
            "ratings": selectors.player_ratings(player_id=player.pk),
            "titles": selectors.player_titles(player_id=player.pk),
            "tournaments": selectors.with_event_names(
                list(selectors.elo_tournaments(player_id=player.pk)[:20])
            ),
            "chart": chart,
            "page": page,
        },
    )


def title_list_view(request):
    return render(
        request,
        "ratings/title_list.html",
        {
            "titles": selectors.title_list(status=Title.Status.ACTIVE),
            "cap": services.rating_params.title_params().cap,
        },
    )
