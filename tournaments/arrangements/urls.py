"""Web pages of arranging a match (added to tournaments/urls.py)."""

from django.urls import path

from tournaments.arrangements import views

urlpatterns = [
    path("matches/<int:pk>/arrange/propose/", views.propose_view, name="arrangement-propose"),
    path("matches/<int:pk>/arrange/accept/", views.accept_view, name="arrangement-accept"),
    path("matches/<int:pk>/arrange/withdraw/", views.withdraw_view, name="arrangement-withdraw"),
    path("matches/<int:pk>/arrange/set/", views.set_time_view, name="arrangement-set"),
    path("matches/<int:pk>/arrange/no-show/", views.no_show_view, name="arrangement-no-show"),
    path(
        "matches/<int:pk>/arrange/no-show/answer/",
        views.no_show_reply_view,
        name="arrangement-no-show-reply",
    ),
    path(
        "events/<int:pk>/arrangements/",
        views.event_arrangements_view,
        name="event-arrangements",
    ),
    path("availability/", views.availability_view, name="arrangement-availability"),
]
