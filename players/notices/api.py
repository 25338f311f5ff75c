"""The notices API: my notices, newest first, and marking them read."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from players.models import Notice
from players.notices.links import notice_link
from players.notices.selectors import notices_for
from players.notices.services import notices_mark_read


class NoticeSerializer(serializers.ModelSerializer):
    # The page the notice is about ("" when none), built as it is read (players.notices.links).
    url = serializers.SerializerMethodField()

    class Meta:
        model = Notice
        fields = ["id", "text", "url", "read", "created"]

    def get_url(self, notice: Notice) -> str:
        return notice_link(notice)


class NoticesReadSerializer(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**62),
        required=False,
        max_length=1000,
        help_text=gettext_lazy("The notices to mark read; all of them when left out."),
    )


class NoticeListView(generics.ListAPIView):
    """My notices, newest first (`read` says whether I have seen each)."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = NoticeSerializer

    def get_queryset(self):
        return notices_for(self.request.user)


class NoticesReadView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=NoticesReadSerializer, responses={200: None})
    def post(self, request):
        form = NoticesReadSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        changed = notices_mark_read(user=request.user, notice_ids=form.validated_data.get("ids"))
        return Response({"marked_read": changed})
