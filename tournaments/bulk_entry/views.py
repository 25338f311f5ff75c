"""The bulk entry page: the list, then the choices, then one confirmation."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tantrix_site.http.permissions import permission_required
from tournaments.bulk_entry import selectors, services
from tournaments.bulk_entry.forms import ListForm, choices_posted
from tournaments.models import Event
from tournaments.pages.lookups import event_or_404


@login_required
@permission_required("manage", lookup=event_or_404)
def event_bulk_entry_view(request, event: Event):
    if request.method == "POST" and request.POST.get("step") == "confirm":
        return _confirm(request, event)
    form = ListForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        matched = selectors.lines_matched(event, form.cleaned_data["lines"])
        return _choices_page(request, event, matched, chosen={}, problems={})
    return render(
        request,
        "tournaments/bulk_entry.html",
        {"event": event, "form": form},
        status=400 if form.is_bound else 200,
    )


def _options(m: selectors.LineMatch, chosen: str) -> list[dict]:
    """The radio buttons of a line but "a new player" (it has its country field)."""
    options = []
    if m.exact is not None:
        label = _("%(name)s (%(country)s): this name exactly") % {
            "name": m.exact.display_name,
            "country": m.exact.country.code,
        }
        if m.entered:
            label = _("%(player)s: already entered") % {"player": label}
        options.append({"value": f"p{m.exact.pk}", "label": label, "disabled": m.entered})
    for player in m.suggested:
        label = _("%(name)s (%(country)s): a close name") % {
            "name": player.display_name,
            "country": player.country.code,
        }
        options.append({"value": f"p{player.pk}", "label": label, "disabled": False})
    for option in options:
        option["checked"] = option["value"] == chosen
    return options


def _choices_page(request, event, matched, *, chosen, problems, error: str = ""):
    rows = []
    for i, m in enumerate(matched):
        picked = chosen.get(m.line.number, m.default_choice)
        rows.append(
            {
                "index": i,
                "match": m,
                "chosen": picked,
                "options": _options(m, picked),
                "problems": problems.get(m.line.number, []),
            }
        )
    return render(
        request,
        "tournaments/bulk_entry_choices.html",
        {"event": event, "rows": rows, "count": len(rows), "error": error},
        status=400 if problems or error else 200,
    )


def _confirm(request, event: Event):
    lines, choices, chosen, missing = choices_posted(request.POST)
    error = ""
    if not missing:
        try:
            done = services.bulk_enter(actor=request.user, event=event, choices=choices)
        except services.LinesRefused as refused:
            missing, error = refused.lines, refused.messages[0]
        except ValidationError as exc:
            error = " ".join(exc.messages)
        else:
            messages.success(
                request,
                ngettext(
                    "%(count)s player is entered in %(event)s.",
                    "%(count)s players are entered in %(event)s.",
                    len(done.entries),
                )
                % {"count": len(done.entries), "event": event.name}
                + (
                    " "
                    + ngettext(
                        "%(count)s new player without an account was created.",
                        "%(count)s new players without an account were created.",
                        len(done.created),
                    )
                    % {"count": len(done.created)}
                    if done.created
                    else ""
                ),
            )
            return redirect("event-page", pk=event.pk)
    else:
        error = _("Some lines have no choice yet: nothing is stored.")
    matched = selectors.lines_matched(event, lines)
    return _choices_page(request, event, matched, chosen=chosen, problems=missing, error=error)
