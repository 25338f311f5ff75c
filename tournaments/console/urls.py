"""The round console's pages (added to tournaments/urls.py)."""

from django.urls import path

from tournaments.console import views

urlpatterns = [
    path("rounds/<int:pk>/console/", views.round_console_view, name="round-console"),
    path("rounds/<int:pk>/remind/", views.round_remind_view, name="round-remind-unplayed"),
    path("matches/<int:pk>/remind/", views.match_remind_view, name="match-remind"),
]
