"""Table talk in Chromium (issue 37): three people and a spectator chatting at one table, a whisper the
third person and the spectator never receive (neither their pages nor their sockets), a flood refused
with a clear message beside the input, hostile text shown as text (no element made of it), a mute that
hides a person's lines and outlives a reload, quick phrases (one a gift, whose card's face opens), and
axe-core finding no serious problem in the talk on a laptop and on a phone. Screenshots at 1366 and 390 px wide
go to test-artifacts/e2e/chat-*.png.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, WebSocket, expect, sync_playwright

from munchkin.server.chat import CHAT_LINES
from system import CHROMIUM, CHROMIUM_ARGS, ensure_debian_packages
from test_e2e_a11y import problems as axe_problems
from test_e2e_browser import ARTIFACTS, Msg, Server, patient, post_table, serving
from test_e2e_clock import Seat, seat_socket

LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Bob", "Cy", "Bot Dora"]


@pytest.fixture
def chat_server(tmp_path: Path) -> Iterator[Server]:
    yield from serving(tmp_path)


class Person:
    """One browser page at the table (its own browser context: its own localStorage), and every
    message its table socket received, as received."""

    def __init__(self, browser: Browser, url: str, size: dict[str, int], problems: list[str]) -> None:
        self.context = browser.new_context(viewport=size)  # type: ignore[arg-type]
        self.page = patient(self.context.new_page())
        self.frames: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("console", lambda m: problems.append(f"console.error: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
        self.page.on("dialog", self._dialog)
        self.page.on("websocket", self._socket)
        self.url = url
        self.page.goto(url)
        expect(self.page.locator("#conn-status")).to_be_hidden()

    def _dialog(self, d: object) -> None:
        self.dialogs.append(str(getattr(d, "message", d)))
        d.dismiss()  # type: ignore[attr-defined]

    def _socket(self, ws: WebSocket) -> None:
        if "/ws/" in ws.url:
            ws.on("framereceived", lambda payload: self.frames.append(str(payload)))

    def say(self, text: str, to: str = "") -> None:
        if self.page.locator("#chat-to").is_enabled():  # a spectator's talks to everyone
            self.page.select_option("#chat-to", to)
        self.page.fill("#chat-input", text)
        self.page.press("#chat-input", "Enter")

    def act(self, text: str) -> None:
        """Type a move once the page offers it (its moves panel shows it)."""
        expect(self.page.locator(f'#actions-panel button.action[data-text="{text}"]').first).to_be_attached()
        self.page.fill("#action-input", text)
        self.page.press("#action-input", "Enter")

    def flood(self, texts: list[str]) -> None:
        """Say these lines at once, through the page's own chat form (in one go in the page, so that they
        come within the server's rate window however slow the machine is)."""
        if self.page.locator("#chat-to").is_enabled():
            self.page.select_option("#chat-to", "")
        self.page.evaluate(
            """(texts) => {
              const input = document.getElementById('chat-input');
              for (const text of texts) { input.value = text; input.form.requestSubmit(); }
            }""",
            texts,
        )

    def lines(self) -> list[str]:
        return self.page.locator("#chat-lines .chat-text").all_inner_texts()

    def sees(self, text: str) -> None:
        expect(self.page.locator("#chat-lines .chat-text", has_text=text).first).to_be_visible()


@contextlib.contextmanager
def chromium(server: Server) -> Iterator[tuple[Browser, list[str]]]:
    problems: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser, problems
        except BaseException:
            (ARTIFACTS / "failure-server.log").write_text(server.log_tail())
            raise
        finally:
            browser.close()
    assert not problems, "the browser logged errors:\n" + "\n".join(problems)


