"""The round console's pages: thin, the services decide and audit."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_POST

from tantrix_site.http.permissions import permission_required
from tournaments.console import selectors, services
from tournaments.models import Match, Round
from tournaments.pages.lookups import match_or_404, round_or_404
from tournaments.permissions import STAFF_REFUSAL


@login_required
@permission_required("rule", lookup=round_or_404, refusal=STAFF_REFUSAL)
def round_console_view(request, round_: Round):
    console = selectors.round_console(round_)
    event = round_.event
    return render(
        request,
        "tournaments/round_console.html",
        {
            "event": event,
            "championship": event.championship,
            "console": console,
            "round": round_,
            "rounds": list(event.rounds.order_by("number")),
            "counts": [(key, label, console.counts[key]) for key, label in _standing_labels()],
        },
    )


# The counts' words ("Played: 3", context "matches of a round"), also a match's badge on its row.
def _standing_labels() -> list[tuple[str, str]]:
    return [
        (selectors.Standing.PLAYED, pgettext("matches of a round", "Played")),
        (selectors.Standing.WAITING, pgettext("matches of a round", "Waiting")),
        (selectors.Standing.OVERDUE, pgettext("matches of a round", "Overdue")),
        (selectors.Standing.DISPUTED, pgettext("matches of a round", "Disputed")),
    ]


@login_required
@require_POST
@permission_required("rule", lookup=match_or_404, refusal=STAFF_REFUSAL)
def match_remind_view(request, match: Match):
    try:
        told = services.match_remind(actor=request.user, match=match)
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
    else:
        messages.success(
            request,
            ngettext(
                "%(match)s: %(count)s player is reminded (a notice and an email).",
                "%(match)s: %(count)s players are reminded (a notice and an email).",
                told,
            )
            % {"match": f"{match.entry_a.name} v {match.entry_b.name}", "count": told},
        )
    return redirect("round-console", pk=match.round_id)


@login_required
@require_POST
@permission_required("rule", lookup=round_or_404, refusal=STAFF_REFUSAL)
def round_remind_view(request, round_: Round):
    done = services.round_remind_unplayed(actor=request.user, round_=round_)
    messages.success(request, services.remind_words(done))
    return redirect("round-console", pk=round_.pk)
