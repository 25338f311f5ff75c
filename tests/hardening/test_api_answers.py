"""Regression tests for what the schema fuzz found: 500s, HTML answers and filters on actions."""

from __future__ import annotations

import pytest

from tests.conftest import client_for
from tournaments import services
from tournaments.models import Championship

pytestmark = pytest.mark.django_db


def test_a_championship_without_a_category_is_an_open_one(organiser):
    response = client_for(organiser).post(
        "/api/championships/", {"name": "Spring Open", "year": 2026}, format="json"
    )
    assert response.status_code == 201, response.data
    assert Championship.objects.get().category == "open"


def test_form_encoded_null_countries_is_no_countries(organiser):
    championship = services.championship_create(
        actor=organiser, name="Cup", year=2026, published=True
    )
    response = client_for(organiser).post(
        "/api/events/",
        f"championship={championship.pk}&name=N&format=knockout&countries=null",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 201, response.data
    assert response.data["countries"] == []


def test_unknown_api_paths_answer_json_and_site_paths_the_site_page():
    api = client_for(None).post("/api/ratings/reviews/-12/approve/")
    assert api.status_code == 404 and api["Content-Type"] == "application/json"
    page = client_for(None).get("/no/such/page/")
    assert page.status_code == 404 and b"Tantrix tournaments" in page.content


def test_too_many_form_fields_is_a_json_400(organiser):
    championship = services.championship_create(
        actor=organiser, name="Cup", year=2026, published=True
    )
    event = services.event_create(
        actor=organiser, championship=championship, name="KO", format="knockout"
    )
    body = "&".join(["order=1"] * 1500)
    response = client_for(organiser).post(
        f"/api/events/{event.pk}/seed/", body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert "detail" in response.json()


def test_list_filters_do_not_apply_to_an_events_actions(organiser):
    championship = services.championship_create(
        actor=organiser, name="Cup", year=2026, published=True
    )
    event = services.event_create(
        actor=organiser, championship=championship, name="KO", format="knockout"
    )
    response = client_for(None).get(f"/api/events/{event.pk}/entries/?status=closed")
    assert response.status_code == 200


def test_the_schema_documents_the_error_answers():
    schema = client_for(None).get("/api/schema/")
    assert schema.status_code == 200
    import yaml

    document = yaml.safe_load(schema.content)
    operation = document["paths"]["/api/games/records/"]["post"]
    assert {"400", "401", "403", "413", "429"} <= set(operation["responses"])
