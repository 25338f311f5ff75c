from django.contrib.auth import login
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from players.forms import SignupForm
from tantrix_site import docs_pages


def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        player = form.save()
        if player is not None:
            login(request, player.user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("player-detail", pk=player.pk)
    return render(request, "registration/signup.html", {"form": form})


def doc_page(request, slug: str):
    """A document of docs/ as a page (the record format, the rules); see docs_pages.py."""
    found = docs_pages.page(slug, lambda other: reverse("doc-page", args=[other]))
    if found is None:
        raise Http404(_("No such document."))
    english_title, body = found
    title = DOC_TITLES.get(slug, english_title)
    return render(request, "doc_page.html", {"title": title, "body": mark_safe(body)})


# The documents are English (their first heading is the page's h1); the browser tab and the
# header speak the reader's language.
DOC_TITLES = {
    "record-format": gettext_lazy("Game records, verdicts and positions"),
    "rules": gettext_lazy("The rules as the engine enforces them"),
    "ratings": gettext_lazy("Ratings and forecasts: the formulas"),
    "arranging": gettext_lazy("Arranging a match's time"),
}
