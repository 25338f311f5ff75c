"""The calendar feed in the API: my calendar's address, a new one, or none."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from players.calendars import services
from players.calendars.links import feed_url
from players.calendars.selectors import calendar_feed_of
from players.roles import player_of
from tantrix_site.http.answers import answer_service_errors


class CalendarSerializer(serializers.Serializer):
    url = serializers.URLField(
        allow_null=True,
        help_text=gettext_lazy("The private address of my calendar; null when it is turned off."),
    )


class CalendarView(APIView):
    """My calendar's private address (an iCalendar feed of my agreed matches and round
    deadlines), null when I have none."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: CalendarSerializer})
    def get(self, request):
        feed = calendar_feed_of(player_of(request.user))
        return Response({"url": feed_url(request, feed)})


class CalendarRenewView(APIView):
    """A new private address for my calendar; the old one answers 404 from now on."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={201: CalendarSerializer})
    def post(self, request):
        feed = answer_service_errors(lambda: services.calendar_feed_renew(user=request.user))
        return Response({"url": feed_url(request, feed)}, status=status.HTTP_201_CREATED)


class CalendarRevokeView(APIView):
    """Turn my calendar off: its address answers 404 from now on."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: CalendarSerializer})
    def post(self, request):
        answer_service_errors(lambda: services.calendar_feed_revoke(user=request.user))
        return Response({"url": None})
