"""Web pages for doubles and team championships: registering pairs and answering requests,
teams and their rosters, team matches. Thin: a form or a service each."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from players.models import Player
from players.roles import player_of
from tantrix_site.http.permissions import (
    has_permission,
    permission_context,
    permission_required,
)
from tantrix_site.http.refusals import tell_refusal
from tournaments import selectors, services
from tournaments.models import Championship, EntryKind, Event, Round, Team
from tournaments.pages.actions import (
    action_page,
    applied,
    back_to_event,
    posted,
    registration_page,
)
from tournaments.pages.lookups import championship_or_404, entry_or_404, event_or_404, round_or_404
from tournaments.permissions import (
    CAPTAIN_REFUSAL,
    DEADLINES_REFUSAL,
    TEAMS_REFUSAL,
    can_see,
    leads_team,
)
from tournaments.sides.forms import (
    LineupDeadlineForm,
    PairRegisterForm,
    RosterForm,
    TeamEnterForm,
    TeamForm,
    TeamOfficersForm,
)
from tournaments.sides.services.teams import captain_lock


@login_required
def pair_register_view(request, pk: int):
    """A player registers a pair by naming a partner; organisers enter any two players."""
    event = event_or_404(request, pk)
    if event.entry_kind != EntryKind.PAIR:
        raise PermissionDenied(_("This event is not a doubles event."))
    return registration_page(request, event, PairRegisterForm, "tournaments/pair_register.html")


@login_required
@require_POST
def pair_answer_view(request, pk: int, answer: str):
    """The partner confirms a pair (or either player calls it off)."""
    if answer not in ("confirm", "decline"):
        raise Http404(_("No such answer."))
    entry = entry_or_404(request, pk)
    try:
        if answer == "confirm":
            services.pair_confirm(actor=request.user, entry=entry)
            messages.success(
                request,
                _("%(entry)s is entered in %(event)s.")
                % {"entry": entry.name, "event": entry.event.name},
            )
        else:
            services.pair_decline(
                actor=request.user, entry=entry, reason=request.POST.get("reason", "")[:2000]
            )
            messages.success(request, _("The pair %(pair)s is called off.") % {"pair": entry.name})
    except ValidationError as exc:
        tell_refusal(request, exc)
    return redirect("event-page", pk=entry.event_id)


# --- Teams ----------------------------------------------------------------------------------


def _team(request, pk: int) -> Team:
    team = get_object_or_404(
        Team.objects.select_related("championship", "captain", "deputy"), pk=pk
    )
    if not can_see(request.user, team.championship):
        raise Http404(_("No such team."))
    return team


def _roster_text(team: Team) -> str:
    return "\n".join(m.player.display_name for m in selectors.team_roster(team))


@login_required
@require_POST
@permission_required(
    "manage",
    lookup=_team,
    refusal=CAPTAIN_REFUSAL,
)
def team_officers_view(request, team: Team):
    """An organiser names the team's captain and deputy (the form is on the team page)."""
    form = TeamOfficersForm(request.POST)
    if form.is_valid() and form.apply(actor=request.user, team=team) is not None:
        messages.success(
            request, _("The captain and deputy of %(team)s are set.") % {"team": team.name}
        )
        return redirect("team-page", pk=team.pk)
    request.method = "GET"  # show the team page with the form's errors, changing nothing else
    return team_detail_view(request, team.pk, officers_form=form)


