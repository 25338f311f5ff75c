"""A review item's page and the actions that need more than a note: the item as an admin
decides it (its kind, player, table, event, the games behind it, the player's chart in that table
with the flagged point marked) and its forms: acknowledge, revert, revert games behind an Elo
swing, adjust, revert a series, end a lapsed title. Admins only, as the queue."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from ratings import selectors, services
from ratings.history.charts import history_chart
from ratings.models import RatingSystem, Review, ReviewKind
from ratings.queue import services as queue_services
from ratings.queue.selectors import review_item
from ratings.staff.review_forms import AcknowledgeForm, RevertGamesForm, ReviewAdjustForm
from ratings.staff.views import admin_required
from tantrix_site.http.forms import apply_service_errors


def _item(pk: int) -> Review:
    review = review_item(pk)
    if review is None:
        raise Http404(_("No such review."))
    return review


def _detail_page(request, review: Review, *, status: int = 200, **forms):
    chart = None
    if review.player_id is not None:
        history = list(
            selectors.rating_history(player_id=review.player_id, system=review.history_table)
        )
        chart = history_chart(history, mark=review.change_id)
    context = {
        "r": review,
        "player": review.player,
        "chart": chart,
        "chart_label": RatingSystem(review.history_table).label,
        "acknowledge_form": forms.get("acknowledge_form") or AcknowledgeForm(),
        "revert_games_form": forms.get("revert_games_form")
        or RevertGamesForm(games=review.games_behind),
        "adjust_form": forms.get("adjust_form") or ReviewAdjustForm(),
        # The games ticked before a refusal stay ticked.
        "chosen": {int(g) for g in request.POST.getlist("games") if g.isdigit()},
    }
    if review.kind == ReviewKind.REPEATED_RESULTS:
        review.series = services.review_series(review)
        review.opponent_name = next((g.loser for g in review.series), "")
    return render(request, "ratings/review_detail.html", context, status=status)


@admin_required
def review_detail_view(request, pk: int):
    return _detail_page(request, _item(pk))


@admin_required
@require_POST
def review_revert_games_view(request, pk: int):
    review = _item(pk)
    form = RevertGamesForm(request.POST, games=review.games_behind)
    if form.is_valid():
        games = form.cleaned_data["games"]
        try:
            queue_services.review_revert_games(
                actor=request.user, review_id=pk, game_ids=games, note=form.cleaned_data["note"]
            )
        except ValidationError as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(
                request,
                ngettext(
                    "%(item)s: %(count)s game reverted; the event's Tournament Elo is "
                    "recalculated without it.",
                    "%(item)s: %(count)s games reverted; the event's Tournament Elo is "
                    "recalculated without them.",
                    len(games),
                )
                % {"item": review.item_name, "count": len(games)},
            )
            return redirect("review-detail", pk)
    return _detail_page(request, review, status=400, revert_games_form=form)


@admin_required
@require_POST
def review_adjust_view(request, pk: int):
    review = _item(pk)
    form = ReviewAdjustForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            queue_services.review_adjust(
                actor=request.user,
                review_id=pk,
                reason=data["reason"],
                delta=data.get("delta"),
                value=data.get("value"),
            )
        except ValidationError as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("%(item)s: adjusted.") % {"item": review.item_name})
            return redirect("review-detail", pk)
    return _detail_page(request, review, status=400, adjust_form=form)
