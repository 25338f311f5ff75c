"""The notices page: my notices, newest first, and marking them all read."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from players.notices.links import notice_link
from players.notices.selectors import notices_for
from players.notices.services import notices_mark_read


@login_required
def notice_list_view(request):
    page = Paginator(notices_for(request.user), 50).get_page(request.GET.get("page"))
    for notice in page:
        notice.link = notice_link(notice)
    return render(request, "players/notices.html", {"page": page})


@login_required
@require_POST
def notices_read_view(request):
    notices_mark_read(user=request.user)
    return redirect("notice-list")
