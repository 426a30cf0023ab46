"""In a real browser: a person reads the faces of the cards on the page, and of no card they may not see.

One seeded table (one person, three bots, bot_delay 0): the person reads a card's face from their hand
(by hover and by keyboard focus), from a bot's table, from the combat after kicking open the door,
from a line of the log, and on a phone-sized screen by tap. The bots' hidden cards never get a face.
Screenshots: test-artifacts/card-face-laptop.png and card-face-phone.png.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from munchkin.engine.game import Game, Setup
from system import ensure_debian_packages
from test_e2e_browser import REPO, Frames, Server, bot_moves, page_until, patient, post_table, server, watched_browser

__all__ = ["server"]  # the fixture, used by name

SEED = 8  # the person's first door is a monster (Platycore), and the bots equip Items while creating characters
KINDS = ("human", "bot", "bot", "bot")
NAMES = [f"{kind.title()} {i + 1}" for i, kind in enumerate(KINDS)]  # as post_table names the seats
ARTIFACTS = REPO / "test-artifacts"
PHONE = {"width": 390, "height": 844}


def public_names(state: dict[str, Any], log: list[str]) -> set[str]:
    """Every card name the seat's state shows: its hand, every table, the discards, the combat, the log."""
    v = state["view"]
    names = {c["name"] for c in v["hand"] + v["door_discard"] + v["treasure_discard"]}
    for p in v["players"]:
        for key in ("races", "classes", "roles", "proficiencies", "equipped", "carried", "curses"):
            names |= {c["name"] for c in p.get(key) or []}
        for k in p.get("sidekicks") or []:
            names |= {k["name"]} | ({k["carrying"]["name"]} if k.get("carrying") else set())
        for e in p.get("item_enhancers") or []:
            names |= {e["name"], e["on"]["name"]}
        names |= {c["name"] for c in p.get("cheats", [])}
    names |= {m["monster"].removesuffix(" (Mate)") for m in (v.get("combat") or {}).get("monsters", [])}
    return names | {n for n in all_card_names() if any(n in line for line in log)}


def all_card_names() -> set[str]:
    g = Game(Setup(sets=["deluxe"], players=["A", "B", "C"], seed=1))
    return {d.name for d in g.cdef}


def wait_for_move(page: Page, frames: Frames, text: str) -> None:
    """Wait (through the page, which hands over the frames it receives) until the move is legal."""
    page_until(
        page, lambda: frames.state and any(a["text"] == text for a in frames.state["actions"]), f"the move {text!r}"
    )


def type_move(page: Page, frames: Frames, text: str) -> None:
    wait_for_move(page, frames, text)
    page.fill("#action-input", text)
    page.press("#action-input", "Enter")


def test_the_seed_gives_the_browser_test_what_it_reads() -> None:
    """Browserless: at SEED the person's first door is Platycore, with King Tut and Flaming Armor in hand,
    and the bots have equipped an Item and taken a Class by then (as the server's bots play)."""
    from munchkin.engine.notation import parse
    from munchkin.server.tables import TableBots

    g = Game(Setup(sets=["deluxe"], players=NAMES, seed=SEED))
    bots = TableBots({1: "heuristic", 2: "heuristic", 3: "heuristic"}, SEED)
    hand = {g.name(c) for c in g.players[0].hand}
    assert {"King Tut", "Flaming Armor"} <= hand, hand
    for move in ("ready", "kick open the door"):
        while bot_moves(g, bots):  # the bots' moves, any-time ones first, as the server has them
            pass
        assert move in {g.text(a) for a in g.legal_actions(0)}, move
        g.apply_sequence(parse(g, move, 0))
    assert g.combat is not None and [g.name(m.base) for m in g.combat.monsters] == ["Platycore"]
    assert any(c in p.equipped for p in g.players[1:] for c in p.items)
    assert any(p.classes for p in g.players[1:])


