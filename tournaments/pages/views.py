"""The public championship pages (championship, event, match) and their live fragments.

Thin: the viewer-independent parts come from `tournaments.pages.fragments` (cached until a
result changes, a fixed number of queries whatever the size of the event); the view adds what
depends on the viewer (their entry, the organiser's and controller's forms).

While an event runs, the event and match pages poll their fragment (static/js/live.js) and swap
it in; the fragment answers 304 while the reader would get the same HTML (its ETag is a digest
of the HTML: a result, another language or another time zone changes it) and says
`X-Live-Finished: 1` once nothing more will change, which stops the polling. What the fragment
says depends on the reader's language and time zone (the cookie, Accept-Language, the signed-in
player's profile) and whom they may see it as, so its answers vary on Accept-Language and Cookie
and no shared cache keeps them.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from players.roles import player_of
from tantrix_site.http.permissions import permission_context
from tantrix_site.i18n.grammar import lowercase
from tournaments import selectors
from tournaments.formats.teams import DEFAULT_TEAM_TIEBREAKS, TEAM_TIEBREAKS
from tournaments.forms import RegisterForm
from tournaments.matches.forms import DeadlineForm, PenaltyForm, RuleForm
from tournaments.models import (
    Championship,
    Eligibility,
    EntryKind,
    EntryStatus,
    Event,
    EventStatus,
    Match,
)
from tournaments.pages import fragments
from tournaments.permissions import leads_entry, match_side_of
from tournaments.sides.services.pairs import pair_requests_for


def _championship(request, pk: int) -> Championship:
    return get_object_or_404(selectors.championships_visible_to(request.user), pk=pk)


def _event(request, pk: int) -> Event:
    return get_object_or_404(
        selectors.events_visible_to(request.user).select_related("feeds_from"), pk=pk
    )


def _match(request, pk: int) -> Match:
    match = selectors.match_visible_to(request.user, pk)
    if match is None:
        raise Http404(_("No such match."))
    return match


def _live_attrs(url: str, fragment: fragments.Fragment) -> dict:
    """What the page's live region needs: where to poll and how often (nothing once finished)."""
    if fragment.finished:
        return {"live_url": None}
    return {
        "live_url": url,
        "live_seconds": settings.TOURNAMENTS_LIVE_POLL_SECONDS,
        "live_version": fragment.etag,
    }


def _fragment_response(request, fragment: fragments.Fragment) -> HttpResponse:
    etag = f'"{fragment.etag}"'
    response = HttpResponse(fragment.html)
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, private=True)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    # 304 when If-None-Match names this very HTML; it keeps the ETag, Cache-Control and Vary.
    response = get_conditional_response(request, etag=etag, response=response)
    if fragment.finished:
        response["X-Live-Finished"] = "1"
    return response


# --- Championship --------------------------------------------------------------------------


def championship_detail_view(request, pk: int):
    championship = _championship(request, pk)
    events = list(
        selectors.events_visible_to(request.user)
        .filter(championship=championship)
        .order_by("stage", "id")
    )
    return render(
        request,
        "tournaments/championship_detail.html",
        {
            "championship": championship,
            "events_html": mark_safe(fragments.championship_events(championship, events)),
            "champions": [e for e in events if e.champion_id],
            "teams": list(selectors.teams_of(championship)),
            # Junior events: their standings (final places) and champion, on this page.
            "junior_standings": [
                (e, selectors.final_places(e))
                for e in events
                if e.eligibility == Eligibility.JUNIOR and e.status != EventStatus.REGISTRATION
            ],
            **permission_context(request.user, championship, "manage", "see_audit"),
        },
    )


# --- Event ---------------------------------------------------------------------------------


