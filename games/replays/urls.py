from django.urls import path

from games.replays import views

urlpatterns = [
    path("", views.game_list_view, name="game-list"),
    path("<int:pk>/", views.game_detail_view, name="game-detail"),
]
