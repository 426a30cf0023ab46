"""The staged moves panel in a real browser: whole seeded games with a person seated, whose every move
the test makes through the panel (opening its groups as a person would); at no moment more than a
dozen top-level choices, every choice with its meaning beside it. The table's clock is the test's
(`ClockedServer`): no window passes for the person before they answer it. Screenshots: test-artifacts/."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from system import CHROMIUM, CHROMIUM_ARGS, ensure_debian_packages
from test_e2e_browser import (  # noqa: F401 - the fixture, used by name
    PROBE_MS,
    REPO,
    ClockedServer,
    Frames,
    Msg,
    attempt,
    choose,
    click_move,
    clocked_server,
    get_json,
    patient,
    post_table,
    reveal_move,
)
from waits import PATIENCE

SHOTS = REPO / "test-artifacts"
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
GAMES = (("deluxe",), ("star", "deluxe"))

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


def play_through_panel(
    page: Page, frames: Frames, shots: dict[str, bool], tick: Callable[[], object]
) -> tuple[int, int, int]:
    """Play the person's seat to the end of the game through the staged panel, calling `tick` between two
    looks (`ClockedServer.idle`). Returns the largest top level seen, the number of moves made, and how
    many of them needed a group opened."""
    done: set[str] = set()
    most, moves, staged = 0, 0, 0
    last: tuple[int, float] | None = None
    states, still_since = -1, time.monotonic()
    while True:
        if frames.states != states:
            states, still_since = frames.states, time.monotonic()
        assert time.monotonic() - still_since < PATIENCE, f"the game stood still for {PATIENCE:.0f} s ({moves} moves)"
        page.wait_for_timeout(20)
        tick()
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
        version = st["version"]

        def latest(version: int = version) -> bool:
            return frames.state is not None and frames.state["version"] == version

        hidden = not button.is_visible()
        # the table may move on under the pointer (a bot played into the moment): then look again
        if not attempt(lambda text=text: reveal_move(page, text, PROBE_MS), latest, f"{text!r} shown"):
            continue
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
        if not click_move(page, frames, text, version):
            continue
        last = (st["version"], time.monotonic())
        staged += hidden
        moves += 1
        if st["view"]["phase"] == "setup":
            done.add(text)


def test_the_moves_panel_stays_scannable_through_whole_games(clocked_server: ClockedServer) -> None:  # noqa: F811
    """Two whole seeded games (Deluxe; Star Munchkin shuffled with Deluxe), the person's moves made
    through the staged panel: never more than 12 top-level choices, each with its meaning; some moves
    are reached by opening a group; the typed-action form still lists every legal move."""
    server = clocked_server
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
                page = patient(browser.new_page(viewport=LAPTOP))
                page.on("pageerror", lambda e: errors.append(str(e)))
                frames = Frames()
                page.on("websocket", frames.attach)
                page.goto(server.url + made["links"][0]["url"])
                table = made["table"]["id"]
                most, moves, staged = play_through_panel(
                    page, frames, shots, tick=lambda table=table: server.idle(table, 1.0)
                )
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
