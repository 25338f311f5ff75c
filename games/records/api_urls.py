from django.urls import path

from games.records import api

urlpatterns = [
    path("games/records/", api.RecordListCreateView.as_view(), name="api-record-list"),
    path("games/records/<int:pk>/", api.RecordDetailView.as_view(), name="api-record-detail"),
]
