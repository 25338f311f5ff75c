"""`/api/me/` and its parts (added to tournaments/api_urls.py)."""

from django.urls import path

from tournaments.home import api

urlpatterns = [
    path("me/", api.MeView.as_view(), name="api-me"),
    path("me/matches/", api.MeMatchesView.as_view(), name="api-me-matches"),
    path("me/reports/waiting/", api.MeWaitingReportsView.as_view(), name="api-me-reports-waiting"),
    path("me/disputes/", api.MeDisputesView.as_view(), name="api-me-disputes"),
    path("me/results/", api.MeResultsView.as_view(), name="api-me-results"),
    path("me/ratings/", api.MeRatingsView.as_view(), name="api-me-ratings"),
    path("me/events/open/", api.MeOpenEventsView.as_view(), name="api-me-events-open"),
]