def test_a_person_reads_the_cards_on_the_page_and_no_hidden_one(server: Server) -> None:
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    answer = post_table(server, "Card faces", KINDS, seed=SEED, bot_delay=0, window_seconds=60)
    link = server.url + answer["links"][0]["url"]
    # the deal, as the seeded table deals it: what the bots were dealt is hidden from the person
    dealt = Game(Setup(sets=["deluxe"], players=NAMES, seed=SEED))
    bots_dealt = {dealt.name(c) for p in dealt.players[1:] for c in p.hand}
    frames = Frames()
    with watched_browser(server) as page:
        page.set_viewport_size({"width": 1280, "height": 800})
        page.on("websocket", frames.attach)
        page.goto(link)
        face = page.locator("#card-face")
        tiles = page.locator("#hand .hand-card")
        expect(tiles.first).to_be_visible()
        # a monster in the hand shows its Level at a glance, and its face on hover
        tut = tiles.filter(has_text="King Tut")
        expect(tut.locator(".card-glance")).to_contain_text("Lv 16")
        expect(tiles.filter(has_text="Flaming Armor").locator(".card-glance")).to_contain_text("+2")
        expect(tiles.filter(has_text="Flaming Armor").locator(".card-glance svg.cf-ico-armor")).to_have_count(1)
        tut.hover()
        expect(face).to_be_visible()
        expect(face).to_have_attribute("role", "tooltip")
        expect(tut).to_have_attribute("aria-describedby", "card-face")
        expect(face.locator(".cf-name")).to_have_text("King Tut")
        for words in ("Door · Monster", "Will not pursue", "anyone of Level 3 or less", "Bad Stuff", "Munchkin Deluxe"):
            expect(face).to_contain_text(words)
        page.mouse.move(640, 5)
        expect(face).to_be_hidden()
        # keyboard: Tab from one hand card to the next opens the next one's face; Escape closes it
        tiles.nth(0).focus()
        page.keyboard.press("Tab")
        second = tiles.nth(1).get_attribute("data-card")
        expect(face.locator(".cf-name")).to_have_text(second or "?")
        page.keyboard.press("Escape")
        expect(face).to_be_hidden()
        # the table: an Item a bot equipped while creating a character (the bots do once the person is ready)
        type_move(page, frames, "ready")
        # ... and the Class one took
        for kind, words in (("item", ("Treasure · Item", "Bonus", "Slot")), ("class", ("Door · Class", "Abilities"))):
            on_table = page.locator(f"#players article:not(.me) .table-card.kind-{kind}").first
            expect(on_table).to_be_visible()
            on_table.hover()
            expect(face.locator(".cf-name")).to_have_text(on_table.get_attribute("data-card") or "?")
            for word in words:
                expect(face).to_contain_text(word)
            page.mouse.move(640, 5)
            expect(face).to_be_hidden()
        # the combat: kick open the door; the monster's face from the combat panel
        type_move(page, frames, "kick open the door")
        monster = page.locator("#combat .monster-name[data-card='Platycore']")
        expect(monster).to_be_visible()
        monster.hover()
        expect(face.locator(".cf-name")).to_have_text("Platycore")
        expect(face).to_contain_text("Level")
        expect(face).to_contain_text("+6 against a Wizard")
        page.screenshot(path=str(ARTIFACTS / "card-face-laptop.png"))
        page.mouse.move(640, 5)
        expect(face).to_be_hidden()
        # a log line: a click pins the face as a dialog; Escape closes it
        in_log = page.locator("#log .card-ref[data-card='Platycore']").first
        expect(in_log).to_have_text("Platycore")
        in_log.click()
        expect(face).to_have_attribute("role", "dialog")
        expect(face.locator(".cf-close")).to_be_visible()
        page.keyboard.press("Escape")
        expect(face).to_be_hidden()
        # ... and by keyboard: the log's arrow keys move between its card names
        page.locator("#log").focus()
        page.keyboard.press("ArrowLeft")
        focused = page.evaluate("document.activeElement.dataset.card")
        assert focused, "the arrow key did not reach a card name in the log"
        expect(face.locator(".cf-name")).to_have_text(focused)
        page.keyboard.press("Enter")  # pinned as a dialog, its Close button focused; Escape comes back
        expect(face).to_have_attribute("role", "dialog")
        expect(face.locator(".cf-close")).to_be_focused()
        page.keyboard.press("Escape")
        expect(face).to_be_hidden()
        assert page.evaluate("document.activeElement.dataset.card") == focused
        # nothing hidden: every name with a face is one the seat's state shows; the bots' hands are not there
        st = frames.state
        assert st is not None
        shown = public_names(st, frames.log)
        faced = set(page.eval_on_selector_all("[data-card]", "ns => ns.map((n) => n.dataset.card)"))
        assert faced and faced <= shown, faced - shown
        hidden = bots_dealt - shown
        assert hidden, "every card the bots were dealt is public: nothing to check"
        for name in hidden:
            expect(page.locator(f"[data-card={name!r}]")).to_have_count(0)
            assert name not in page.locator("#players").inner_text() + page.locator("#log").inner_text(), name
        # a phone: a tap on a hand card opens its face as a sheet inside the screen
        browser = page.context.browser
        assert browser is not None
        phone_ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        errors: list[str] = []
        try:
            phone = patient(phone_ctx.new_page())
            phone.on("pageerror", lambda e: errors.append(str(e)))
            phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            phone.goto(link)
            tile = phone.locator("#hand .hand-card").filter(has_text="King Tut")
            tile.scroll_into_view_if_needed()
            tile.tap()
            sheet = phone.locator("#card-face")
            expect(sheet).to_be_visible()
            expect(sheet).to_have_attribute("role", "dialog")
            expect(sheet.locator(".cf-name")).to_have_text("King Tut")
            box = sheet.bounding_box()
            assert box is not None
            assert box["x"] >= 0 and box["y"] >= 0, box
            assert box["x"] + box["width"] <= PHONE["width"] and box["y"] + box["height"] <= PHONE["height"], box
            phone.screenshot(path=str(ARTIFACTS / "card-face-phone.png"))
            sheet.locator(".cf-close").tap()
            expect(sheet).to_be_hidden()
        finally:
            phone_ctx.close()
        assert not errors, errors
