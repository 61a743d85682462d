"""The schema at /api/v1/schema is valid OpenAPI 3 and names every endpoint; /api/ draws it."""

from __future__ import annotations

from pathlib import Path

import ninja as ninja_module
import pytest
from django.conf import settings
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
    assert "vendor/redoc/redoc.standalone.js" in page
    # Redoc's inline styles are allowed on this page only.
    assert "style-src 'self' 'unsafe-inline'" in response["Content-Security-Policy"]
    assert "unsafe-inline" not in client.get("/").headers["Content-Security-Policy"]


# The one change made to django-ninja's Redoc: its sidebar logo, an image from Redocly's CDN.
REDOC_LOGO = (
    'e?n.createElement("img",{alt:"redocly logo",onError:()=>t(!1),'
    'src:"https://cdn.redoc.ly/redoc/logo-mini.svg"}):null'
)


REDOC_SOURCE_MAP = "\n//# sourceMappingURL=redoc.standalone.js.map"


def test_the_api_pages_redoc_is_django_ninjas_without_the_logo_from_another_host():
    """When django-ninja's Redoc changes, this fails: copy it again with the logo taken out."""
    ninja = (Path(ninja_module.__file__).parent / "static/ninja/redoc.standalone.js").read_text()
    ours = (settings.BASE_DIR / "frontend/static/vendor/redoc/redoc.standalone.js").read_text()
    assert ninja.count(REDOC_LOGO) == 1
    # Its source map is not shipped: collectstatic's manifest refuses a file that names
    # one it cannot find (every production start would fail).
    assert ours == ninja.replace(REDOC_LOGO, "null").replace(REDOC_SOURCE_MAP, "")
    assert "cdn.redoc.ly" not in ours


def test_the_api_page_tells_a_russian_reader_its_reference_is_in_english(client: Client):
    page = client.get("/api/", headers={"accept-language": "ru"}).content.decode()
    assert "на английском" in page
    english = client.get("/api/", headers={"accept-language": "en"}).content.decode()
    assert "in English" not in english


PUBLIC = (
    ENDPOINTS
    - {"/api/v1/account", "/api/v1/account/games"}
    - {
        "/api/v1/bot/account/upgrade",
        "/api/v1/races/{code}/join",
    }
)


def test_public_reads_declare_the_token_optional_and_the_others_require_it(client: Client):
    schema = client.get("/api/v1/schema").json()
    for path, operations in schema["paths"].items():
        for operation in operations.values():
            optional = {} in operation["security"]
            assert optional == (path in PUBLIC), path
            assert {"TokenAuth": []} in operation["security"], path
            assert "401" in operation["responses"], path  # a bad token, even on a public read
    # Answered without a token: what the schema now says.
    assert client.get("/api/v1/daily/2000-01-01").status_code == 200


def test_a_variant_is_declared_as_the_codes_it_takes_and_a_day_as_yyyy_mm_dd_only(
    client: Client,
):
    schema = client.get("/api/v1/schema").json()
    (variant,) = (
        p
        for p in schema["paths"]["/api/v1/daily/{day}"]["get"]["parameters"]
        if p["name"] == "variant"
    )
    assert variant["schema"]["enum"] == ["sultan", "sultan-8", "pysolfc", "pysolfc-8"]
    assert client.get("/api/v1/daily/0").status_code == 400  # not read as 1970-01-01
    assert client.get("/api/v1/players/nobody/games?until=0").status_code == 400
