"""In a real browser: a person whose only moves are whims (discarding their own Race or Class, Items
equipped or traded) gets no countdown while the table moves on (rules 6, issue 34 point 2), and can
still discard their Race from the moves panel; the "✓" mark leaves their Race out.

One seeded table (two bots, then the person; the bots wait `bot_delay` before their own moves, on the
table's clock, which the test moves: `ClockedServer`): the person plays their Halfling and Warrior at
character creation; through the bots' turns, whenever the person's moves are only whims, no window waits
on them and no countdown runs for them. At the start of Bot 1's turn the moves panel offers "discard
Halfling" under "Waiting on Bot 1. At any time you may:"; the person discards it from there.
Screenshots: test-artifacts/e2e/whims-laptop.png (1366x800), whims-phone.png (390x844) and
whims-race-unmarked.png (the person's box: the Race without "✓").
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from playwright.sync_api import WebSocket, expect

from munchkin.engine.game import Game, Setup
from system import ensure_debian_packages
from test_e2e_any_time import click, wait_until
from test_e2e_browser import (
    ARTIFACTS,
    ClockedServer,
    Frames,
    clocked_server,
    post_table,
    reveal_move,
    table_id,
    take_move,
    watched_browser,
)
from waits import PATIENCE

__all__ = ["clocked_server"]  # the fixture, used by name

SEED = 37  # the person (the third seat) is dealt Halfling and Warrior, and no card to play at any time
KINDS = ("bot", "bot", "human")
ME = 2
RACE, CLASS = "Halfling", "Warrior"
LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}


def test_the_seed_deals_the_person_a_race_and_a_class() -> None:
    g = Game(Setup(sets=["deluxe"], players=[f"{k.title()} {i + 1}" for i, k in enumerate(KINDS)], seed=SEED))
    hand = {g.name(c) for c in g.players[ME].hand}
    assert {RACE, CLASS} <= hand


def only_whims(st: dict[str, Any]) -> bool:
    """The person's moves now are whims only (the state message says so of each), and there are some."""
    return bool(st["actions"]) and all(a["whim"] for a in st["actions"])


def test_a_person_with_only_whims_sees_no_countdown_and_discards_their_race(clocked_server: ClockedServer) -> None:
    server = clocked_server
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    answer = post_table(server, "Whims", KINDS, seed=SEED, bot_delay=4, window_seconds=15)
    link = server.url + answer["links"][0]["url"]  # the one person's seat
    table = table_id(link)

    def bots_go_on() -> None:
        server.idle(table, 4)  # one bot delay on the table's clock (never a window's time)

    frames = Frames()
    states: list[dict[str, Any]] = []  # every state the page received

    def every_state(ws: WebSocket) -> None:
        if "/ws/" in ws.url:
            ws.on("framereceived", lambda p: states.append(m) if (m := json.loads(p)).get("type") == "state" else None)

    with watched_browser(server) as page:
        page.set_viewport_size(LAPTOP)
        page.on("websocket", frames.attach)
        page.on("websocket", every_state)
        page.goto(link)
        wait_until(
            page, frames, "the person's character creation", lambda st: ME in st["view"]["to_act"], tick=bots_go_on
        )
        for card in (RACE, CLASS):
            click(page, frames, server, table, f"play {card}")
            wait_until(
                page,
                frames,
                f"{card} in play",
                lambda st, card=card: any(
                    x["name"] == card for x in st["view"]["players"][ME]["races"] + st["view"]["players"][ME]["classes"]
                ),
            )
        click(page, frames, server, table, "ready")
        move = f"discard {RACE}"
        # Bot 1's turn: the game waits on the bot (its delay does not pass: the test does not move the clock
        # now); the person may discard their Race, with no clock
        wait_until(
            page,
            frames,
            "the discard offered at the start of Bot 1's turn",
            lambda st: st["view"]["to_act"] == [0] and any(a["text"] == move and a["any_time"] for a in st["actions"]),
        )
        st = frames.state
        assert st is not None and only_whims(st), [a["text"] for a in st["actions"]]
        assert st["window"] is None or ME not in st["window"]["clocked"]
        expect(page.locator("#actions .menu-title")).to_contain_text("Waiting on Bot 1. At any time you may:")
        expect(page.locator("#window-panel")).to_be_hidden()
        race = page.locator(f'#players button.table-card[data-card="{RACE}"]').first
        expect(race).to_be_visible()
        expect(race).not_to_have_class(re.compile(r"\busable\b"))  # a whim is no "✓ can use now"
        me = page.locator("#players > *").nth(ME)
        me.scroll_into_view_if_needed()
        me.screenshot(path=str(ARTIFACTS / "whims-race-unmarked.png"))
        reveal_move(page, move)
        page.screenshot(path=str(ARTIFACTS / "whims-laptop.png"))
        page.set_viewport_size(PHONE)
        reveal_move(page, move)
        page.locator(f"button.action[data-text={json.dumps(move)}]").first.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "whims-phone.png"))
        page.set_viewport_size(LAPTOP)
        version = frames.state["version"] if frames.state else -1
        take_move(page, frames, server, table, move)
        wait_until(
            page,
            frames,
            "the Halfling discarded",
            lambda st: not any(x["name"] == RACE for x in st["view"]["players"][ME]["races"]),
        )
        assert frames.state is not None and frames.state["version"] > version
        # the table moves on through the bots' turns to the person's own (the bots' delays passing on the
        # table's clock); whenever the person has only whims, no window waits on them and no countdown runs
        # for them
        counted, still_since = -1, time.monotonic()
        while True:
            st = frames.state
            assert st is not None
            if frames.states != counted:
                counted, still_since = frames.states, time.monotonic()
            assert time.monotonic() - still_since < PATIENCE, "the bots' turns did not come round to the person"
            if st["view"]["active"] == ME and st["view"]["prompt"] == "main" and ME in st["view"]["to_act"]:
                break
            texts = {a["text"] for a in st["actions"]} if ME in st["view"]["to_act"] else set()
            answer = next((a for a in ("pass", "refuse") if a in texts), None)
            if answer is not None:  # a bot's fight the person could answer, a call for help: let it be
                click(page, frames, server, table, answer)
                wait_until(page, frames, f"the person's {answer}", lambda now, st=st: now["version"] != st["version"])
                continue
            page.wait_for_timeout(20)
            bots_go_on()
        quiet = [s for s in states if only_whims(s)]
        assert len(quiet) > 3, "too few states with only whims to show anything"
        for s in quiet:
            assert ME not in s["view"]["to_act"], "a window waited on the person for whims"
            assert s["window"] is None or ME not in s["window"]["clocked"]
        assert not frames.errors, frames.errors
