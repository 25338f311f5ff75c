"""The API of reports: what waits for me, a game's history, confirm, dispute, rule, reopen,
and score sheets. Thin: the rules are in games.reports."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from games import reports
from games.models import GameReport, ReportedGame
from games.reports.access import dispute_refusal
from games.reports.selectors import (
    reported_game_detail,
    reported_games_to_rule,
    reports_waiting_for,
)
from games.reports.serializers import (
    DisputeSerializer,
    ReopenSerializer,
    ReportedGameSerializer,
    ReportVersionSerializer,
    RulingSerializer,
    ScoreFormAnswerSerializer,
    ScoreFormSerializer,
    ScoreSheetSerializer,
    WaitingListSerializer,
    WaitingReportSerializer,
)
from games.score_sheet import ScoreSheetError, score_sheet_parse
from tantrix_site.http.answers import answer_service_errors
from tantrix_site.http.permissions import DeclaredPermission


def answer_errors(call):
    """Run a service call; its domain errors become 400 (with field messages), 403 or 404."""
    return answer_service_errors(
        call, not_found=(GameReport.DoesNotExist, ReportedGame.DoesNotExist)
    )


def _validated(serializer_class: type[Serializer], request) -> dict:
    form = serializer_class(data=request.data)
    form.is_valid(raise_exception=True)
    return form.validated_data


def _visible_version(request, pk: int) -> GameReport:
    version = GameReport.objects.filter(pk=pk).select_related("reported_game").first()
    if version is None or not reports.may_see(request.user, version.reported_game):
        raise Http404
    return version


class WaitingReportsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=WaitingListSerializer)
    def get(self, request):
        """Reports waiting for my confirmation, and (for controllers) the disputes to rule."""
        waiting = WaitingReportSerializer(reports_waiting_for(request.user), many=True).data
        to_rule = [
            {"reported_game": game.pk, "state": game.get_state_display()}
            for game in reported_games_to_rule(request.user)
        ]
        return Response({"waiting": waiting, "to_rule": to_rule})


class ReportedGameView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=ReportedGameSerializer)
    def get(self, request, pk: int):
        """A game's result and its history: every report and ruling, in order."""
        reported = answer_errors(
            lambda: reported_game_detail(reported_game_id=pk, viewer=request.user)
        )
        return Response(ReportedGameSerializer(reported).data)


class ReportConfirmView(APIView):
    permission_classes = [permissions.IsAuthenticated, DeclaredPermission]
    permission = "answer_report"

    @extend_schema(request=None, responses=ReportVersionSerializer)
    def post(self, request, pk: int):
        self.check_object_permissions(request, _visible_version(request, pk))
        version = answer_errors(lambda: reports.report_confirm(actor=request.user, report_id=pk))
        version.refresh_from_db()
        return Response(ReportVersionSerializer(version).data)


class ReportDisputeView(APIView):
    permission_classes = [permissions.IsAuthenticated, DeclaredPermission]
    permission = "answer_report"
    permission_refusal = staticmethod(dispute_refusal)

    @extend_schema(request=DisputeSerializer, responses=ReportVersionSerializer)
    def post(self, request, pk: int):
        self.check_object_permissions(request, _visible_version(request, pk))
        reason = _validated(DisputeSerializer, request)["reason"]
        version = answer_errors(
            lambda: reports.report_dispute(actor=request.user, report_id=pk, reason=reason)
        )
        version.refresh_from_db()
        return Response(ReportVersionSerializer(version).data)


def _visible_game(request, pk: int) -> ReportedGame:
    return answer_errors(lambda: reported_game_detail(reported_game_id=pk, viewer=request.user))


class ReportRuleView(APIView):
    permission_classes = [permissions.IsAuthenticated, DeclaredPermission]
    permission = "rule_report"

    @extend_schema(request=RulingSerializer, responses=ReportVersionSerializer)
    def post(self, request, pk: int):
        self.check_object_permissions(request, _visible_game(request, pk))
        ruling_form = _validated(RulingSerializer, request)
        ruling = answer_errors(
            lambda: reports.report_rule(
                actor=request.user,
                reported_game_id=pk,
                version_number=ruling_form["version"],
                reason=ruling_form["reason"],
            )
        )
        return Response(ReportVersionSerializer(ruling).data, status=status.HTTP_201_CREATED)


class ReportReopenView(APIView):
    permission_classes = [permissions.IsAuthenticated, DeclaredPermission]
    permission = "reopen_report"

    @extend_schema(request=ReopenSerializer, responses=ReportedGameSerializer)
    def post(self, request, pk: int):
        self.check_object_permissions(request, _visible_game(request, pk))
        reason = _validated(ReopenSerializer, request)["reason"]
        answer_errors(
            lambda: reports.report_reopen(actor=request.user, reported_game_id=pk, reason=reason)
        )
        reported = reported_game_detail(reported_game_id=pk, viewer=request.user)
        return Response(ReportedGameSerializer(reported).data)


def score_form_parse(games: list[dict]) -> list:
    """Each game's sheet, or ValidationError with the problems game by game (DRF's shape for
    a list: one object per game, empty for a game without problems)."""
    sheets, problems = [], []
    for game in games:
        try:
            sheets.append(score_sheet_parse(game))
            problems.append({})
        except ScoreSheetError as exc:
            problems.append(exc.errors)
    if any(problems):
        raise ValidationError({"games": problems})
    return sheets


class ScoreSheetView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=PolymorphicProxySerializer(
            component_name="ScoreSheetOrForm",
            serializers=[ScoreSheetSerializer, ScoreFormSerializer],
            resource_type_field_name=None,
        ),
        responses={201: ReportVersionSerializer},
    )
    def post(self, request):
        """Report a face-to-face match game from its score sheet (two tile scores), or a
        match's score form: `games`, a list of such sheets, one report per game, all or none."""
        if isinstance(request.data, dict) and "games" in request.data:
            return self._score_form(request)
        sheet_form = _validated(ScoreSheetSerializer, request)
        try:
            sheet = score_sheet_parse(sheet_form)
        except ScoreSheetError as exc:
            raise ValidationError(exc.errors) from None
        version = answer_errors(
            lambda: reports.score_sheet_submit(
                actor=request.user, extensions={"match": sheet_form["match"]}, sheet=sheet
            )
        )
        return Response(ReportVersionSerializer(version).data, status=status.HTTP_201_CREATED)

    def _score_form(self, request) -> Response:
        score_form = _validated(ScoreFormSerializer, request)
        sheets = score_form_parse(score_form["games"])
        filed = answer_errors(
            lambda: reports.score_sheets_submit(
                actor=request.user, extensions={"match": score_form["match"]}, sheets=sheets
            )
        )
        return Response(
            ScoreFormAnswerSerializer({"reports": filed}).data, status=status.HTTP_201_CREATED
        )
