"""A person alone at the lobby's default table, in a real browser: the page says when a bot plays the
seat nobody has opened ("Player 2 has not joined yet — a bot plays for them in 0:29"), and the game
never stalls past it; "Let a bot play now" does it at once; Player 2 opening their link later takes
the seat back, and leaving again makes them away, with the away time announced; axe-core finds no
serious or critical problem in what the page shows of it.

The first test uses the lobby's form exactly as it comes (two person seats, two bots, a fair deal,
the first-join grace of 30 s) and presses only what the page asks for (Add my entropy); the person's
game moves after the deal are sent through a second socket of the same seat, as in
tests/test_e2e_clock.py, so that the test does not depend on how the page stages its moves.
Screenshots (laptop 1366x800, phone 390x844) in test-artifacts/e2e/join-*.png.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from system import ensure_debian_packages
from test_e2e_a11y import problems
from test_e2e_browser import ARTIFACTS, Msg, Server, choose, post_table, serving, watched_browser
from test_e2e_clock import seat_socket

LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
SLACK = 3.0  # seconds the page's countdown may be behind the server's (a message in flight, a tick)


@pytest.fixture
def join_server(tmp_path: Path) -> Iterator[Server]:
    yield from serving(tmp_path)


def shot(page: Page, name: str, **kw: bool) -> None:
    page.screenshot(path=str(ARTIFACTS / f"join-{name}.png"), **kw)  # type: ignore[arg-type]


def countdown(page: Page, seat: int) -> int:
    """The seconds the page announces before a bot plays this seat ("0:29" is 29)."""
    text = page.locator(f'#absent-notice li[data-seat="{seat}"] .bot-countdown').inner_text()
    m = re.fullmatch(r"(\d+):(\d\d)", text)
    assert m, f"not a countdown: {text!r}"
    return int(m[1]) * 60 + int(m[2])


def test_a_person_alone_at_the_lobbys_default_table_never_waits_past_what_the_page_announces(
    join_server: Server,
) -> None:
    server = join_server
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with watched_browser(server) as page:
        page.set_viewport_size(LAPTOP)
        page.goto(server.url + "/")
        expect(page.locator(".seat-row")).to_have_count(4)
        kinds = [page.locator(f"#seat-kind-{i}").input_value() for i in range(4)]
        assert kinds == ["human", "human", "bot", "bot"], "the lobby's default table"
        expect(page.locator("#join-seconds")).to_have_value("30")
        expect(page.locator("#seed")).to_have_value("")  # a fair deal
        page.click("#create-table")  # nothing changed: the defaults
        expect(page.locator("#created-links a.join-link")).to_have_count(2)
        expect(page.locator("#created-links .join-grace")).to_contain_text("30 s after the first person sits down")
        link = page.locator('#created-links a.join-link[data-seat="0"]')
        link.scroll_into_view_if_needed()
        shot(page, "01-lobby-created")
        href = link.get_attribute("href")
        assert href and "seat=0&token=" in href, href
        link.click()
        page.wait_for_url(server.url + href if href.startswith("/") else href)

        # The page says at once what happens to Player 2's seat, and when
        line = page.locator('#absent-notice li[data-seat="1"]')
        expect(line).to_contain_text("Player 2 has not joined yet — a bot plays for them in")
        announced_at = time.monotonic()
        announced = countdown(page, 1)
        assert 25 <= announced <= 30, f"the grace announced is {announced} s"
        expect(page.locator("#bot-now-1")).to_have_text("Let a bot play now")
        expect(page.locator("#fair-status")).to_contain_text("at the latest")
        # the deal waits for the person's own entropy up to the away time, announced too
        expect(page.locator("#deal-countdown")).to_have_text(re.compile(r"1:5\d|2:00"))
        shot(page, "02-laptop-announced", full_page=True)
        page.set_viewport_size(PHONE)
        expect(line).to_be_in_viewport()
        shot(page, "03-phone-announced")
        page.set_viewport_size(LAPTOP)

        page.click("#entropy-send")  # what the page asks of the person before the deal
        # ... given: now the deal waits only for Player 2's first-join grace
        expect(page.locator("#fair-status")).to_contain_text("Waiting on Player 2 to add entropy.")
        expect(page.locator("#deal-countdown")).to_have_text(re.compile(r"0:[0-2]\d"))
        shot(page, "03b-laptop-deal-countdown", full_page=True)
        expect(line).to_contain_text("A bot is playing for Player 2 until they join.", timeout=(announced + 10) * 1000)
        took = time.monotonic() - announced_at
        assert took <= announced + SLACK, f"announced {announced} s, the bot came after {took:.1f} s"
        expect(page.locator("#fair-panel")).to_be_hidden()  # the cards are dealt: the game is going
        expect(page.locator("#bot-now-1")).to_have_count(0)
        shot(page, "04-laptop-bot-playing")

        # From here the game never waits on Player 2: play the person's moves until Player 2 has had a turn
        with seat_socket(server, href) as ws:
            log: list[str] = []
            done: set[str] = set()
            acted = -1
            waited_on_bob: float | None = None  # since when the game has waited on Player 2 (their seat is 1)
            longest = 0.0
            first_bob_move: float | None = None
            give_up = time.monotonic() + 240
            while not any(x.startswith("Player 2 kicks open the door") for x in log):
                assert time.monotonic() < give_up, "Player 2 never had a turn:\n" + "\n".join(log[-20:])
                try:
                    m: Msg = json.loads(ws.recv(timeout=0.2))
                except TimeoutError:
                    continue
                if m["type"] != "state":
                    continue
                log[m["log_start"] :] = m["log"]
                if first_bob_move is None and any(x.startswith("Player 2 ") for x in m["log"]):
                    first_bob_move = time.monotonic() - announced_at
                v = m["view"]
                assert not v["over"], "the game ended before Player 2's turn"
                now = time.monotonic()
                if 1 in v["to_act"]:
                    waited_on_bob = waited_on_bob or now
                    longest = max(longest, now - waited_on_bob)
                else:
                    waited_on_bob = None
                if 0 in v["to_act"] and m["actions"] and acted != m["version"]:
                    text = choose(m["actions"], v, done)
                    if v["phase"] == "setup":
                        done.add(text)
                    acted = m["version"]
                    ws.send(json.dumps({"type": "act", "action": text, "version": m["version"]}))
        assert first_bob_move is not None
        # the game waits on a stand-in only while it thinks and for the table's bot delay (0.6 s)
        assert longest < 5, f"the game waited {longest:.1f} s on Player 2's seat"
        expect(page.locator("#log")).to_contain_text("Player 2 kicks open the door")
        shot(page, "05-laptop-player-2-played")
        page.set_viewport_size(PHONE)
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, "06-phone-bot-playing")
        print(
            f"announced {announced} s; bot in after {took:.1f} s; first move for Player 2 after {first_bob_move:.1f} s;"
            f" the longest wait on Player 2's seat {longest:.1f} s"
        )


def test_let_a_bot_play_now_and_the_person_takes_their_seat_back(join_server: Server) -> None:
    server = join_server
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    made = post_table(server, "Bot now", ("human", "human", "bot", "bot"), join_seconds=600)
    links = {x["seat"]: x["url"] for x in made["links"]}
    with watched_browser(server) as page:
        page.set_viewport_size(LAPTOP)
        page.goto(server.url + links[0])
        line = page.locator('#absent-notice li[data-seat="1"]')
        expect(line).to_contain_text("Human 2 has not joined yet — a bot plays for them in")
        assert 595 <= countdown(page, 1) <= 600
        expect(page.locator("#absent-notice")).to_contain_text("10:0")
        found = problems(page, "a seat not joined yet, before the deal")
        page.click("#bot-now-1")  # no need to wait ten minutes
        expect(line).to_contain_text("A bot is playing for Human 2 until they join.")
        page.click("#entropy-send")
        expect(page.locator("#fair-panel")).to_be_hidden()  # dealt at once: the deal no longer waits for Human 2
        expect(page.locator("#phase")).not_to_have_text("Waiting for the deal")
        shot(page, "07-laptop-bot-now")

        # Human 2 opens their link (on a phone): the seat is theirs, and nobody is listed as absent
        phone = page.context.browser.new_page(viewport=PHONE)  # type: ignore[union-attr]
        phone.goto(server.url + links[1])
        expect(phone.locator("#you-name")).to_have_text("Human 2")
        expect(page.locator("#absent-notice")).to_be_hidden()
        expect(phone.locator("#absent-notice")).to_be_hidden()
        shot(phone, "08-phone-human-2-back")
        phone.close()  # ... and leaves: away now, with the table's away time announced
        expect(line).to_contain_text("Human 2 is away — a bot plays for them in")
        assert 110 <= countdown(page, 1) <= 120
        shot(page, "09-laptop-human-2-away")
        found += problems(page, "a person away, in play")
        assert not found, "axe-core found serious problems:\n" + "\n".join(found)

        watch = page.context.browser.new_page(viewport=PHONE)  # type: ignore[union-attr]
        watch.goto(server.url + made["watch"])
        expect(watch.locator('#absent-notice li[data-seat="1"]')).to_contain_text("Human 2 is away")
        expect(watch.locator("#absent-notice button")).to_have_count(0)  # a spectator calls in no bot
        watch.close()
