"""Organiser and player screens of one round or match: a round's deadline, a ruling, a walkover
claim, a time-penalty claim. Thin, as views.py: each declares its permission
(`permission_required`), a form (tournaments/matches/forms.py) calls one service, which decides
and audits.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tantrix_site.http.permissions import permission_required
from tantrix_site.http.refusals import tell_refusal
from tournaments import selectors, services
from tournaments.matches.forms import DeadlineForm, PenaltyForm, RuleForm
from tournaments.models import Match, Round
from tournaments.pages import fragments
from tournaments.pages.actions import action_page, posted
from tournaments.pages.lookups import match_or_404, round_or_404
from tournaments.pages.views import render_match
from tournaments.permissions import judges_match, match_side_of


@login_required
@permission_required("manage", lookup=round_or_404)
def round_deadline_view(request, round_: Round):
    form = DeadlineForm(posted(request), initial={"deadline": round_.deadline})
    if (
        request.method == "POST"
        and form.is_valid()
        and form.apply(actor=request.user, round_=round_) is not None
    ):
        # The reader's way of writing a moment, with its time zone (DATETIME_FORMAT).
        deadline = formats.date_format(timezone.localtime(round_.deadline), "DATETIME_FORMAT")
        messages.success(
            request,
            _("%(round)s of %(event)s: deadline %(deadline)s.")
            % {"round": round_, "event": round_.event.name, "deadline": deadline},
        )
        return redirect("event-page", pk=round_.event_id)
    return action_page(
        request,
        title=_("Deadline of %(round)s (%(event)s)")
        % {"round": round_, "event": round_.event.name},
        form=form,
        back_url=reverse("event-page", args=[round_.event_id]),
        submit=_("Set the deadline"),
    )


@login_required
@permission_required("judge", lookup=match_or_404)
def match_rule_view(request, match: Match):
    if request.method != "POST":
        return redirect("match-page", pk=match.pk)
    form = RuleForm(request.POST, match=match)
    if form.is_valid() and form.apply(actor=request.user) is not None:
        heading = fragments.match_heading(selectors.match_detail(match.pk))
        messages.success(request, _("Ruling recorded. %(match)s.") % {"match": heading["title"]})
        return redirect("match-page", pk=match.pk)
    return render_match(request, match, rule_form=form)


@login_required
@require_POST
def match_walkover_view(request, pk: int):
    match = match_or_404(request, pk)
    try:
        services.match_walkover_claim(actor=request.user, match=match)
    except ValidationError as exc:
        tell_refusal(request, exc)
    else:
        messages.success(
            request,
            _("Walkover claimed: if no game is played by the deadline, you win this match."),
        )
    return redirect("match-page", pk=match.pk)


@login_required
@permission_required("claim_penalty", lookup=match_or_404)
def match_penalty_view(request, match: Match):
    # Which sides the form offers: either for a judge, the other side for a player.
    ruler = judges_match(request.user, match)
    side = match_side_of(request.user, match)
    if request.method != "POST":
        return redirect("match-page", pk=match.pk)
    form = PenaltyForm(request.POST, match=match, sides=[0, 1] if ruler else [1 - side])
    if form.is_valid() and form.apply(actor=request.user) is not None:
        messages.success(request, _("Time penalty applied."))
        return redirect("match-page", pk=match.pk)
    return render_match(request, selectors.match_detail(match.pk), penalty_form=form)
