from __future__ import annotations

from django.apps import apps
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from players import selectors, services
from players.audit.registry import (
    audit_action_choices,
    audit_areas,
    audit_name_objects,
    is_audit_action,
)
from players.audit.selectors import audit_entries
from players.calendars.links import feed_url
from players.calendars.selectors import calendar_feed_of
from players.forms import (
    ClaimDecisionForm,
    ClaimLinkSignupForm,
    ClaimRequestForm,
    ClaimRequestSignupForm,
    PlayerCreateForm,
    PlayerProfileForm,
    RoleChangeForm,
)
from players.models import AuditAction, ClaimRequest, ClaimStatus, Player
from players.roles import player_of
from players.tokens.selectors import api_tokens_of
from tantrix_site.http.permissions import check_permission, has_permission, permission_required

PAGE_SIZE = 50


def player_list_view(request):
    search = request.GET.get("q", "").strip()
    country = request.GET.get("country", "").strip()
    page = Paginator(selectors.player_list(search=search, country=country), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    return render(
        request, "players/list.html", {"page": page, "search": search, "country": country}
    )


def player_detail_view(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    own = player_of(request.user)
    claimable = player.user_id is None and not player.is_robot
    context = {
        "player": player,
        "is_own": own is not None and own.pk == player.pk,
        "show_private": has_permission(request.user, "see_private", player),
        "can_edit": has_permission(request.user, "edit_player", player),
        "claimable": claimable,
        "can_make_claim_link": claimable and has_permission(request.user, "manage_claims", player),
        "can_ask_to_claim": claimable and own is None,
        "extra_sections": player_page_sections(player),
    }
    if context["is_own"]:
        context["api_tokens"] = api_tokens_of(request.user)
        context["token_days"] = settings.API_TOKEN_TTL_DAYS
        context["calendar_url"] = feed_url(request, calendar_feed_of(player))
    return render(request, "players/detail.html", context)


def player_page_sections(player: Player) -> list[str]:
    """Template names that other apps add to the player page (see docs/architecture.md)."""
    sections = []
    for config in apps.get_app_configs():
        sections.extend(getattr(config, "player_page_sections", []))
    return sections


def player_or_404(request, pk: int) -> Player:
    return get_object_or_404(Player, pk=pk)


@login_required
@permission_required("enter_players")
def player_create_view(request):
    form = PlayerCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        player = form.save(actor=request.user)
        if player is not None:
            return redirect("player-detail", pk=player.pk)
    return render(request, "players/new.html", {"form": form})


@login_required
@permission_required("edit_player", lookup=player_or_404)
def player_edit_view(request, player: Player):
    show_private = has_permission(request.user, "see_private", player)
    initial = {
        "display_name": player.display_name,
        "country": player.country.code,
        "first_colour": player.first_colour,
        "second_colour": player.second_colour,
    }
    if show_private:
        initial["date_of_birth"] = player.date_of_birth
        initial["time_zone"] = player.time_zone
        initial["language"] = player.language
    form = PlayerProfileForm(request.POST or None, initial=initial, show_private=show_private)
    if (
        request.method == "POST"
        and form.is_valid()
        and form.apply(actor=request.user, player=player) is not None
    ):
        return redirect("player-detail", pk=player.pk)
    return render(request, "players/edit.html", {"form": form, "player": player})


def staff_required(view):
    """Staff only: anonymous visitors go to the login page, everyone else gets a 403 (the
    declared rule `manage_roles`)."""
    return login_required(permission_required("manage_roles")(view))


def _refusal(request, *, title: str, message: str, status: int):
    """A page that says plainly why this cannot be done (gone, conflicting, not allowed)."""
    return render(
        request, "players/refusal.html", {"title": title, "message": message}, status=status
    )


# --- Roles ---------------------------------------------------------------------------------

ROLE_ACTIONS = [
    AuditAction.ORGANISER_GRANT,
    AuditAction.ORGANISER_WITHDRAW,
    AuditAction.STAFF_GRANT,
    AuditAction.STAFF_WITHDRAW,
]


@staff_required
def roles_view(request):
    form = RoleChangeForm(request.POST or None, actor=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.apply()
        if user is not None:
            done = (
                _("%(role)s role granted to %(name)s.")
                if form.cleaned_data["change"] == RoleChangeForm.GRANT
                else _("%(role)s role withdrawn from %(name)s.")
            )
            role = services.SiteRole(form.cleaned_data["role"]).label
            messages.success(request, done % {"role": role, "name": user.get_username()})
            return redirect("player-roles")
    holders = list(selectors.role_holders())
    recent = audit_entries().filter(action__in=ROLE_ACTIONS)[:30]
    return render(
        request,
        "players/roles.html",
        {
            "form": form,
            "holders": holders,
            "recent": recent,
            "may_change_staff": services.can_grant(request.user, services.SiteRole.STAFF),
        },
        status=400 if form.errors else 200,
    )


AUDIT_OBJECT_FILTERS = ("player", "championship", "rating_change")


def _id_param(request, name: str) -> int | None:
    value = request.GET.get(name, "")
    return int(value) if value.isdigit() and len(value) <= 18 else None


@staff_required
def audit_view(request):
    """The one audit trail for staff: every area, filtered by area or action, by a player (by
    name), a championship or a rating change (by the links on the page)."""
    area = request.GET.get("area", "")
    area = area if area in dict(audit_areas()) else ""
    action = request.GET.get("action", "")
    action = action if is_audit_action(action) else ""
    player_name = request.GET.get("player_name", "").strip()
    player_id = _id_param(request, "player")
    if player_name:
        player = Player.objects.filter(display_name__iexact=player_name).first()
        player_id = player.pk if player else 0
    entries = audit_entries(
        action=action,
        area=area,
        player_id=player_id,
        championship_id=_id_param(request, "championship"),
        rating_change_id=_id_param(request, "rating_change"),
    )
    page = Paginator(entries, PAGE_SIZE).get_page(request.GET.get("page"))
    audit_name_objects(page.object_list)
    return render(
        request,
        "players/audit.html",
        {
            "page": page,
            "area": area,
            "areas": audit_areas(),
            "action": action,
            "actions": audit_action_choices(),
            "player_name": player_name,
            "filtered": any(request.GET.get(k) for k in AUDIT_OBJECT_FILTERS),
        },
    )


# --- Claim links ---------------------------------------------------------------------------


@login_required
@permission_required("manage_claims", lookup=player_or_404)
def claim_link_create_view(request, player: Player):
    context = {"player": player, "lifetime_days": services.CLAIM_LINK_LIFETIME.days}
    if request.method == "POST":
        try:
            link, token = services.claim_link_create(actor=request.user, player=player)
        except ValidationError as exc:
            return _refusal(
                request, title=_("No claim link"), message=" ".join(exc.messages), status=400
            )
        context.update(
            link=link, url=request.build_absolute_uri(reverse("claim-link", args=[token]))
        )
        # Shown once: the token is not stored, so this page must not be cached or re-shown.
        response = render(request, "players/claim_link_new.html", context)
        response["Cache-Control"] = "no-store"
        return response
    if player.user_id is not None or player.is_robot:
        return _refusal(
            request,
            title=_("No claim link"),
            message=_("%(name)s already belongs to an account.") % {"name": player.display_name},
            status=400,
        )
    return render(request, "players/claim_link_new.html", context)


@never_cache
def claim_link_view(request, token: str):
    """Open a claim link: sign up with the profile, or attach it to the account logged in."""
    response = _claim_link_page(request, token)
    # The token is in this page's address: never send it on to another site.
    response["Referrer-Policy"] = "no-referrer"
    return response


def _claim_link_page(request, token: str):
    gone_title = _("This claim link cannot be used")
    try:
        link = services.claim_link_usable(token=token)
    except services.ClaimLinkUnknown as exc:
        return _refusal(request, title=gone_title, message=exc.message, status=404)
    except services.ClaimLinkGone as exc:
        return _refusal(request, title=gone_title, message=exc.message, status=410)
    player = link.player
    user = request.user
    own = player_of(user)
    if own is not None:
        return _refusal(
            request,
            title=gone_title,
            message=_(
                "You are logged in as %(user)s, who already plays as %(name)s. Log out, then open "
                "the link again to sign up with the profile of %(player)s."
            )
            % {"user": user.get_username(), "name": own.display_name, "player": player},
            status=400,
        )
    form = None if user.is_authenticated else ClaimLinkSignupForm(request.POST or None)
    if request.method == "POST":
        try:
            if user.is_authenticated:
                claimed = services.claim_link_redeem(token=token, user=user)
            else:
                claimed = form.save(token=token) if form.is_valid() else None
        except services.ClaimLinkGone as exc:
            return _refusal(request, title=gone_title, message=exc.message, status=410)
        except ValidationError as exc:
            return _refusal(request, title=gone_title, message=" ".join(exc.messages), status=400)
        if claimed is not None:
            if not user.is_authenticated:
                login(request, claimed.user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("%(name)s is now your player profile.") % {"name": claimed})
            return redirect("player-detail", pk=claimed.pk)
    return render(
        request,
        "players/claim_link.html",
        {"player": player, "link": link, "form": form},
        status=400 if form is not None and form.errors else 200,
    )


# --- Claim requests ------------------------------------------------------------------------


def player_claim_view(request, pk: int):
    """ "This is me": ask to take over an accountless player (signing up on the way if needed)."""
    player = get_object_or_404(Player, pk=pk)
    title = _("Ask for %(name)s") % {"name": player.display_name}
    if player.user_id is not None or player.is_robot:
        return _refusal(
            request,
            title=title,
            message=_("%(name)s already belongs to an account.") % {"name": player.display_name},
            status=400,
        )
    user = request.user
    own = player_of(user)
    if own is not None:
        return _refusal(
            request,
            title=title,
            message=_("Your account already has a player profile (%(name)s).")
            % {"name": own.display_name},
            status=400,
        )
    if user.is_authenticated:
        form = ClaimRequestForm(request.POST or None)
        waiting = selectors.pending_claim_request_of(user)
    else:
        form = ClaimRequestSignupForm(request.POST or None)
        waiting = None
    if request.method == "POST" and form.is_valid():
        if user.is_authenticated:
            claim = form.save(requester=user, player=player)
        else:
            claim = form.save(player=player)
            if claim is not None:
                login(request, claim.requester, backend="django.contrib.auth.backends.ModelBackend")
        if claim is not None:
            messages.success(
                request,
                _("Your request was sent. %(name)s becomes yours when it is approved.")
                % {"name": player.display_name},
            )
            return redirect("claim-request-detail", pk=claim.pk)
    return render(
        request,
        "players/claim_ask.html",
        {"player": player, "form": form, "waiting": waiting},
        status=400 if form.errors else 200,
    )


@login_required
def claim_request_list_view(request):
    wanted = request.GET.get("status", ClaimStatus.PENDING)
    if wanted not in ClaimStatus.values:
        wanted = ""
    requests = selectors.claim_requests_visible_to(request.user, status=wanted)
    page = Paginator(requests, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "players/claim_request_list.html",
        {"page": page, "status": wanted, "statuses": ClaimStatus.choices},
    )


def _visible_claim(request, pk: int) -> ClaimRequest:
    claim = get_object_or_404(
        ClaimRequest.objects.select_related("player", "requester", "decided_by"), pk=pk
    )
    check_permission(request.user, "see_claim", claim)
    return claim


@login_required
def claim_request_detail_view(request, pk: int, *, form=None, status: int = 200):
    claim = _visible_claim(request, pk)
    may_decide = claim.status == ClaimStatus.PENDING and has_permission(
        request.user, "manage_claims", claim.player
    )
    return render(
        request,
        "players/claim_request_detail.html",
        {
            "claim": claim,
            "may_decide": may_decide,
            "form": form or ClaimDecisionForm(),
            "requester_player": player_of(claim.requester),
        },
        status=status,
    )


@login_required
@require_POST
def claim_request_decide_view(request, pk: int, decision: str):
    claim = _visible_claim(request, pk)
    decide = {
        "approve": services.claim_request_approve,
        "refuse": services.claim_request_refuse,
    }[decision]
    form = ClaimDecisionForm(request.POST)
    if form.is_valid():
        try:
            decide(actor=request.user, claim_request=claim, reason=form.cleaned_data["reason"])
        except ValidationError as exc:
            if hasattr(exc, "error_dict"):
                for field, errors in exc.message_dict.items():
                    form.add_error(field if field in form.fields else None, errors)
            else:
                form.add_error(None, exc.messages)
        else:
            done = (
                _("%(name)s now belongs to %(user)s.")
                if decision == "approve"
                else _("The request for %(name)s was refused.")
            )
            messages.success(
                request,
                done % {"name": claim.player.display_name, "user": claim.requester.get_username()},
            )
            return redirect("claim-request-detail", pk=claim.pk)
    return claim_request_detail_view(request, pk, form=form, status=400)
