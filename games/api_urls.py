from django.urls import path

from games import api

urlpatterns = [
    path("games/", api.GameListView.as_view(), name="api-game-list"),
    path("games/<int:pk>/", api.GameDetailView.as_view(), name="api-game-detail"),
    path("games/records/", api.RecordListCreateView.as_view(), name="api-record-list"),
    path("games/records/<int:pk>/", api.RecordDetailView.as_view(), name="api-record-detail"),
]
