"""The games app's pages under /games/: each room's own table, included in one place."""

from django.urls import include, path

urlpatterns = [
    path("", include("games.replays.urls")),
    path("", include("games.records.urls")),
    path("", include("games.reports.urls")),
    path("", include("games.verdict_reviews.urls")),
]