def team_detail_view(request, pk: int, officers_form=None):
    """The team: roster in board order, captain and deputy, results per board, roster log.
    Its captain or deputy (before the lineup deadline) and organisers change the roster here."""
    team = _team(request, pk)
    can = permission_context(request.user, team, "manage")
    manager = can["can_manage"]
    leads = leads_team(request.user, team)  # the captain or deputy, until the lineup deadline
    lock = None if manager else captain_lock(team)
    may_edit = manager or (leads and lock is None)
    form = None
    if may_edit or (leads and request.method == "POST"):
        form = RosterForm(posted(request), initial={"roster": _roster_text(team)})
        if (
            request.method == "POST"
            and form.is_valid()
            and form.apply(actor=request.user, team=team) is not None
        ):
            messages.success(request, _("The roster of %(team)s is changed.") % {"team": team.name})
            return redirect("team-page", pk=team.pk)
    elif request.method == "POST":
        raise PermissionDenied(
            _("Only the team's captain or deputy, or an organiser, may do that.")
        )
    changes = selectors.roster_changes(team)
    names = {
        p.pk: p.display_name
        for p in Player.objects.filter(
            pk__in={pid for c in changes for pid in (c.before or []) + (c.after or []) if pid}
        )
    }
    return render(
        request,
        "tournaments/team_detail.html",
        {
            "team": team,
            "championship": team.championship,
            "roster": selectors.team_roster(team),
            "entries": team.entries.select_related("event").order_by("event__stage"),
            "results": selectors.team_results(team),
            "changes": [
                {
                    "change": c,
                    "before": [names.get(p, "?") for p in c.before or [] if p],
                    "after": [names.get(p, "?") for p in c.after or [] if p],
                }
                for c in changes
            ],
            "form": form,
            "officers_form": officers_form
            or (
                TeamOfficersForm(
                    initial={
                        "captain": team.captain.display_name if team.captain else "",
                        "deputy": team.deputy.display_name if team.deputy else "",
                    }
                )
                if manager
                else None
            ),
            "lock": lock if leads and not manager else None,
            **can,
        },
    )


@login_required
@permission_required(
    "manage",
    lookup=championship_or_404,
    refusal=TEAMS_REFUSAL,
)
def team_create_view(request, championship: Championship):
    form = TeamForm(posted(request), championship=championship)
    if (team := applied(request, form, lambda: form.apply(actor=request.user))) is not None:
        messages.success(request, _("%(team)s is created.") % {"team": team.name})
        return redirect("team-page", pk=team.pk)
    return action_page(
        request,
        title=_("New team of %(championship)s") % {"championship": championship},
        form=form,
        back_url=reverse("championship-page", args=[championship.pk]),
        submit=_("Create the team"),
    )


def _teams_to_enter(user, event: Event):
    teams = event.championship.teams.exclude(entries__event=event).order_by("name")
    if has_permission(user, "manage", event):
        return teams
    own = player_of(user)
    if own is None:
        return teams.none()
    return teams.filter(Q(captain=own) | Q(deputy=own))


@login_required
def team_enter_view(request, pk: int):
    event = event_or_404(request, pk)
    if event.entry_kind != EntryKind.TEAM:
        raise PermissionDenied(_("This is not a team event."))
    teams = _teams_to_enter(request.user, event)
    if not teams.exists() and not has_permission(request.user, "manage", event):
        raise PermissionDenied(_("Only a team's captain or deputy, or an organiser, may enter it."))
    form = TeamEnterForm(posted(request), event=event, teams=teams)
    if (entry := applied(request, form, lambda: form.apply(actor=request.user))) is not None:
        return back_to_event(
            request,
            event.pk,
            _("%(entry)s is entered in %(event)s.") % {"entry": entry.name, "event": event.name},
        )
    return action_page(
        request,
        title=_("Enter a team in %(event)s") % {"event": event.name},
        form=form,
        back_url=reverse("event-page", args=[event.pk]),
        submit=_("Enter the team"),
    )


@login_required
@permission_required(
    "manage",
    lookup=round_or_404,
    refusal=DEADLINES_REFUSAL,
)
def round_lineup_deadline_view(request, round_: Round):
    form = LineupDeadlineForm(posted(request), initial={"lineup_deadline": round_.lineup_deadline})
    if applied(request, form, lambda: form.apply(actor=request.user, round_=round_)) is not None:
        return back_to_event(
            request,
            round_.event_id,
            _("The lineup deadline of %(round)s is set.") % {"round": round_},
        )
    return action_page(
        request,
        title=_("Lineup deadline of %(round)s (%(event)s)")
        % {"round": round_, "event": round_.event.name},
        form=form,
        back_url=reverse("event-page", args=[round_.event_id]),
        submit=pgettext("verb: set a deadline", "Set"),
    )
