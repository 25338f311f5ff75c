from django.urls import path

from games.reports import views

urlpatterns = [
    path("score-sheet/", views.score_sheet_view, name="score-sheet-submit"),
    path("reports/", views.reports_waiting_view, name="reports-waiting"),
    path("reports/<int:pk>/", views.reported_game_view, name="reported-game-detail"),
    path("reports/<int:pk>/rule/", views.report_rule_view, name="report-rule"),
    path("reports/<int:pk>/reopen/", views.report_reopen_view, name="report-reopen"),
    path(
        "reports/versions/<int:pk>/confirm/",
        views.report_confirm_view,
        name="report-confirm",
    ),
    path(
        "reports/versions/<int:pk>/dispute/",
        views.report_dispute_view,
        name="report-dispute",
    ),
]
