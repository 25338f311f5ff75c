"""Permissions declared once (issue 27): a view names its rule, the registry answers the check,
the template's `can_*` and the refusal; one mapping turns a domain refusal into an answer, on
the web and in the API alike."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django import forms
from django.core.exceptions import ImproperlyConfigured, PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.views import View
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied as APIPermissionDenied

from players.models import Player
from tantrix_site.http.answers import answer_service_errors, api_exception
from tantrix_site.http.forms import apply_service_errors
from tantrix_site.http.permissions import (
    PermissionRequiredMixin,
    check_permission,
    has_permission,
    permission_context,
    permission_named,
)
from tantrix_site.http.refusals import refusal_of
from tournaments import services
from tournaments.models import Championship

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def championship(db, organiser):
    return services.championship_create(
        actor=organiser, name="Declared Open", year=2026, category="open", published=True
    )


def test_a_rule_answers_the_check_and_the_templates_can(championship, organiser, outsider):
    assert permission_context(organiser, championship, "manage", "see_audit") == {
        "can_manage": True,
        "can_see_audit": True,
    }
    assert permission_context(outsider, championship, "manage") == {"can_manage": False}
    event = services.event_create(
        actor=organiser, championship=championship, name="Main", format="knockout"
    )
    # Authority over anything inside a championship is authority over that championship.
    assert has_permission(organiser, "manage", event)
    with pytest.raises(PermissionDenied, match="Only this championship's organisers may do that"):
        check_permission(outsider, "manage", event)
    with pytest.raises(ImproperlyConfigured):
        check_permission(outsider, "no_such_rule", event)


def test_a_declared_view_refuses_with_its_rules_words_before_its_form(
    client, championship, outsider
):
    client.force_login(outsider)
    answer = client.get(reverse("championship-edit", args=[championship.pk]))
    assert answer.status_code == 403
    assert "Only this championship&#x27;s organisers may do that." in answer.content.decode()
    # The lookup comes first: what the user may not see is a 404, not a refusal.
    assert client.get(reverse("championship-edit", args=[999_999])).status_code == 404


class CriteriaForm(forms.Form):
    tiebreak_0 = forms.CharField(required=False)


def test_one_mapping_answers_a_refusal_on_the_web_and_in_the_api_alike():
    refused = ValidationError({"tiebreaks": ["Choose each criterion once."]})

    def service():
        raise refused

    # The API: 400 with the same field messages.
    with pytest.raises(serializers.ValidationError) as api:
        answer_service_errors(service)
    assert api.value.detail == {"tiebreaks": ["Choose each criterion once."]}
    # The web: the form carries them on its own field for that name.
    form = CriteriaForm(data={})
    assert form.is_valid()
    apply_service_errors(form, refused, fields={"tiebreaks": "tiebreak_0"})
    assert form.errors == {"tiebreak_0": ["Choose each criterion once."]}
    # A permission refusal is 403 with its words everywhere; a missing object 404.
    denied = refusal_of(PermissionDenied("Not yours."))
    assert (denied.status, denied.all_messages) == (403, ["Not yours."])
    assert isinstance(api_exception(denied, whole_request="detail"), APIPermissionDenied)
    assert refusal_of(Http404()).status == 404
    assert refusal_of(LookupError("gone"), not_found=(LookupError,)).status == 404
    assert refusal_of(RuntimeError("a bug")) is None


# Predicates a view may no longer call to refuse by hand: it declares a rule instead.
HAND_CHECKS = {"can_manage", "can_rule", "require_organiser", "_require", "can_create_championship"}


def test_no_tournaments_view_checks_a_permission_by_hand():
    found = []
    for path in sorted((ROOT / "tournaments").rglob("*.py")):
        if path.name not in {"views.py", "api.py", "table_api.py"}:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in HAND_CHECKS
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.func.id}")
    assert found == []


class ChampionshipSettings(PermissionRequiredMixin, View):
    """A class-based view declares its rule as an attribute."""

    permission = "manage"

    def get_permission_object(self):
        return Championship.objects.get(pk=self.kwargs["pk"])

    def get(self, request, pk):
        return HttpResponse("settings")


def test_a_class_based_view_declares_its_rule_as_an_attribute(
    rf, championship, organiser, outsider
):
    view = ChampionshipSettings.as_view()
    request = rf.get("/")
    request.user = organiser
    assert view(request, pk=championship.pk).content == b"settings"
    request.user = outsider
    with pytest.raises(PermissionDenied, match="organisers may do that"):
        view(request, pk=championship.pk)


# games, ratings and players (issue 27): the predicates their views once called to refuse by
# hand; each page and endpoint now declares the rule instead (games/reports/access.py,
# games/records/selectors.py, games/verdict_reviews/selectors.py, ratings/staff/access.py,
# players/permissions.py). `may_see` stays in the lookups: what one may not see is a 404.
APP_HAND_CHECKS = {
    "is_admin",
    "is_organiser",
    "can_edit_player",
    "can_manage_claims",
    "can_see_private",
    "may_rule",
    "may_reopen",
    "may_confirm",
    "record_visible_to",
}


def _called_names(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):
            return node.func.id
        if isinstance(node.func, ast.Attribute):
            return node.func.attr
    return None


@pytest.mark.parametrize("app", ["games", "ratings", "players"])
def test_no_view_of_games_ratings_or_players_checks_a_permission_by_hand(app):
    found = []
    for path in sorted((ROOT / app).rglob("*.py")):
        if not (path.stem.endswith("views") or path.stem.endswith("api")):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if _called_names(node) in APP_HAND_CHECKS:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {_called_names(node)}")
    assert found == []


def test_games_ratings_and_players_rules_are_registered(organiser, outsider):
    player = Player.objects.create(display_name="Declared Player", created_by=organiser)
    assert has_permission(organiser, "edit_player", player)
    assert not has_permission(outsider, "edit_player", player)
    assert has_permission(organiser, "enter_players")
    assert not has_permission(outsider, "review_ratings")
    with pytest.raises(PermissionDenied, match="Only site staff review verdicts"):
        check_permission(outsider, "review_verdicts")
    for name in ("answer_report", "rule_report", "reopen_report", "see_record", "see_claim"):
        assert permission_named(name).name == name  # ImproperlyConfigured if not registered
