"""Web pages of a match's decisions: rulings, claims, deadlines (added to tournaments/urls.py)."""

from django.urls import path

from tournaments.matches import views

urlpatterns = [
    path("rounds/<int:pk>/deadline/", views.round_deadline_view, name="round-deadline-set"),
    path("matches/<int:pk>/rule/", views.match_rule_view, name="match-rule-form"),
    path(
        "matches/<int:pk>/claim-walkover/",
        views.match_walkover_view,
        name="match-walkover-claim",
    ),
    path(
        "matches/<int:pk>/claim-penalty/",
        views.match_penalty_view,
        name="match-penalty-claim",
    ),
    path("matches/<int:pk>/game-file/", views.match_result_file_view, name="match-game-file"),
    path("matches/<int:pk>/score-form/", views.match_score_form_view, name="match-score-form"),
]
