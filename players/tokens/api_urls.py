from django.urls import path

from players.tokens import api

# Under /api/auth/ (tantrix_site/urls.py).
urlpatterns = [
    path("token/", api.TokenObtainView.as_view(), name="api-token"),
    path("token/rotate/", api.TokenRotateView.as_view(), name="api-token-rotate"),
    path("logout/", api.LogoutView.as_view(), name="api-logout"),
    path("logout-all/", api.LogoutAllView.as_view(), name="api-logout-all"),
    path("tokens/", api.TokenListView.as_view(), name="api-tokens"),
    path("tokens/<int:pk>/", api.TokenDetailView.as_view(), name="api-token-detail"),
]
