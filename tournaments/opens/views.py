"""Pages for table opens (create, start, pairings, blank score sheets, a round's results, late
entries, drop-outs), tie-breaks and the event exports. Thin: a form or a selector each.

Visibility as on the other championship pages: what an unpublished championship holds is a 404
to everyone but its staff; each page declares its rule (`permission_required`), a 403 with
`STAFF_REFUSAL`'s words, and the services check again.
"""

from __future__ import annotations

from typing import TypeVar

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tantrix_site.http.permissions import (
    has_permission,
    permission_context,
    permission_required,
)
from tournaments import selectors
from tournaments.models import Championship, Entry, Event, Match, Round, TableResultState
from tournaments.opens.forms import (
    DisputeForm,
    DropForm,
    LateEntryForm,
    ReopenForm,
    RuleForm,
    StartForm,
    TableOpenForm,
    TieBreaksForm,
    round_results_apply,
    sheet_forms,
)
from tournaments.opens.services.table_disputes import may_dispute, table_result_history
from tournaments.pages.actions import action_page, applied, back_to_event, posted
from tournaments.pages.lookups import championship_or_404, event_or_404, round_or_404
from tournaments.permissions import STAFF_REFUSAL
from tournaments.services.exports import event_export, pairings_csv, results_csv, standings_csv
from tournaments.standings import round_tables

T = TypeVar("T")


def _open_entry_or_404(request, pk: int) -> Entry:
    """An entry of an event the user may see, with its player."""
    entry = get_object_or_404(Entry.objects.select_related("event__championship", "player"), pk=pk)
    event_or_404(request, entry.event_id)
    return entry


@login_required
@permission_required("manage", lookup=championship_or_404, refusal=STAFF_REFUSAL)
def table_open_create_view(request, championship: Championship):
    form = TableOpenForm(posted(request), championship=championship)
    if (event := applied(request, form, lambda: form.apply(actor=request.user))) is not None:
        return back_to_event(
            request,
            event.pk,
            _("%(event)s is created: register its players.") % {"event": event.name},
        )
    return action_page(
        request,
        title=_("New table open in %(championship)s") % {"championship": championship},
        intro=_(
            "A face-to-face open: one game per table and round, results typed from the "
            "score sheets. The tie-breaks are shown on the event page before the start."
        ),
        form=form,
        back_url=reverse("championship-page", args=[championship.pk]),
        submit=_("Create the table open"),
    )


@login_required
@permission_required("manage", lookup=event_or_404, refusal=STAFF_REFUSAL)
def table_open_start_view(request, event: Event):
    form = StartForm(posted(request), initial={"draw_seed": event.draw_seed})
    if applied(request, form, lambda: form.apply(actor=request.user, event=event)) is not None:
        return back_to_event(
            request,
            event.pk,
            _("%(event)s has started: round 1 is published.") % {"event": event.name},
        )
    return action_page(
        request,
        title=_("Start %(event)s") % {"event": event.name},
        intro=_(
            "Publishes round 1 (a round robin: every round) with table numbers. "
            "Later Swiss rounds are paired when the previous round's last result is in."
        ),
        form=form,
        back_url=reverse("event-page", args=[event.pk]),
        submit=_("Start the open"),
    )


def round_pairings_view(request, pk: int):
    round_ = round_or_404(request, pk)
    event = round_.event
    context = {
        "round": round_,
        "event": event,
        "tables": round_tables(round_),
        **permission_context(request.user, event, "rule"),
    }
    return render(request, "tournaments/open_pairings.html", context)


@login_required
@permission_required("rule", lookup=round_or_404, refusal=STAFF_REFUSAL)
def round_sheets_view(request, round_: Round):
    tables = [t for t in round_tables(round_) if not t.match.is_bye]
    context = {"round": round_, "event": round_.event, "tables": tables}
    return render(request, "tournaments/open_sheets.html", context)


@login_required
@permission_required("rule", lookup=round_or_404, refusal=STAFF_REFUSAL)
def round_results_view(request, round_: Round):
    event = round_.event
    forms_ = sheet_forms(posted(request), round_tables(round_))
    if request.method == "POST" and round_results_apply(
        actor=request.user, round_=round_, forms_=forms_
    ):
        messages.success(request, _("The results of %(round)s are entered.") % {"round": round_})
        return redirect("open-round-pairings", pk=round_.pk)
    context = {"round": round_, "event": event, "forms": forms_}
    return render(request, "tournaments/open_results.html", context)


@login_required
@permission_required("rule", lookup=event_or_404, refusal=STAFF_REFUSAL)
def open_late_entry_view(request, event: Event):
    form = LateEntryForm(posted(request))
    entry = applied(request, form, lambda: form.apply(actor=request.user, event=event))
    if entry is not None:
        joins = _("%(player)s joins at round %(round)s.") % {
            "player": entry.player.display_name,
            "round": entry.joined_round,
        }
        return back_to_event(request, event.pk, joins)
    return action_page(
        request,
        title=_("Late entry to %(event)s") % {"event": event.name},
        intro=_(
            "The player joins at the first round with no result entered yet (that round is "
            "paired again), otherwise at the next one. Rounds missed score nothing."
        ),
        form=form,
        back_url=reverse("event-page", args=[event.pk]),
        submit=_("Enter the player"),
    )


