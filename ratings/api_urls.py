from django.urls import path

from ratings import api, api_staff

urlpatterns = [
    path("ratings/rankings/", api.RankingListView.as_view(), name="api-ranking-list"),
    path("ratings/players/<int:pk>/", api.PlayerRatingsView.as_view(), name="api-player-ratings"),
    path(
        "ratings/players/<int:pk>/history/",
        api.PlayerHistoryView.as_view(),
        name="api-rating-history",
    ),
    path("ratings/titles/", api.TitleListCreateView.as_view(), name="api-title-list"),
    path(
        "ratings/titles/<int:pk>/withdraw/",
        api.TitleWithdrawView.as_view(),
        name="api-title-withdraw",
    ),
    path("ratings/reviews/", api.ReviewListView.as_view(), name="api-review-list"),
    path("ratings/reviews/<int:pk>/", api.ReviewDetailView.as_view(), name="api-review-detail"),
    path(
        "ratings/reviews/<int:pk>/approve/",
        api.ReviewApproveView.as_view(),
        name="api-review-approve",
    ),
    path(
        "ratings/reviews/<int:pk>/revert/",
        api.ReviewRevertView.as_view(),
        name="api-review-revert",
    ),
    path(
        "ratings/changes/<int:pk>/revert/",
        api.ChangeRevertView.as_view(),
        name="api-change-revert",
    ),
    path(
        "ratings/adjustments/",
        api.AdjustmentListCreateView.as_view(),
        name="api-adjustment-list",
    ),
    path("ratings/audit/", api.AuditListView.as_view(), name="api-rating-audit"),
    path(
        "ratings/recomputes/",
        api_staff.RecomputeListCreateView.as_view(),
        name="api-recompute-list",
    ),
    path(
        "ratings/recomputes/<int:pk>/",
        api_staff.RecomputeDetailView.as_view(),
        name="api-recompute-detail",
    ),
    path(
        "ratings/events/<int:event_id>/elo/",
        api_staff.EventEloView.as_view(),
        name="api-event-elo",
    ),
    path(
        "ratings/reviews/<int:pk>/revert-series/",
        api_staff.ReviewSeriesRevertView.as_view(),
        name="api-review-revert-series",
    ),
]
