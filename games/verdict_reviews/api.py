"""The API of verdict reviews (staff): list, detail, approve, reject. Thin: the rules are in
games/verdict_reviews/services.py."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import VerdictReview
from games.verdict_reviews.readjudication import CHANGE_LABELS, describe
from games.verdict_reviews.selectors import review_for, reviews_for
from games.verdict_reviews.services import review_decide
from tantrix_site.http.answers import answer_service_errors
from tantrix_site.http.permissions import DeclaredViewPermission


class VerdictReviewSerializer(serializers.ModelSerializer):
    status_label = serializers.CharField(source="get_status_display", read_only=True)
    changes_labels = serializers.SerializerMethodField()
    old_summary = serializers.SerializerMethodField()
    new_summary = serializers.SerializerMethodField()
    game = serializers.SerializerMethodField()
    decided_by = serializers.CharField(source="decided_by.username", default=None)

    class Meta:
        model = VerdictReview
        fields = [
            "id",
            "record",
            "game",
            "status",
            "status_label",
            "changes",
            "changes_labels",
            "old_verdict",
            "new_verdict",
            "old_summary",
            "new_summary",
            "old_engine_version",
            "new_engine_version",
            "created",
            "decided_by",
            "decided_at",
            "note",
        ]

    def get_changes_labels(self, review: VerdictReview) -> list[str]:
        return [str(CHANGE_LABELS.get(kind, kind)) for kind in review.changes]

    def get_old_summary(self, review: VerdictReview) -> str:
        return describe(review.old_verdict)

    def get_new_summary(self, review: VerdictReview) -> str:
        return describe(review.new_verdict)

    def get_game(self, review: VerdictReview) -> int | None:
        game = getattr(review.record, "game", None)
        return game.pk if game is not None else None


class DecisionSerializer(serializers.Serializer):
    note = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


def _answer(call):
    return answer_service_errors(call, not_found=(VerdictReview.DoesNotExist,))


class VerdictReviewListView(APIView):
    permission_classes = [permissions.IsAuthenticated, DeclaredViewPermission]
    permission = "review_verdicts"

    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=VerdictReview.Status.values)],
        responses=VerdictReviewSerializer(many=True),
    )
    def get(self, request):
        """Verdicts re-adjudication would change, newest first (site staff only)."""
        reviews = _answer(lambda: reviews_for(request.user, request.query_params.get("status")))
        return Response(VerdictReviewSerializer(reviews[:500], many=True).data)


class VerdictReviewDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated, DeclaredViewPermission]
    permission = "review_verdicts"

    @extend_schema(responses=VerdictReviewSerializer)
    def get(self, request, pk: int):
        review = _answer(lambda: review_for(request.user, pk))
        return Response(VerdictReviewSerializer(review).data)


class _DecisionView(APIView):
    permission_classes = [permissions.IsAuthenticated, DeclaredViewPermission]
    permission = "review_verdicts"
    approve = False

    @extend_schema(request=DecisionSerializer, responses=VerdictReviewSerializer)
    def post(self, request, pk: int):
        form = DecisionSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        note = form.validated_data["note"]
        review = _answer(
            lambda: review_decide(actor=request.user, review_id=pk, approve=self.approve, note=note)
        )
        return Response(VerdictReviewSerializer(review_for(request.user, review.pk)).data)


class VerdictReviewApproveView(_DecisionView):
    """Approve: the record (and its game) take the new verdict."""

    approve = True


class VerdictReviewRejectView(_DecisionView):
    """Reject: the stored verdict stays."""

    approve = False
