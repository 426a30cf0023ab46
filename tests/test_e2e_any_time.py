"""In a real browser: a person acts "at any time", off their own turn.

One seeded table (two bots, then the person; the bots wait `bot_delay` before their own moves, on the
table's clock, which the test moves: `ClockedServer`): the person sets up their character, and as the
first bot's turn begins the moves panel offers, under "Waiting on Bot 1. At any time you may:", the
Curse in their hand; they play it on that bot through the staged menu before its door is opened. On the
person's own turn later, the menu's "Any time" group is not there (their own turn offers those moves as
answers). Screenshot: test-artifacts/e2e/any-time-curse.png.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from munchkin.engine.game import Game, Setup
from system import ensure_debian_packages
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

SEED = 12  # the person (the third seat) is dealt Change Sex
KINDS = ("bot", "bot", "human")
CURSE = "Change Sex"
VICTIM = "Bot 1"


def test_the_seed_deals_the_person_a_curse() -> None:
    g = Game(Setup(sets=["deluxe"], players=[f"{k.title()} {i + 1}" for i, k in enumerate(KINDS)], seed=SEED))
    assert CURSE in {g.name(c) for c in g.players[2].hand}


def wait_until(
    page: Page,
    frames: Frames,
    what: str,
    test: Callable[[dict[str, Any]], bool],
    seconds: float = PATIENCE,
    tick: Callable[[], object] | None = None,
) -> None:
    """Wait until the latest state the page received passes `test` (the browser's events are handed
    over while the page waits, so it waits through the page); `tick`, if given, is called meanwhile (on a
    `ClockedServer`: the bots' delay passes, `ClockedServer.idle`). Fails when the table stands still (no
    new state) for `seconds`."""
    states, still_since = -1, time.monotonic()
    while not (frames.state and test(frames.state)):
        if frames.states != states:
            states, still_since = frames.states, time.monotonic()
        assert time.monotonic() - still_since < seconds, f"never happened (nothing new for {seconds:.0f} s): {what}"
        page.wait_for_timeout(20)
        if tick is not None:
            tick()


def struck(line: str) -> bool:
    """A narration line of the Curse played on the bot."""
    return CURSE in line and VICTIM in line and " draws " not in line


def click(page: Page, frames: Frames, server: ClockedServer, table: str, text: str) -> None:
    """Click a move as a person would: open the groups that hold it, then its button (again if the server
    refused it as stale: `take_move`)."""
    take_move(page, frames, server, table, text)


def test_a_person_curses_a_bot_before_its_door_is_opened(clocked_server: ClockedServer) -> None:
    server = clocked_server
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    answer = post_table(server, "Any time", KINDS, seed=SEED, bot_delay=3, window_seconds=30)
    link = server.url + answer["links"][0]["url"]  # the one person's seat
    table = table_id(link)

    def bots_go_on() -> None:
        server.idle(table, 3)  # one bot delay on the table's clock

    move = f"play {CURSE} on {VICTIM}"
    frames = Frames()
    with watched_browser(server) as page:
        page.set_viewport_size({"width": 1280, "height": 900})
        page.on("websocket", frames.attach)
        page.goto(link)
        wait_until(
            page, frames, "the person's character creation", lambda st: 2 in st["view"]["to_act"], tick=bots_go_on
        )
        click(page, frames, server, table, "ready")
        # the first bot's turn: the game waits on it (its delay does not pass: the test does not move the
        # clock now), and the person may still play the Curse
        wait_until(
            page,
            frames,
            "the Curse offered at the start of Bot 1's turn",
            lambda st: st["view"]["to_act"] == [0] and any(a["text"] == move and a["any_time"] for a in st["actions"]),
        )
        title = page.locator("#actions .menu-title")
        expect(title).to_contain_text("Waiting on Bot 1. At any time you may:")
        expect(page.locator("#actions-panel")).to_have_class(re.compile(r"\bany-time-only\b"))
        assert not any(" kicks open the door" in line for line in frames.log)
        reveal_move(page, move)
        page.screenshot(path=str(ARTIFACTS / "any-time-curse.png"))
        take_move(page, frames, server, table, move)
        wait_until(page, frames, "the Curse struck", lambda st: any(struck(x) for x in frames.log))
        wait_until(
            page,
            frames,
            "Bot 1 kicked open its door",
            lambda st: any("kicks open the door" in x for x in frames.log),
            tick=bots_go_on,
        )
        lines = frames.log
        cursed = next(i for i, x in enumerate(lines) if struck(x))
        kicked = next(i for i, x in enumerate(lines) if "kicks open the door" in x)
        assert cursed < kicked, lines[cursed : kicked + 1]
        assert not frames.errors, frames.errors


BRIBE_SEED = 3  # the person (the third seat) is dealt Boots of Butt-Kicking; Bot 1's first door is a monster
BOOTS = "Boots of Butt-Kicking"


def test_the_bribe_seed_deals_the_person_boots() -> None:
    g = Game(Setup(sets=["deluxe"], players=[f"{k.title()} {i + 1}" for i, k in enumerate(KINDS)], seed=BRIBE_SEED))
    assert BOOTS in {g.name(c) for c in g.players[2].hand}


def test_a_person_bribes_a_bot_with_an_item_during_another_bots_fight(clocked_server: ClockedServer) -> None:
    """Rules 4: "You may also give Items away without a trade, to bribe other players". The person
    puts the Boots on the table at character creation; when a bot fights and the person is not in
    the fight, the moves panel offers, at any time, the Boots to the other bot, and not to the
    fighter; given, the other bot takes them while the fight is still on. Screenshot:
    test-artifacts/e2e/any-time-bribe.png."""
    server = clocked_server
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    answer = post_table(server, "Bribe", KINDS, seed=BRIBE_SEED, bot_delay=4, window_seconds=30)
    link = server.url + answer["links"][0]["url"]
    table = table_id(link)

    def bots_go_on() -> None:
        server.idle(table, 4)  # one bot delay on the table's clock (never a window's time)

    frames = Frames()

    def bribe(st: dict[str, Any]) -> str | None:
        """The gift the person may make now to a bot out of the fight, if a bot is fighting."""
        c = st["view"].get("combat") or {}
        fighting = {f["player"] for f in c.get("fighters", [])}
        if not fighting or KINDS[2].title() + " 3" in fighting:
            return None
        other = next(name for name in ("Bot 1", "Bot 2") if name not in fighting)
        move = f"give {BOOTS} to {other}"
        return move if any(a["text"] == move and a["any_time"] for a in st["actions"]) else None

    with watched_browser(server) as page:
        page.set_viewport_size({"width": 1280, "height": 900})
        page.on("websocket", frames.attach)
        page.goto(link)
        wait_until(
            page, frames, "the person's character creation", lambda st: 2 in st["view"]["to_act"], tick=bots_go_on
        )
        click(page, frames, server, table, f"play {BOOTS}")
        wait_until(
            page,
            frames,
            "the Boots on the person's table",
            lambda st: any(
                x["name"] == BOOTS for p in [st["view"]["players"][2]] for x in p["equipped"] + p["carried"]
            ),
        )
        click(page, frames, server, table, "ready")
        move = None
        states, still_since = -1, time.monotonic()
        while move is None:  # a bot's fight; the person answers a call for help by staying out
            if frames.states != states:
                states, still_since = frames.states, time.monotonic()
            assert time.monotonic() - still_since < PATIENCE, "no bot fought while the person could give the Boots"
            st = frames.state
            if st and 2 in st["view"]["to_act"] and any(a["text"] == "refuse" for a in st["actions"]):
                click(page, frames, server, table, "refuse")
                wait_until(page, frames, "the refusal taken", lambda now, st=st: now["version"] != st["version"])
                continue
            move = bribe(st) if st else None
            if move is None:
                page.wait_for_timeout(20)
                bots_go_on()
        fighter = frames.state["view"]["combat"]["fighters"][0]["player"]
        assert f"give {BOOTS} to {fighter}" not in {a["text"] for a in frames.state["actions"]}
        reveal_move(page, move)
        page.screenshot(path=str(ARTIFACTS / "any-time-bribe.png"))
        take_move(page, frames, server, table, move)
        taker = int(move.rsplit(" ", 1)[1]) - 1
        wait_until(
            page,
            frames,
            "the other bot took the Boots",
            lambda st: any(
                x["name"] == BOOTS
                for x in st["view"]["players"][taker]["equipped"] + st["view"]["players"][taker]["carried"]
            ),
            tick=bots_go_on,
        )
        assert not frames.errors, frames.errors
