"""Time to think, in a real browser: a person's own fight never passes by itself, while in a bot's
fight the person's answer window runs on its clock; Wait! holds such a window (a spectator sees who
holds it) until the holder passes.

The table's clock is the test's (`ClockedServer`): a minute, a window's time or three pass when the test
says, so no step races the machine's speed. The person's ordinary moves are sent through a second socket
of the same seat (the page shows them as it would its own), so that the test does not depend on how the
page stages its moves; the page itself is read, and its Wait! and Pass buttons are clicked. Screenshots in
test-artifacts/: window-own-fight.png (and -phone), window-clock.png, window-wait.png, and
window-held-phone.png (the spectator on a phone).
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
from websockets.sync.client import ClientConnection, connect

from system import ensure_debian_packages
from test_e2e_browser import (
    REPO,
    ClockedServer,
    Server,
    choose,
    clocked_serving,
    patient,
    post_table,
    table_id,
    watched_browser,
)
from waits import PATIENCE

Msg = dict[str, Any]
SEED = 3  # a fight of the person's own in the first turn, then bots' fights the person may answer
WINDOW = 2.0  # a bot's window on the person's clock (the table's clock: it passes when the test says)
OWN_WAIT = 60.0  # the minute: thirty windows, four times the default window
PERSON = "Human 1"


@pytest.fixture
def clock_server(tmp_path: Path) -> Iterator[ClockedServer]:
    yield from clocked_serving(tmp_path)


def seat_socket(server: Server, link: str) -> ClientConnection:
    parts = urlsplit(link)
    token = parse_qs(parts.query)["token"][0]
    table = parts.path.rsplit("/", 1)[1]
    return connect(f"ws://127.0.0.1:{server.port}/ws/{table}?token={token}", open_timeout=PATIENCE)


class Seat:
    """A second socket of the person's seat: reads every state, makes the person's ordinary moves. `idle`,
    if given, is called before each move (on a `ClockedServer`: the time that paces the bots and refills
    the socket's message allowance passes, never a window's)."""

    def __init__(self, ws: ClientConnection, idle: Callable[[], object] | None = None) -> None:
        self.ws = ws
        self.idle = idle
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

    def watch_until(self, found: Callable[[Msg], bool], what: str, seconds: float = PATIENCE) -> Msg:
        """Make no move, only read, until `found` holds."""
        give_up = time.monotonic() + seconds
        while time.monotonic() < give_up:
            self.pump()
            if self.state is not None and found(self.state):
                return self.state
        raise AssertionError(f"never happened within {seconds:.0f} s: {what}")

    def play_until(self, found: Callable[[Msg], bool], seconds: float = PATIENCE) -> Msg:
        """The person's moves (as the whole-game test's policy makes them) until `found` holds; fails when
        the table stands still (no new state) for `seconds`."""
        version, still_since = -1, time.monotonic()
        while time.monotonic() - still_since < seconds:
            self.pump()
            st = self.state
            if st is None:
                continue
            if st["version"] != version:
                version, still_since = st["version"], time.monotonic()
            assert not st["view"]["over"], "the game ended before the moment the test needs"
            if found(st):
                return st
            if 0 in st["view"]["to_act"] and st["actions"] and self.acted != st["version"]:
                text = choose(st["actions"], st["view"], self.done)
                if st["view"]["phase"] == "setup":
                    self.done.add(text)
                self.acted = st["version"]
                if self.idle is not None:
                    self.idle()
                self.ws.send(json.dumps({"type": "act", "action": text, "version": st["version"]}))
        raise AssertionError(f"the moment the test needs never came: the table stood still for {seconds:.0f} s")


def own_fight(st: Msg) -> bool:
    """The person's own fight, the bots done answering it (a state mid-way may still list them)."""
    w = st["window"]
    return bool(w and w["kind"] == "window" and 0 in w["deciding"] and st["view"]["to_act"] == [0])


def on_my_clock(st: Msg) -> bool:
    """A bot's fight whose window waits on the person alone, counting down."""
    w = st["window"]
    return bool(w and w["kind"] == "window" and w["clocked"] == [0] and st["view"]["to_act"] == [0] and w["remaining"])


