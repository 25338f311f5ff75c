"""Organiser and player screens of one round or match: a round's deadline, a ruling, a walkover
claim, a time-penalty claim, a game's file or a match's score form. Thin, as views.py: each
declares its permission (`permission_required`), a form (tournaments/matches/forms.py) calls one
service, which decides and audits.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from games import reports
from games.models import RecordSource
from games.records.envelope import ReceivedBody
from games.records.forms import RecordSubmitForm
from games.records.http import refusal_status
from games.records.services import record_submit
from games.score_sheet import ScoreSheetError, score_sheet_parse
from tantrix_site.http.middleware import declared_body_size, oversized_body_allowed
from tantrix_site.http.permissions import permission_required
from tantrix_site.http.refusals import tell_refusal
from tournaments import selectors, services
from tournaments.matches.forms import DeadlineForm, PenaltyForm, RuleForm
from tournaments.matches.report_forms import score_formset_for
from tournaments.models import Match, Round
from tournaments.pages import fragments
from tournaments.pages.actions import action_page, posted
from tournaments.pages.lookups import match_or_404, round_or_404
from tournaments.pages.views import render_match
from tournaments.permissions import judges_match, match_side_of


@login_required
@permission_required("manage", lookup=round_or_404)
def round_deadline_view(request, round_: Round):
    form = DeadlineForm(posted(request), initial={"deadline": round_.deadline})
    if (
        request.method == "POST"
        and form.is_valid()
        and form.apply(actor=request.user, round_=round_) is not None
    ):
        # The reader's way of writing a moment, with its time zone (DATETIME_FORMAT).
        deadline = formats.date_format(timezone.localtime(round_.deadline), "DATETIME_FORMAT")
        messages.success(
            request,
            _("%(round)s of %(event)s: deadline %(deadline)s.")
            % {"round": round_, "event": round_.event.name, "deadline": deadline},
        )
        return redirect("event-page", pk=round_.event_id)
    return action_page(
        request,
        title=_("Deadline of %(round)s (%(event)s)")
        % {"round": round_, "event": round_.event.name},
        form=form,
        back_url=reverse("event-page", args=[round_.event_id]),
        submit=_("Set the deadline"),
    )


@login_required
@permission_required("judge", lookup=match_or_404)
def match_rule_view(request, match: Match):
    if request.method != "POST":
        return redirect("match-page", pk=match.pk)
    form = RuleForm(request.POST, match=match)
    if form.is_valid() and form.apply(actor=request.user) is not None:
        heading = fragments.match_heading(selectors.match_detail(match.pk))
        messages.success(request, _("Ruling recorded. %(match)s.") % {"match": heading["title"]})
        return redirect("match-page", pk=match.pk)
    return render_match(request, match, rule_form=form)


@login_required
@require_POST
def match_walkover_view(request, pk: int):
    match = match_or_404(request, pk)
    try:
        services.match_walkover_claim(actor=request.user, match=match)
    except ValidationError as exc:
        tell_refusal(request, exc)
    else:
        messages.success(
            request,
            _("Walkover claimed: if no game is played by the deadline, you win this match."),
        )
    return redirect("match-page", pk=match.pk)


@login_required
@permission_required("claim_penalty", lookup=match_or_404)
def match_penalty_view(request, match: Match):
    # Which sides the form offers: either for a judge, the other side for a player.
    ruler = judges_match(request.user, match)
    side = match_side_of(request.user, match)
    if request.method != "POST":
        return redirect("match-page", pk=match.pk)
    form = PenaltyForm(request.POST, match=match, sides=[0, 1] if ruler else [1 - side])
    if form.is_valid() and form.apply(actor=request.user) is not None:
        messages.success(request, _("Time penalty applied."))
        return redirect("match-page", pk=match.pk)
    return render_match(request, selectors.match_detail(match.pk), penalty_form=form)


@oversized_body_allowed
@login_required
@permission_required("report_result", lookup=match_or_404)
def match_result_file_view(request, match: Match):
    """A game's file (uploaded, dropped or pasted) for this match: submitted as any record is
    (`record_submit`, the match named), so its verdict and report follow the one flow. A file
    refused before adjudication (not a game record, too big, other players) is stored as
    refused all the same, and the match page says why (400, 403 or 413)."""
    if request.method != "POST":
        return redirect("match-page", pk=match.pk)
    declared = declared_body_size(request)
    extensions = {"match": match.pk}
    if declared > settings.REQUEST_MAX_BYTES:
        # Not read at all (a multipart body keeps nothing); kept as a refusal with its size.
        form = RecordSubmitForm()
        form.full_clean()  # unbound: no errors of its own, and room for the refusal's
        form.cleaned_data = {}
        body = ReceivedBody(head=b"", size=declared, sha256="")
    else:
        form = RecordSubmitForm(request.POST, request.FILES)
        if not form.is_valid():
            return _match_page(request, match, {"upload_form": form}, status=400)
        body = form.record_body()
    submission = record_submit(
        actor=request.user, body=body, source=RecordSource.WEB, extensions=extensions
    )
    if submission.accepted:
        messages.success(
            request, _("Game file received: the rules are checked now, and the verdict follows.")
        )
        return redirect("record-detail", pk=submission.record.pk)
    for messages_ in submission.refusal.answer_errors().values():
        for message in messages_:
            form.add_error(None, message)
    # A body too large to read is 413 whatever the envelope made of what it kept.
    status = 413 if declared > settings.REQUEST_MAX_BYTES else refusal_status(submission.refusal)
    return _match_page(request, match, {"upload_form": form}, status=status)


@login_required
@permission_required("report_result", lookup=match_or_404)
def match_score_form_view(request, match: Match):
    """A face-to-face match's score form: each game's scores and how it ended, filed as one
    score sheet per game (`reports.score_sheets_submit`, all or none); the opponent confirms
    or disputes each game as any report."""
    if request.method != "POST":
        return redirect("match-page", pk=match.pk)
    formset = score_formset_for(match, data=request.POST)
    sheets = []
    if formset.is_valid():
        for _index, form in formset.filled():
            try:
                sheets.append(score_sheet_parse(form.cleaned_data))
            except ScoreSheetError as exc:
                for field, problems in exc.errors.items():
                    for problem in problems:
                        form.add_error(field if field in form.fields else None, problem)
    if formset.is_valid() and sheets:
        try:
            filed = reports.score_sheets_submit(
                actor=request.user, extensions={"match": match.pk}, sheets=sheets
            )
        except ValidationError as exc:
            first = formset.filled()[0][1]
            for problems in (
                exc.message_dict.values() if hasattr(exc, "error_dict") else [exc.messages]
            ):
                for problem in problems:
                    first.add_error(None, problem)
        else:
            messages.success(
                request,
                ngettext(
                    "%(count)s game reported: your opponent confirms or disputes it.",
                    "%(count)s games reported: your opponent confirms or disputes each.",
                    len(filed),
                )
                % {"count": len(filed)},
            )
            return redirect("match-page", pk=match.pk)
    return _match_page(request, match, {"score_form": formset}, status=400)


def _match_page(request, match: Match, report_forms: dict, *, status: int):
    return render_match(
        request, selectors.match_detail(match.pk), report_forms=report_forms, status=status
    )
