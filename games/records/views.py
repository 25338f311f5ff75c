"""Web pages of game records: submit one, your records, a record with its verdict (and its
replay, when the engine could read it)."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render

from games import engine
from games.links import match_link
from games.models import Game, GameRecord, RecordSource, RecordStatus
from games.records import selectors, services, verdicts
from games.records.envelope import ReceivedBody
from games.records.forms import RecordSubmitForm
from games.replays.viewer import replay_context
from tantrix_site.http.middleware import declared_body_size, oversized_body_allowed
from tantrix_site.http.permissions import permission_required

ENGINE_CODES = frozenset(engine.ERROR_CODES)


@oversized_body_allowed
@login_required
def record_submit_view(request):
    initial = {"match": request.GET.get("match")}
    refused = None
    declared = declared_body_size(request)
    if request.method == "POST" and declared > settings.REQUEST_MAX_BYTES:
        # Not parsed at all; stored as a refused record that says how large it was.
        refused = services.record_submit(
            actor=request.user,
            body=ReceivedBody(head=b"", size=declared, sha256=""),
            source=RecordSource.WEB,
        )
        return render(
            request,
            "games/submit.html",
            {
                "form": RecordSubmitForm(initial=initial),
                "refused": refused,
                "refusal_messages": _refusal_messages(refused),
                "match": _submit_match(initial["match"]),
            },
            status=413,
        )
    form = RecordSubmitForm(request.POST or None, request.FILES or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        match = form.cleaned_data.get("match")
        submission = services.record_submit(
            actor=request.user,
            body=form.record_body(),
            source=RecordSource.WEB,
            extensions={"match": match} if match else {},
        )
        if submission.accepted:
            return redirect("record-detail", pk=submission.record.pk)
        refused = submission
        for message in _refusal_messages(submission):
            form.add_error(None, message)
    return render(
        request,
        "games/submit.html",
        {"form": form, "refused": refused, "match": _submit_match(initial["match"])},
    )


def _submit_match(value: str | None):
    """The match named in ?match=, as people name it; None when it is not a known match."""
    if not value or not value.isdigit() or len(value) > 18:
        return None
    return match_link(int(value))


def _refusal_messages(submission: services.Submission) -> list[str]:
    refusal = submission.refusal
    if refusal is None:
        return []
    return [
        verdicts.error_text(" ".join(str(message) for message in messages))
        for messages in refusal.errors.values()
    ]


def _record_or_404(request, pk: int) -> GameRecord:
    return get_object_or_404(GameRecord.objects.select_related("submitter"), pk=pk)


@login_required
@permission_required("see_record", lookup=_record_or_404)
def record_detail_view(request, record: GameRecord):
    game = Game.objects.filter(record=record).first()
    context = {
        "record": record,
        "game": game,
        "match": match_link(record.extensions.get("match")),
        "error_rule": verdicts.code_label(record.error_code) if record.error_code else "",
        "error_rule_text": verdicts.rule_text(record.error_code),
        "error_text": verdicts.record_placement_sentence(
            record.body_bytes, verdicts.record_error_dict(record)
        )
        or verdicts.error_text(record.error_message),
        "status_labels": json.dumps({str(v): str(label) for v, label in RecordStatus.choices}),
    }
    # The board is worth showing for a record the engine judged and could read: the whole game,
    # or the game up to the placement that broke a rule (not for a submission refused before
    # adjudication, such as one naming an unknown player).
    judged = record.status == RecordStatus.VALID or record.error_code in ENGINE_CODES
    if judged and record.error_code != engine.errors.MALFORMED:
        context.update(replay_context(record))
    return render(request, "games/record_detail.html", context)


@login_required
def record_list_view(request):
    page = Paginator(selectors.records_for(request.user), 50).get_page(request.GET.get("page"))
    for record in page:
        record.error_rule = verdicts.code_label(record.error_code) if record.error_code else ""
    return render(request, "games/record_list.html", {"page": page})
