"""Web pages: public rankings, rating histories and titles; the admins' review page."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from players.audit_registry import audit_name_objects
from players.models import Player
from players.roles import is_admin
from ratings import selectors, services
from ratings.charts import history_chart
from ratings.forms import (
    AdjustmentForm,
    NoteForm,
    TitleAwardForm,
    TitleWithdrawForm,
)
from ratings.models import AuditAction, RatingSystem, ReviewKind, ReviewStatus, Title
from tantrix_site.forms import apply_service_errors

PAGE_SIZE = 50


def admin_required(view):
    """Admins only: anonymous visitors go to the login page, everyone else gets a 403."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_admin(request.user):
            raise PermissionDenied(_("Only admins review ratings."))
        return view(request, *args, **kwargs)

    return wrapped


def _system(request) -> str:
    wanted = request.GET.get("system", "")
    return wanted if wanted in RatingSystem.values else RatingSystem.LOBBY


def ranking_list_view(request):
    system = _system(request)
    country = request.GET.get("country", "").strip()[:2]
    search = request.GET.get("q", "").strip()[:40]
    rows = list(selectors.ranking_table(system=system, country=country, search=search))
    for row in rows:
        row.provisional = selectors.is_provisional_elo(row)
    return render(
        request,
        "ratings/ranking_list.html",
        {
            "rows": rows,
            "systems": RatingSystem.choices,
            "system": system,
            "system_label": RatingSystem(system).label,
            "country": country,
            "search": search,
            "period": services.current_period(),
        },
    )


def rating_history_view(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    system = _system(request)
    history = list(selectors.rating_history(player_id=player.pk, system=system))
    chart = history_chart(history)
    page = Paginator(history[::-1], PAGE_SIZE).get_page(request.GET.get("page"))
    selectors.with_event_names(page.object_list)
    return render(
        request,
        "ratings/history.html",
        {
            "player": player,
            "system": system,
            "system_label": RatingSystem(system).label,
            "systems": RatingSystem.choices,
            "ratings": selectors.player_ratings(player_id=player.pk),
            "titles": selectors.player_titles(player_id=player.pk),
            "tournaments": selectors.with_event_names(
                list(selectors.elo_tournaments(player_id=player.pk)[:20])
            ),
            "chart": chart,
            "page": page,
        },
    )


def title_list_view(request):
    return render(
        request,
        "ratings/title_list.html",
        {
            "titles": selectors.title_list(status=Title.Status.ACTIVE),
            "cap": services.rating_params.title_params().cap,
        },
    )


def _review_page(request, *, status: int = 200, **forms):
    wanted = request.GET.get("status", ReviewStatus.OPEN)
    wanted = wanted if wanted in ReviewStatus.values or wanted == "all" else ReviewStatus.OPEN
    kind = request.GET.get("kind", "")
    kind = kind if kind in ReviewKind.values else ""
    page = Paginator(
        selectors.review_queue(status="" if wanted == "all" else wanted, kind=kind), PAGE_SIZE
    ).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "status": wanted,
        "kind": kind,
        "statuses": [*ReviewStatus.choices, ("all", pgettext("every review status", "All"))],
        "kinds": ReviewKind.choices,
        "adjustment_form": forms.get("adjustment_form") or AdjustmentForm(),
        "award_form": forms.get("award_form") or TitleAwardForm(),
        "titles": selectors.title_list(status=Title.Status.ACTIVE),
        "candidates": selectors.title_candidates(),
        "adjustments": selectors.adjustment_list()[:10],
        "masters": selectors.masters_count(),
        "cap": services.rating_params.title_params().cap,
    }
    from ratings import views_staff  # the staff tools' module imports this one

    views_staff.with_series(page.object_list)
    context.update(views_staff.staff_context())
    return render(request, "ratings/review_queue.html", context, status=status)


@admin_required
def review_queue_view(request):
    return _review_page(request)


@admin_required
@require_POST
def review_action_view(request, pk: int, action: str):
    form = NoteForm(request.POST)
    service = {"approve": services.review_approve, "revert": services.review_revert}.get(action)
    if service is None:
        raise PermissionDenied(_("Unknown review action."))
    if form.is_valid():
        try:
            service(actor=request.user, review_id=pk, note=form.cleaned_data["note"])
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            done = {
                "approve": _("Review %(review)s: approved."),
                "revert": _("Review %(review)s: reverted."),
            }[action]
            messages.success(request, done % {"review": pk})
    else:
        messages.error(
            request,
            _("Review %(review)s: a note is needed (why, for the audit trail).") % {"review": pk},
        )
    return redirect("review-queue")


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
    return redirect("review-queue")


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
