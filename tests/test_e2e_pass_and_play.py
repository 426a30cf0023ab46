"""One screen, several people, in a real browser: a pass-and-play table (two people and two bots) played
for a few turns from one page. Each person's hand is shown only after they press "I am …" on the
"hand the device to …" screen; after every handoff the page's DOM (text and attributes) and what its
script holds (`MunchkinPage.snapshot()`, localStorage) name no card of the other person's hidden hand,
and on the hand-over screen no hidden card at all.

The people's ordinary moves are sent through their own seat links (which a pass-and-play table keeps),
whose sockets also tell the test each hand as it truly is; the page's own buttons do every handoff,
"… wants to play a card" included. The table's clock is the test's (`ClockedServer`): its time passes
between the test's looks, but no window closes while the device's holder may still take it for the other
person. Screenshots in test-artifacts/e2e/: pass-*.png, laptop and phone.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect
from websockets.sync.client import ClientConnection, connect

from system import ensure_debian_packages
from test_e2e_a11y import problems
from test_e2e_browser import (
    ARTIFACTS,
    ClockedServer,
    Server,
    choose,
    clocked_serving,
    post_table,
    serving,
    watched_browser,
)
from waits import PATIENCE

Msg = dict[str, Any]
LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
PEOPLE = ("Human 1", "Human 2")
PAGE_HOLDS = """() => document.documentElement.outerHTML + '\\n' + window.MunchkinPage.snapshot() + '\\n'
  + JSON.stringify(Object.assign({}, localStorage))"""


BOT_DELAY = 0.2  # the test table's: also the step by which its clock moves between two looks


@pytest.fixture
def pass_server(tmp_path: Path) -> Iterator[Server]:
    yield from serving(tmp_path)


@pytest.fixture
def clocked_pass_server(tmp_path: Path) -> Iterator[ClockedServer]:
    yield from clocked_serving(tmp_path)


class Socket:
    """A seat's (or a spectator's) own socket: the latest state, and every card name it was ever sent."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: Msg | None = None
        self.heard = ""  # everything a spectator was ever sent: what is public
        self.acted = -1

    def pump(self) -> None:
        while True:
            try:
                m: Msg = json.loads(self.ws.recv(timeout=0.02))
            except TimeoutError:
                return
            if m["type"] == "state":
                self.state = m
                self.heard += json.dumps(m)

    def hand(self) -> set[str]:
        return {c["name"] for c in self.state["view"]["hand"]} if self.state else set()

    def play(self, done: set[str]) -> None:
        """This person's next move, when the game waits on them (as the browser game's policy makes it)."""
        st = self.state
        if not st or st["view"]["over"] or st["version"] == self.acted or st["view"]["you"] not in st["view"]["to_act"]:
            return
        answers = [a for a in st["actions"] if not a["any_time"]]
        if not answers:
            return
        text = choose(answers, st["view"], done)
        if st["view"]["phase"] == "setup":
            done.add(text)
        self.acted = st["version"]
        self.ws.send(json.dumps({"type": "act", "action": text, "version": st["version"]}))


def secrets_in(page: Page, hands: set[str], public: str) -> list[str]:
    """The names of hidden hand cards (never sent to a spectator) that the page holds anywhere."""
    held = page.evaluate(PAGE_HOLDS)
    hidden = [n for n in hands if not re.search(rf"(?<![\w']){re.escape(n)}(?![\w'])", public)]
    return [n for n in hidden if re.search(rf"(?<![\w']){re.escape(n)}(?![\w'])", held)]


