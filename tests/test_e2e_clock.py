"""Time to think, in a real browser: a person's own fight never passes by itself, while in a bot's
fight the person's answer window runs on its clock; Wait! holds such a window (a spectator sees who
holds it) until the holder passes.

The person's ordinary moves are sent through a second socket of the same seat (the page shows them
as it would its own), so that the test does not depend on how the page stages its moves; the page
itself is read, and its Wait! and Pass buttons are clicked. Screenshots in test-artifacts/: window-own-fight.png
(and -phone), window-clock.png, window-wait.png, and window-held-phone.png (the spectator on a phone).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from websockets.sync.client import ClientConnection, connect

from system import ensure_debian_packages
from test_e2e_browser import REPO, Server, choose, post_table, serving, watched_browser

Msg = dict[str, Any]
SEED = 3  # a fight of the person's own in the first turn, then bots' fights the person may answer
WINDOW = 2.0  # short, so that the bots' windows pass quickly; long enough to click Wait! in
OWN_WAIT = 60.0  # the minute: thirty windows, four times the default window
PERSON = "Human 1"


@pytest.fixture
def clock_server(tmp_path: Path) -> Iterator[Server]:
    yield from serving(tmp_path)


def seat_socket(server: Server, link: str) -> ClientConnection:
    parts = urlsplit(link)
    token = parse_qs(parts.query)["token"][0]
    table = parts.path.rsplit("/", 1)[1]
    return connect(f"ws://127.0.0.1:{server.port}/ws/{table}?token={token}")


class Seat:
    """A second socket of the person's seat: reads every state, makes the person's ordinary moves."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: Msg | None = None
        self.errors: list[str] = []
        self.acted = -1  # the version of the last move sent
        self.done: set[str] = set()

    def pump(self, seconds: float = 0.05) -> None:
        """Read what has come (waiting up to `seconds` for the first message)."""
        wait = seconds
        while True:
            try:
                m: Msg = json.loads(self.ws.recv(timeout=wait))
            except TimeoutError:
                return
            wait = 0.0
            if m["type"] == "state":
                self.state = m
            elif m["type"] == "error":
                self.errors.append(m["error"])

    def watch_until(self, found: Callable[[Msg], bool], seconds: float) -> Msg:
        """Make no move, only read, until `found` holds."""
        give_up = time.monotonic() + seconds
        while time.monotonic() < give_up:
            self.pump()
            if self.state is not None and found(self.state):
                return self.state
        raise AssertionError(f"nothing happened in {seconds} s")

    def play_until(self, found: Callable[[Msg], bool], seconds: float = 60) -> Msg:
        """The person's moves (as the whole-game test's policy makes them) until `found` holds."""
        give_up = time.monotonic() + seconds
        while time.monotonic() < give_up:
            self.pump()
            st = self.state
            if st is None:
                continue
            assert not st["view"]["over"], "the game ended before the moment the test needs"
            if found(st):
                return st
            if 0 in st["view"]["to_act"] and st["actions"] and self.acted != st["version"]:
                text = choose(st["actions"], st["view"], self.done)
                if st["view"]["phase"] == "setup":
                    self.done.add(text)
                self.acted = st["version"]
                self.ws.send(json.dumps({"type": "act", "action": text, "version": st["version"]}))
        raise AssertionError("the moment the test needs never came")


def own_fight(st: Msg) -> bool:
    """The person's own fight, the bots done answering it (a state mid-way may still list them)."""
    w = st["window"]
    return bool(w and w["kind"] == "window" and 0 in w["deciding"] and st["view"]["to_act"] == [0])


def on_my_clock(st: Msg) -> bool:
    """A bot's fight whose window waits on the person alone, counting down."""
    w = st["window"]
    return bool(w and w["kind"] == "window" and w["clocked"] == [0] and st["view"]["to_act"] == [0] and w["remaining"])


