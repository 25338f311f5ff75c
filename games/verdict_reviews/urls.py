from django.urls import path

from games.verdict_reviews import views

urlpatterns = [
    path("verdict-reviews/", views.review_list_view, name="verdict-review-list"),
    path("verdict-reviews/<int:pk>/", views.review_detail_view, name="verdict-review-detail"),
    path(
        "verdict-reviews/<int:pk>/decide/",
        views.review_decide_view,
        name="verdict-review-decide",
    ),
]
