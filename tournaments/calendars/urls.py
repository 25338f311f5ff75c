from django.urls import path

from tournaments.calendars import views

urlpatterns = [
    path("events/<int:pk>/calendar.ics", views.event_calendar_view, name="event-calendar"),
]
