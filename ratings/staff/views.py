"""The admins' review page: the review queue and its actions, adjustments, Master titles
awarded and withdrawn, the audit trail, and the staff's tools (a recompute as a task with its
progress, an event's Elo now, a repeated-results series reverted in one action). Each view
hands its form to one service."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_POST

from players.audit.registry import audit_name_objects
from ratings import selectors, services
from ratings.models import (
    AuditAction,
    RatingSystem,
    RecomputeRun,
    Review,
    ReviewKind,
    ReviewStatus,
    Title,
)
from ratings.queue import selectors as queue_selectors
from ratings.staff.forms import (
    AdjustmentForm,
    EventEloForm,
    NoteForm,
    RecomputeForm,
    TitleAwardForm,
    TitleWithdrawForm,
)
from ratings.staff.review_forms import AcknowledgeForm
from ratings.views import PAGE_SIZE
from tantrix_site.http.forms import apply_service_errors
from tantrix_site.http.permissions import permission_required


def admin_required(view):
    """Admins only: anonymous visitors go to the login page, everyone else gets a 403 (the
    declared rule `review_ratings`, ratings/staff/access.py)."""
    return login_required(permission_required("review_ratings")(view))


def _staff_tools() -> dict:
    """What the review page shows of the staff tools."""
    runs = list(RecomputeRun.objects.select_related("requested_by")[:5])
    for run in runs:
        run.progress = [
            (RatingSystem(s).label, n) for s, n in services.recompute_progress(run).items()
        ]
        run.tables = ", ".join(str(RatingSystem(s).label) for s in run.systems)
        run.results = [
            (RatingSystem(s).label, figures)
            for s, figures in (run.summary or {}).get("systems", {}).items()
        ]
    return {"recompute_form": RecomputeForm(), "event_elo_form": EventEloForm(), "runs": runs}


def _with_series(reviews) -> None:
    """Name the opponent of each repeated-results flag and list its series of games."""
    for review in reviews:
        if review.kind == ReviewKind.REPEATED_RESULTS:
            review.series = services.review_series(review)
            review.opponent_name = next((g.loser for g in review.series), "")


def back_to(request, default: str):
    """Where an action returns: the page it was taken on (the queue with its filters, or the
    item's page) when it is one of ours, else ``default``."""
    wanted = request.POST.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(wanted)
    return redirect(default)


def _review_page(request, *, status: int = 200, **forms):
    wanted = request.GET.get("status", ReviewStatus.OPEN)
    wanted = wanted if wanted in ReviewStatus.values or wanted == "all" else ReviewStatus.OPEN
    kind = request.GET.get("kind", "")
    kind = kind if kind in ReviewKind.values else ""
    table = request.GET.get("table", "")
    table = table if table in RatingSystem.values else ""
    page = Paginator(
        queue_selectors.review_queue(
            status="" if wanted == "all" else wanted, kind=kind, table=table
        ),
        PAGE_SIZE,
    ).get_page(request.GET.get("page"))
    queue_selectors.describe_reviews(page.object_list)
    context = {
        "page": page,
        "status": wanted,
        "kind": kind,
        "table": table,
        "filtered": bool(kind or table or wanted != ReviewStatus.OPEN),
        "statuses": [*ReviewStatus.choices, ("all", pgettext("every review status", "All"))],
        "kinds": ReviewKind.choices,
        "tables": RatingSystem.choices,
        "adjustment_form": forms.get("adjustment_form") or AdjustmentForm(),
        "award_form": forms.get("award_form") or TitleAwardForm(),
        "titles": selectors.title_list(status=Title.Status.ACTIVE),
        "candidates": selectors.title_candidates(),
        "adjustments": selectors.adjustment_list()[:10],
        "masters": selectors.masters_count(),
        "cap": services.rating_params.title_params().cap,
    }
    _with_series(page.object_list)
    context.update(_staff_tools())
    return render(request, "ratings/review_queue.html", context, status=status)


@admin_required
def review_queue_view(request):
    return _review_page(request)


@admin_required
@require_POST
def review_action_view(request, pk: int, action: str):
    # "approve" is the acknowledgement's first name, still answered.
    action = "acknowledge" if action == "approve" else action
    service = {"acknowledge": services.review_approve, "revert": services.review_revert}.get(action)
    if service is None:
        raise PermissionDenied(_("Unknown review action."))
    review = queue_selectors.review_item(pk)
    if review is None:
        raise Http404(_("No such review."))
    form = (AcknowledgeForm if action == "acknowledge" else NoteForm)(request.POST)
    if form.is_valid():
        try:
            service(actor=request.user, review_id=pk, note=form.cleaned_data["note"])
        except ValidationError as exc:
            messages.error(request, f"{review.item_name}: {' '.join(exc.messages)}")
        else:
            done = {
                "acknowledge": _("%(item)s: acknowledged."),
                "revert": _("%(item)s: reverted."),
            }[action]
            messages.success(request, done % {"item": review.item_name})
    else:
        messages.error(
            request,
            _("%(item)s: a note is needed (why, for the audit trail).")
            % {"item": review.item_name},
        )
    return back_to(request, "review-queue")


@admin_required
@require_POST
def adjustment_view(request):
    form = AdjustmentForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            change = services.rating_adjust(
                actor=request.user,
                player_id=data["player"].pk,
                system=data["system"],
                reason=data["reason"],
                delta=data.get("delta"),
                value=data.get("value"),
            )
        except ValidationError as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(
                request,
                _("%(player)s: %(before)s → %(after)s (%(table)s).")
                % {
                    "player": data["player"].display_name,
                    "before": f"{change.before:.2f}",
                    "after": f"{change.after:.2f}",
                    "table": RatingSystem(change.system).label,
                },
            )
            return redirect("review-queue")
    return _review_page(request, status=400, adjustment_form=form)


@admin_required
@require_POST
def title_award_view(request):
    form = TitleAwardForm(request.POST)
    if form.is_valid():
        try:
            title = services.title_award(
                actor=request.user,
                player_id=form.cleaned_data["player"].pk,
                note=form.cleaned_data["note"],
            )
        except ValidationError as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(
                request, _("%(player)s is now a Master.") % {"player": title.player.display_name}
            )
            return redirect("review-queue")
    return _review_page(request, status=400, award_form=form)


@admin_required
@require_POST
def title_withdraw_view(request, pk: int):
    form = TitleWithdrawForm(request.POST)
    if form.is_valid():
        try:
            title = services.title_withdraw(actor=request.user, title_id=pk, **form.cleaned_data)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            ended = (
                _("Title of %(player)s: lapsed.")
                if title.status == Title.Status.LAPSED
                else _("Title of %(player)s: withdrawn.")
            )
            messages.success(request, ended % {"player": title.player.display_name})
    else:
        messages.error(request, _("Withdrawing a title needs a note (why, for the audit trail)."))
    return back_to(request, "review-queue")


@admin_required
def audit_view(request):
    action = request.GET.get("action", "")
    action = action if action in AuditAction.values else ""
    page = Paginator(selectors.audit_list(action=action), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    # The event, change, review or title a line is about, by name (one query per kind).
    audit_name_objects(page.object_list)
    return render(
        request,
        "ratings/audit.html",
        {"page": page, "action": action, "actions": AuditAction.choices},
    )


@admin_required
@require_POST
def recompute_view(request):
    form = RecomputeForm(request.POST)
    if form.is_valid():
        run = services.recompute_request(
            actor=request.user, systems=form.cleaned_data["systems"] or None
        )
        # The tables by their codes, as the English page has always said them.
        messages.success(
            request, _("Recompute queued (%(tables)s).") % {"tables": ", ".join(run.systems)}
        )
    else:
        messages.error(request, _("Choose known tables to recompute."))
    return redirect("review-queue")


@admin_required
@require_POST
def event_elo_view(request):
    form = EventEloForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose an event with Elo-rated games."))
        return redirect("review-queue")
    event_id = form.cleaned_data["event"]
    try:
        result = services.event_elo_recalculate_now(actor=request.user, event_id=event_id)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        name = dict(selectors.elo_events_named()).get(event_id, "")
        messages.success(
            request,
            # Two counts: each counted in its own message, the sentence takes both phrases.
            _("Tournament Elo of %(event)s recalculated: %(players)s, %(changes)s.")
            % {
                "event": name,
                "players": ngettext("%(count)s player", "%(count)s players", result.players)
                % {"count": result.players},
                "changes": ngettext(
                    "%(count)s rating change", "%(count)s rating changes", result.changes
                )
                % {"count": result.changes},
            },
        )
    return redirect("review-queue")


@admin_required
@require_POST
def review_series_revert_view(request, pk: int):
    form = NoteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Reverting a series needs a note (why, for the audit trail)."))
        return back_to(request, "review-queue")
    try:
        review = services.review_revert_series(
            actor=request.user, review_id=pk, note=form.cleaned_data["note"]
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        count = len(services.review_series(Review.objects.get(pk=review.pk)))
        messages.success(
            request,
            ngettext(
                "The series of %(count)s game is reverted.",
                "The series of %(count)s games is reverted.",
                count,
            )
            % {"count": count},
        )
    return back_to(request, "review-queue")
