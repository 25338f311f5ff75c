from django.urls import path

from ratings import views

urlpatterns = [
    path("", views.ranking_list_view, name="ranking-list"),
    path("review/", views.review_queue_view, name="review-queue"),
]
