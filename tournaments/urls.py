from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.championship_list_view, name="championship-list"),
]