@login_required
@permission_required("rule", lookup=_open_entry_or_404, refusal=STAFF_REFUSAL)
def entry_drop_view(request, entry: Entry):
    event = entry.event
    form = DropForm(posted(request))
    if applied(request, form, lambda: form.apply(actor=request.user, entry=entry)) is not None:
        return back_to_event(
            request,
            event.pk,
            _("%(player)s has dropped out.") % {"player": entry.player.display_name},
        )
    return action_page(
        request,
        title=_("%(player)s drops out of %(event)s")
        % {"player": entry.player.display_name, "event": event.name},
        intro=_(
            "They are not paired again and keep their place in the standings with what "
            "they scored. A game of theirs not yet entered is a walkover, scored as a bye."
        ),
        form=form,
        back_url=reverse("event-page", args=[event.pk]),
        submit=_("Drop out"),
    )


@login_required
@permission_required("manage", lookup=event_or_404, refusal=STAFF_REFUSAL)
def event_tiebreaks_view(request, event: Event):
    form = TieBreaksForm(posted(request), event=event)
    if applied(request, form, lambda: form.apply(actor=request.user)) is not None:
        return back_to_event(
            request, event.pk, _("The tie-breaks of %(event)s are set.") % {"event": event.name}
        )
    warning = None
    if event.status in ("drawn", "finished"):
        warning = _("The event has started: a change needs your confirmation and is audited.")
    return action_page(
        request,
        title=_("Tie-breaks of %(event)s") % {"event": event.name},
        intro=_(
            "The standings rank on the first criterion, then each next one among those "
            "still level, and finally by seed."
        ),
        warning=warning,
        form=form,
        back_url=reverse("event-page", args=[event.pk]),
        submit=_("Save the tie-breaks"),
    )


def _download(text: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(text, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def event_standings_csv_view(request, pk: int):
    event = event_or_404(request, pk)
    name = f"{slugify(event.name)}-standings.csv"
    return _download(standings_csv(event), name, "text/csv; charset=utf-8")


def event_results_csv_view(request, pk: int):
    event = event_or_404(request, pk)
    name = f"{slugify(event.name)}-results.csv"
    return _download(results_csv(event), name, "text/csv; charset=utf-8")


def round_pairings_csv_view(request, pk: int):
    round_ = round_or_404(request, pk)
    name = f"{slugify(round_.event.name)}-round-{round_.number}-pairings.csv"
    return _download(pairings_csv(round_), name, "text/csv; charset=utf-8")


@login_required
@permission_required("rule", lookup=event_or_404, refusal=STAFF_REFUSAL)
def event_export_json_view(request, event: Event):
    response = JsonResponse(event_export(event), json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{slugify(event.name)}.json"'
    return response


_TABLE_FORMS = {"dispute": DisputeForm, "rule": RuleForm, "reopen": ReopenForm}


def table_result_view(request, pk: int):
    """A table's typed result: its state, and the dispute, ruling and reopening forms for
    whoever may use them. The history (reasons included) is for the table's players and the
    championship's staff."""
    match = get_object_or_404(
        Match.objects.select_related(
            "event__championship", "round", "entry_a__player", "entry_b__player", "table_result"
        ).filter(event__table_open=True, table_result__isnull=False),
        pk=pk,
    )
    event = match.event
    if not selectors.events_visible_to(request.user).filter(pk=event.pk).exists():
        raise Http404(_("No such table."))
    result = match.table_result
    user = request.user
    # Which forms this person has, in the result's state (each service checks again).
    allowed = {
        "dispute": result.state == TableResultState.ENTERED and may_dispute(user, match),
        "rule": result.state == TableResultState.DISPUTED and has_permission(user, "judge", match),
        "reopen": result.state == TableResultState.RULED
        and has_permission(user, "manage", match)
        and has_permission(user, "judge", match),
    }
    posted = request.POST.get("action") if request.method == "POST" else None
    if posted is not None:
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        if posted not in _TABLE_FORMS:
            raise Http404(_("No such action."))
        if not allowed[posted]:
            raise PermissionDenied(str(STAFF_REFUSAL))
    forms_ = {
        name: form_class(request.POST if posted == name else None, prefix=name)
        for name, form_class in _TABLE_FORMS.items()
        if allowed[name]
    }
    form = forms_.get(posted) if posted else None
    if form is not None and form.is_valid() and form.apply(actor=user, match_id=match.pk):
        messages.success(request, _TABLE_DONE[posted])
        return redirect("open-table-result", pk=match.pk)
    insider = may_dispute(user, match) or has_permission(user, "rule", match)
    context = {
        "event": event,
        "match": match,
        "result": result,
        "table": match.bracket_index + 1,
        "forms": forms_,
        "history": table_result_history(match) if insider else None,
    }
    return render(request, "tournaments/open_table_result.html", context)


_TABLE_DONE = {
    "dispute": gettext_lazy("The result is disputed: the controllers are told."),
    "rule": gettext_lazy("The ruling is recorded and the players are told."),
    "reopen": gettext_lazy("The ruling is reopened: the controllers are told."),
}
