"""The table as a picture, in Chromium: the Level track under the header always shows every player's
marker on their Level (checked against the view at several moments of a whole game), what was just
played into a fight is highlighted, and the end screen draws each player's Level turn by turn with the
figures the server told from the game's public events (the same as `munchkin.story` tells from the
replay). One person against three bots; the person moves through the typed-action form."""

from __future__ import annotations

import json
import time
from typing import Any

from playwright.sync_api import Page, WebSocket

from munchkin.engine.game import WINNING_LEVEL, Game
from munchkin.story import game_story
from system import ensure_debian_packages
from test_e2e_browser import ARTIFACTS, Server, choose, get_json, post_table, server, watched_browser
from waits import PATIENCE

__all__ = ["server"]  # the fixture, from the browser suite

SEED = 9  # a short game (27 turns) with fights the person is waited on in
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

# every marker on the track as seat -> the Level of its cell, the active marker, the legend's Levels
TRACK_JS = """() => ({
  markers: [...document.querySelectorAll('#level-track-board .track-marker')].map(
    (m) => [Number(m.dataset.seat), Number(m.closest('.track-cell').dataset.level)]),
  active: [...document.querySelectorAll('#level-track-board .track-marker.active')].map((m) => Number(m.dataset.seat)),
  dead: [...document.querySelectorAll('#level-track-board .track-marker.dead')].map((m) => Number(m.dataset.seat)),
  cells: document.querySelectorAll('#level-track-board .track-cell').length,
  legend: [...document.querySelectorAll('#level-track-list li')].map((li) => li.textContent),
})"""

# a record of every highlight the combat panel showed (the page redraws it, so watch it as it happens)
FRESH_WATCH = """() => {
  window.__fresh = [];
  new MutationObserver(() => {
    for (const n of document.querySelectorAll('#combat .fresh')) {
      const what = (n.classList.contains('monster') ? 'monster: ' : n.tagName === 'TR' ? 'row: ' : 'fighter: ') +
        n.textContent.trim().slice(0, 80);
      if (!window.__fresh.includes(what)) window.__fresh.push(what);
    }
  }).observe(document, {subtree: true, childList: true});
}"""


class Person:
    """The person's seat: the latest state from the page's WebSocket, moves typed into the form."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.state: dict[str, Any] | None = None
        self.sent_version = -1
        self.done: set[str] = set()
        page.on("websocket", self.attach)

    def attach(self, ws: WebSocket) -> None:
        if "/ws/" in ws.url:
            ws.on("framereceived", self.frame)

    def frame(self, payload: str | bytes) -> None:
        m = json.loads(payload)
        if m.get("type") == "state":
            self.state = m

    def waiting_on_me(self) -> dict[str, Any] | None:
        """The state when the game waits on the person alone and no clock runs for them (so it holds
        still: a window on their clock would pass for them and the game move on), else None."""
        st = self.state
        if st is None or st["view"]["over"] or st["view"]["to_act"] != [0] or not st["actions"]:
            return None
        if st["window"] and 0 in st["window"]["clocked"]:
            return None
        return st if st["version"] != self.sent_version else None

    def move(self, st: dict[str, Any]) -> None:
        text = choose(st["actions"], st["view"], self.done)
        if st["view"]["phase"] == "setup":
            self.done.add(text)
        self.sent_version = st["version"]
        self.page.fill("#action-input", text)
        self.page.click("#action-send")


def check_track(page: Page, view: dict[str, Any]) -> None:
    """The track shows exactly the view's Levels, the active player and the dead; the legend names them."""
    want = sorted([p["seat"], p["level"]] for p in view["players"])
    active = [] if view["over"] else [view["active"]]
    # one snapshot of the track, taken when its markers and its active player show the view's (the bots may
    # move on after)
    shown = page.wait_for_function(
        f"([want, active]) => {{ const t = ({TRACK_JS})();"
        " return JSON.stringify([...t.markers].sort((a, b) => a[0] - b[0])) === JSON.stringify(want)"
        " && JSON.stringify(t.active) === JSON.stringify(active) && t; }",
        arg=[want, active],
    )
    track = shown.json_value()
    assert sorted(track["markers"]) == want, (track, want)
    assert track["cells"] == WINNING_LEVEL
    assert track["active"] == ([] if view["over"] else [view["active"]]), track
    assert sorted(track["dead"]) == sorted(p["seat"] for p in view["players"] if p["dead"]), track
    for p, line in zip(view["players"], track["legend"], strict=True):
        assert f"{p['name']}" in line and f"Level {p['level']}" in line, (p, line)


