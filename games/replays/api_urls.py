from django.urls import path

from games.replays import api

urlpatterns = [
    path("games/", api.GameListView.as_view(), name="api-game-list"),
    path("games/<int:pk>/", api.GameDetailView.as_view(), name="api-game-detail"),
]
