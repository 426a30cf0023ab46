"""Issue 34 in Chromium: reading a card does not touch the moves (a phone), the page's layout (the lobby's
form on a laptop, the hand beside the decision, a spectator's page, the end screen by keyboard) and a
bot's fight that can be followed once it is over. The tests in which the person plays run on a table clock
the test moves (`ClockedServer`): no window passes for the person before they answer it. Screenshots at a
laptop's 1366x800 and a phone's 390x844 go to test-artifacts/e2e/ (layout-*.png)."""

from __future__ import annotations

import datetime
import json
import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, ViewportSize, expect

from system import ensure_debian_packages
from test_e2e_a11y import problems
from test_e2e_browser import (
    ARTIFACTS,
    SEED,
    ClockedServer,
    Frames,
    Server,
    choose,
    clocked_server,
    patient,
    post_table,
    server,
    table_id,
    watched_browser,
)
from waits import PATIENCE

__all__ = ["clocked_server", "server"]  # the fixtures, used by name

LAPTOP: ViewportSize = {"width": 1366, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
PERSON = "Human 1"  # post_table's name for seat 0

# Is each node wholly inside the window as it is now?
INSIDE_JS = """(sel) => [...document.querySelectorAll(sel)].map((n) => {
  const r = n.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
})"""
# The moves panel as a person sees it: the buttons shown and the filter bar, if any
MOVES_JS = """() => ({
  buttons: [...document.querySelectorAll('#actions button')].filter((b) => b.getClientRects().length > 0)
    .map((b) => b.textContent),
  filtered: !!document.querySelector('#actions .filter-bar'),
})"""
# Each seat choice too narrow for its longest option ("at random" was cut in the sex choice)
CUT_SELECTS_JS = """() => [...document.querySelectorAll('#seat-rows select')].filter((s) => s.getClientRects().length)
  .filter((sel) => {
    const cs = getComputedStyle(sel);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = cs.font;
    const longest = Math.max(...[...sel.options].map((o) => ctx.measureText(o.text).width));
    return sel.getBoundingClientRect().width < longest + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + 16;
  }).map((s) => s.id)"""


def inside(page: Page, selector: str) -> list[bool]:
    found: list[bool] = page.evaluate(INSIDE_JS, selector)
    return found


def type_move(page: Page, text: str) -> None:
    """Send a move through the page's action box without moving the window (a person clicks buttons)."""
    page.evaluate(
        "(t) => { const i = document.getElementById('action-input'); i.value = t; i.form.requestSubmit(); }", text
    )


def play_until(
    page: Page, frames: Frames, stop: Any, tick: Callable[[], object] | None = None, seconds: float = PATIENCE
) -> dict[str, Any]:
    """Make the person's moves by the browser test's policy until `stop(state)` holds; returns that state.
    `tick`, if given, is called between two looks (on a `ClockedServer`: `idle`); fails when the table
    stands still (no new state) for `seconds`."""
    done: set[str] = set()
    sent: tuple[int, int] | None = None
    states, still_since = -1, time.monotonic()
    while time.monotonic() - still_since < seconds:
        page.wait_for_timeout(20)
        if tick is not None:
            tick()
        if frames.states != states:
            states, still_since = frames.states, time.monotonic()
        st = frames.state
        if st is None or st["view"] is None:
            continue
        if stop(st):
            return st
        v = st["view"]
        assert not v["over"], "the game ended first"
        if 0 not in v["to_act"] or not st["actions"] or sent == (st["version"], len(frames.errors)):
            continue
        text = choose(st["actions"], v, done)
        if v["phase"] == "setup":
            done.add(text)
        type_move(page, text)
        sent = (st["version"], len(frames.errors))
    raise AssertionError(f"the game never came to that moment (it stood still for {seconds:.0f} s)")


def own_decision(st: dict[str, Any]) -> bool:
    """The state waits on the person and the page has drawn its moves."""
    return 0 in st["view"]["to_act"] and bool(st["actions"])


def test_the_lobby_form_fits_a_laptop_and_its_links_come_into_view(server: Server) -> None:
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with watched_browser(server) as page:
        page.set_viewport_size(LAPTOP)
        page.goto(server.url + "/")
        expect(page.locator("#set-deluxe")).to_be_checked()
        expect(page.locator("#create-table")).to_be_in_viewport()  # no scrolling to find it
        assert all(inside(page, "#create-table")), "Create is not wholly on the screen"
        expect(page.locator("#bot-delay")).to_be_hidden()  # the rarer options are folded
        rows = page.locator("#seat-rows .seat-row")
        kinds = [r.get_attribute("data-kind") for r in rows.all()]
        assert "human" in kinds and "bot" in kinds, kinds
        for row, kind in zip(rows.all(), kinds, strict=True):  # a bot's strength, never a person's
            if kind == "bot":
                expect(row.locator(".strength-field")).to_be_visible()
            else:
                expect(row.locator(".strength-field")).to_be_hidden()
        person = kinds.index("human")
        page.select_option(f"#seat-kind-{person}", "bot")
        expect(page.locator(f"#seat-strength-{person}")).to_be_visible()
        page.select_option(f"#seat-kind-{person}", "human")
        expect(page.locator(f"#seat-strength-{person}")).to_be_hidden()
        assert page.evaluate(CUT_SELECTS_JS) == [], "a choice is too narrow for its words"
        page.screenshot(path=str(ARTIFACTS / "layout-lobby-laptop.png"))
        page.click("#more-options > summary")
        expect(page.locator("#bot-delay")).to_be_visible()
        page.select_option("#seat-count", "6")
        for seat in range(6):
            page.select_option(f"#seat-kind-{seat}", "human")
        page.click("#create-table")
        links = page.locator("#created-links .link-row")
        expect(links).to_have_count(7)  # six seats and the watchers' link
        expect(page.locator("#created-heading")).to_be_focused()
        # the page scrolls (smoothly) until every link is wholly on the screen
        page.wait_for_function(f"() => ({INSIDE_JS})('#created-links .link-row').every(Boolean)")
        assert all(inside(page, "#created-links .link-row"))
        page.screenshot(path=str(ARTIFACTS / "layout-lobby-created-laptop.png"))
        page.set_viewport_size(PHONE)
        page.goto(server.url + "/")
        expect(page.locator("#create-table")).to_be_in_viewport()
        assert page.evaluate(CUT_SELECTS_JS) == []
        page.screenshot(path=str(ARTIFACTS / "layout-lobby-phone.png"))


def test_the_hand_and_the_decision_share_a_laptop_screen_in_creation_and_a_fight(
    clocked_server: ClockedServer,
) -> None:
    server = clocked_server
    ensure_debian_packages("chromium")
    made = post_table(
        server, "Hand in view", ("human", "bot", "bot", "bot"), seed=SEED, bot_delay=0, window_seconds=0.5
    )
    table = table_id(made["links"][0]["url"])
    frames = Frames()
    with watched_browser(server) as page:
        page.set_viewport_size(LAPTOP)
        page.on("websocket", frames.attach)
        page.goto(server.url + made["links"][0]["url"])
        for moment, stop in (
            ("setup", lambda st: own_decision(st) and st["view"]["phase"] == "setup"),
            ("fight", lambda st: own_decision(st) and st["view"]["active"] == 0 and bool(st["view"]["combat"])),
        ):
            st = play_until(page, frames, stop, tick=lambda: server.idle(table, 0.5))
            expect(page.locator("#hand .hand-card")).to_have_count(len(st["view"]["hand"]))
            expect(page.locator("#actions button.action, #actions button.menu-group").first).to_be_visible()
            page.evaluate("scrollTo(0, 0)")
            cards = inside(page, "#hand .hand-card")
            assert cards and all(cards), f"{moment}: a card of the hand is off the screen: {cards}"
            decision = "#window-panel .window-prompt" if moment == "fight" else "#actions button.action"
            assert inside(page, decision)[0], f"{moment}: the decision is off the screen"
            if moment == "fight":
                assert inside(page, "#combat-verdict")[0], "the fight's verdict is off the screen"
                first = st["view"]["combat"]["monsters"][0]["monster"]  # issue 35: the header names the fight
                expect(page.locator("#phase")).to_contain_text(f"Fighting {first}")
            page.screenshot(path=str(ARTIFACTS / f"layout-hand-{moment}-laptop.png"))


def test_on_a_phone_reading_a_card_leaves_the_moves_and_filtering_is_its_own_step(
    clocked_server: ClockedServer,
) -> None:
    server = clocked_server
    ensure_debian_packages("chromium")
    made = post_table(
        server, "Phone reading", ("human", "bot", "bot", "bot"), seed=SEED, bot_delay=0, window_seconds=0.5
    )
    link = server.url + made["links"][0]["url"]
    table = table_id(link)
    frames = Frames()
    with watched_browser(server) as laptop:
        browser = laptop.context.browser
        assert browser is not None
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        errors: list[str] = []
        try:
            page = patient(context.new_page())
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("websocket", frames.attach)
            page.goto(link)
            st = play_until(
                page,
                frames,
                lambda st: own_decision(st) and st["view"]["active"] == 0 and bool(st["view"]["combat"]),
                tick=lambda: server.idle(table, 0.5),
            )
            expect(page.locator("#actions button.menu-group, #actions button.action").first).to_be_visible()
            first = st["view"]["combat"]["monsters"][0]["monster"]  # issue 35: the header names the fight
            expect(page.locator("#phase")).to_contain_text(f"Fighting {first}")
            page.evaluate("scrollTo(0, 0)")
            page.screenshot(path=str(ARTIFACTS / "layout-phone-fight-header.png"))
            before = page.evaluate(MOVES_JS)
            assert not before["filtered"] and any("Ask for help" in b for b in before["buttons"]), before
            face = page.locator("#card-face")
            monster = page.locator("#combat .monster-name").first
            monster.scroll_into_view_if_needed()
            monster.tap()  # reading the monster: its face, and the moves as they were
            expect(face).to_be_visible()
            expect(face.locator(".cf-name")).to_have_text(monster.get_attribute("data-card") or "?")
            assert page.evaluate(MOVES_JS) == before, "reading the monster changed the moves panel"
            page.screenshot(path=str(ARTIFACTS / "layout-phone-monster-face.png"))
            face.locator(".cf-close").tap()
            expect(face).to_be_hidden()
            card = page.locator("#hand .hand-card.usable").first
            name = card.get_attribute("data-card") or "?"
            card.scroll_into_view_if_needed()
            card.tap()  # a card of the hand: read, not filtered ...
            expect(face).to_be_visible()
            assert page.evaluate(MOVES_JS) == before, "reading a hand card changed the moves panel"
            moves = face.locator("#face-moves")
            expect(moves).to_have_text(re.compile(r"^Moves with this card \(\d+\)$"))
            page.screenshot(path=str(ARTIFACTS / "layout-phone-hand-face.png"))
            moves.tap()  # ... until asked: then only its moves, and "Show all moves" back
            expect(face).to_be_hidden()
            bar = page.locator("#actions .filter-bar")
            expect(bar).to_contain_text(name)
            after = page.evaluate(MOVES_JS)
            assert after["filtered"] and after["buttons"] != before["buttons"], after
            page.screenshot(path=str(ARTIFACTS / "layout-phone-filtered.png"))
            page.locator("#clear-filter").tap()
            expect(bar).to_have_count(0)
            assert page.evaluate(MOVES_JS) == before
        finally:
            context.close()
        assert not errors, errors


def test_a_seat_link_without_its_token_says_it_watches_and_shows_no_seats_legend(server: Server) -> None:
    ensure_debian_packages("chromium")
    made = post_table(server, "Watched", ("human", "bot", "bot"), seed=SEED, bot_delay=0)
    tid = made["table"]["id"]
    with watched_browser(server) as page:
        for name, size in (("laptop", LAPTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            page.goto(f"{server.url}/table/{tid}?seat=0")
            notice = page.locator("#spectator-notice")
            expect(notice).to_contain_text("You are watching this table")
            expect(notice).to_contain_text("names seat 1 but has no token")
            expect(notice).to_contain_text("your own seat's link: the person who created the table has it")
            expect(page.locator("#players .player").first).to_be_visible()
            for legend in page.locator(".usable-legend").all():
                expect(legend).to_be_hidden()
            page.screenshot(path=str(ARTIFACTS / f"layout-spectator-{name}.png"))
        page.goto(server.url + made["links"][0]["url"])  # the seat itself: no such notice, and the legend
        expect(page.locator("#hand .hand-card").first).to_be_visible()
        expect(page.locator("#spectator-notice")).to_be_hidden()
        expect(page.locator("#usable-legend")).to_be_visible()


def test_the_end_screen_passes_axe_and_its_whole_game_log_takes_the_keyboard(server: Server) -> None:
    ensure_debian_packages("chromium")
    made = post_table(server, "Ends", ("bot", "bot", "bot"), seed=SEED, bot_delay=0)
    with watched_browser(server) as page:
        page.goto(server.url + made["watch"])
        expect(page.locator("#end-screen")).to_be_visible()
        expect(page.locator("#spectator-notice")).to_be_hidden()  # a finished game has no seat to take
        full = page.locator("#end-screen .full-log")
        expect(full).to_have_attribute("tabindex", "0")
        assert full.evaluate("(n) => n.scrollHeight > n.clientHeight"), "the whole game fits: nothing scrolls"
        found: list[str] = []
        for name, size in (("laptop", LAPTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            found += problems(page, f"end screen, {name}")
            page.screenshot(path=str(ARTIFACTS / f"layout-end-{name}.png"))
        assert not found, "axe-core found serious or critical problems:\n" + "\n".join(found)
        page.focus("#end-screen .full-log")  # reached by the keyboard, it scrolls by the keyboard
        expect(full).to_be_focused()
        page.keyboard.press("End")
        page.wait_for_function("() => document.querySelector('#end-screen .full-log').scrollTop > 0")


def test_a_bots_fight_stays_up_once_over_and_the_last_fight_can_be_shown_again(
    clocked_server: ClockedServer,
) -> None:
    """The page keeps a fight just over up for a few seconds of its own clock (FIGHT_LINGER_MS): that clock
    stands still here (Playwright's clock, paused before the page loads), as the table's does between the
    test's looks, so that what the test reads of the fight does not race either."""
    server = clocked_server
    ensure_debian_packages("chromium")
    made = post_table(server, "Follow", ("human", "bot", "bot", "bot"), seed=SEED, bot_delay=0.05, window_seconds=0.5)
    table = table_id(made["links"][0]["url"])
    frames = Frames()
    with watched_browser(server) as page:
        start = datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC)
        page.clock.install(time=start)
        page.clock.pause_at(start + datetime.timedelta(days=1))  # no page yet: nothing is due in between
        page.set_viewport_size(LAPTOP)
        fights: list[dict[str, Any]] = []  # every last_fight the page is sent (each once)

        def watch(ws: Any) -> None:
            frames.attach(ws)
            ws.on("framereceived", lambda p: fights.append(json.loads(p).get("last_fight") or {}))

        page.on("websocket", watch)
        page.goto(server.url + made["links"][0]["url"])

        def bots_fight_then_my_turn(st: dict[str, Any]) -> bool:
            """A bot's fight has just ended and the game waits on the person's turn (it stands still)."""
            last = [f for f in fights if f]
            mine = own_decision(st) and st["view"]["active"] == 0 and st["view"]["prompt"] == "main"
            return (
                mine and bool(last) and last[-1]["combat"]["fighters"][0]["player"] != PERSON and st["view"]["turn"] > 0
            )

        play_until(page, frames, bots_fight_then_my_turn, tick=lambda: server.idle(table, 0.05))
        seen = [f for f in fights if f][-1]
        assert len({f["id"] for f in fights if f}) == len([f for f in fights if f]), "a fight was sent twice"
        panel = page.locator("#combat-panel")
        expect(panel).to_have_class(re.compile(r"\bfight-over\b"))
        expect(page.locator("#combat-heading")).to_contain_text("The fight is over")
        expect(page.locator("#fight-outcome")).to_contain_text(seen["outcome"])
        c = seen["combat"]
        expect(page.locator("#combat .side-fighters .total")).to_have_text(f"total {c['side_strength']}")
        expect(page.locator("#combat .side-monsters .total")).to_have_text(f"total {c['monster_strength']}")
        page.screenshot(path=str(ARTIFACTS / "layout-last-fight-laptop.png"))
        button = page.locator("#last-fight-button")
        expect(button).to_have_text("Hide the last fight")
        button.click()
        expect(panel).to_be_hidden()
        expect(page.locator("#last-fight-bar")).to_contain_text(seen["outcome"])
        expect(button).to_have_text("Show the last fight")
        button.click()  # until the next fight, the last one comes back with its numbers
        expect(panel).to_be_visible()
        expect(page.locator("#fight-outcome")).to_contain_text(seen["outcome"])
        expect(page.locator("#combat .side-monsters .total")).to_have_text(f"total {c['monster_strength']}")
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(ARTIFACTS / "layout-last-fight-phone.png"))
        page.locator("#last-fight-close").click()
        expect(panel).to_be_hidden()
