from django.urls import include, path

from ratings import views

urlpatterns = [
    path("", views.ranking_list_view, name="ranking-list"),
    path("players/<int:pk>/", views.rating_history_view, name="rating-history"),
    path("titles/", views.title_list_view, name="title-list"),
    path("", include("ratings.staff.urls")),
]
