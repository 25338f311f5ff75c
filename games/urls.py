from django.urls import path

from games import views

urlpatterns = [
    path("", views.game_list_view, name="game-list"),
    path("<int:pk>/", views.game_detail_view, name="game-detail"),
    path("submit/", views.record_submit_view, name="record-submit"),
    path("records/", views.record_list_view, name="record-list"),
    path("records/<int:pk>/", views.record_detail_view, name="record-detail"),
]