def test_the_level_track_and_the_end_screen_picture(server: Server) -> None:
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    made = post_table(
        server, "Look", ("human", "bot", "bot", "bot"), seed=SEED, bot_delay=0, window_seconds=0.5, allow_wait=False
    )
    link = made["links"][0]["url"]
    table_id = made["table"]["id"]
    with watched_browser(server) as page:
        page.set_viewport_size(DESKTOP)
        page.add_init_script(f"({FRESH_WATCH})()")
        person = Person(page)
        page.goto(server.url + link)
        checked: list[tuple[int, ...]] = []  # the Levels each check saw
        shots = {"track": False, "fresh": False}
        # the windows on the person's clock pass by themselves (0.5 s on the wall clock): the test waits for
        # them and never acts in one, so nothing it checks depends on how soon they pass
        version, still_since = -1, time.monotonic()
        while True:
            st = person.state
            if st is not None and st["version"] != version:
                version, still_since = st["version"], time.monotonic()
            assert time.monotonic() - still_since < PATIENCE, f"the game stood still for {PATIENCE:.0f} s"
            if st is not None and st["view"]["over"]:
                break
            st = person.waiting_on_me()
            if st is None:
                page.wait_for_timeout(20)
                continue
            if not shots["fresh"] and page.locator("#combat .fresh").count():  # the game holds still: a picture
                shots["fresh"] = True
                page.locator("#combat-panel").screenshot(path=str(ARTIFACTS / "combat-fresh.png"))
            levels = tuple(p["level"] for p in st["view"]["players"])
            if not checked or (levels != checked[-1] and len(checked) < 12):
                check_track(page, st["view"])
                checked.append(levels)
                if not shots["track"] and max(levels) >= 3:
                    shots["track"] = True
                    page.locator("#level-track").screenshot(path=str(ARTIFACTS / "level-track.png"))
                    page.screenshot(path=str(ARTIFACTS / "level-track-page.png"))
            person.move(st)
        assert len(checked) >= 4, f"the track was checked only at {checked}"
        fresh: list[str] = page.evaluate("() => window.__fresh")
        assert any(f.startswith("monster: ") for f in fresh), f"no fight's monster was highlighted: {fresh}"

        # the end: the chart, its legend and words, the figures; the track at the final Levels
        st = person.state
        assert st is not None
        story = st["story"]
        end = page.locator("#end-screen")
        end.locator("svg.level-chart").wait_for()
        check_track(page, st["view"])
        n = len(st["view"]["players"])
        assert end.locator("svg.level-chart g.series").count() == n
        assert end.locator(".chart-legend li").count() == n
        desc = end.locator("svg.level-chart desc").text_content() or ""
        for p in story["players"]:
            assert p["name"] in desc
            card = end.locator(f'.story-player[data-seat="{p["seat"]}"]')
            assert card.locator(".story-level").text_content() == f"Level {p['level']}"
            for key in ("kills", "helped_kill", "helped", "was_helped", "curses", "deaths", "treasures"):
                assert card.locator(f'[data-figure="{key}"] dd').text_content() == str(p[key]), (key, p)
        winners = end.locator(".story-player.winner")
        assert winners.count() == len(story["winners"]) >= 1
        assert winners.first.get_attribute("data-seat") == str(story["winners"][0])

        # the server told the story the replay tells
        replay = get_json(server, f"/api/tables/{table_id}/replay")
        g = Game.from_json(json.dumps(replay))
        assert game_story(g) == story
        assert story["players"][story["winners"][0]]["levels"][-1] == WINNING_LEVEL

        page.mouse.move(1, 1)  # no card face open (under the pointer or pinned): the pictures alone
        page.keyboard.press("Escape")
        end.locator(".story").scroll_into_view_if_needed()
        end.locator(".story").screenshot(path=str(ARTIFACTS / "end-screen-chart.png"))
        page.set_viewport_size(PHONE)  # the chart is drawn again at the phone's width
        page.wait_for_function("() => Number(document.querySelector('svg.level-chart').dataset.width) < 390")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width} px wide on a phone"
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(ARTIFACTS / "level-track-phone.png"))
        end.locator(".story").screenshot(path=str(ARTIFACTS / "end-screen-chart-phone.png"))
