"""The web side of API tokens and passwords: revoke tokens from the profile page, change the
password (which revokes them all)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import redirect, resolve_url
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from players.models import ApiToken
from players.roles import player_of
from players.tokens import services
from tantrix_site.http.forms import apply_service_errors


def _profile_url(user) -> str:
    """The profile page, where the tokens are listed (home for an account with no player)."""
    player = player_of(user)
    return resolve_url("player-detail", pk=player.pk) if player is not None else resolve_url("home")


@login_required
@require_POST
def api_token_revoke_view(request, pk: int):
    try:
        services.api_token_revoke(user=request.user, token_id=pk)
    except ApiToken.DoesNotExist:
        raise Http404(_("No such token.")) from None
    messages.success(
        request, _("The token is revoked: the program that held it can no longer act for you.")
    )
    return redirect(_profile_url(request.user) + "#api-tokens")


@login_required
@require_POST
def api_tokens_revoke_all_view(request):
    count = services.api_tokens_revoke_all(user=request.user)
    messages.success(
        request,
        ngettext("%(count)d token revoked.", "%(count)d tokens revoked.", count) % {"count": count},
    )
    return redirect(_profile_url(request.user) + "#api-tokens")


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's page (the old password, the new one twice, the validators' rules), with the
    change made by the service that also revokes every API token."""

    template_name = "registration/password_change_form.html"

    def form_valid(self, form):
        try:
            services.password_change(user=form.user, password=form.cleaned_data["new_password1"])
        except ValidationError as exc:
            apply_service_errors(form, exc)
            return self.form_invalid(form)
        update_session_auth_hash(self.request, form.user)  # this browser stays signed in
        messages.success(
            self.request,
            _(
                "Your password is changed. Programs that used the API for you must ask for "
                "new tokens."
            ),
        )
        return HttpResponseRedirect(_profile_url(self.request.user))
