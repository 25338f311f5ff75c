from django.urls import path

from ratings.staff import api, review_api

urlpatterns = [
    path("ratings/reviews/", api.ReviewListView.as_view(), name="api-review-list"),
    path("ratings/reviews/<int:pk>/", api.ReviewDetailView.as_view(), name="api-review-detail"),
    path(
        "ratings/reviews/<int:pk>/approve/",
        api.ReviewApproveView.as_view(),
        name="api-review-approve",
    ),
    path(
        "ratings/reviews/<int:pk>/acknowledge/",
        review_api.ReviewAcknowledgeView.as_view(),
        name="api-review-acknowledge",
    ),
    path(
        "ratings/reviews/<int:pk>/revert-games/",
        review_api.ReviewRevertGamesView.as_view(),
        name="api-review-revert-games",
    ),
    path(
        "ratings/reviews/<int:pk>/adjust/",
        review_api.ReviewAdjustView.as_view(),
        name="api-review-adjust",
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
        api.RecomputeListCreateView.as_view(),
        name="api-recompute-list",
    ),
    path(
        "ratings/recomputes/<int:pk>/",
        api.RecomputeDetailView.as_view(),
        name="api-recompute-detail",
    ),
    path(
        "ratings/events/<int:event_id>/elo/",
        api.EventEloView.as_view(),
        name="api-event-elo",
    ),
    path(
        "ratings/reviews/<int:pk>/revert-series/",
        api.ReviewSeriesRevertView.as_view(),
        name="api-review-revert-series",
    ),
]