def shot(page: Page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    page.screenshot(path=str(ARTIFACTS / f"{name}-phone.png"))
    page.set_viewport_size(LAPTOP)


def test_a_pass_and_play_game_shows_each_hand_only_to_its_person(clocked_pass_server: ClockedServer) -> None:
    server = clocked_pass_server
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    made = post_table(
        server,
        "One screen",
        ("human", "human", "bot", "bot"),
        seed=4,
        window_seconds=3,
        bot_delay=BOT_DELAY,
        pass_and_play=True,
    )
    table = made["table"]["id"]
    tokens = [parse_qs(urlsplit(link["url"]).query)["token"][0] for link in made["links"]]
    done: list[set[str]] = [set(), set()]
    with contextlib.ExitStack() as stack, watched_browser(server) as page:
        url = f"ws://127.0.0.1:{server.port}/ws/{table}"
        seats = [Socket(stack.enter_context(connect(f"{url}?token={t}", open_timeout=PATIENCE))) for t in tokens]
        spectator = Socket(stack.enter_context(connect(url, open_timeout=PATIENCE)))
        page.set_viewport_size(LAPTOP)
        page.goto(server.url + made["device"])
        screen, you = page.locator("#pass-screen"), page.locator("#you-name")
        handoffs: list[str] = []
        wanted = False  # a "… wants to play a card" handoff was made
        hid = False  # a person hid their hand by the bar's button
        shots: set[str] = set()
        version, still_since = -1, time.monotonic()
        while time.monotonic() - still_since < PATIENCE:
            for s in (*seats, spectator):
                s.pump()
            st = spectator.state
            if st and st["version"] != version:
                version, still_since = st["version"], time.monotonic()
            if st and (st["view"]["over"] or (st["view"]["turn"] >= 3 and len(handoffs) >= 6 and wanted and hid)):
                break
            holder = you.inner_text()
            if screen.is_visible():
                to = screen.locator("#pass-heading").inner_text().removeprefix("Hand the device to ")
                assert to in PEOPLE, to
                both = seats[0].hand() | seats[1].hand()
                assert not secrets_in(page, both, spectator.heard), "a hand stayed in the page between two people"
                if "pass-screen" not in shots:
                    shots.add("pass-screen")
                    shot(page, "pass-screen")
                screen.get_by_role("button", name=f"I am {to} — show my hand").click()
                expect(you).to_have_text(to)
                expect(page.locator("#hand-count")).to_have_text(re.compile(r"\(\d+ cards?\)"))  # the hand is drawn
                me = PEOPLE.index(to)
                for s in seats:
                    s.pump()
                mine, theirs = seats[me].hand(), seats[1 - me].hand()
                shown = page.locator("#hand .card-name").all_inner_texts()
                assert set(shown) <= mine and bool(shown) == bool(mine), (
                    f"{to}'s page shows {shown}, their hand is {mine}"
                )
                leaked = secrets_in(page, theirs, spectator.heard)
                assert not leaked, f"{to}'s page holds {PEOPLE[1 - me]}'s hidden cards {leaked}"
                handoffs.append(to)
                if f"hand-{me}" not in shots:
                    shots.add(f"hand-{me}")
                    shot(page, f"pass-hand-{me + 1}")
                continue
            if holder in PEOPLE:
                me = PEOPLE.index(holder)
                wants = page.locator("#pass-bar button.wants")
                if not wanted and wants.count() and st and st["window"]:
                    other = PEOPLE[1 - me]
                    shot(page, "pass-wants")
                    wants.first.click()  # "Human 2 wants to play a card": through the hand-over screen
                    expect(screen).to_be_visible()
                    expect(you).not_to_have_text(holder)  # the hand is gone before the screen asks for the other
                    assert not secrets_in(page, seats[me].hand(), spectator.heard)
                    # the window may have closed meanwhile: then the device goes back to whose decision it is
                    wanted = screen.locator("#pass-heading").inner_text() == f"Hand the device to {other}"
                    if wanted:
                        shot(page, "pass-wants-screen")
                    continue
                mine = seats[me].state
                if (
                    not hid and mine and me not in mine["view"]["to_act"] and not st["window"]
                ):  # a bot's move: hide the hand
                    page.locator("#pass-bar").get_by_role("button", name="Hide my hand").click()
                    expect(page.locator("#pass-bar")).to_contain_text("One screen: no hand is shown.")
                    assert not secrets_in(page, seats[0].hand() | seats[1].hand(), spectator.heard)
                    shot(page, "pass-public")
                    hid = True
                    continue
                seats[me].play(done[me])
            elif st and not st["view"]["over"]:
                # nobody's hand: the public table; a person the window waits on lets its clock run
                assert not secrets_in(page, seats[0].hand() | seats[1].hand(), spectator.heard)
            page.wait_for_timeout(20)
            # time passes between two looks: the bots' delay, and a window's time, but never while the holder
            # may still hand the device over for a window (until they have once: that is what is checked)
            if not wanted and holder in PEOPLE:
                server.idle(table, BOT_DELAY)
            else:
                server.clock.advance(BOT_DELAY)
        else:
            raise AssertionError(
                f"the game did not get far (it stood still for {PATIENCE:.0f} s): {len(handoffs)} handoffs, "
                f"wanted: {wanted}, hid: {hid}"
            )
        assert set(handoffs) == set(PEOPLE) and len(handoffs) >= 6, handoffs
        assert wanted, "no window let a person take the device to answer"
        assert hid, "nobody hid their hand during a bot's move"


def test_the_lobby_makes_a_one_screen_table_whose_device_adds_the_entropy(pass_server: Server) -> None:
    """The lobby's defaults (two person seats) with "One screen" ticked: one device link; opened, it gives
    the fair deal's entropy for both people, and then asks for the first person's hand-over (axe-core finds
    no serious or critical problem on that screen)."""
    server = pass_server
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with watched_browser(server) as page:
        page.set_viewport_size(LAPTOP)
        page.goto(server.url + "/")
        expect(page.locator("#set-deluxe")).to_be_checked()  # the sets have come from the server
        page.check("#pass-and-play")
        page.click("#create-table")
        device = page.locator("#created-links a.device-link")
        expect(device).to_be_visible()
        expect(page.locator("#created-links")).to_contain_text("Open the one-screen link on the device")
        device.scroll_into_view_if_needed()
        page.wait_for_timeout(300)  # the scroll settles before the picture (nothing is checked)
        page.screenshot(path=str(ARTIFACTS / "pass-lobby-links.png"))
        href = device.get_attribute("href")
        assert href and "?device=1&token=" in href, href
        page.goto(href)
        expect(page.locator("#entropy-form")).to_be_visible()
        page.click("#entropy-send")
        # the lobby's bots may set up their characters first, a move every bot_delay (0.6 s, on the wall
        # clock): `expect` waits PAGE_PATIENCE for a person's own decision to come
        expect(page.locator("#pass-heading")).to_have_text(re.compile(r"^Hand the device to "))
        found = problems(page, "the hand-over screen")
        assert not found, "axe-core found serious or critical problems:\n" + "\n".join(found)
        summary = json.loads(page.evaluate("() => window.MunchkinPage.snapshot()"))
        entropy = summary["msg"]["fair"]["entropy"]
        people = [s["seat"] for s in summary["msg"]["seats"] if s["kind"] == "human"]
        assert len(people) == 2 and all(isinstance(entropy[s], str) and entropy[s] for s in people), entropy
        assert summary["msg"]["view"]["hand"] == [] and summary["msg"]["actions"] == []
