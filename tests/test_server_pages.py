"""Addresses that lead nowhere: a browser gets a page with the way to the lobby, the API keeps JSON."""

from __future__ import annotations

from collections.abc import Iterator
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
