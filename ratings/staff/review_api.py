"""The review item's actions in the API, as on its page: acknowledge (note optional), revert
games behind a tournament Elo swing, adjust. Admins only (anonymous 401, others 403); an action
that does not work for the item's kind answers 400 naming why (``ratings.queue.kinds``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.response import Response

from ratings.api import TAGS, IsRatingsAdmin
from ratings.models import Review
from ratings.queue import services as queue_services
from ratings.queue.selectors import review_item
from ratings.staff.api import ReviewApproveView
from ratings.staff.review_serializers import RevertGamesSerializer, ReviewAdjustSerializer
from ratings.staff.serializers import ReviewSerializer


class ReviewAcknowledgeView(ReviewApproveView):
    """Acknowledge a review item: the ratings stay as they are; a note is optional."""


class ReviewRevertGamesView(generics.GenericAPIView):
    """Revert games behind a tournament Elo swing (`games`, from the item's `games_behind`, with
    a `note`): each leaves every table it counts in and the event's Elo is recalculated without
    them at once; the item closes as reverted."""

    permission_classes = [IsRatingsAdmin]
    serializer_class = RevertGamesSerializer
    queryset = Review.objects.all()

    @extend_schema(tags=TAGS, request=RevertGamesSerializer, responses=ReviewSerializer)
    def post(self, request, pk: int):
        review = self.get_object()
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        queue_services.review_revert_games(
            actor=request.user,
            review_id=review.pk,
            game_ids=serializer.validated_data["games"],
            note=serializer.validated_data["note"],
        )
        return Response(ReviewSerializer(review_item(review.pk)).data)


class ReviewAdjustView(generics.GenericAPIView):
    """Settle a large swing by a manual adjustment of its player in its table (a `delta` or a
    new `value`, with a `reason`); the item closes as adjusted."""

    permission_classes = [IsRatingsAdmin]
    serializer_class = ReviewAdjustSerializer
    queryset = Review.objects.all()

    @extend_schema(tags=TAGS, request=ReviewAdjustSerializer, responses=ReviewSerializer)
    def post(self, request, pk: int):
        review = self.get_object()
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        queue_services.review_adjust(
            actor=request.user,
            review_id=review.pk,
            reason=data["reason"],
            delta=data.get("delta"),
            value=data.get("value"),
        )
        return Response(ReviewSerializer(review_item(review.pk)).data)
