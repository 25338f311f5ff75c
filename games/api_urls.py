from django.urls import path

from games import api, report_api, review_api

urlpatterns = [
    path("games/", api.GameListView.as_view(), name="api-game-list"),
    path("games/<int:pk>/", api.GameDetailView.as_view(), name="api-game-detail"),
    path("games/records/", api.RecordListCreateView.as_view(), name="api-record-list"),
    path("games/records/<int:pk>/", api.RecordDetailView.as_view(), name="api-record-detail"),
    path("games/score-sheets/", report_api.ScoreSheetView.as_view(), name="api-score-sheet-submit"),
    path("reports/waiting/", report_api.WaitingReportsView.as_view(), name="api-reports-waiting"),
    path("reports/<int:pk>/", report_api.ReportedGameView.as_view(), name="api-reported-game"),
    path("reports/<int:pk>/rule/", report_api.ReportRuleView.as_view(), name="api-report-rule"),
    path(
        "reports/<int:pk>/reopen/",
        report_api.ReportReopenView.as_view(),
        name="api-report-reopen",
    ),
    path(
        "reports/versions/<int:pk>/confirm/",
        report_api.ReportConfirmView.as_view(),
        name="api-report-confirm",
    ),
    path(
        "reports/versions/<int:pk>/dispute/",
        report_api.ReportDisputeView.as_view(),
        name="api-report-dispute",
    ),
    path(
        "verdict-reviews/",
        review_api.VerdictReviewListView.as_view(),
        name="api-verdict-review-list",
    ),
    path(
        "verdict-reviews/<int:pk>/",
        review_api.VerdictReviewDetailView.as_view(),
        name="api-verdict-review-detail",
    ),
    path(
        "verdict-reviews/<int:pk>/approve/",
        review_api.VerdictReviewApproveView.as_view(),
        name="api-verdict-review-approve",
    ),
    path(
        "verdict-reviews/<int:pk>/reject/",
        review_api.VerdictReviewRejectView.as_view(),
        name="api-verdict-review-reject",
    ),
]
