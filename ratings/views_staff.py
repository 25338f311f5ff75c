"""The staff's rating tools on the review page: recompute (a task, with its progress), an
event's Elo now, reverting a repeated-results series. Each view hands its form to one service."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from ratings import selectors, services
from ratings.forms import NoteForm
from ratings.models import RatingSystem, RecomputeRun, Review, ReviewKind
from ratings.views import admin_required


class RecomputeForm(forms.Form):
    systems = forms.MultipleChoiceField(
        choices=RatingSystem.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Tables"),
        help_text=gettext_lazy("None ticked: every table."),
    )


class EventEloForm(forms.Form):
    event = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Event"), choices=())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["event"].choices = selectors.elo_events_named()


def staff_context() -> dict:
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


def with_series(reviews) -> None:
    """Name the opponent of each repeated-results flag and list its series of games."""
    for review in reviews:
        if review.kind == ReviewKind.REPEATED_RESULTS:
            review.series = services.review_series(review)
            review.opponent_name = next((g.loser for g in review.series), "")


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
        return redirect("review-queue")
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
    return redirect("review-queue")
