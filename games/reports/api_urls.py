from django.urls import path

from games.reports import api

urlpatterns = [
    path("games/score-sheets/", api.ScoreSheetView.as_view(), name="api-score-sheet-submit"),
    path("reports/waiting/", api.WaitingReportsView.as_view(), name="api-reports-waiting"),
    path("reports/<int:pk>/", api.ReportedGameView.as_view(), name="api-reported-game"),
    path("reports/<int:pk>/rule/", api.ReportRuleView.as_view(), name="api-report-rule"),
    path("reports/<int:pk>/reopen/", api.ReportReopenView.as_view(), name="api-report-reopen"),
    path(
        "reports/versions/<int:pk>/confirm/",
        api.ReportConfirmView.as_view(),
        name="api-report-confirm",
    ),
    path(
        "reports/versions/<int:pk>/dispute/",
        api.ReportDisputeView.as_view(),
        name="api-report-dispute",
    ),
]
