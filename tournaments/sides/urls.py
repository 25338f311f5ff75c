"""Web pages of pairs and teams (added to tournaments/urls.py)."""

from django.urls import path

from tournaments.sides import views

urlpatterns = [
    path("events/<int:pk>/register-pair/", views.pair_register_view, name="pair-register"),
    path("teams/<int:pk>/", views.team_detail_view, name="team-page"),
    path("teams/<int:pk>/officers/", views.team_officers_view, name="team-officers"),
    path("<int:pk>/teams/new/", views.team_create_view, name="team-new"),
    path("events/<int:pk>/enter-team/", views.team_enter_view, name="team-enter"),
    path(
        "rounds/<int:pk>/lineup-deadline/",
        views.round_lineup_deadline_view,
        name="round-lineup-deadline-set",
    ),
    path("entries/<int:pk>/pair/<str:answer>/", views.pair_answer_view, name="pair-answer"),
]
