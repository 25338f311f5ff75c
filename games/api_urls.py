"""The games app's API under /api/: each room's own table, included in one place."""

from django.urls import include, path

urlpatterns = [
    path("", include("games.replays.api_urls")),
    path("", include("games.records.api_urls")),
    path("", include("games.reports.api_urls")),
    path("", include("games.verdict_reviews.api_urls")),
]
