from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)
from rest_framework.routers import DefaultRouter

from players.api import PlayerViewSet
from tantrix_site import views
from tantrix_site.health import healthz
from tantrix_site.http import login_limits
from tournaments.home import views as home_views

router = DefaultRouter()
router.register("players", PlayerViewSet, basename="player")

api_urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start script as a file: no inline script for the CSP.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    # Redoc is served from static files with its start script as a file, under the policy,
    # which it widens only for what it makes at run time: style elements, and its search's
    # worker (from a blob: address). Its one outside request, the Redocly logo beside its
    # credit link, is blocked by img-src: the page tells no other host who reads it.
    path(
        "redoc/",
        csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["'self'", "blob:"]})(
            SpectacularRedocView.as_view(url_name="schema")
        ),
        name="api-redoc",
    ),
    path("auth/", include("players.tokens.api_urls")),
    path("", include("games.api_urls")),
    path("", include("ratings.api_urls")),
    path("", include("tournaments.api_urls")),
    path("", include("players.api_urls")),
    path("", include(router.urls)),
]

urlpatterns = [
    # A signed-in player's own home, else the visitor's (tournaments/home/: it reads every app).
    path("", home_views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("docs/record-format/", views.doc_page, {"slug": "record-format"}, name="record-format"),
    path("docs/<slug:slug>/", views.doc_page, name="doc-page"),
    path("api/", include(api_urlpatterns)),
    path("admin/", admin.site.urls),
    path("accounts/login/", login_limits.LimitedLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/", include("players.tokens.urls")),
    path("players/", include("players.urls")),
    path("games/", include("games.urls")),
    path("championships/", include("tournaments.urls")),
    path("rankings/", include("ratings.urls")),
]

handler404 = "tantrix_site.http.answers.not_found"
handler500 = "tantrix_site.http.answers.server_error"
