"""The rules help: one page per edition (and per mix of editions) in our own words, the action
notation as a page, served by the table server and linked from the lobby and the table page."""

from __future__ import annotations

import re
import subprocess
import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from munchkin.cards.loader import load_set
from munchkin.help import EDITIONS, help_page
from munchkin.server.app import create_app
from waits import PATIENCE

REPO = Path(__file__).resolve().parent.parent


def rules_folder() -> Path:
    """../shared/rules beside the repository, or beside the repository this one was cloned from
    (CI tests a fresh clone made elsewhere)."""
    here = REPO.parent / "shared" / "rules"
    if here.is_dir():
        return here
    try:
        url = subprocess.run(
            ["git", "-C", str(REPO), "config", "--get", "remote.origin.url"],
            capture_output=True,
            text=True,
            check=False,
            timeout=PATIENCE,
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return here
    origin = Path(url.removeprefix("file://")) if url and "://" not in url.removeprefix("file://") else None
    if origin is not None and (origin.parent / "shared" / "rules").is_dir():
        return origin.parent / "shared" / "rules"
    return here


RULES = rules_folder()
HELP = resources.files("munchkin.help")
STATIC = REPO / "src" / "munchkin" / "server" / "static"

# what every edition's page must explain (the headings of core.md), and each edition's own things
CORE = [
    "The goal",
    "Your turn, phase by phase",
    "When you may take actions",
    "Combat and combat strength",
    "Help and bribes",
    "Running Away",
    "Bad Stuff and death",
    "Charity and the hand limit",
]
SPECIALS = {
    "deluxe": ["Half-Breed", "Super Munchkin", "Hireling", "Big Items", "Undead", "Mate", "Level track"],
    "star": ["Traps", "Sidekicks", "Trader", "Complex Items", "Gadgeteer", "Laser weapons", "Clone"],
    "good-bad": ["no Races", "Traps", "Sidekicks", "Steeds", "Item Enhancers", "twice its bonus"],
    "harry-potter": ["Unlock the Door", "Up to No Good", "Houses", "Dual Role", "Rank", "Allies", "Death Eaters"],
}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("help") / "munchkin.db"
    with TestClient(create_app(f"sqlite:///{db}"), raise_server_exceptions=False) as c:
        yield c


def text_of(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_the_shipped_notation_is_docs_notation() -> None:
    """The package cannot reach docs/: it ships a copy, which must be the same file."""
    shipped = (HELP / "notation.md").read_text(encoding="utf-8")
    assert shipped == (REPO / "docs" / "notation.md").read_text(encoding="utf-8"), (
        "src/munchkin/help/notation.md differs from docs/notation.md: copy docs/notation.md over it"
    )


def test_the_help_files_ship_in_the_package() -> None:
    data = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["munchkin"]
    assert "help/*.md" in data
    names = {p.name for p in HELP.iterdir() if p.name.endswith(".md")}
    assert names == {"core.md", "notation.md", *EDITIONS.values()}


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_each_edition_page_explains_the_turn_and_its_own_cards(client: TestClient, edition: str) -> None:
    r = client.get(f"/help/{edition}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = text_of(r.text)
    for heading in CORE:
        assert heading in page, (edition, heading)
    for word in ("Kick Open The Door", "Look For Trouble", "Loot The Room", "Level 10", "5 or 6", "five cards"):
        assert word in page, (edition, word)
    for word in SPECIALS[edition]:
        assert word in page, (edition, word)
    title = load_set(edition).title
    assert f"What {title}" in page or f"What Munchkin {title}" in page, page[:400]
    # the lists of Races, Classes, Roles, Houses... come from the card data
    cards = load_set(edition)
    for c in cards.cards:
        if c.kind in ("race", "class", "role", "proficiency", "sidekick", "item_enhancer"):
            assert c.name.replace("&", "&amp;") in r.text or c.name in page, (edition, c.name)
    for h in cards.houses:
        assert h.name in page and h.text.removeprefix("House. ") in page
    assert "{{" not in page


def test_a_mixed_table_gets_the_core_once_and_each_editions_own_rules(client: TestClient) -> None:
    page = text_of(client.get("/help/star,deluxe").text)
    assert page.count("Charity and the hand limit") == 2  # the section and its entry in the contents
    assert "What Star Munchkin adds" in page and "What Munchkin Deluxe adds" in page
    assert page.index("What Star Munchkin adds") < page.index("What Munchkin Deluxe adds")  # the table's order
    ids = re.findall(r'id="([^"]+)"', client.get("/help/star,deluxe").text)
    assert len(ids) == len(set(ids)), "every heading's id is unique"


def test_the_index_and_the_notation(client: TestClient) -> None:
    index = client.get("/help")
    assert index.status_code == 200
    for e in EDITIONS:
        assert f'href="/help/{e}"' in index.text
    assert 'href="/help/notation"' in index.text
    notation = client.get("/help/notation")
    assert notation.status_code == 200
    assert "<table>" in notation.text and "<code>kick open the door</code>" in notation.text
    assert "Character creation" in notation.text


@pytest.mark.parametrize("path", ["nope", "deluxe,nope", "deluxe,deluxe", "<script>alert(1)", "x" * 3000])
def test_an_unknown_help_page_is_a_404_page_that_says_what_exists(client: TestClient, path: str) -> None:
    r = client.get(f"/help/{path}")
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "deluxe, star, good-bad, harry-potter" in r.text and 'href="/"' in r.text
    assert "<script>" not in r.text and "Traceback" not in r.text
    assert len(r.text) < 5000


def test_the_help_is_in_our_own_words() -> None:
    """No run of eight words from a rulebook appears in the help texts (the notation is ours anyway)."""

    def words(text: str) -> list[str]:
        text = re.sub(r"the good,? the bad,? and the munchkin", "gbm", text.lower())  # a title, not a sentence
        return re.findall(r"[a-z0-9']+", text.replace("’", "'"))

    books = [p for p in RULES.glob("*.txt")] if RULES.is_dir() else []
    if not books:
        pytest.skip("the rulebooks are not beside the repository (../shared/rules)")
    runs: set[tuple[str, ...]] = set()
    for book in books:
        w = words(book.read_text(encoding="utf-8", errors="replace"))
        runs.update(tuple(w[i : i + 8]) for i in range(len(w) - 7))
    for name in ["core.md", *EDITIONS.values()]:
        w = words((HELP / name).read_text(encoding="utf-8"))
        copied = [" ".join(w[i : i + 8]) for i in range(len(w) - 7) if tuple(w[i : i + 8]) in runs]
        assert not copied, (name, copied[:5])


def test_the_pages_link_the_help() -> None:
    table = (STATIC / "table.html").read_text()
    assert 'id="rules-button"' in table and '<dialog id="help-dialog"' in table
    assert 'href="/help/notation"' in table and 'src="/static/help.js"' in table
    assert 'id="setup-explain"' in table and 'id="usable-legend"' in table
    assert 'href="/help"' in (STATIC / "lobby.html").read_text()


def test_help_page_is_cached_but_a_miss_is_not() -> None:
    assert help_page("deluxe") is help_page("deluxe")
    with pytest.raises(LookupError):
        help_page("nope")
