"""Web pages of reports: what waits for me, a game's result and history, the answers, rulings
and score sheets. Thin: the rules are in games.reports."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import hooks, reports
from games.models import GameReport, ReportedGame, ReportStatus, ResultState
from games.reports.access import dispute_refusal
from games.reports.forms import DisputeForm, ReasonForm, RulingForm, ScoreSheetForm
from games.reports.notes import note_text
from games.reports.selectors import (
    names_versus,
    reported_game_detail,
    reported_games_to_rule,
    reports_waiting_for,
    seat_names,
)
from games.score_sheet import ScoreSheetError, score_sheet_parse
from tantrix_site.http.permissions import has_permission, permission_required
from tantrix_site.i18n.grammar import lowercase


def _summary(version: GameReport, names: list[str]) -> str:
    if not version.scores:
        return _("no game")
    text = " – ".join(str(score) for score in version.scores)
    if version.end_reason and version.end_reason != "completed":
        text += f" ({lowercase(version.get_end_reason_display())})"
    return text


@login_required
def reports_waiting_view(request):
    waiting = reports_waiting_for(request.user)
    for report in waiting:
        report.players = names_versus(seat_names(report.reported_game))
    to_rule = reported_games_to_rule(request.user)
    for game in to_rule:
        game.players = names_versus(seat_names(game))
    return render(request, "games/reports_waiting.html", {"waiting": waiting, "to_rule": to_rule})


def _reported_or_404(request, pk: int) -> ReportedGame:
    try:
        return reported_game_detail(reported_game_id=pk, viewer=request.user)
    except ReportedGame.DoesNotExist:
        raise Http404(_("No such reported game.")) from None


@login_required
def reported_game_view(request, pk: int, *, forms: dict | None = None, status: int = 200):
    reported = _reported_or_404(request, pk)
    names = seat_names(reported)
    versions = list(reported.versions.all())
    for version in versions:
        version.summary = _summary(version, names)
        version.note_text = note_text(version.answer_note)
        version.can_answer = version.status == ReportStatus.OPEN and has_permission(
            request.user, "answer_report", version
        )
    may_reopen = has_permission(request.user, "reopen_report", reported)
    can_rule = has_permission(request.user, "rule_report", reported) and reported.state in (
        ResultState.REPORTED,
        ResultState.DISPUTED,
    )
    rulable = [v for v in versions if v.kind != "ruling" and v.scores]
    forms = forms or {}
    authority = next(
        (a for name, a in hooks.report_authorities().items() if name in reported.extensions), None
    )
    context = {
        "reported": reported,
        "names": names,
        "title": _("Game result: %(players)s") % {"players": names_versus(names)},
        "versions": versions,
        "where": authority.label(reported.extensions[authority.extension]) if authority else "",
        "dispute_form": forms.get("dispute") or DisputeForm(),
        "ruling_form": forms.get("rule") or (RulingForm(versions=rulable) if can_rule else None),
        "reopen_form": forms.get("reopen") or (ReasonForm() if may_reopen else None),
        "can_reopen": may_reopen and reports.is_ruled(reported),
    }
    return render(request, "games/reported_game.html", context, status=status)


def _service_answer(request, pk: int, call, form_name: str, form) -> object:
    """Check a bound form, then run the service call and go back to the game page; invalid
    input or a refused call shows the page again with the form's errors (400)."""
    if form.is_bound and not form.is_valid():
        return reported_game_view(request, pk, forms={form_name: form}, status=400)
    try:
        call()
    except PermissionDenied as exc:
        raise PermissionDenied(str(exc)) from None
    except ValidationError as exc:
        for messages_ in (
            exc.message_dict if hasattr(exc, "error_dict") else {"": exc.messages}
        ).values():
            for message in messages_:
                form.add_error(None, message)
        return reported_game_view(request, pk, forms={form_name: form}, status=400)
    return redirect("reported-game-detail", pk=pk)


def _version_or_404(request, pk: int) -> GameReport:
    """A version of a game the user may see (a 404 for anything else)."""
    version = GameReport.objects.filter(pk=pk).select_related("reported_game").first()
    if version is None or not reports.may_see(request.user, version.reported_game):
        raise Http404(_("No such report."))
    return version


@login_required
@require_POST
@permission_required("answer_report", lookup=_version_or_404)
def report_confirm_view(request, version: GameReport):
    result = _service_answer(
        request,
        version.reported_game_id,
        lambda: reports.report_confirm(actor=request.user, report_id=version.pk),
        "dispute",
        DisputeForm(),
    )
    if getattr(result, "status_code", 0) == 302:
        messages.success(request, _("Confirmed: the result stands."))
        # Confirmed from elsewhere on the site (a match's page): back there.
        back = request.POST.get("next", "")
        if back and url_has_allowed_host_and_scheme(
            back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            return redirect(back)
    return result


@login_required
@require_POST
@permission_required("answer_report", lookup=_version_or_404, refusal=dispute_refusal)
def report_dispute_view(request, version: GameReport):
    form = DisputeForm(request.POST)
    return _service_answer(
        request,
        version.reported_game_id,
        lambda: reports.report_dispute(
            actor=request.user, report_id=version.pk, reason=form.cleaned_data["reason"]
        ),
        "dispute",
        form,
    )


@login_required
@require_POST
@permission_required("rule_report", lookup=_reported_or_404)
def report_rule_view(request, reported: ReportedGame):
    pk = reported.pk
    versions = [v for v in reported.versions.all() if v.kind != "ruling" and v.scores]
    for version in versions:
        version.summary = _summary(version, [])
    form = RulingForm(request.POST, versions=versions)
    return _service_answer(
        request,
        pk,
        lambda: reports.report_rule(
            actor=request.user,
            reported_game_id=pk,
            version_number=form.version_number(),
            reason=form.cleaned_data["reason"],
        ),
        "rule",
        form,
    )


@login_required
@require_POST
@permission_required("reopen_report", lookup=_reported_or_404)
def report_reopen_view(request, reported: ReportedGame):
    pk = reported.pk
    form = ReasonForm(request.POST)
    return _service_answer(
        request,
        pk,
        lambda: reports.report_reopen(
            actor=request.user, reported_game_id=pk, reason=form.cleaned_data["reason"]
        ),
        "reopen",
        form,
    )


@login_required
def score_sheet_view(request):
    match = request.GET.get("match") or request.POST.get("match") or ""
    form = ScoreSheetForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            sheet = score_sheet_parse(form.cleaned_data)
            version = reports.score_sheet_submit(
                actor=request.user,
                extensions={"match": match},
                sheet=sheet,
            )
        except ScoreSheetError as exc:
            for field, problems in exc.errors.items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
        except (ValidationError, PermissionDenied) as exc:
            for problems in (
                exc.message_dict.values() if hasattr(exc, "error_dict") else [[str(exc)]]
            ):
                for problem in problems:
                    form.add_error(None, problem)
        else:
            messages.success(request, _("Score sheet reported."))
            return redirect("reported-game-detail", pk=version.reported_game_id)
    if request.method == "POST":
        status = 400
    return render(request, "games/score_sheet.html", {"form": form, "match": match}, status=status)
