"""In a real browser: a person acts "at any time", off their own turn.

One seeded table (two bots, then the person; the bots wait `bot_delay` before their own moves): the
person sets up their character, and as the first bot's turn begins the moves panel offers, under
"Waiting on Bot 1. At any time you may:", the Curse in their hand; they play it on that bot through
the staged menu before its door is opened. On the person's own turn later, the menu's "Any time"
group is not there (their own turn offers those moves as answers). Screenshot:
test-artifacts/e2e/any-time-curse.png.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from munchkin.engine.game import Game, Setup
from system import ensure_debian_packages
from test_e2e_browser import ARTIFACTS, Frames, Server, post_table, reveal_move, server, watched_browser

__all__ = ["server"]  # the fixture, used by name

SEED = 12  # the person (the third seat) is dealt Change Sex
KINDS = ("bot", "bot", "human")
CURSE = "Change Sex"
VICTIM = "Bot 1"


def test_the_seed_deals_the_person_a_curse() -> None:
    g = Game(Setup(sets=["deluxe"], players=[f"{k.title()} {i + 1}" for i, k in enumerate(KINDS)], seed=SEED))
    assert CURSE in {g.name(c) for c in g.players[2].hand}


def wait_until(
    page: Page, frames: Frames, what: str, test: Callable[[dict[str, Any]], bool], seconds: float = 20
) -> None:
    """Wait until the latest state the page received passes `test` (the browser's events are handed
    over while the page waits, so it waits through the page)."""
    give_up = time.monotonic() + seconds
    while not (frames.state and test(frames.state)):
        assert time.monotonic() < give_up, f"never: {what}"
        page.wait_for_timeout(50)


def struck(line: str) -> bool:
    """A narration line of the Curse played on the bot."""
    return CURSE in line and VICTIM in line and " draws " not in line


def click(page: Page, text: str) -> None:
    """Click a move as a person would: open the groups that hold it, then its button."""
    reveal_move(page, text)
    page.locator(f"button.action[data-text={json.dumps(text)}]").first.click(timeout=3000)


def test_a_person_curses_a_bot_before_its_door_is_opened(server: Server) -> None:
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    answer = post_table(server, "Any time", KINDS, seed=SEED, bot_delay=3, window_seconds=30)
    link = server.url + answer["links"][0]["url"]  # the one person's seat
    move = f"play {CURSE} on {VICTIM}"
    frames = Frames()
    with watched_browser(server) as page:
        page.set_viewport_size({"width": 1280, "height": 900})
        page.on("websocket", frames.attach)
        page.goto(link)
        wait_until(page, frames, "the person's character creation", lambda st: 2 in st["view"]["to_act"], seconds=90)
        click(page, "ready")
        # the first bot's turn: the game waits on it, and the person may still play the Curse
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
        page.locator(f"button.action[data-text={json.dumps(move)}]").first.click(timeout=3000)
        wait_until(page, frames, "the Curse struck", lambda st: any(struck(x) for x in frames.log), seconds=30)
        wait_until(
            page, frames, "Bot 1 kicked open its door", lambda st: any("kicks open the door" in x for x in frames.log)
        )
        lines = frames.log
        cursed = next(i for i, x in enumerate(lines) if struck(x))
        kicked = next(i for i, x in enumerate(lines) if "kicks open the door" in x)
        assert cursed < kicked, lines[cursed : kicked + 1]
        assert not frames.errors, frames.errors
