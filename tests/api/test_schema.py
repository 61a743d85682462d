"""The schema at /api/v1/schema is valid OpenAPI 3 and names every endpoint; /api/ draws it."""

from __future__ import annotations

import pytest
from django.test import Client
from openapi_spec_validator import validate

pytestmark = pytest.mark.django_db

ENDPOINTS = {
    "/api/v1/account",
    "/api/v1/account/games",
    "/api/v1/players/{username}",
    "/api/v1/players/{username}/games",
    "/api/v1/games/{game_id}",
    "/api/v1/games/{game_id}/replay",
    "/api/v1/races/{code}",
    "/api/v1/daily/{day}",
    "/api/v1/bot/account/upgrade",
    "/api/v1/races/{code}/join",
}


def test_the_schema_is_valid_openapi_3_with_every_endpoint(client: Client):
    response = client.get("/api/v1/schema")
    assert response.status_code == 200
    schema = response.json()
    validate(schema)  # raises on any violation of the OpenAPI 3.1 specification
    assert schema["openapi"].startswith("3.")
    assert set(schema["paths"]) == ENDPOINTS
    assert schema["components"]["securitySchemes"]["TokenAuth"]["scheme"] == "bearer"


def test_the_games_list_documents_its_ndjson_stream(client: Client):
    schema = client.get("/api/v1/schema").json()
    content = schema["paths"]["/api/v1/account/games"]["get"]["responses"]["200"]["content"]
    assert set(content) == {"application/json", "application/x-ndjson"}


def test_the_api_page_draws_the_schema_with_the_bundled_redoc(client: Client):
    response = client.get("/api/")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-schema="/api/v1/schema"' in page
    assert "ninja/redoc.standalone.js" in page
    # Redoc's inline styles are allowed on this page only.
    assert "style-src 'self' 'unsafe-inline'" in response["Content-Security-Policy"]
    assert "unsafe-inline" not in client.get("/").headers["Content-Security-Policy"]