def event_detail_view(request, pk: int):
    event = _event(request, pk)
    championship = event.championship
    can = permission_context(request.user, championship, "manage", "rule")
    manager = can["can_manage"]
    own = player_of(request.user)
    own_entry = selectors.entries_with_player(event, own.pk).first() if own is not None else None
    live = fragments.event_live(event)
    before_draw = event.status in (EventStatus.REGISTRATION, EventStatus.CLOSED)
    context = {
        "event": event,
        "championship": championship,
        "live_html": mark_safe(live.html),
        "entries_html": mark_safe(fragments.event_entries(event, manage=manager)),
        **_live_attrs(reverse("event-live", args=[event.pk]), live),
        **can,
        "own_entry": own_entry,
        "can_register_self": (
            own is not None and own_entry is None and event.status == EventStatus.REGISTRATION
        ),
        "can_withdraw_self": (
            own_entry is not None
            and own_entry.status == EntryStatus.ACTIVE
            and leads_entry(request.user, own_entry)
            and event.status in (EventStatus.REGISTRATION, EventStatus.CLOSED)
        ),
        "registration_open": event.status == EventStatus.REGISTRATION,
        "pair_requests": pair_requests_for(own, event) if own is not None else [],
        "can_enter_team": (
            event.entry_kind == EntryKind.TEAM
            and event.status == EventStatus.REGISTRATION
            and own is not None
            and event.championship.teams.filter(Q(captain=own) | Q(deputy=own))
            .exclude(entries__event=event)
            .exists()
        ),
        "team_tiebreaks": [
            # The pure format module holds English labels (marked for extraction there).
            lowercase(_(TEAM_TIEBREAKS[key]))
            for key in (event.team_tiebreaks or DEFAULT_TEAM_TIEBREAKS)
            if key in TEAM_TIEBREAKS
        ],
        "before_draw": before_draw,
        # The round console (issue 28): the championship's organisers and controllers.
        "console_rounds": list(event.rounds.order_by("number"))
        if can["can_rule"] and not before_draw
        else [],
        # A junior event: a player confirms their age here, so others may enter them.
        "age_rule_player": own is not None and event.eligibility == Eligibility.JUNIOR,
        "age_confirmed": (
            own is not None
            and event.eligibility == Eligibility.JUNIOR
            and selectors.age_confirmed(event, own)
        ),
    }
    if manager:
        context["register_form"] = (
            RegisterForm(actor=request.user, event=event)
            if event.status == EventStatus.REGISTRATION
            else None
        )
        # Deadlines can move only while the event runs and the round is not over.
        context["deadline_rows"] = (
            [
                {
                    "round": r,
                    "form": DeadlineForm(
                        initial={"deadline": r.deadline}, auto_id=f"id_round{r.pk}_%s"
                    ),
                }
                for r in selectors.rounds_open_for_deadlines(event)
            ]
            if event.status == EventStatus.DRAWN
            else []
        )
    return render(request, "tournaments/event_detail.html", context)


@require_GET
def event_live_view(request, pk: int):
    return _fragment_response(request, fragments.event_live(_event(request, pk)))


# --- Match ---------------------------------------------------------------------------------


def render_match(request, match: Match, *, rule_form=None, penalty_form=None, status=200):
    user = request.user
    side = match_side_of(user, match)
    can = permission_context(user, match, "judge")  # a ruler who plays in it is a player here
    ruler = can["can_judge"]
    is_open = selectors.match_open_for_games(match)
    penalty_sides = [0, 1] if ruler else ([1 - side] if side is not None else [])
    live = fragments.match_live(match)
    has_games = match.games_played > 0
    context = {
        "match": match,
        "event": match.event,
        "championship": match.event.championship,
        "live_html": mark_safe(live.html),
        "page_title": fragments.match_heading(match)["title"],
        **_live_attrs(reverse("match-live", args=[match.pk]), live),
        "side": side,
        **can,
        "is_open": is_open,
        "can_submit": is_open and (side is not None or ruler),
        "can_claim_walkover": side is not None and is_open and not match.games_played,
        "rule_form": rule_form or (RuleForm(match=match) if ruler and not match.is_bye else None),
        "penalty_form": penalty_form
        or (
            PenaltyForm(match=match, sides=penalty_sides)
            if has_games and penalty_sides and (ruler or not match.is_final)
            else None
        ),
    }
    return render(request, "tournaments/match_detail.html", context, status=status)


def match_detail_view(request, pk: int):
    return render_match(request, _match(request, pk))


@require_GET
def match_live_view(request, pk: int):
    return _fragment_response(request, fragments.match_live(_match(request, pk)))