def test_three_people_and_a_spectator_talk_whisper_flood_inject_and_mute(chat_server: Server) -> None:
    server = chat_server
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    seats = [{"name": n, "kind": "bot" if n.startswith("Bot") else "human"} for n in NAMES]
    made: Msg = post_table(server, "Talk", ("human",), seats=seats, seed=7, bot_delay=0.2)
    links = {x["seat"]: server.url + x["url"] for x in made["links"]}
    with chromium(server) as (browser, problems):
        ann = Person(browser, links[0], LAPTOP, problems)
        bob = Person(browser, links[1], LAPTOP, problems)
        cy = Person(browser, links[2], LAPTOP, problems)
        spec = Person(browser, server.url + made["watch"], PHONE, problems)
        # the "to" choice: everyone or one person (never a bot, never oneself); a spectator talks to everyone
        assert ann.page.locator("#chat-to option").all_inner_texts() == ["Everyone", "Bob (whisper)", "Cy (whisper)"]
        expect(spec.page.locator("#chat-to")).to_be_disabled()
        # on a phone the talk is a tab beside the narration's
        expect(spec.page.locator("#chat-panel")).to_be_hidden()
        ann.say("Hello, table!")
        for p in (ann, bob, cy):
            p.sees("Hello, table!")
        expect(spec.page.locator("#chat-unread")).to_have_text("(1 new)")
        spec.page.click("#tab-chat")
        expect(spec.page.locator("#chat-panel")).to_be_visible()
        expect(spec.page.locator("#log-panel")).to_be_hidden()
        spec.sees("Hello, table!")
        spec.say("Go Ann!")
        own = spec.page.locator("#chat-lines .chat-line.from-spectator").first
        expect(own).to_contain_text("Spectator 1 (you)")  # the hello named this spectator: no Mute on its own line
        expect(own.locator("button.chat-mute")).to_have_count(0)
        line = ann.page.locator("#chat-lines .chat-line.from-spectator")
        expect(line).to_contain_text("Spectator 1")
        expect(line.locator(".chat-tag")).to_have_text("spectator")
        # a whisper: Bob and Ann only
        marker = "whisper-4b7e-for-bob-only"
        ann.say(marker, to="1")
        bob.sees(marker)
        expect(bob.page.locator("#chat-lines .chat-line.whisper .chat-tag")).to_have_text("whispers to you")
        expect(ann.page.locator("#chat-lines .chat-line.whisper .chat-tag")).to_have_text("whispers to Bob")
        ann.say("after the whisper")
        for p in (cy, spec):
            p.sees("after the whisper")  # lines come in order: the whisper would have come before this
            assert marker not in p.page.content(), "a whisper reached a third page"
            assert not any(marker in f for f in p.frames), "a whisper reached a third socket"
            assert marker not in p.page.evaluate(
                "() => window.MunchkinPage.snapshot() + JSON.stringify(Chat.snapshot())"
            )
        assert any(marker in f for f in bob.frames)
        # a quick phrase, one tap
        cy.page.click('#chat-phrases button[data-phrase="good_game"]')
        for p in (ann, bob, spec):
            p.sees("Good game!")
        # hostile text is shown as text: no element is made of it, no script runs
        hostile = ["<img src=x onerror=alert(1)>", "<b>x</b>"]
        for text in hostile:
            bob.say(text)
        for p in (ann, cy, spec):
            for text in hostile:
                expect(p.page.locator("#chat-lines .chat-text", has_text=text)).to_have_text(text)
            assert p.page.locator("#chat-lines img, #chat-lines b").count() == 0
        # a flood: refused beside the input, in words (the lines go at once: the server counts them over
        # CHAT_SECONDS of its wall clock)
        cy.flood([f"flood {i}" for i in range(CHAT_LINES + 1)])
        expect(cy.page.locator("#chat-error")).to_contain_text("slow down: wait")
        expect(cy.page.locator("#chat-error")).to_be_visible()
        expect(cy.page.locator("#error")).to_be_hidden()  # the moves' error box is not the chat's
        ann.sees("flood 0")  # (Cy's quick phrase above counts among his lines of these 10 seconds)
        assert f"flood {CHAT_LINES}" not in ann.lines()
        found = axe_problems(ann.page, "chat, laptop") + axe_problems(spec.page, "chat tab, phone")
        assert not found, "axe-core found serious or critical problems:\n" + "\n".join(found)
        for p, name in ((ann, "chat-1366.png"), (spec, "chat-390.png")):
            p.page.locator("#chat-panel").scroll_into_view_if_needed()
            p.page.screenshot(path=str(ARTIFACTS / name))
        # Ann mutes Bob: his lines go from her page (and stay gone after a reload); nobody else's change
        ann.page.locator('#chat-lines .chat-line[data-speaker="seat:1"] button.chat-mute').first.click()
        expect(ann.page.locator('#chat-lines .chat-line[data-speaker="seat:1"]')).to_have_count(0)
        expect(ann.page.locator("#chat-muted")).to_contain_text("Muted in this browser: Bob")
        bob.say("can you hear me, Ann?")
        cy.sees("can you hear me, Ann?")
        ann.page.reload()
        expect(ann.page.locator("#conn-status")).to_be_hidden()
        ann.sees("Good game!")
        assert "can you hear me, Ann?" not in ann.lines()
        expect(ann.page.locator('#chat-lines .chat-line[data-speaker="seat:1"]')).to_have_count(0)
        ann.page.locator("#chat-panel").scroll_into_view_if_needed()
        ann.page.screenshot(path=str(ARTIFACTS / "chat-1366-muted.png"))
        ann.page.click('#chat-muted button[aria-label="Unmute Bob"]')
        ann.sees("can you hear me, Ann?")
        # a quick phrase that is a move: once everyone is ready, Ann offers Bob her Slimy Armor not to help
        # (the engine's gift, which Bob accepts or refuses); the line names the card, whose face opens
        ann.act("play Slimy Armor")
        expect(ann.page.locator("#players")).to_contain_text("Slimy Armor")
        for p in (ann, bob, cy):
            p.act("ready")
        offer = ann.page.locator('#chat-phrases button[data-move="give Slimy Armor to Bob"]')
        expect(offer).to_have_text("Bob: I'll give you Slimy Armor not to help")
        offer.click()
        said = "Bob, I'll give you Slimy Armor not to help."
        for p in (ann, bob, cy, spec):
            p.sees(said)
        card = bob.page.locator("#chat-lines .chat-line.phrase .card-ref[data-card='Slimy Armor']")
        card.hover()
        expect(bob.page.locator("#card-face .cf-name")).to_have_text("Slimy Armor")
        bob.page.locator("#chat-panel").scroll_into_view_if_needed()
        bob.page.screenshot(path=str(ARTIFACTS / "chat-1366-phrase.png"))
        assert not any(p.dialogs for p in (ann, bob, cy, spec)), "a script ran from a chat line"
        expect(spec.page.locator("#chat-apart")).to_be_hidden()
    # a table that keeps spectators to themselves tells its spectators so; one without chat says it is off
    apart: Msg = post_table(server, "Apart", ("human",), seats=seats, seed=7, spectator_chat=False)
    quiet: Msg = post_table(server, "Quiet", ("human",), seats=seats, seed=7, chat=False)
    with chromium(server) as (browser, problems):
        watcher = Person(browser, server.url + apart["watch"], LAPTOP, problems)
        expect(watcher.page.locator("#chat-apart")).to_be_visible()
        silent = Person(browser, server.url + quiet["links"][0]["url"], LAPTOP, problems)
        expect(silent.page.locator("#chat-off")).to_be_visible()
        expect(silent.page.locator("#chat-form")).to_be_hidden()


