"""The bulk entry page (added to tournaments/urls.py)."""

from django.urls import path

from tournaments.bulk_entry import views

urlpatterns = [
    path("events/<int:pk>/bulk-entry/", views.event_bulk_entry_view, name="event-bulk-entry"),
]
