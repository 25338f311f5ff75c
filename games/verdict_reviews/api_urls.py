from django.urls import path

from games.verdict_reviews import api

urlpatterns = [
    path(
        "verdict-reviews/",
        api.VerdictReviewListView.as_view(),
        name="api-verdict-review-list",
    ),
    path(
        "verdict-reviews/<int:pk>/",
        api.VerdictReviewDetailView.as_view(),
        name="api-verdict-review-detail",
    ),
    path(
        "verdict-reviews/<int:pk>/approve/",
        api.VerdictReviewApproveView.as_view(),
        name="api-verdict-review-approve",
    ),
    path(
        "verdict-reviews/<int:pk>/reject/",
        api.VerdictReviewRejectView.as_view(),
        name="api-verdict-review-reject",
    ),
]
