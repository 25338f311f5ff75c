from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render

from players import selectors, services
from players.forms import PlayerCreateForm, PlayerProfileForm
from players.models import Player
from players.roles import is_admin, is_organiser, player_of

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
    context = {
        "player": player,
        "is_own": own is not None and own.pk == player.pk,
        "show_private": is_admin(request.user) or (own is not None and own.pk == player.pk),
        "can_edit": services.can_edit_player(request.user, player),
        "extra_sections": player_page_sections(player),
    }
    return render(request, "players/detail.html", context)


def player_page_sections(player: Player) -> list[str]:
    """Template names that other apps add to the player page (see docs/architecture.md)."""
    from django.apps import apps

    sections = []
    for config in apps.get_app_configs():
        sections.extend(getattr(config, "player_page_sections", []))
    return sections


@login_required
def player_create_view(request):
    if not (is_organiser(request.user) or is_admin(request.user)):
        raise PermissionDenied("Only organisers and admins may enter players.")
    form = PlayerCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        player = form.save(actor=request.user)
        if player is not None:
            return redirect("player-detail", pk=player.pk)
    return render(request, "players/new.html", {"form": form})


@login_required
def player_edit_view(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    if not services.can_edit_player(request.user, player):
        raise PermissionDenied("You may edit only your own profile.")
    initial = {
        "display_name": player.display_name,
        "country": player.country.code,
        "date_of_birth": player.date_of_birth,
        "first_colour": player.first_colour,
        "second_colour": player.second_colour,
    }
    form = PlayerProfileForm(request.POST or None, initial=initial)
    if (
        request.method == "POST"
        and form.is_valid()
        and form.apply(actor=request.user, player=player) is not None
    ):
        return redirect("player-detail", pk=player.pk)
    return render(request, "players/edit.html", {"form": form, "player": player})
