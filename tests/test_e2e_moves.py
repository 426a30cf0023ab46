"""The staged moves panel in a real browser: whole seeded games with a person seated, whose every move
the test makes through the panel (opening its groups as a person would); at no moment more than a
dozen top-level choices, every choice with its meaning beside it. Screenshots: test-artifacts/."""

from __future__ import annotations

import json
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from system import CHROMIUM, CHROMIUM_ARGS, ensure_debian_packages
from test_e2e_browser import REPO, Frames, Msg, Server, choose, get_json, post_table, reveal_move, server  # noqa: F401

SHOTS = REPO / "test-artifacts"
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
GAMES = (("deluxe",), ("star", "deluxe"))
GIVE_UP = 240.0  # seconds for one whole game

TOP_JS = """() => {
  const top = document.querySelector('#actions .menu-stage[data-depth="0"]');
  if (!top) return null;
  const items = [...top.querySelectorAll(':scope > .menu-items > button')];
  return {
    count: items.length,
    unexplained: items.filter((b) => !b.querySelector('.move-meaning')).map((b) => b.textContent),
    shown: [...document.querySelectorAll('#actions-panel button.action, #window-panel button.action')]
      .map((b) => b.dataset.text),
    pending: document.body.classList.contains('pending'),
  };
}"""


def play_through_panel(page: Page, frames: Frames, shots: dict[str, bool]) -> tuple[int, int, int]:
    """Play the person's seat to the end of the game through the staged panel. Returns the largest
    top level seen, the number of moves made, and how many of them needed a group opened."""
    done: set[str] = set()
    most, moves, staged = 0, 0, 0
    last: tuple[int, float] | None = None
    give_up = time.monotonic() + GIVE_UP
    while True:
        assert time.monotonic() < give_up, f"the game did not end in {GIVE_UP:.0f} s ({moves} moves)"
        page.wait_for_timeout(20)
        st = frames.state
        if st is not None and st["view"]["over"]:
            return most, moves, staged
        top = page.evaluate(TOP_JS)
        if top is not None:
            assert top["count"] <= 12, f"{top['count']} top-level choices"
            assert not top["unexplained"], f"choices without a meaning: {top['unexplained']}"
            most = max(most, top["count"])
        if st is None or top is None or top["pending"] or 0 not in st["view"]["to_act"] or not st["actions"]:
            continue
        if set(top["shown"]) != {a["text"] for a in st["actions"]}:
            continue  # the page has not drawn this state yet
        if last is not None and last[0] == st["version"] and time.monotonic() - last[1] < 5:
            continue  # our move for this version is on its way
        text = choose(st["actions"], st["view"], done)
        button = page.locator(f"button.action[data-text={json.dumps(text, ensure_ascii=False)}]").first
        try:
            hidden = not button.is_visible()
            reveal_move(page, text)
            if hidden and not shots.get("staged"):
                shots["staged"] = True
                page.screenshot(path=str(SHOTS / "moves-staged.png"))
                page.set_viewport_size(PHONE)
                page.locator("#actions-panel").scroll_into_view_if_needed()
                page.screenshot(path=str(SHOTS / "moves-staged-phone.png"))
                page.set_viewport_size(LAPTOP)
            if not shots.get("top") and len(st["actions"]) > 12 and not hidden:
                shots["top"] = True
                page.locator("#actions-panel").scroll_into_view_if_needed()
                page.screenshot(path=str(SHOTS / "moves-top.png"))
            button.click(timeout=2000)
        except Exception:  # noqa: BLE001 - the table moved on under the pointer (a window ran out): look again
            continue
        last = (st["version"], time.monotonic())
        staged += hidden
        moves += 1
        if st["view"]["phase"] == "setup":
            done.add(text)


def test_the_moves_panel_stays_scannable_through_whole_games(server: Server) -> None:  # noqa: F811
    """Two whole seeded games (Deluxe; Star Munchkin shuffled with Deluxe), the person's moves made
    through the staged panel: never more than 12 top-level choices, each with its meaning; some moves
    are reached by opening a group; the typed-action form still lists every legal move."""
    ensure_debian_packages("chromium")
    SHOTS.mkdir(parents=True, exist_ok=True)
    shots: dict[str, bool] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        errors: list[str] = []
        try:
            for i, sets in enumerate(GAMES):
                made = post_table(
                    server,
                    f"Moves {i}",
                    ("human", "bot", "bot", "bot"),
                    sets=list(sets),
                    seed=40 + i,
                    bot_delay=0,
                    window_seconds=1.0,
                )
                page = browser.new_page(viewport=LAPTOP)
                page.on("pageerror", lambda e: errors.append(str(e)))
                frames = Frames()
                page.on("websocket", frames.attach)
                page.goto(server.url + made["links"][0]["url"])
                most, moves, staged = play_through_panel(page, frames, shots)
                assert get_json(server, f"/api/tables/{made['table']['id']}")["status"] == "over"
                assert moves > 10 and 2 <= most <= 12, (moves, most)
                if i == 0:
                    assert staged > 0, "no move was ever reached through a group"
                page.close()
        finally:
            browser.close()
    assert not errors, errors
    assert shots.get("staged"), "never a staged move to show"
    assert Path(SHOTS / "moves-staged.png").stat().st_size > 0
