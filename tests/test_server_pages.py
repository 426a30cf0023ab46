"""Addresses that lead nowhere: a browser gets a page with the way to the lobby, the API keeps JSON."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from munchkin.server.app import create_app

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'munchkin.db'}")) as c:
        yield c


def test_a_missing_table_is_a_page_that_says_so(client: TestClient) -> None:
    r = client.get("/table/doesnotexist", headers=BROWSER)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert "This table does not exist" in r.text and "<code>doesnotexist</code>" in r.text
    assert 'href="/"' in r.text and "Go to the lobby" in r.text
    assert 'href="/static/style.css"' in r.text  # the site's own look


def test_an_address_in_the_page_is_escaped_and_cut(client: TestClient) -> None:
    r = client.get("/table/" + "%3Cscript%3E" + "x" * 300, headers=BROWSER)
    assert r.status_code == 404
    assert "<script>" not in r.text and "&lt;script&gt;" in r.text
    assert "x" * 100 not in r.text


def test_another_unknown_page_is_a_page_too(client: TestClient) -> None:
    r = client.get("/no/such/page", headers=BROWSER)
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "There is no such page" in r.text and 'href="/"' in r.text


def test_the_api_still_answers_json(client: TestClient) -> None:
    for url in ("/api/tables/doesnotexist", "/api/tables/doesnotexist/cards", "/api/nothing-here"):
        r = client.get(url, headers=BROWSER)
        assert r.status_code == 404, url
        assert r.headers["content-type"] == "application/json", url
        assert "detail" in r.json(), url
    r = client.post("/api/sets")  # a wrong method on the API: JSON, with the allowed methods
    assert r.status_code == 405 and r.headers["content-type"] == "application/json"
    assert r.headers["allow"] == "GET"


# ---------------------------------------------------------------------------------------------- security headers

SECURITY = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


def csp_of(headers: Mapping[str, str]) -> dict[str, str]:
    """A Content-Security-Policy header as {directive: its sources}."""
    directives = (d.strip().partition(" ") for d in headers["content-security-policy"].split(";"))
    return {name: sources for name, _, sources in directives}


def test_every_kind_of_response_carries_the_security_headers(client: TestClient) -> None:
    table = client.post("/api/tables", json={"seats": [{"name": n, "kind": "human"} for n in ("A", "B", "C")]})
    tid = table.json()["table"]["id"]
    answers = {
        "lobby page": client.get("/", headers=BROWSER),
        "table page": client.get(f"/table/{tid}", headers=BROWSER),
        "help page": client.get("/help/deluxe", headers=BROWSER),
        "404 page": client.get("/table/doesnotexist", headers=BROWSER),
        "JSON API": client.get("/api/tables"),
        "JSON 404": client.get("/api/tables/doesnotexist"),
        "JSON 422": client.post("/api/tables", json={"seats": []}),
        "413 before the app": client.post("/api/tables", content=b"{" + b" " * 20000 + b"}"),
        "static file": client.get("/static/table.js"),
        "static style": client.get("/static/style.css"),
        "created table": table,
    }
    assert [a.status_code for a in answers.values()] == [200, 200, 200, 404, 200, 404, 422, 413, 200, 200, 201]
    for what, r in answers.items():
        for name, value in SECURITY.items():
            assert r.headers.get(name) == value, (what, name)
        csp = csp_of(r.headers)
        assert csp["default-src"] == "'self'" and csp["script-src"] == "'self'" and csp["style-src"] == "'self'", what
        assert csp["frame-ancestors"] == "'none'" and csp["object-src"] == "'none'", what
        assert csp["connect-src"] == "'self' ws://testserver wss://testserver", what
        assert "unsafe" not in r.headers["content-security-policy"], what
    # with nosniff a browser runs a script or applies a style sheet only under its own type
    assert answers["static file"].headers["content-type"].split(";")[0] in ("text/javascript", "application/javascript")
    assert answers["static style"].headers["content-type"].startswith("text/css")


def test_a_host_header_cannot_write_into_the_policy(client: TestClient) -> None:
    """The WebSocket sources name the request's host; a Host that is not a plain host[:port] is left out."""
    plain = client.get("/", headers={"host": "munchkin.example:8000"})
    assert csp_of(plain.headers)["connect-src"] == "'self' ws://munchkin.example:8000 wss://munchkin.example:8000"
    sneaky = client.get("/", headers={"host": "x; script-src *"})
    assert csp_of(sneaky.headers)["connect-src"] == "'self'"
    assert csp_of(sneaky.headers)["script-src"] == "'self'"


def test_the_pages_hold_no_inline_script_or_style(client: TestClient) -> None:
    """What the policy would block: an inline <script> or <style>, a style or on… attribute, a script
    from elsewhere. The browser test (tests/test_e2e_pages.py) shows none is made by the scripts either."""
    import re

    tid = client.post("/api/tables", json={"seats": [{"name": n, "kind": "bot"} for n in "ABC"]}).json()["table"]["id"]
    pages = ["/", f"/table/{tid}", "/help", "/help/star,deluxe", "/help/notation", "/help/nope", "/nowhere"]
    for path in pages:
        html = client.get(path, headers=BROWSER).text
        assert not re.search(r"<script(?![^>]*\bsrc=\"/static/)", html), path
        assert not re.search(r"<style|\sstyle=|\son[a-z]+=|javascript:", html, re.IGNORECASE), path


def test_the_api_schema_is_public_and_the_documentation_pages_are_off(client: TestClient) -> None:
    schema = client.get("/openapi.json")
    assert schema.status_code == 200 and "/api/tables" in schema.json()["paths"]
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        r = client.get(path, headers=BROWSER)
        assert r.status_code == 404 and "There is no such page" in r.text, path
