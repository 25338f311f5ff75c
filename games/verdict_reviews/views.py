"""Web pages of verdict reviews (staff): the list and one review with approve / reject.
Thin: the rules are in games/verdict_reviews/services.py."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.models import VerdictReview
from games.records import verdicts
from games.verdict_reviews.readjudication import change_summary, describe
from games.verdict_reviews.selectors import review_for, reviews_for
from games.verdict_reviews.services import review_decide
from tantrix_site.http.permissions import permission_required


def _label(review: VerdictReview) -> VerdictReview:
    review.changes_text = change_summary(review.changes)
    review.old_text = describe(review.old_verdict)
    review.new_text = describe(review.new_verdict)
    return review


@login_required
@permission_required("review_verdicts")
def review_list_view(request):
    status = request.GET.get("status", VerdictReview.Status.OPEN)
    if status not in VerdictReview.Status.values:
        status = VerdictReview.Status.OPEN
    reviews = reviews_for(request.user, status)
    page = Paginator(reviews, 50).get_page(request.GET.get("page"))
    for review in page:
        _label(review)
    return render(
        request,
        "games/verdict_review_list.html",
        {"page": page, "status": status, "statuses": VerdictReview.Status.choices},
    )


@login_required
@permission_required("review_verdicts")
def review_detail_view(request, pk: int):
    try:
        review = _label(review_for(request.user, pk))
    except VerdictReview.DoesNotExist:
        raise Http404(_("No such review.")) from None
    # Why the new verdict says invalid, in the reader's language where it can be said in it.
    error = (review.new_verdict or {}).get("error") or {}
    review.new_reason = verdicts.record_placement_sentence(review.record.body_bytes, error) or str(
        error.get("message") or ""
    )
    return render(request, "games/verdict_review_detail.html", {"review": review})


@login_required
@require_POST
@permission_required("review_verdicts")
def review_decide_view(request, pk: int):
    decision = request.POST.get("decision")
    if decision not in ("approve", "reject"):
        messages.error(request, _("Choose approve or reject."))
        return redirect("verdict-review-detail", pk=pk)
    try:
        review_decide(
            actor=request.user,
            review_id=pk,
            approve=decision == "approve",
            note=request.POST.get("note", ""),
        )
    except VerdictReview.DoesNotExist:
        raise Http404(_("No such review.")) from None
    except ValidationError as exc:
        for text in exc.messages:
            messages.error(request, text)
        return redirect("verdict-review-detail", pk=pk)
    if decision == "approve":
        messages.success(request, _("Approved: the record now carries the new verdict."))
    else:
        messages.success(request, _("Rejected: the stored verdict stays."))
    return redirect("verdict-review-detail", pk=pk)
