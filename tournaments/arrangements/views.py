"""Web pages of arranging a match: the forms on the match page (its include,
`templates/tournaments/_match_arrangement.html`, drawn by `{% match_arrangement match %}`), the
organiser's set-a-time page, the event's list of matches to arrange with the bulk nudge and the
response window, and a player's usual free times.

Thin: each declares its permission, binds one form, which calls one service. A refused form is
shown again on the small action page with its errors (the match page belongs to other forms).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from players.roles import player_of
from tantrix_site.http.permissions import permission_required
from tournaments.arrangements import pages, selectors
from tournaments.arrangements.forms import (
    AcceptForm,
    AvailabilityForm,
    NoShowForm,
    NoShowReplyForm,
    NudgeForm,
    PolicyForm,
    ProposeForm,
    SetTimeForm,
    WithdrawForm,
)
from tournaments.models import Event, Match
from tournaments.pages.actions import action_page, posted
from tournaments.pages.lookups import event_or_404, match_or_404

SHOWS = ("unarranged", "passed", "all")


def _match_url(match: Match) -> str:
    return reverse("match-page", args=[match.pk]) + "#arrangement"


def _done_or_again(request, match: Match, form, done, *, title: str, submit: str, message: str):
    """Back to the match page with a message once the form's service acted; else the form
    again with its errors."""
    if done is not None:
        messages.success(request, message)
        return redirect(_match_url(match))
    return action_page(request, title=title, form=form, back_url=_match_url(match), submit=submit)


@require_http_methods(["GET", "POST"])
@login_required
@permission_required("arrange", lookup=match_or_404)
def propose_view(request, match: Match):
    form = ProposeForm(posted(request))
    done = form.apply(actor=request.user, match=match) if form.is_valid() and request.POST else None
    return _done_or_again(
        request,
        match,
        form,
        done,
        title=_("Propose times"),
        submit=_("Propose"),
        message=_("Your times are proposed; your opponent is told."),
    )


@require_http_methods(["GET", "POST"])
@login_required
@permission_required("arrange", lookup=match_or_404)
def accept_view(request, match: Match):
    form = AcceptForm(posted(request), match=match)
    done = form.apply(actor=request.user) if request.POST and form.is_valid() else None
    return _done_or_again(
        request,
        match,
        form,
        done,
        title=_("Accept a proposed time"),
        submit=_("Accept"),
        message=_("The time is agreed; both sides are told."),
    )


@require_http_methods(["GET", "POST"])
@login_required
@permission_required("arrange_or_manage", lookup=match_or_404)
def withdraw_view(request, match: Match):
    form = WithdrawForm(posted(request))
    done = form.apply(actor=request.user, match=match) if request.POST and form.is_valid() else None
    return _done_or_again(
        request,
        match,
        form,
        done,
        title=_("Withdraw the agreed time"),
        submit=_("Withdraw"),
        message=_("The agreed time is withdrawn; the other side is told."),
    )


@require_http_methods(["GET", "POST"])
@login_required
@permission_required("manage", lookup=match_or_404)
def set_time_view(request, match: Match):
    agreed = selectors.agreement_of(match)
    form = SetTimeForm(posted(request), initial={"starts_at": agreed.starts_at if agreed else None})
    done = form.apply(actor=request.user, match=match) if request.POST and form.is_valid() else None
    return _done_or_again(
        request,
        match,
        form,
        done,
        title=_("Set the match's time"),
        submit=_("Set the time"),
        message=_("The time is set; both sides are told."),
    )


@require_http_methods(["GET", "POST"])
@login_required
@permission_required("arrange", lookup=match_or_404)
def no_show_view(request, match: Match):
    form = NoShowForm(posted(request))
    done = form.apply(actor=request.user, match=match) if request.POST and form.is_valid() else None
    return _done_or_again(
        request,
        match,
        form,
        done,
        title=_("Claim a no-show"),
        submit=_("Claim a no-show"),
        message=_("Your claim is sent to your opponent and the championship's controllers."),
    )


@require_http_methods(["GET", "POST"])
@login_required
@permission_required("arrange", lookup=match_or_404)
def no_show_reply_view(request, match: Match):
    form = NoShowReplyForm(posted(request), match=match)
    done = form.apply(actor=request.user) if request.POST and form.is_valid() else None
    return _done_or_again(
        request,
        match,
        form,
        done,
        title=_("Answer the no-show claim"),
        submit=_("Send the answer"),
        message=_("Your answer is with the claim; the controllers are told."),
    )


@require_http_methods(["GET", "POST"])
@login_required
@permission_required("manage", lookup=event_or_404)
def event_arrangements_view(request, event: Event):
    """The organisers' list: an event's open matches without an agreed time (or whose agreed
    time passed unplayed, or all), a nudge for the chosen ones, and the response window."""
    show = request.GET.get("show", "unarranged")
    show = show if show in SHOWS else "unarranged"
    matches = list(selectors.matches_to_arrange(event=event, which=show))
    choices = [(m.pk, str(m.pk)) for m in selectors.matches_to_arrange(event=event, which="all")]
    nudge = NudgeForm(None, choices=choices)
    policy = getattr(event, "arrangement", None)
    window = PolicyForm(None, initial={"response_hours": policy.response_hours if policy else None})
    if request.method == "POST":
        if "response_hours" in request.POST:
            window = PolicyForm(request.POST)
            if window.is_valid() and window.apply(actor=request.user, event=event) is not None:
                messages.success(request, _("The response window is saved."))
                return redirect(request.get_full_path())
        else:
            nudge = NudgeForm(request.POST, choices=choices)
            count = nudge.apply(actor=request.user, event=event) if nudge.is_valid() else None
            if count is not None:
                messages.success(
                    request,
                    ngettext(
                        "The players of %(count)s match are reminded.",
                        "The players of %(count)s matches are reminded.",
                        count,
                    )
                    % {"count": count},
                )
                return redirect(request.get_full_path())
    context = {
        "event": event,
        "show": show,
        "shows": pages.show_choices(),
        "rows": pages.organiser_rows(matches),
        "nudge_form": nudge,
        "policy_form": window,
    }
    return render(request, "tournaments/arrangements/event_arrangements.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def availability_view(request):
    """A player's usual free times (advisory: opponents see them in their own zone)."""
    player = player_of(request.user)
    if player is None:
        raise PermissionDenied(_("Only a player states when they are usually free."))
    windows = selectors.availability_of(player)
    initial = {"time_zone": (windows[0].time_zone if windows else player.time_zone) or "UTC"}
    for i, window in enumerate(windows):
        initial.update(
            {f"day_{i}": window.weekday, f"from_{i}": window.starts, f"to_{i}": window.ends}
        )
    form = AvailabilityForm(posted(request), player=player, initial=initial)
    if request.method == "POST" and form.is_valid() and form.apply(actor=request.user) is not None:
        messages.success(request, _("Your usual free times are saved."))
        return redirect("arrangement-availability")
    rows = [[form[f"day_{i}"], form[f"from_{i}"], form[f"to_{i}"]] for i in range(7)]
    return render(
        request,
        "tournaments/arrangements/availability.html",
        {"form": form, "rows": rows},
    )
