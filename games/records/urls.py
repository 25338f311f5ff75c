from django.urls import path

from games.records import views

urlpatterns = [
    path("submit/", views.record_submit_view, name="record-submit"),
    path("records/", views.record_list_view, name="record-list"),
    path("records/<int:pk>/", views.record_detail_view, name="record-detail"),
]
