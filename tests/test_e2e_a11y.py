"""Accessibility: axe-core (axe-playwright-python) finds no serious or critical problem on the lobby,
on a person's table page in character creation and mid-game, and with the Rules dialog open.

One game in Chromium: the person's moves are typed into the page's action box (the moves panel may
be laid out in any way), chosen by the end-to-end test's policy; the table's clock is the test's
(`ClockedServer`), so no window passes for the person before they answer it. Screenshots of the Rules dialog on
a laptop-sized and a phone-sized screen go to test-artifacts/e2e/.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from system import ensure_debian_packages
from test_e2e_browser import (
    ARTIFACTS,
    SEED,
    ClockedServer,
    Frames,
    choose,
    clocked_server,
    post_table,
    table_id,
    watched_browser,
)
from waits import PATIENCE

__all__ = ["clocked_server"]  # the fixture, used by name

BAD = ("serious", "critical")
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def problems(page: Page, where: str) -> list[str]:
    """The serious and critical axe-core violations on the page as it is now, one line per node."""
    found = Axe().run(page).response["violations"]

    out = []
    for v in found:
        if v.get("impact") not in BAD:
            continue
        nodes = v["nodes"]
        lines = [f"[{where}] {v['id']} ({v['impact']}, {len(nodes)} nodes): {v['help']}"]
        for n in nodes[:4]:
            lines.append(f"    at {', '.join(map(str, n['target']))}: {n['html'][:160]}")
            lines.append(f"       {(n.get('failureSummary') or '').replace(chr(10), ' ')[:240]}")
        if len(nodes) > 4:
            lines.append(f"    ... and {len(nodes) - 4} more")
        out.append("\n".join(lines))
    return out


def test_no_serious_accessibility_problems_on_the_lobby_and_a_table_in_play(clocked_server: ClockedServer) -> None:
    server = clocked_server
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    made = post_table(
        server,
        "Axe table",
        ("human", "bot", "bot", "bot"),
        sets=["star", "deluxe"],
        seed=SEED,
        bot_delay=0,
        window_seconds=0.5,
    )
    link = server.url + made["links"][0]["url"]
    found: list[str] = []
    with watched_browser(server) as page:
        page.set_viewport_size(LAPTOP)
        page.goto(server.url + "/")
        expect(page.locator("#tables")).to_contain_text("Axe table")
        expect(page.locator('#sets input[name="set"]').first).to_be_visible()
        found += problems(page, "lobby")
        page.goto(server.url + "/help/notation")
        expect(page.locator("h1")).to_have_text("The action notation")
        found += problems(page, "notation page")

        frames = Frames()
        page.on("websocket", frames.attach)
        page.goto(link)
        table = table_id(made["links"][0]["url"])
        mid_game = play_until_mid_game(page, frames, found, tick=lambda: server.idle(table, 0.5))
        assert mid_game, "the game never came back to the person's turn"
        expect(page.locator("#setup-explain")).to_be_hidden()
        expect(page.locator("#usable-legend")).to_be_visible()
        st = frames.state
        assert st is not None
        page.wait_for_function(SHOWS_MOVES_JS, arg=sorted({a["text"] for a in st["actions"]}))
        found += problems(page, "table, mid-game")
        page.screenshot(path=str(ARTIFACTS / "a11y-table.png"))
        page.set_viewport_size(PHONE)
        found += problems(page, "table, mid-game, phone")
        page.set_viewport_size(LAPTOP)

        page.focus("#rules-button")
        page.keyboard.press("Enter")  # by keyboard, as by a click
        dialog = page.locator("#help-dialog")
        expect(dialog).to_be_visible()
        expect(page.locator("#help-dialog-title")).to_contain_text("Star Munchkin")
        expect(page.locator("#help-body")).to_contain_text("What Munchkin Deluxe adds")
        expect(page.locator("#help-close")).to_be_focused()
        found += problems(page, "rules dialog")
        page.screenshot(path=str(ARTIFACTS / "help-dialog-laptop.png"))
        page.set_viewport_size(PHONE)
        page.click('#help-body nav a[href="#rules-running-away"]')  # the dialog's contents lead inside it
        expect(page.locator("#rules-running-away")).to_be_in_viewport()
        expect(page.locator("#rules-running-away")).to_be_focused()
        page.screenshot(path=str(ARTIFACTS / "help-dialog-phone.png"))
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        expect(page.locator("#rules-button")).to_be_focused()
        page.set_viewport_size(LAPTOP)
    assert not found, "axe-core found serious or critical problems:\n" + "\n".join(found)


# the page shows the moves of the state it was sent, and no move of its own is on its way
SHOWS_MOVES_JS = """(want) => {
  if (document.body.classList.contains('pending')) return false;
  const shown = new Set([...document.querySelectorAll('#actions-panel button.action, #window-panel button.action')]
    .map((b) => b.dataset.text));
  return shown.size === want.length && want.every((t) => shown.has(t));
}"""


def play_until_mid_game(page: Page, frames: Frames, found: list[str], tick: Callable[[], object] | None = None) -> bool:
    """Type the person's moves until their second turn starts (checking the page during character
    creation on the way, which must come); True once there, False if the game ended first or stood still
    for PATIENCE. `tick`, if given, is called between two looks (on a `ClockedServer`: `idle`)."""
    done: set[str] = set()
    sent: tuple[int, int] | None = None  # (version, errors seen) of the last move typed
    setup_checked = False
    states, still_since = -1, time.monotonic()
    while time.monotonic() - still_since < PATIENCE:
        page.wait_for_timeout(20)
        if tick is not None:
            tick()
        if frames.states != states:
            states, still_since = frames.states, time.monotonic()
        st: dict[str, Any] | None = frames.state
        if st is None:
            continue
        v = st["view"]
        mine = 0 in v["to_act"] and bool(st["actions"])
        if v["over"]:
            return False
        if mine and v["phase"] != "setup" and v["turn"] >= 1 and v["prompt"] == "main" and v["active"] == 0:
            assert setup_checked, "the person had no move in character creation: its page was never checked"
            return True
        if not mine or (sent is not None and sent == (st["version"], len(frames.errors))):
            continue
        if v["phase"] == "setup" and not setup_checked:
            expect(page.locator("#setup-explain")).to_contain_text("Create your character")
            expect(page.locator("#actions-panel .menu-title")).to_have_count(0)  # the box says it already
            found += problems(page, "table, character creation")
            page.screenshot(path=str(ARTIFACTS / "a11y-setup.png"))
            setup_checked = True
        text = choose(st["actions"], v, done)
        if v["phase"] == "setup":
            done.add(text)
        page.fill("#action-input", text)
        page.press("#action-input", "Enter")
        sent = (st["version"], len(frames.errors))
    return False
