from django.urls import path

from players.tokens import views

# Under /accounts/ (tantrix_site/urls.py), beside the login.
urlpatterns = [
    path("password/", views.PasswordChangeView.as_view(), name="password-change"),
    path("tokens/<int:pk>/revoke/", views.api_token_revoke_view, name="api-token-revoke"),
    path("tokens/revoke-all/", views.api_tokens_revoke_all_view, name="api-tokens-revoke-all"),
]