def test_own_fight_waits_a_bots_fight_runs_on_the_clock_and_wait_holds(clock_server: Server) -> None:
    server = clock_server
    ensure_debian_packages("chromium")
    artifacts = REPO / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    created = post_table(server, "Clock", ("human", "bot", "bot"), seed=SEED, window_seconds=WINDOW, bot_delay=0)
    link = created["links"][0]["url"]
    with seat_socket(server, link) as ws, watched_browser(server) as page:
        seat = Seat(ws)
        page.goto(server.url + link)
        browser = page.context.browser
        assert browser is not None
        watcher: Page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
        watcher.goto(server.url + created["watch"])

        # (1) the person's own fight: no countdown, and it is still theirs after ten windows
        st = seat.play_until(own_fight)
        panel = page.locator("#window-panel")
        expect(panel.locator("#window-heading")).to_contain_text("take your time")
        expect(panel.locator("#window-no-clock")).to_be_visible()
        expect(watcher.locator("#window-waiting")).to_contain_text(f"{PERSON} is deciding (no clock)")
        page.wait_for_timeout(OWN_WAIT * 1000)
        seat.pump()
        assert seat.state is not None and seat.state["version"] == st["version"], "the fight moved on by itself"
        expect(panel.locator("#window-countdown")).to_have_count(0)
        expect(panel.locator("#wait-button")).to_have_count(0)
        expect(panel.locator('button.action[data-text="pass"]')).to_be_visible()
        assert page.locator("#actions button").count() >= 1, "the person's moves are gone"
        page.screenshot(path=str(artifacts / "window-own-fight.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        panel.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "window-own-fight-phone.png"))
        page.set_viewport_size({"width": 1280, "height": 900})
        panel.locator('button.action[data-text="pass"]').click()

        # (2) a bot's fight: the person's answer runs on its clock and passes by itself
        st = seat.play_until(on_my_clock)
        expect(panel.locator("#window-countdown")).to_be_visible()
        expect(panel.locator("#wait-button")).to_be_enabled()
        page.screenshot(path=str(artifacts / "window-clock.png"))
        # the window waited on the person alone and the test made no move: only the clock can move it on
        seat.watch_until(lambda m: m["version"] > st["version"], seconds=10 * WINDOW)
        assert seat.acted != st["version"]

        # (3) Wait! holds the next such window: the spectator sees who holds it; Pass lets it go
        held: Msg | None = None
        for _ in range(5):
            st = seat.play_until(on_my_clock)
            try:
                panel.locator("#wait-button").click(timeout=WINDOW * 1000)
            except PlaywrightTimeoutError:
                continue  # the window closed before the click: try the next one
            give_up = time.monotonic() + 3 * WINDOW
            while held is None and time.monotonic() < give_up:
                seat.pump()
                w = seat.state["window"] if seat.state else None
                held = seat.state if w and w["held_by"] == [0] else None
                if seat.state and seat.state["version"] != st["version"]:
                    break  # the window closed before Wait! came: try the next one
            if held is not None:
                break
        assert held is not None, "Wait! never held a window"
        expect(panel.locator("#window-held")).to_contain_text("You said Wait!")
        # the hold's bound (docs/server.md: 60 s without a turn clock) ticks on both pages
        bound = re.compile(r"for [1-6]?[0-9] s more at most; then you pass")
        expect(panel.locator("#window-held")).to_contain_text(bound)
        expect(panel.locator("#window-countdown")).to_have_count(0)
        expect(watcher.locator("#window-held")).to_contain_text(f"Held by {PERSON}")
        expect(watcher.locator("#window-held")).to_contain_text(re.compile(r"\([1-6]?[0-9] s more at most\)"))
        page.wait_for_timeout(3 * WINDOW * 1000)  # three windows long: held, it stays open
        seat.pump()
        assert seat.state is not None and seat.state["version"] == held["version"]
        page.screenshot(path=str(artifacts / "window-wait.png"))
        watcher.locator("#window-panel").scroll_into_view_if_needed()
        watcher.screenshot(path=str(artifacts / "window-held-phone.png"))
        panel.locator('button.action[data-text="pass"]').click()
        expect(watcher.locator("#window-held")).to_have_count(0)
        seat.pump()
        assert seat.state is not None and seat.state["version"] > held["version"]
        assert not any("Wait!" in e for e in seat.errors), seat.errors
