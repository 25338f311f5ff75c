"""The API's token endpoints (docs/api-tokens.md): obtain, rotate, log out (one or all), list
and revoke."""

from __future__ import annotations

import contextlib
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from players.models import ApiToken
from players.passwords import token_request_max_bytes
from players.tokens import selectors, services
from players.tokens.authentication import TokenAuthentication
from players.tokens.serializers import (
    ApiTokenSerializer,
    IssuedTokenSerializer,
    RevokedSerializer,
    TokenRequestSerializer,
)
from tantrix_site.http.login_limits import (
    LoginLocked,
    RequestBodyTooLarge,
    client_address,
    login_lock_remaining,
)
from tantrix_site.http.middleware import declared_body_size


def _client_of(request: Request) -> str:
    return request.META.get("HTTP_USER_AGENT", "")


def _issued(issued: services.IssuedToken) -> Response:
    return Response(
        IssuedTokenSerializer({"token": issued.key, "expires": issued.token.expires}).data
    )


class TokenObtainView(APIView):
    """POST /api/auth/token/: a new token for this client, behind the body size limit and the
    login limits. Its request and answer are DRF's `ObtainAuthToken`'s (plus `expires`)."""

    # The credentials are in the body: no session (and so no CSRF check), no other token.
    authentication_classes: list = []
    permission_classes: list = []
    # Failed logins are counted instead (tantrix_site/http/login_limits.py), as DRF's view did.
    throttle_classes: list = []
    parser_classes = [FormParser, MultiPartParser, JSONParser]
    renderer_classes = [JSONRenderer]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # Before anything reads request.data.
        limit = token_request_max_bytes()
        if declared_body_size(request) > limit:
            raise RequestBodyTooLarge(
                ngettext(
                    "A token request is a user name and a password: at most %(limit)d byte.",
                    "A token request is a user name and a password: at most %(limit)d bytes.",
                    limit,
                )
                % {"limit": limit}
            )
        super().initial(request, *args, **kwargs)

    @extend_schema(
        request=TokenRequestSerializer,
        responses={
            200: IssuedTokenSerializer,
            400: OpenApiResponse(
                description="Wrong user name or password, a field missing, or a password "
                "longer than the longest one may set (4096 characters)."
            ),
            413: OpenApiResponse(
                description="The request body is over 55,048 bytes (room for the longest user "
                "name and password in any encoding)."
            ),
            429: OpenApiResponse(
                description="Too many failed logins; `Retry-After` says for how many seconds."
            ),
        },
        description=(
            "Trade a user name and password for a new token (`Authorization: Token <token>`), "
            "one per client: each call issues another, which ends when it expires "
            "(`expires`), when the client logs out or rotates it, when the user revokes it, or "
            "when the password changes. After too many failed attempts for one user name or "
            "from one address, attempts are refused for a while, even with the right password."
        ),
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = request.data
        username = data.get("username") if hasattr(data, "get") else None
        wait = login_lock_remaining(
            username=username if isinstance(username, str) else None,
            address=client_address(request),
        )
        if wait:
            raise LoginLocked(wait)
        serializer = TokenRequestSerializer(data=data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        return _issued(services.api_token_issue(user=user, client=_client_of(request)))


class _WithThisToken(APIView):
    """An endpoint about the token the request carries: token authentication only."""

    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAuthenticated]


class TokenRotateView(_WithThisToken):
    @extend_schema(
        request=None,
        responses={200: IssuedTokenSerializer},
        description="A new token in place of the one sent, which stops at once.",
    )
    def post(self, request: Request) -> Response:
        try:
            issued = services.api_token_rotate(token=request.auth, client=_client_of(request))
        except services.ApiTokenGone:
            raise AuthenticationFailed(_("Invalid token.")) from None
        return _issued(issued)


class LogoutView(_WithThisToken):
    @extend_schema(request=None, responses={204: None}, description="Revoke the token sent.")
    def post(self, request: Request) -> Response:
        # Revoked meanwhile (another logout) is the same end.
        with contextlib.suppress(ApiToken.DoesNotExist):
            services.api_token_revoke(user=request.user, token_id=request.auth.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutAllView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: RevokedSerializer},
        description="Revoke every token of the signed-in user, the one sent included.",
    )
    def post(self, request: Request) -> Response:
        revoked = services.api_tokens_revoke_all(user=request.user)
        return Response(RevokedSerializer({"revoked": revoked}).data)


class TokenListView(generics.ListAPIView):
    """GET /api/auth/tokens/: the signed-in user's tokens that still work, newest first."""

    permission_classes = [IsAuthenticated]
    serializer_class = ApiTokenSerializer
    filter_backends: list = []

    def get_queryset(self):
        return selectors.api_tokens_of(self.request.user)


class TokenDetailView(generics.GenericAPIView):
    """DELETE /api/auth/tokens/{id}/: revoke one of one's own tokens (404 for anyone else's)."""

    permission_classes = [IsAuthenticated]
    serializer_class = ApiTokenSerializer
    queryset = ApiToken.objects.none()

    @extend_schema(responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        try:
            services.api_token_revoke(user=request.user, token_id=pk)
        except ApiToken.DoesNotExist:
            raise Http404 from None
        return Response(status=status.HTTP_204_NO_CONTENT)
