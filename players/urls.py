from django.urls import path

from players import views

urlpatterns = [
    path("", views.player_list_view, name="player-list"),
    path("new/", views.player_create_view, name="player-new"),
    path("<int:pk>/", views.player_detail_view, name="player-detail"),
    path("<int:pk>/edit/", views.player_edit_view, name="player-edit"),
]
