import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_openapi_schema_generates_without_warnings(tmp_path, capsys):
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(out))
    text = out.read_text()
    for path in ["/api/players/", "/api/games/records/", "/api/auth/token/"]:
        assert f"{path}:" in text


def test_schema_and_docs_are_served(client):
    assert client.get("/api/schema/").status_code == 200
    assert client.get("/api/docs/").status_code == 200


def test_health_with_database_and_broker_up(client, settings):
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["database"]["ok"] and body["broker"] == {"ok": True, "mode": "redis"}


def test_health_names_the_broker_when_it_is_down(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["broker"]
    assert body["database"]["ok"] is True


def test_health_in_eager_mode(client, settings):
    settings.CELERY_BROKER_URL = ""
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["broker"] == {"ok": True, "mode": "eager"}