def test_a_help_request_said_in_a_tap_is_the_move_and_the_bot_answers_it(chat_server: Server) -> None:
    """In the person's own fight the page offers "Bob: help me for 2 Treasures?" from the seat's moves; one
    tap says it to the table and asks the bot for help with that deal, and the bot helps or refuses."""
    server = chat_server
    ensure_debian_packages("chromium")
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "bot"}, {"name": "Cy", "kind": "bot"}]
    made: Msg = post_table(server, "Help", ("human",), seats=seats, seed=3, bot_delay=0.05, window_seconds=30)
    link = server.url + made["links"][0]["url"]

    def asks_with_treasure(st: Msg) -> bool:
        return any(a["kind"] == "ask" and a["text"].endswith("treasures, you pick first") for a in st["actions"])

    with chromium(server) as (browser, problems), seat_socket(server, link) as ws:
        ann = Person(browser, link, LAPTOP, problems)
        mover = Seat(ws)
        st = mover.play_until(asks_with_treasure)
        ask = next(a["text"] for a in st["actions"] if a["text"].endswith("treasures, you pick first"))
        helper, n = ask.split(" ")[1], ask.split("offering ")[1].split(" ")[0]
        button = ann.page.locator(f'#chat-phrases button[data-move="{ask}"]')
        expect(button).to_have_text(f"{helper}: help me for {n} Treasures?")
        button.click()
        ann.sees(f"{helper}, help me for {n} Treasures (you pick first)?")
        answered = ann.page.locator("#log li", has_text=re.compile(f"^{helper} (helps Ann|refuses to help)"))
        expect(answered.first).to_be_visible()
        ann.page.locator("#chat-panel").scroll_into_view_if_needed()
        ann.page.screenshot(path=str(ARTIFACTS / "chat-1366-help.png"))
