from django.urls import path

from games import report_views, review_views, views

urlpatterns = [
    path("", views.game_list_view, name="game-list"),
    path("<int:pk>/", views.game_detail_view, name="game-detail"),
    path("submit/", views.record_submit_view, name="record-submit"),
    path("score-sheet/", report_views.score_sheet_view, name="score-sheet-submit"),
    path("records/", views.record_list_view, name="record-list"),
    path("records/<int:pk>/", views.record_detail_view, name="record-detail"),
    path("reports/", report_views.reports_waiting_view, name="reports-waiting"),
    path("reports/<int:pk>/", report_views.reported_game_view, name="reported-game-detail"),
    path("reports/<int:pk>/rule/", report_views.report_rule_view, name="report-rule"),
    path("reports/<int:pk>/reopen/", report_views.report_reopen_view, name="report-reopen"),
    path(
        "reports/versions/<int:pk>/confirm/",
        report_views.report_confirm_view,
        name="report-confirm",
    ),
    path(
        "reports/versions/<int:pk>/dispute/",
        report_views.report_dispute_view,
        name="report-dispute",
    ),
    path("verdict-reviews/", review_views.review_list_view, name="verdict-review-list"),
    path(
        "verdict-reviews/<int:pk>/",
        review_views.review_detail_view,
        name="verdict-review-detail",
    ),
    path(
        "verdict-reviews/<int:pk>/decide/",
        review_views.review_decide_view,
        name="verdict-review-decide",
    ),
]
