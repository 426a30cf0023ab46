"""In a real browser: the log tells what happened (issue 34, point 4).

One seeded Deluxe table, the person first, two Easy bots. The person (a Halfling) sells the Wand of
Dowsing at double price, keeps the Door kicked open, looks for trouble with Bigfoot, loses, fails
the Run Away roll and discards a card to roll again: the page's log says "(double price)", "keeps
Wandering Monster in hand", the discard and "rolls again", in that order. The person's moves are
the ones `person` chooses offline on the same seed (the server's own bots answering), clicked on
the page; the table's clock is the test's (`ClockedServer`), so no window passes for the person
before their scripted Pass. Screenshots: test-artifacts/e2e/log-rolled-again-laptop.png and -phone.png.
"""

from __future__ import annotations

import json

from playwright.sync_api import Page

from munchkin.engine.game import Game, Options, Setup
from munchkin.engine.notation import parse
from munchkin.engine.view import narrate
from munchkin.server.tables import TableBots
from system import ensure_debian_packages
from test_e2e_any_time import wait_until
from test_e2e_browser import (
    ARTIFACTS,
    ClockedServer,
    Frames,
    bot_moves,
    choose,
    clocked_server,
    page_until,
    post_table,
    reveal_move,
    table_id,
    take_move,
    watched_browser,
)

__all__ = ["clocked_server"]  # the fixture, used by name

SEED = 7  # the person is dealt a Halfling, the Wand of Dowsing and Bigfoot; the Door is a Wandering Monster
KINDS = ("human", "bot", "bot")
NAMES = ["Human 1", "Bot 2", "Bot 3"]
LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
LINES = [  # what the log must tell, in this order
    "Human 1 sells Wand of Dowsing for 2200 gold (double price).",
    "Human 1 keeps Wandering Monster in hand.",
    "Human 1 rolls a 4 to run away from Bigfoot: not enough to escape (5 or more needed).",
    "Human 1 discards Half-Breed to Run Away again.",
    "Human 1 rolls again to run away from Bigfoot: 4, not enough to escape (5 or more needed).",
]


def person(g: Game, done: set[str]) -> str:
    """The person's move: a Halfling first, a sale at double price, Run Away (never asking for help)
    and, when it fails, the Halfling's second roll; otherwise the browser game's policy (`choose`)."""
    acts = g.legal_actions(0)
    texts = [g.text(a) for a in acts]
    if g.phase == "setup" and "play Halfling" in texts and "play Halfling" not in done:
        return "play Halfling"
    again = [t for t in texts if t.startswith("run again discarding ")]
    if again:
        return again[0]
    double = [t for t in texts if t.startswith("sell ") and t.endswith(" at double price") and "," not in t]
    if double and g.phase != "setup":
        return double[0]
    if g.prompt.kind == "losing" and "run away" in texts:
        return "run away"
    return choose(
        [{"text": t, "kind": a.kind} for t, a in zip(texts, acts, strict=True)],
        {"prompt": g.prompt.kind, "phase": g.phase},
        done,
    )


def script(seed: int) -> tuple[list[str], list[str]]:
    """The person's moves on this seed until the second Run Away roll (the bots playing as the
    server has them), and the log the person then reads."""
    g = Game(Setup(["deluxe"], NAMES, seed, Options()))
    bots = TableBots({1: "easy", 2: "easy"}, seed)
    done: set[str] = set()
    moves: list[str] = []
    while not g.over and len(moves) < 60:
        if bot_moves(g, bots):
            continue
        text = person(g, done)
        if g.phase == "setup":
            done.add(text)
        moves.append(text)
        acts = parse(g, text, 0)
        g.apply(acts[0]) if len(acts) == 1 else g.apply_sequence(acts)
        if any(" rolls again " in s for s in narrate(g, 0)):
            break
    return moves, narrate(g, 0)


def in_order(lines: list[str], wanted: list[str]) -> bool:
    """Each wanted line is among `lines`, in this order."""
    at = 0
    for w in wanted:
        if w not in lines[at:]:
            return False
        at = lines.index(w, at) + 1
    return True


def test_the_seed_gives_the_log_test_what_it_shows() -> None:
    """Browserless: the seed still makes the game the browser test reads."""
    moves, lines = script(SEED)
    assert moves[-1] == "run again discarding Half-Breed" and "sell Wand of Dowsing at double price" in moves
    assert in_order(lines, LINES), lines


# scroll the log (a box of its own) so that the first line holding these words is at its top
SHOW_LINE = """(log, words) => {
  const li = [...log.children].find((x) => x.textContent.includes(words));
  if (li) log.scrollTop = li.offsetTop - log.offsetTop;
}"""


def page_log(page: Page) -> list[str]:
    return [s.strip() for s in page.locator("#log li").all_inner_texts()]


def test_the_log_tells_a_run_away_rolled_again_and_a_sale_at_double_price(clocked_server: ClockedServer) -> None:
    server = clocked_server
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    moves, _ = script(SEED)
    answer = post_table(server, "Log words", KINDS, seed=SEED, bot_delay=0.05, window_seconds=5)
    link = server.url + answer["links"][0]["url"]  # the one person's seat
    table = table_id(link)

    def bots_go_on() -> None:
        server.idle(table, 0.05)  # one bot delay on the table's clock (never a window's time)

    frames = Frames()
    with watched_browser(server) as page:
        page.set_viewport_size(LAPTOP)
        page.on("websocket", frames.attach)
        page.goto(link)
        for i, text in enumerate(moves):
            wait_until(
                page,
                frames,
                f"move {i} ({text!r}) offered to the person",
                lambda st, text=text: 0 in st["view"]["to_act"] and any(a["text"] == text for a in st["actions"]),
                tick=bots_go_on,
            )
            if text == "run again discarding Half-Breed":  # the second roll, as a person reaches it
                reveal_move(page, text)
                button = page.locator(f"button.action[data-text={json.dumps(text)}]").first
                words = button.locator(".move-label").inner_text()
                assert words.lower() == "discarding half-breed", words  # (the page capitalizes it)
                page.screenshot(path=str(ARTIFACTS / "log-run-again-move.png"))
            take_move(page, frames, server, table, text)  # clicked until the server has taken it
        wait_until(page, frames, "the second roll in the log", lambda st: in_order(frames.log, LINES), tick=bots_go_on)
        # the page shows what it received
        page_until(page, lambda: in_order(page_log(page), LINES), "the page's log telling it all, in order")
        shown = page_log(page)
        assert sum(1 for s in shown if "to run away from Bigfoot" in s) == 2  # two rolls, told apart
        log = page.locator("#log")
        page.locator("#log-panel").scroll_into_view_if_needed()
        log.evaluate(SHOW_LINE, "double price")
        page.screenshot(path=str(ARTIFACTS / "log-rolled-again-laptop.png"))
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(300)  # a moment to lay the page out again before the picture (nothing is checked)
        page.locator("#log-panel").scroll_into_view_if_needed()
        log.evaluate(SHOW_LINE, "Wandering Monster")
        page.wait_for_timeout(200)
        page.screenshot(path=str(ARTIFACTS / "log-rolled-again-phone.png"))
        assert not frames.errors, frames.errors
