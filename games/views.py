from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render

from games import selectors, services
from games.drawing import board_svg
from games.envelope import ReceivedBody
from games.forms import RecordSubmitForm
from games.models import Game, GameRecord, RecordSource
from tantrix_site.middleware import declared_body_size, oversized_body_allowed


@oversized_body_allowed
@login_required
def record_submit_view(request):
    initial = {"match": request.GET.get("match")}
    refused = None
    declared = declared_body_size(request)
    if request.method == "POST" and declared > settings.REQUEST_MAX_BYTES:
        # Not parsed at all; stored as a refused record that says how large it was.
        refused = services.record_submit(
            actor=request.user,
            body=ReceivedBody(head=b"", size=declared, sha256=""),
            source=RecordSource.WEB,
        )
        return render(
            request,
            "games/submit.html",
            {
                "form": RecordSubmitForm(initial=initial),
                "refused": refused,
                "refusal_messages": _refusal_messages(refused),
                "match_id": initial["match"],
            },
            status=413,
        )
    form = RecordSubmitForm(request.POST or None, request.FILES or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        match = form.cleaned_data.get("match")
        submission = services.record_submit(
            actor=request.user,
            body=form.record_body(),
            source=RecordSource.WEB,
            extensions={"match": match} if match else {},
        )
        if submission.accepted:
            return redirect("record-detail", pk=submission.record.pk)
        refused = submission
        for message in _refusal_messages(submission):
            form.add_error(None, message)
    return render(
        request,
        "games/submit.html",
        {"form": form, "refused": refused, "match_id": initial["match"]},
    )


def _refusal_messages(submission: services.Submission) -> list[str]:
    refusal = submission.refusal
    return [" ".join(messages) for messages in refusal.errors.values()] if refusal else []


@login_required
def record_detail_view(request, pk: int):
    record = get_object_or_404(GameRecord.objects.select_related("submitter"), pk=pk)
    if not selectors.record_visible_to(request.user, record):
        raise PermissionDenied("Only the submitter, the players in this game and staff may see it.")
    game = Game.objects.filter(record=record).first()
    return render(request, "games/record_detail.html", {"record": record, "game": game})


@login_required
def record_list_view(request):
    page = Paginator(selectors.records_for(request.user), 50).get_page(request.GET.get("page"))
    return render(request, "games/record_list.html", {"page": page})


def game_list_view(request):
    player = request.GET.get("player")
    games = selectors.game_list(
        viewer=request.user,
        player_id=int(player) if player and player.isdigit() and len(player) < 19 else None,
    )
    page = Paginator(games, 50).get_page(request.GET.get("page"))
    return render(request, "games/game_list.html", {"page": page})


def game_detail_view(request, pk: int):
    try:
        game = selectors.game_detail(game_id=pk, viewer=request.user)
    except Game.DoesNotExist:
        raise Http404("No such game.") from None
    seats = list(game.seats.all())
    return render(
        request,
        "games/game_detail.html",
        {"game": game, "seats": seats, "board": board_svg(game.placements)},
    )
