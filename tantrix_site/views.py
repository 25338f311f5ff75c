from django.contrib.auth import login
from django.shortcuts import redirect, render

from players.forms import SignupForm


def home(request):
    return render(request, "home.html")


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