def test_own_fight_waits_a_bots_fight_runs_on_the_clock_and_wait_holds(clock_server: ClockedServer) -> None:
    server = clock_server
    ensure_debian_packages("chromium")
    artifacts = REPO / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    created = post_table(server, "Clock", ("human", "bot", "bot"), seed=SEED, window_seconds=WINDOW, bot_delay=0)
    link = created["links"][0]["url"]
    table = table_id(link)
    with seat_socket(server, link) as ws, watched_browser(server) as page:
        seat = Seat(ws, idle=lambda: server.idle(table, 0.1))
        page.goto(server.url + link)
        browser = page.context.browser
        assert browser is not None
        watcher: Page = patient(browser.new_page(viewport={"width": 390, "height": 844}))  # a phone
        watcher.goto(server.url + created["watch"])

        # (1) the person's own fight: no countdown, and it is still theirs after thirty windows' time
        st = seat.play_until(own_fight)
        assert st["window"]["remaining"] is None and st["window"]["clocked"] == [], st["window"]
        panel = page.locator("#window-panel")
        expect(panel.locator("#window-heading")).to_contain_text("take your time")
        expect(panel.locator("#window-no-clock")).to_be_visible()
        expect(watcher.locator("#window-waiting")).to_contain_text(f"{PERSON} is deciding (no clock)")
        server.pass_time(OWN_WAIT)
        assert server.version(table) == st["version"], "the fight moved on by itself"
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
        assert st["window"]["remaining"] == WINDOW, st["window"]  # the whole window: no time has passed in it
        expect(panel.locator("#window-countdown")).to_be_visible()
        expect(panel.locator("#wait-button")).to_be_enabled()
        page.screenshot(path=str(artifacts / "window-clock.png"))
        # the window waited on the person alone and the test made no move: only the clock moves it on, and
        # exactly when its time is up
        server.pass_time(WINDOW / 2)
        assert server.version(table) == st["version"], "the window closed half way through its time"
        server.pass_time(WINDOW / 2)
        seat.watch_until(lambda m: m["version"] > st["version"], "the window passing for the person")
        assert seat.acted != st["version"]

        # (3) Wait! holds the next such window: the spectator sees who holds it; Pass lets it go
        st = seat.play_until(on_my_clock)
        assert st["window"]["remaining"] == WINDOW, st["window"]
        panel.locator("#wait-button").click()

        def held_by_me(m: Msg) -> bool:
            return bool(m["window"] and m["window"]["held_by"] == [0])

        held = seat.watch_until(held_by_me, "Wait! holding the window")
        assert held["version"] == st["version"], "the window moved on before Wait! held it"
        w = held["window"]
        assert w["held_left"] == WINDOW, w  # the countdown stopped where it stood: no time had passed
        assert w["hold_left"] == [w["hold_seconds"]] and w["hold_seconds"] > 3 * WINDOW, w  # the hold's bound
        expect(panel.locator("#window-held")).to_contain_text("You said Wait!")
        # the hold's bound (docs/server.md: 60 s without a turn clock) ticks on both pages, by the browser's
        # own clock from the server's number
        bound = re.compile(r"for [1-6]?[0-9] s more at most; then you pass")
        expect(panel.locator("#window-held")).to_contain_text(bound)
        expect(panel.locator("#window-countdown")).to_have_count(0)
        expect(watcher.locator("#window-held")).to_contain_text(f"Held by {PERSON}")
        expect(watcher.locator("#window-held")).to_contain_text(re.compile(r"\([1-6]?[0-9] s more at most\)"))
        server.pass_time(3 * WINDOW)  # three windows long: held, it stays open
        assert server.version(table) == held["version"], "the held window closed"
        seat.pump()
        assert seat.state is not None and seat.state["version"] == held["version"]
        page.screenshot(path=str(artifacts / "window-wait.png"))
        watcher.locator("#window-panel").scroll_into_view_if_needed()
        watcher.screenshot(path=str(artifacts / "window-held-phone.png"))
        panel.locator('button.action[data-text="pass"]').click()
        expect(watcher.locator("#window-held")).to_have_count(0)
        seat.watch_until(lambda m: m["version"] > held["version"], "the person's Pass")
        assert not any("Wait!" in e for e in seat.errors), seat.errors
