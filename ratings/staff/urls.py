from django.urls import path

from ratings.staff import review_views, views

urlpatterns = [
    path("review/", views.review_queue_view, name="review-queue"),
    path("review/<int:pk>/", review_views.review_detail_view, name="review-detail"),
    # Before the generic action route, which would take "adjust" for an action's name.
    path("review/<int:pk>/adjust/", review_views.review_adjust_view, name="review-adjust"),
    path(
        "review/<int:pk>/games/revert/",
        review_views.review_revert_games_view,
        name="review-revert-games",
    ),
    path("review/<int:pk>/<str:action>/", views.review_action_view, name="review-action"),
    path("review/adjust/", views.adjustment_view, name="rating-adjust"),
    path("review/titles/award/", views.title_award_view, name="title-award"),
    path("review/titles/<int:pk>/withdraw/", views.title_withdraw_view, name="title-withdraw"),
    path("audit/", views.audit_view, name="rating-audit"),
    path("review/recompute/", views.recompute_view, name="rating-recompute"),
    path("review/event-elo/", views.event_elo_view, name="rating-event-elo"),
    path(
        "review/series/<int:pk>/revert/",
        views.review_series_revert_view,
        name="review-series-revert",
    ),
]
