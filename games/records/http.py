"""How the API answers a record submission: status codes and links, chosen here only.

`games.records.services.record_submit` answers in domain terms (the record, and a `Refusal` with
a code when the envelope is refused). This module turns that into the HTTP answer: 202 with where
to poll, or 400/403/413 with the field messages. A repeated Idempotency-Key is not answered here:
the idempotency middleware (tantrix_site/idempotency) keeps the first answer and replays it.
"""

from __future__ import annotations

from django.urls import reverse
from rest_framework import status
from rest_framework.response import Response

from games.models import GameRecord
from games.records.refusals import Refusal, RefusalCode
from games.records.services import Submission


def refusal_status(refusal: Refusal) -> int:
    """413 for a body over the limit, 403 when the actor may not submit this at all, 400 for
    anything wrong with what was sent."""
    if refusal.code == RefusalCode.TOO_LARGE:
        return status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    return status.HTTP_403_FORBIDDEN if refusal.forbidden else status.HTTP_400_BAD_REQUEST


def record_links(record: GameRecord) -> dict[str, str]:
    return {
        "url": reverse("api-record-detail", args=[record.pk]),
        "page": reverse("record-detail", args=[record.pk]),
    }


def submission_answer(submission: Submission) -> tuple[int, dict]:
    """The status and body a submission is answered with."""
    record, refusal = submission.record, submission.refusal
    links = record_links(record)
    if refusal is None:
        return status.HTTP_202_ACCEPTED, {"id": record.pk, "status": record.status, **links}
    body = {
        **refusal.answer_errors(),
        "submission": {"id": record.pk, "status": record.status, "code": refusal.code, **links},
    }
    return refusal_status(refusal), body


def submission_response(submission: Submission) -> Response:
    """The answer to a submission: 202 with its `Location`, or the refusal."""
    status_code, body = submission_answer(submission)
    headers = {"Location": body["url"]} if status_code == status.HTTP_202_ACCEPTED else {}
    return Response(body, status=status_code, headers=headers)
