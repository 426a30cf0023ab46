"""A person alone at the lobby's default table, in a real browser: the page says when a bot plays the
seat nobody has opened ("Player 2 has not joined yet — a bot plays for them in 0:29"), and the game
never stalls past it; "Let a bot play now" does it at once; Player 2 opening their link later takes
the seat back, and leaving again makes them away, with the away time announced; axe-core finds no
serious or critical problem in what the page shows of it.

The first test uses the lobby's form exactly as it comes (two person seats, two bots, a fair deal,
the first-join grace of 30 s) and presses only what the page asks for (Add my entropy); the person's
game moves after the deal are sent through a second socket of the same seat, as in
tests/test_e2e_clock.py, so that the test does not depend on how the page stages its moves.

The tables' clock is the test's (`ClockedServer`): the server's announced seconds are exact (nothing
passes before the test moves the clock), the bot comes exactly when announced, and the page's own
countdown, which the browser's clock ticks from the server's number, is held only to what that number
allows. Screenshots (laptop 1366x800, phone 390x844) in test-artifacts/e2e/join-*.png.
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
from test_e2e_browser import (
    ARTIFACTS,
    ClockedServer,
    Frames,
    Msg,
    choose,
    clocked_serving,
    page_until,
    patient,
    post_table,
    table_id,
    watched_browser,
)
from test_e2e_clock import seat_socket
from waits import PATIENCE

LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def join_server(tmp_path: Path) -> Iterator[ClockedServer]:
    yield from clocked_serving(tmp_path)


def shot(page: Page, name: str, **kw: bool) -> None:
    page.screenshot(path=str(ARTIFACTS / f"join-{name}.png"), **kw)  # type: ignore[arg-type]


def seconds_of(text: str) -> int:
    """A countdown as the page writes it, m:ss ("0:29" is 29), in seconds."""
    m = re.fullmatch(r"(\d+):(\d\d)", text)
    assert m, f"not a countdown: {text!r}"
    return int(m[1]) * 60 + int(m[2])


def countdown(page: Page, seat: int) -> int:
    """The seconds the page announces before a bot plays this seat ("0:29" is 29)."""
    return seconds_of(page.locator(f'#absent-notice li[data-seat="{seat}"] .bot-countdown').inner_text())


def counts_down_from(shown: int, sent: float) -> bool:
    """The page's countdown from the server's `sent` seconds, ticked by the browser's own clock (the server's
    stands still meanwhile): never more than what was sent, and never past zero unless the page stood still
    for PATIENCE (the generous bound: only a hang fails it)."""
    return max(0.0, sent - PATIENCE) <= shown <= sent


def bot_in(frames: Frames, seat: int) -> float | None:
    """The seconds the server said (in the latest state the page received) before a bot plays `seat`."""
    st = frames.state
    return st["seats"][seat]["bot_in"] if st is not None else None


def test_a_person_alone_at_the_lobbys_default_table_never_waits_past_what_the_page_announces(
    join_server: ClockedServer,
) -> None:
    server = join_server
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    frames = Frames()
    with watched_browser(server) as page:
        page.set_viewport_size(LAPTOP)
        page.on("websocket", frames.attach)
        page.goto(server.url + "/")
        expect(page.locator(".seat-row")).to_have_count(4)
        kinds = [page.locator(f"#seat-kind-{i}").input_value() for i in range(4)]
        assert kinds == ["human", "human", "bot", "bot"], "the lobby's default table"
        expect(page.locator("#join-seconds")).to_have_value("30")
        expect(page.locator("#seed")).to_have_value("")  # a fair deal
        expect(page.locator("#set-deluxe")).to_be_checked()  # the sets have come from the server
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
        table = table_id(href)

        # The page says at once what happens to Player 2's seat, and when: the server sends the whole grace
        # (its clock has not moved since the person sat down), the page counts it down
        line = page.locator('#absent-notice li[data-seat="1"]')
        expect(line).to_contain_text("Player 2 has not joined yet — a bot plays for them in")
        page_until(page, lambda: bot_in(frames, 1) is not None, "the server's countdown for Player 2")
        announced = bot_in(frames, 1)
        assert announced == 30.0, f"the grace announced is {announced} s"
        assert counts_down_from(countdown(page, 1), announced), countdown(page, 1)
        expect(page.locator("#bot-now-1")).to_have_text("Let a bot play now")
        expect(page.locator("#fair-status")).to_contain_text("at the latest")
        # the deal waits for the person's own entropy up to the away time, announced too
        assert frames.state is not None and frames.state["deal_in"] == 120.0, frames.state["deal_in"]
        assert counts_down_from(seconds_of(page.locator("#deal-countdown").inner_text()), 120.0)
        shot(page, "02-laptop-announced", full_page=True)
        page.set_viewport_size(PHONE)
        expect(line).to_be_in_viewport()
        shot(page, "03-phone-announced")
        page.set_viewport_size(LAPTOP)

        page.click("#entropy-send")  # what the page asks of the person before the deal
        # ... given: now the deal waits only for Player 2's first-join grace
        expect(page.locator("#fair-status")).to_contain_text("Waiting on Player 2 to add entropy.")
        page_until(page, lambda: frames.state is not None and frames.state["deal_in"] != 120.0, "the deal's new time")
        assert frames.state is not None and frames.state["deal_in"] == announced, frames.state["deal_in"]
        assert counts_down_from(seconds_of(page.locator("#deal-countdown").inner_text()), announced)
        shot(page, "03b-laptop-deal-countdown", full_page=True)
        # no bot before the announced time, on the table's clock ...
        server.pass_time(announced - 0.5)
        assert server.on_loop(lambda: server.runner(table).seat_list()[1]["bot_in"]) == 0.5
        expect(line).to_contain_text("Player 2 has not joined yet")
        # ... and one at that time
        server.pass_time(0.5)
        expect(line).to_contain_text("A bot is playing for Player 2 until they join.")
        expect(page.locator("#fair-panel")).to_be_hidden()  # the cards are dealt: the game is going
        expect(page.locator("#bot-now-1")).to_have_count(0)
        shot(page, "04-laptop-bot-playing")

        # From here the game never waits on Player 2: play the person's moves until Player 2 has had a turn.
        # The table's clock moves only by its bot delay, and only once the test has seen all the table did
        # and it waits for that delay (not for a bot thinking in a worker, nor a window on the person): so the
        # time a state lasted on the table's clock is exactly what the table made it wait.
        delay = server.on_loop(lambda: server.runner(table).bot_delay)
        clock = server.clock

        def pace(seen: int) -> bool:
            """On the loop: let one bot delay pass if the table waits for just that, the test up to date."""
            r = server.runner(table)
            if r.game.version != seen or not clock.waiting() or r.deadline is not None or r.hold_until:
                return False
            clock.advance(delay)
            return True

        start = clock.now  # the table's time when the bot came in for Player 2
        with seat_socket(server, href) as ws:
            log: list[str] = []
            done: set[str] = set()
            acted = -1
            seen = -1  # the version of the latest state
            on_bob = False  # the latest state waits on Player 2
            since = clock.now  # since when (the table's clock) the latest state stood
            waited_on_bob: float | None = None  # since when the game has waited on Player 2 (their seat is 1)
            longest = 0.0
            longest_state = 0.0  # the longest any one state waited on Player 2
            first_bob_move: float | None = None
            still_since = time.monotonic()
            while not any(x.startswith("Player 2 kicks open the door") for x in log):
                assert time.monotonic() - still_since < PATIENCE, (
                    f"the table stood still for {PATIENCE:.0f} s before Player 2's turn:\n" + "\n".join(log[-20:])
                )
                try:
                    m: Msg = json.loads(ws.recv(timeout=0.05))
                except TimeoutError:
                    server.on_loop(lambda seen=seen: pace(seen))  # type: ignore[misc]
                    continue
                if m["type"] != "state":
                    continue
                still_since = time.monotonic()
                now = clock.now
                if on_bob:  # the state before this one waited on Player 2: for this long
                    longest_state = max(longest_state, now - since)
                seen, since = m["version"], now
                log[m["log_start"] :] = m["log"]
                if first_bob_move is None and any(x.startswith("Player 2 ") for x in m["log"]):
                    first_bob_move = now - start
                v = m["view"]
                on_bob = 1 in v["to_act"]
                assert not v["over"], "the game ended before Player 2's turn"
                if 1 in v["to_act"]:
                    waited_on_bob = now if waited_on_bob is None else waited_on_bob
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
        # the game waits on a stand-in only while it thinks and for the table's bot delay (0.6 s): on the
        # table's clock, thinking takes no time, so each of its states lasts at most one delay
        assert delay == 0.6, delay
        assert longest_state <= delay + 1e-6, f"a state waited {longest_state:.2f} s on Player 2's seat"
        assert longest < 5, f"the game waited {longest:.1f} s on Player 2's seat"
        expect(page.locator("#log")).to_contain_text("Player 2 kicks open the door")
        shot(page, "05-laptop-player-2-played")
        page.set_viewport_size(PHONE)
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, "06-phone-bot-playing")
        print(
            f"announced {announced} s, the bot came at {announced} s; first move for Player 2 after"
            f" {first_bob_move:.1f} s more; the longest wait on Player 2's seat {longest:.1f} s, in one state"
            f" {longest_state:.2f} s (the table's clock)"
        )


def test_let_a_bot_play_now_and_the_person_takes_their_seat_back(join_server: ClockedServer) -> None:
    server = join_server
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    made = post_table(server, "Bot now", ("human", "human", "bot", "bot"), join_seconds=600)
    links = {x["seat"]: x["url"] for x in made["links"]}
    frames = Frames()
    with watched_browser(server) as page:
        page.set_viewport_size(LAPTOP)
        page.on("websocket", frames.attach)
        page.goto(server.url + links[0])
        line = page.locator('#absent-notice li[data-seat="1"]')
        expect(line).to_contain_text("Human 2 has not joined yet — a bot plays for them in")
        page_until(page, lambda: bot_in(frames, 1) is not None, "the server's countdown for Human 2")
        assert bot_in(frames, 1) == 600.0, bot_in(frames, 1)  # the whole grace: the table's clock stands still
        assert counts_down_from(countdown(page, 1), 600.0), countdown(page, 1)  # ten minutes as m:ss
        found = problems(page, "a seat not joined yet, before the deal")
        page.click("#bot-now-1")  # no need to wait ten minutes
        expect(line).to_contain_text("A bot is playing for Human 2 until they join.")
        page.click("#entropy-send")
        expect(page.locator("#fair-panel")).to_be_hidden()  # dealt at once: the deal no longer waits for Human 2
        expect(page.locator("#phase")).not_to_have_text("Waiting for the deal")
        shot(page, "07-laptop-bot-now")

        # Human 2 opens their link (on a phone): the seat is theirs, and nobody is listed as absent
        phone = patient(page.context.browser.new_page(viewport=PHONE))  # type: ignore[union-attr]
        phone.goto(server.url + links[1])
        expect(phone.locator("#you-name")).to_have_text("Human 2")
        expect(page.locator("#absent-notice")).to_be_hidden()
        expect(phone.locator("#absent-notice")).to_be_hidden()
        shot(phone, "08-phone-human-2-back")
        phone.close()  # ... and leaves: away now, with the table's away time announced
        expect(line).to_contain_text("Human 2 is away — a bot plays for them in")
        page_until(page, lambda: bot_in(frames, 1) is not None, "the server's countdown for Human 2, away")
        assert bot_in(frames, 1) == 120.0, bot_in(frames, 1)  # the table's away time, whole
        assert counts_down_from(countdown(page, 1), 120.0), countdown(page, 1)
        shot(page, "09-laptop-human-2-away")
        found += problems(page, "a person away, in play")
        assert not found, "axe-core found serious problems:\n" + "\n".join(found)

        watch = patient(page.context.browser.new_page(viewport=PHONE))  # type: ignore[union-attr]
        watch.goto(server.url + made["watch"])
        expect(watch.locator('#absent-notice li[data-seat="1"]')).to_contain_text("Human 2 is away")
        expect(watch.locator("#absent-notice button")).to_have_count(0)  # a spectator calls in no bot
        watch.close()
