"""End to end in a real browser: one person against three bots, from the lobby to the end screen.

The test starts `munchkin serve`, creates a table through the lobby's form, opens the person's join
link in Debian's chromium and plays the whole game by clicking the page's move buttons with a simple,
deterministic policy (`choose`). On the way it checks a combat, a response window's countdown and its
"Wait!" button, a call for help, a server crash (kill -9) with the page reconnecting by itself to
the same turn and hand, the end screen and the replay download; the browser must log no JavaScript
errors. Screenshots go to $MUNCHKIN_ARTIFACTS (default: test-artifacts/e2e/ in the repository).

The crashed server comes back as the same server run in the test's process (`ClockedServer`), its tables
on a clock the test moves: the window is held on that clock, so no step of the game races the machine's
speed. Tests whose scenario a table's timer would decide use a `ClockedServer` from the start.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, WebSocket, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from munchkin.engine.game import Game
from munchkin.engine.view import narrate
from munchkin.server.clock import ManualClock
from munchkin.server.config import ServerSettings
from munchkin.server.hub import Hub
from munchkin.server.serving import listening_socket, table_server
from munchkin.server.store import database_url
from munchkin.server.tables import TableBots, TableRunner
from system import CHROMIUM, CHROMIUM_ARGS, ensure_debian_packages, free_port
from waits import PATIENCE, until_sync

T = TypeVar("T")

SEED = 3
WINDOW_SECONDS = 30.0  # the person passes every window at once; the crash test's window is held on a clock it moves
BOT_DELAY = 0.05
# Seat 0 is the person; the lobby names the bots itself when a seat is switched to "bot".
NAMES = ["Player 1", "Lady Pointy", "Sir Loots-a-Lot", "Dungeon Dave"]
STRENGTHS = {1: "random", 2: "easy", 3: "easy"}  # the Easy bot is the heuristic one

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("MUNCHKIN_ARTIFACTS") or REPO / "test-artifacts" / "e2e")
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 800}

Msg = dict[str, Any]


# ---------------------------------------------------------------------- the person's policy
WINDOW_PROMPTS = frozenset({"window", "curse_window", "rolled", "end_window"})
FORWARD = ("kick", "keep", "trouble", "loot", "end", "run", "flee_from", "pass", "refuse", "decline", "choose", "take")


def choose(actions: list[Msg], view: Msg, done: set[str]) -> str:
    """The person's move: always one that moves the game on. `actions` are the state message's
    legal actions, `view` its view; `done` holds the setup moves already made (each is made once)."""
    texts = [a["text"] for a in actions]
    by_kind: dict[str, list[str]] = {}
    for a in actions:
        by_kind.setdefault(a["kind"], []).append(a["text"])
    prompt = view["prompt"]
    if prompt in WINDOW_PROMPTS and "pass" in texts:
        return "pass"
    if prompt == "help":
        return "accept"
    if prompt == "offer":
        return "refuse"
    if prompt == "losing":
        asks = [t for t in by_kind.get("ask", []) if " offering " not in t]
        return asks[0] if asks else by_kind["run"][0]
    if view["phase"] == "setup":
        for t in by_kind.get("play", []) + by_kind.get("equip", []):
            if t not in done:
                return t
        return "ready"
    if prompt == "charity":
        for k in ("discard", "give"):
            if k in by_kind:
                return by_kind[k][0]
    for k in FORWARD:
        if k in by_kind:
            return by_kind[k][0]
    return texts[0]


def bot_moves(g: Game, bots: TableBots) -> bool:
    """One move of the bots, as the server makes it (a bot acting at any time goes first); False when the
    game waits on a person."""
    inter = bots.interjection(g)
    if inter is not None:
        g.apply(inter)
        return True
    bot = next((s for s in g.to_act if s in bots), None)
    if bot is None:
        return False
    g.apply(bots.choose(g, bot))
    return True


def play_offline(
    seed: int,
    sets: tuple[str, ...] = ("deluxe",),
    sexes: tuple[str | None, ...] = (),
    houses: tuple[str | None, ...] = (),
) -> Msg:
    """The browser game without a browser: the person's policy, the bots answering first (as the server
    has them do), with the server's own TableBots; no restart here, since a restarted server plays on
    exactly as if it had never stopped. What the browser test needs to see."""
    from munchkin.engine.game import Options, Setup, declared_sexes
    from munchkin.engine.notation import parse

    def new_bots() -> TableBots:
        return TableBots(STRENGTHS, seed)

    declared = declared_sexes(list(sexes), seed) if sexes else None  # as the lobby's sex choices
    chosen = list(houses) + [None] * (len(NAMES) - len(houses)) if houses else None  # the lobby's House choices
    g = Game(Setup(sets=list(sets), players=NAMES, seed=seed, options=Options(), sexes=declared, houses=chosen))
    bots, done = new_bots(), set[str]()
    out: Msg = {"moves": 0, "windows": 0, "asks": [], "fight_before_crash": False, "crash_turn": None}
    out["clocked_after_crash"] = 0  # windows on the person's clock (another's moment) after the crash
    while not g.over:
        if bot_moves(g, bots):
            continue
        view = {"prompt": g.prompt.kind, "phase": g.phase}
        if out["crash_turn"] is None and view == {"prompt": "main", "phase": "start"}:
            out["fight_before_crash"] = any(e[0] == "combat" for e in g.events)
            if out["fight_before_crash"]:
                out["crash_turn"] = g.turn
        text = choose([{"text": g.text(a), "kind": a.kind} for a in g.legal_actions(0)], view, done)
        if view["phase"] == "setup":
            done.add(text)
        out["windows"] += view["prompt"] in WINDOW_PROMPTS
        out["clocked_after_crash"] += (
            out["crash_turn"] is not None and view["prompt"] in WINDOW_PROMPTS and (0 not in g.deciding())
        )
        if text.startswith("ask "):
            out["asks"].append(text)
        acts = parse(g, text, 0)
        if len(acts) == 1:
            g.apply(acts[0])
        else:
            g.apply_sequence(acts)
        out["moves"] += 1
    out["turns"], out["winners"] = g.turn + 1, [NAMES[s] for s in g.winners]
    out["actions"] = json.loads(json.dumps([e[1] for e in g.log if e[0] == "act"]))  # as a replay holds them
    out["narration"] = narrate(g, 0)
    out["sidekicks_seen"] = any(e[0] == "play" and g.cdef[e[2]].is_sidekick for e in g.events)
    out["steeds_seen"] = any(e[0] == "play" and g.cdef[e[2]].steed for e in g.events)
    out["enhancers_seen"] = any(e[0] == "enhance_item" for e in g.events)
    out["roles_seen"] = any(e[0] == "play" and g.cdef[e[2]].is_role for e in g.events)
    out["proficiencies_seen"] = any(e[0] == "play" and g.cdef[e[2]].is_proficiency for e in g.events)
    out["houses"] = [p.house for p in g.players]
    return out


def test_the_seed_gives_the_browser_game_all_it_checks() -> None:
    """Cheap and browserless: when the engine or the bots change, this says whether SEED still makes
    a game with a fight before the crash, a window and a call for help, that ends well in time; and a
    window on the person's clock after the crash, for the test to hold with Wait! on the restarted server.
    (Seeds 1 to 20 all do but 14; 3 is among the shortest.)"""
    out = play_offline(SEED)
    assert out["fight_before_crash"] and out["crash_turn"] is not None, out
    assert out["windows"] >= 1 and out["asks"], out
    assert out["clocked_after_crash"] >= 1, out
    assert out["winners"] and out["turns"] <= 120, out


# ---------------------------------------------------------------------- the server
PAGE_PATIENCE = PATIENCE * 1000  # ms: how long Playwright waits for the page or the server to catch up
expect.set_options(timeout=PAGE_PATIENCE)  # every `expect` of the e2e tests (Playwright's own default is 5 s)


def patient(page: Page) -> Page:
    """A page whose actions (clicks, fills, waits for an element) wait up to PAGE_PATIENCE, not Playwright's 30 s."""
    page.set_default_timeout(PAGE_PATIENCE)
    return page


PROBE_MS = 1000  # ms: one try at a step on a page that may move on meanwhile (`attempt` tries again)


def attempt(step: Callable[[], object], still: Callable[[], bool], what: str) -> bool:
    """Do `step` (Playwright waits PROBE_MS in it), again while `still()` holds (the state it was meant for is
    the latest), for up to PATIENCE: True once done, False when the table moved on first (a bot played into
    the moment: look again) rather than waiting PATIENCE for a button that went away."""
    give_up = time.monotonic() + PATIENCE
    while True:
        try:
            step()
            return True
        except PlaywrightTimeoutError:
            if not still():
                return False
            if time.monotonic() > give_up:
                raise AssertionError(f"never happened within {PATIENCE:.0f} s: {what}") from None


def page_until(page: Page, condition: Callable[[], object], what: str, seconds: float = PATIENCE) -> None:
    """`until_sync` for what the browser tells the test (a WebSocket frame, the page's state): it waits through
    the page, so that Playwright hands over the browser's events meanwhile."""
    give_up = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > give_up:
            raise AssertionError(f"never happened within {seconds:.0f} s: {what}")
        page.wait_for_timeout(20)


class Server:
    """`munchkin serve` as a subprocess, on a fixed port and data folder so it can be killed and restarted.
    Its tables run on the wall clock: for tests in which no table timer decides anything."""

    clock: ManualClock | None = None  # the tables' clock, when the test moves it (`ClockedServer`)

    def __init__(self, port: int, data: Path) -> None:
        self.port, self.data = port, data
        self.url = f"http://127.0.0.1:{port}"
        self.log = data / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.down = False  # from the crash until the page is back: its failed reconnections are expected
        self.successor: ClockedServer | None = None  # the server restarted in this process (`restart_clocked`)

    def start(self) -> None:
        exe = Path(sys.executable).parent / "munchkin"
        cmd = [str(exe)] if exe.exists() else [sys.executable, "-c", "from munchkin.cli import app; app()"]
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [*cmd, "serve", "--port", str(self.port), "--data", str(self.data)],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        proc = self.proc

        def up() -> bool:
            if proc.poll() is not None:
                raise AssertionError(f"the server exited with {proc.returncode}")
            try:
                with urllib.request.urlopen(self.url + "/api/sets", timeout=PATIENCE) as r:
                    return r.status == 200
            except OSError:
                return False

        try:
            until_sync(up, "the server answering", step=0.1)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{self.log_tail()}") from None

    def crash(self) -> None:
        assert self.proc is not None
        self.down = True
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(PATIENCE)
        self.proc = None

    def restart_clocked(self) -> ClockedServer:
        """After `crash`: the same server again on the same port and data, in this process and on a clock the
        test moves (`ClockedServer`); `stop` stops it too."""
        assert self.proc is None
        self.successor = ClockedServer(self.port, self.data)
        self.successor.start()
        return self.successor

    def stop(self) -> None:
        if self.successor is not None:
            self.successor.stop()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(PATIENCE)
        self.proc = None

    def log_tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-4000:]
        except OSError:
            return "(no server log)"


class ClockedServer(Server):
    """The server `munchkin serve` runs (built by the same `table_server`, with the command's default settings),
    run in this process on a thread, its tables on a `ManualClock` that the test moves: for the tests whose
    scenario a table's timer would otherwise decide (a window's countdown, a bot's delay, a stand-in's grace).

    Nothing the tables time passes unless the test says so: `pass_time` for a moment the scenario needs,
    `idle` for the time that only paces the bots (`bot_delay`) and the sockets' message allowance."""

    def __init__(self, port: int, data: Path) -> None:
        super().__init__(port, data)
        self.clock: ManualClock = ManualClock()
        self.uvicorn: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.handler: logging.Handler | None = None
        self.level = logging.NOTSET

    def start(self) -> None:
        sock = listening_socket("127.0.0.1", self.port)  # port 0: a free one, said by the socket
        self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        # the command's defaults are ServerSettings' own (`munchkin serve` without flags)
        server, _ = table_server(database_url(self.data, None), ServerSettings(), "127.0.0.1", self.port, self.clock)
        self.uvicorn = server
        self.handler = logging.FileHandler(self.log)  # the server's log, as the command writes it
        self.handler.setFormatter(logging.Formatter("%(message)s"))
        logger = logging.getLogger("munchkin")
        self.level = logger.level
        logger.setLevel(logging.INFO)
        logger.addHandler(self.handler)
        self.thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="table-server", daemon=True)
        self.thread.start()
        thread = self.thread
        try:
            until_sync(lambda: server.started or not thread.is_alive(), "the in-process server starting")
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{self.log_tail()}") from None
        if not server.started:
            raise AssertionError(f"the in-process server did not start:\n{self.log_tail()}")
        self.loop = server.servers[0].get_loop()

    def crash(self) -> None:
        raise NotImplementedError("a server in this process cannot be killed: crash a `Server`")

    def stop(self) -> None:
        server, thread = self.uvicorn, self.thread
        if server is not None and thread is not None:
            server.should_exit = True
            thread.join(PATIENCE)
            if thread.is_alive():  # connections that would not close: cut them
                server.force_exit = True
                thread.join(PATIENCE)
            assert not thread.is_alive(), f"the in-process server did not stop in {2 * PATIENCE:.0f} s"
        self.uvicorn = self.thread = None
        if self.handler is not None:
            logger = logging.getLogger("munchkin")
            logger.removeHandler(self.handler)
            logger.setLevel(self.level)
            self.handler.close()
            self.handler = None

    def on_loop(self, work: Callable[[], T]) -> T:
        """Do `work` on the server's event loop, between two steps of its tables (so that what it reads of a
        table is consistent, and nothing moves while it acts), and return what it returns."""
        assert self.loop is not None, "the server is not running"
        done: concurrent.futures.Future[T] = concurrent.futures.Future()

        def run() -> None:
            try:
                done.set_result(work())
            except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
                done.set_exception(exc)

        self.loop.call_soon_threadsafe(run)
        try:
            return done.result(timeout=PATIENCE)
        except concurrent.futures.TimeoutError:
            raise AssertionError(f"the server's event loop did not answer within {PATIENCE:.0f} s") from None

    def runner(self, table_id: str) -> TableRunner:
        """The table's runner (read it in `on_loop` only)."""
        hub: Hub = self.uvicorn.config.app.state.hub  # type: ignore[union-attr]
        return hub.tables[table_id]

    def version(self, table_id: str) -> int:
        """The version of the table's game now, as the server holds it."""
        return self.on_loop(lambda: self.runner(table_id).game.version)

    def pass_time(self, seconds: float) -> None:
        """Move the tables' clock on by `seconds` and return once every wait that came due has ended and the
        table has done what it woke up to do (closed a window, brought in a bot...)."""
        clock = self.clock

        def move() -> int:
            before, pending = clock.turns, clock.waiting()
            clock.advance(seconds)
            return before + pending - clock.waiting()  # the waits that came due: each ends with a turn

        woken = self.on_loop(move)
        until_sync(lambda: clock.turns >= woken, f"the tables waking up after {seconds} s on their clock")
        self.on_loop(lambda: None)  # ... and finishing the step they woke up to

    def idle(self, table_id: str, seconds: float) -> bool:
        """Let `seconds` pass for what only paces the table (its bots' delay, its sockets' message allowance)
        unless a response window counts down there or a Wait! holds one: those end only when the test says
        (`pass_time`). True if the clock moved."""

        def move() -> bool:
            r = self.runner(table_id)
            if r.deadline is not None or r.hold_until:
                return False
            self.clock.advance(seconds)
            return True

        return self.on_loop(move)


def serving(tmp_path: Path) -> Iterator[Server]:
    """A table server of its own for one test, stopped after it (the body of each file's server fixture)."""
    s = Server(free_port(), tmp_path)
    try:
        s.start()
        yield s
    finally:
        s.stop()


def clocked_serving(tmp_path: Path) -> Iterator[ClockedServer]:
    """A `ClockedServer` of its own for one test, stopped after it."""
    s = ClockedServer(0, tmp_path)
    try:
        s.start()
        yield s
    finally:
        s.stop()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    yield from serving(tmp_path)


@pytest.fixture
def clocked_server(tmp_path: Path) -> Iterator[ClockedServer]:
    yield from clocked_serving(tmp_path)


def table_id(link: str) -> str:
    """The table's id in a seat's (or a spectator's) link."""
    return urlsplit(link).path.rstrip("/").rsplit("/", 1)[1]


# ---------------------------------------------------------------------- what the page receives
class Frames:
    """The table's WebSocket messages as the page receives them: the latest state, the errors."""

    def __init__(self) -> None:
        self.state: Msg | None = None
        self.states = 0
        self.errors: list[str] = []
        self.log: list[str] = []
        self.sockets = 0

    def attach(self, ws: WebSocket) -> None:
        if "/ws/" not in ws.url:
            return
        self.sockets += 1
        ws.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        m = json.loads(payload)
        if m.get("type") == "error":
            self.errors.append(m["error"])
        elif m.get("type") == "state":
            start = m["log_start"]
            self.log[start:] = m["log"]
            self.state = m
            self.states += 1


# ---------------------------------------------------------------------- the page
def reveal_move(page: Page, text: str, timeout: float = PAGE_PATIENCE) -> None:
    """Show the move with this text in the staged moves panel, as a person reaches it: back to the
    top level (its "All moves" step), then open each group that holds it, one stage at a time (each
    step waiting up to `timeout` ms for the page)."""
    button = page.locator(f"button.action[data-text={json.dumps(text, ensure_ascii=False)}]").first
    if button.is_visible():
        return
    path = button.evaluate(
        "(b) => { const s = b.closest('.menu-stage'); return s ? JSON.parse(s.dataset.path) : []; }",
        timeout=timeout,
    )
    home = page.locator('#actions .menu-stage:not([hidden]) button.crumb[data-crumb="0"]')
    if home.count():
        home.first.click(timeout=timeout)
    for gid in path:
        opener = f"#actions .menu-stage:not([hidden]) button.menu-group[data-opens={json.dumps(gid)}]"
        page.locator(opener).first.click(timeout=timeout)


def click_move(page: Page, frames: Frames, text: str, version: int) -> bool:
    """Click the move's button as a person reaches it (`reveal_move`), chosen in the state of `version`:
    False when the table moved on from that state before the click landed (a bot played into the moment:
    the server would refuse the move as stale anyway), so that the caller looks again."""
    button = page.locator(f"button.action[data-text={json.dumps(text, ensure_ascii=False)}]").first

    def step() -> None:
        reveal_move(page, text, PROBE_MS)
        button.click(timeout=PROBE_MS)

    return attempt(
        step, lambda: frames.state is not None and frames.state["version"] == version, f"a click on {text!r}"
    )


def take_move(
    page: Page,
    frames: Frames,
    server: ClockedServer,
    table: str,
    text: str,
    tick: Callable[[], object] | None = None,
) -> None:
    """The person's move `text`, clicked on the page (`click_move`) once the latest state offers it, and
    clicked again if the server refused it as stale (the page was a step behind: a bot's answer came
    first, as the offline game has it), until the server has taken it. `tick`, if given, is called while
    the test waits for the move to be offered (`ClockedServer.idle`)."""

    def offered() -> bool:
        if tick is not None:
            tick()
        st = frames.state
        return bool(st and any(a["text"] == text for a in st["actions"]))

    def log_length() -> int:
        return len(server.runner(table).game.log)

    for _ in range(100):  # each round is a refusal the server sent: a few at most
        page_until(page, offered, f"the move {text!r} offered to the person")
        st = frames.state
        assert st is not None
        seat, errors = st["view"]["you"], len(frames.errors)
        since = server.on_loop(log_length)
        if not click_move(page, frames, text, st["version"]):
            continue  # the table moved on before the click: look again

        def taken(seat: int = seat, since: int = since) -> bool:
            g = server.runner(table).game
            return any(e[0] == "act" and e[1].seat == seat for e in g.log[since:])

        def answered(errors: int = errors) -> bool:
            return len(frames.errors) > errors or server.on_loop(taken)

        page_until(page, answered, f"the server taking {text!r} or refusing it")
        if len(frames.errors) == errors:
            return
    raise AssertionError(f"the server refused {text!r} again and again: {frames.errors[-3:]}")


SNAPSHOT_JS = """() => {
  const shown = (n) => !!n && !n.hidden && n.getClientRects().length > 0;
  const $ = (id) => document.getElementById(id);
  const buttons = [...document.querySelectorAll('#actions-panel button.action, #window-panel button.action')];
  const countdown = $('window-countdown');
  return {
    pending: document.body.classList.contains('pending'),
    offline: document.body.classList.contains('offline'),
    connBanner: shown($('conn-status')),
    end: shown($('end-screen')),
    combat: shown($('combat-panel'))
      ? [...document.querySelectorAll('#combat .side .total')].map((n) => n.textContent) : null,
    countdown: shown(countdown) ? countdown.textContent : null,
    turn: $('turn-number').textContent,
    hand: [...document.querySelectorAll('#hand .hand-card')].map(
      (n) => n.dataset.cardId + ':' + n.querySelector('.card-name').textContent),
    buttons: buttons.map((b) => ({text: b.dataset.text, kind: b.dataset.kind, disabled: b.disabled})),
    logLines: document.querySelectorAll('#log li').length,
    sidekickRow: [...document.querySelectorAll('#players .row-label')].some(
      (n) => n.textContent.startsWith('Sidekick')),
    steedShown: document.querySelector('#players .card-note.steed') !== null,
    enhancerRow: [...document.querySelectorAll('#players .row-label')].some(
      (n) => n.textContent.startsWith('Item Enhancers')),
    mySex: (document.querySelector('#players article.me .stats') || {}).textContent || '',
    raceRow: [...document.querySelectorAll('#players .row-label')].some((n) => n.textContent.startsWith('Race')),
    myHouse: (document.querySelector('#players article.me .stats .house') || {}).textContent || '',
    roleShown: [...document.querySelectorAll('#players .row-label')].some(
      (n) => n.textContent.startsWith('Role') && n.nextElementSibling.classList.contains('chips')),
    proficiencyRow: [...document.querySelectorAll('#players .row-label')].some(
      (n) => n.textContent.startsWith('Proficiencies')),
  };
}"""


class Table:
    """The person's seat, driven through the page."""

    def __init__(self, page: Page, frames: Frames, server: Server, prefix: str = "") -> None:
        self.page, self.frames, self.server = page, frames, server
        self.table = table_id(page.url)
        self.prefix = prefix  # of the screenshot files
        self.done: set[str] = set()
        self.clicked: tuple[int, float] | None = None  # (version, when) of the last move sent
        self.errors_seen = 0
        self.combat: list[str] | None = None
        self.window: tuple[float, float, float] | None = None  # countdown: read, read again; seconds held
        self.asked: str | None = None
        self.restarted = False
        self.phone = False
        self.moves = 0
        self.misses: list[str] = []  # moves whose button went away before the click landed
        self.sidekick_shown = False  # a Sidekick row was seen on the players' table (Star Munchkin)
        self.steed_shown = False  # a Steed among a player's Items (the Good, the Bad, and the Munchkin)
        self.enhancer_shown = False  # an Item Enhancers row
        self.my_sex = ""
        self.race_row = False  # a Race row was shown (none in a game without Race cards)
        self.my_house = ""  # the House shown on the person's own player card (Harry Potter)
        self.role_shown = False  # a Role card on a player's table
        self.proficiency_shown = False  # a Proficiencies row

    def snapshot(self) -> Msg:
        snap: Msg = self.page.evaluate(SNAPSHOT_JS)
        return snap

    def shot(self, name: str, full_page: bool = False) -> None:
        self.page.screenshot(path=str(ARTIFACTS / name), full_page=full_page)

    def click_move(self, text: str, version: int) -> bool:
        """Click a move's button, chosen in the state of `version`; one in a stage of the moves panel that
        is not open is reached as a person would, opening the groups that hold it from the top (see
        `reveal_move`). False when the table moved on under the pointer (a bot played into the moment)."""
        if not click_move(self.page, self.frames, text, version):
            self.misses.append(text)  # look again
            self.clicked = None
            return False
        self.moves += 1
        return True

    def my_move(self, snap: Msg) -> Msg | None:
        """The latest state if the page shows it and it waits on the person, else None."""
        st = self.frames.state
        if st is None or snap["pending"] or snap["offline"] or st["view"]["over"]:
            return None
        if 0 not in st["view"]["to_act"] or not st["actions"]:
            return None
        if self.clicked is not None and self.clicked[0] == st["version"]:
            if len(self.frames.errors) == self.errors_seen and time.monotonic() - self.clicked[1] < 5:
                return None  # our move for this version is on its way
        shown = {b["text"] for b in snap["buttons"]}
        if shown != {a["text"] for a in st["actions"]} or any(b["disabled"] for b in snap["buttons"]):
            return None  # the page has not drawn this state yet
        return st

    def play(self) -> None:
        """The person's moves, through the page, to the end screen. On a `ClockedServer` the time that only
        paces the bots passes while the test looks (`idle`): windows wait for the person's Pass."""
        states, still_since = -1, time.monotonic()
        while True:
            if self.frames.states != states:
                states, still_since = self.frames.states, time.monotonic()
            assert time.monotonic() - still_since < PATIENCE, (
                f"the game stood still for {PATIENCE:.0f} s ({self.moves} moves, missed clicks: {self.misses[-5:]})"
            )
            self.page.wait_for_timeout(25)
            if self.server.clock is not None:
                self.server.idle(self.table, BOT_DELAY)  # type: ignore[attr-defined]
            snap = self.snapshot()
            if snap["end"]:
                return
            assert not snap["connBanner"], "the page lost its connection to the server"
            if snap["combat"] and self.combat is None:
                self.combat = snap["combat"]
                self.shot(f"{self.prefix}04-combat.png")
            if snap["sidekickRow"] and not self.sidekick_shown:
                self.sidekick_shown = True
                self.shot(f"{self.prefix}sidekick.png", full_page=True)
            if snap["steedShown"] and not self.steed_shown:
                self.steed_shown = True
                self.shot(f"{self.prefix}steed.png", full_page=True)
            if snap["enhancerRow"] and not self.enhancer_shown:
                self.enhancer_shown = True
                self.shot(f"{self.prefix}item-enhancer.png", full_page=True)
            self.my_sex = self.my_sex or snap["mySex"]
            self.race_row = self.race_row or snap["raceRow"]
            self.my_house = self.my_house or snap["myHouse"]
            if snap["roleShown"] and not self.role_shown:
                self.role_shown = True
                self.shot(f"{self.prefix}role.png", full_page=True)
            if snap["proficiencyRow"] and not self.proficiency_shown:
                self.proficiency_shown = True
                self.shot(f"{self.prefix}proficiencies.png", full_page=True)
            st = self.my_move(snap)
            if st is None:
                continue
            view = st["view"]
            if (
                not self.restarted
                and view["phase"] == "start"
                and view["prompt"] == "main"
                and any(" fights " in line for line in self.frames.log)
            ):
                self.crash_and_restart(snap)
                continue
            clocked = self.restarted and snap["countdown"] is not None  # the restarted server's clock is the test's
            if self.window is None and not self.prefix and st["window"] and clocked:
                if self.check_window():
                    continue
            text = choose(st["actions"], view, self.done)
            self.errors_seen = len(self.frames.errors)
            self.clicked = (st["version"], time.monotonic())
            if not self.click_move(text, st["version"]):
                continue
            if view["phase"] == "setup":
                self.done.add(text)
            if text.startswith("ask ") and self.asked is None:
                self.asked = text
                helper = re.fullmatch(r"ask (.+?) for help", text)
                assert helper, text
                log = self.page.locator("#log")
                expect(log).to_contain_text(f"{NAMES[0]} asks {helper.group(1)} for help.")
                answer = re.escape(helper.group(1)) + f" (helps {re.escape(NAMES[0])}|refuses to help)\\."
                expect(log).to_contain_text(re.compile(answer))  # a bot answers at once
                self.shot("06-asked-for-help.png")

    def countdown(self) -> float | None:
        """The window's countdown as the page shows it, in seconds; None when there is none."""
        text = self.snapshot()["countdown"]
        if text is None:
            return None
        m = re.match(r"(\d+(?:\.\d+)?) s", text)
        assert m, f"the countdown reads {text!r}"
        return float(m.group(1))

    def check_window(self) -> bool:
        """A window runs on the person's clock: the server sends its whole length (its clock stands still until
        the test moves it), the page counts it down by the browser's own clock, Wait! holds it while more than
        a window's time passes, then Pass. False when this window will not do (the table moved on first)."""
        st = self.frames.state
        assert st is not None
        server = self.server
        assert isinstance(server, ClockedServer), "the window is checked on the restarted server's clock"
        assert st["window"]["remaining"] == WINDOW_SECONDS, st["window"]  # no time passed on the table's clock
        first = self.countdown()
        if first is None or first < 1.5:  # only a page that stood still for most of WINDOW_SECONDS
            return False
        # the page's own countdown runs: it reads less soon (the generous bound: only a hang fails it)
        page_until(self.page, lambda: (self.countdown() or 0.0) < first, "the page's countdown running")
        second = self.countdown()
        if second is None or self.frames.state is not st:
            return False  # a bot played into the window (the countdown restarts)
        assert second < first, f"the countdown does not run: {first} then {second}"
        self.page.locator("#wait-button").click()
        expect(self.page.locator("#window-held")).to_contain_text("You said Wait!")
        expect(self.page.locator("#window-countdown")).to_have_count(0)
        expect(self.page.locator("#wait-button")).to_be_disabled()
        held = self.frames.state
        assert held is not None and held["window"]["held_by"] == [0], held["window"]
        w = held["window"]
        assert w["held_left"] == WINDOW_SECONDS and w["hold_left"] == [w["hold_seconds"]], w  # held where it stood
        assert WINDOW_SECONDS + 1 < w["hold_seconds"], w
        server.pass_time(WINDOW_SECONDS + 1)  # longer than the window: held, it stays open
        assert server.version(self.table) == held["version"], "the held window closed"
        assert self.frames.state is not None and self.frames.state["version"] == held["version"]
        self.shot("05-window.png")
        self.window = (first, second, WINDOW_SECONDS)
        self.errors_seen = len(self.frames.errors)
        self.clicked = (st["version"], time.monotonic())
        self.page.locator('#window-panel button.action[data-text="pass"]').click()
        self.moves += 1
        return True

    def crash_and_restart(self, before: Msg) -> None:
        """kill -9 the server while the game waits on the person; the page must come back by itself. The
        server comes back in this process on a clock the test moves (`Server.restart_clocked`), for the
        window the test then holds."""
        sockets = self.frames.sockets
        crashed = self.server
        crashed.crash()
        banner = self.page.locator("#conn-status")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("Reconnecting")
        self.shot("07-server-down.png")
        self.server = crashed.restart_clocked()
        expect(banner).to_be_hidden()
        crashed.down = False

        def back() -> bool:
            after = self.snapshot()
            return self.frames.sockets > sockets and bool(after["buttons"]) and not after["pending"]

        page_until(self.page, back, "a state after reconnecting")
        after = self.snapshot()
        assert after["turn"] == before["turn"], (before["turn"], after["turn"])
        assert after["hand"] == before["hand"], (before["hand"], after["hand"])
        assert {b["text"] for b in after["buttons"]} == {b["text"] for b in before["buttons"]}
        assert after["logLines"] == before["logLines"], "the narration was not rebuilt as it was"
        self.restarted = True
        self.shot("08-after-restart.png")
        self.page.set_viewport_size(PHONE)
        self.page.wait_for_timeout(200)  # a moment to lay the page out again before the pictures (nothing is checked)
        self.shot("09-phone-table.png")
        self.shot("09-phone-table-full.png", full_page=True)
        self.page.set_viewport_size(DESKTOP)
        self.phone = True


# ---------------------------------------------------------------------- the test
def create_table(
    page: Page,
    base: str,
    sets: tuple[str, ...] = ("deluxe",),
    prefix: str = "",
    sexes: tuple[str | None, ...] = (),
    houses: tuple[str | None, ...] = (),
) -> str:
    """Fill in the lobby's form as a person would and open the person's join link; returns it."""
    page.goto(base + "/")
    expect(page.locator("#set-deluxe")).to_be_checked()
    for box in page.locator('input[name="set"]').all():
        box.set_checked(box.get_attribute("value") in sets)
    page.fill("#table-name", "End to end")
    page.select_option("#seat-count", "4")
    expect(page.locator(".seat-row")).to_have_count(4)
    page.select_option("#seat-kind-1", "bot")
    for seat, strength in STRENGTHS.items():
        page.select_option(f"#seat-strength-{seat}", strength)
    for seat, name in enumerate(NAMES):
        expect(page.locator(f"#seat-name-{seat}")).to_have_value(name)
    for seat, sex in enumerate(sexes):
        if sex:
            page.select_option(f"#seat-sex-{seat}", sex)
    for seat, house in enumerate(houses):
        if house:
            page.select_option(f"#seat-house-{seat}", house)
    expect(page.locator("#bot-delay")).to_be_hidden()  # folded under "More options", with the other rarer ones
    page.click("#more-options > summary")
    page.fill("#bot-delay", str(BOT_DELAY))
    expect(page.locator("#window-seconds")).to_have_value("15")  # the lobby's default: time to read
    page.fill("#window-seconds", str(WINDOW_SECONDS))
    page.fill("#seed", str(SEED))
    page.screenshot(path=str(ARTIFACTS / f"{prefix}01-lobby.png"), full_page=True)
    page.click("#create-table")
    link = page.locator('#created-links a.join-link[data-seat="0"]')
    expect(link).to_be_visible()
    expect(page.locator("#created-links a.join-link")).to_have_count(1)
    expect(page.locator("#created-links")).to_contain_text("is ready")
    expect(link).to_be_in_viewport()  # the page scrolls the links into view (smoothly): wait for it to stop
    page.wait_for_function(
        "() => new Promise((ok) => { const y = scrollY; setTimeout(() => ok(scrollY === y), 150); })", polling=50
    )
    page.screenshot(path=str(ARTIFACTS / f"{prefix}02-created-links.png"))
    href = link.get_attribute("href")
    assert href and "seat=0&token=" in href, href
    link.click()
    page.wait_for_url(href)
    return href


@contextlib.contextmanager
def watched_browser(server: Server, expected: str = "") -> Iterator[Page]:
    """Chromium with one desktop-sized page: a failure saves the page for a look, and any console
    error or uncaught exception (but those containing `expected`, if given) fails the test when it is over."""
    console: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = watched_page(browser, console)
            try:
                yield page
            except BaseException:
                save_failure(page, console, server)
                raise
        finally:
            browser.close()
    console = [m for m in console if not expected or expected not in m]
    assert not console, "the browser logged errors:\n" + "\n".join(console)


def watched_page(browser: Browser, console: list[str]) -> Page:
    """A desktop-sized page whose console errors and uncaught exceptions are collected in `console`."""
    page = patient(browser.new_page(viewport=DESKTOP))
    page.on("console", lambda m: console.append(f"console.error: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
    return page


def save_failure(page: Page, console: list[str], server: Server) -> None:
    try:
        page.screenshot(path=str(ARTIFACTS / "failure.png"), full_page=True)
    except Exception:  # noqa: BLE001 - the page may be gone
        pass
    (ARTIFACTS / "failure-console.txt").write_text("\n".join(console) + "\n")
    (ARTIFACTS / "failure-server.log").write_text(server.log_tail())


def test_one_person_against_three_bots_in_the_browser(server: Server) -> None:
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in [*ARTIFACTS.glob("[0-9][0-9]-*.png"), *ARTIFACTS.glob("failure.*"), *ARTIFACTS.glob("failure-*")]:
        old.unlink()  # this test's files from an earlier run, and nothing else in the folder
    console: list[str] = []  # every console message of type error, and every page error
    frames = Frames()

    def on_console(kind: str, text: str) -> None:
        if kind == "error":
            console.append(f"console.error{' (server down)' if server.down else ''}: {text}")

    started = time.monotonic()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = patient(browser.new_page(viewport=DESKTOP))
            page.on("console", lambda m: on_console(m.type, m.text))
            page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
            page.on("websocket", frames.attach)
            try:
                create_table(page, server.url)
                expect(page.locator("#conn-status")).to_be_hidden()
                expect(page.locator("#you-name")).to_have_text(NAMES[0])
                expect(page.locator("#hand .hand-card").first).to_be_visible()
                page.screenshot(path=str(ARTIFACTS / "03-first-state.png"))
                table = Table(page, frames, server)
                table.play()
                check_end(page, frames, server)
            except BaseException:
                save_failure(page, console, server)
                raise
        finally:
            browser.close()

    # (a) a combat, with both sides' strengths
    assert table.combat is not None, "no combat was seen"
    assert len(table.combat) == 2 and all(re.fullmatch(r"total -?\d+", t) for t in table.combat), table.combat
    # (b) a response window on the person's clock: counting down, then held by Wait!
    assert table.window is not None, "no response window waited on the person"
    # (c) a call for help
    assert table.asked is not None, "the person never asked for help"
    # the crash
    assert table.restarted and table.phone
    # no JavaScript errors; a WebSocket that cannot connect while the server is down is expected
    bad = [m for m in console if not (m.startswith("console.error (server down): WebSocket connection to"))]
    assert not bad, "the browser logged errors:\n" + "\n".join(bad)
    print(
        f"\ne2e: seed {SEED}, {table.moves} moves by the person, {frames.states} states, "
        f"{len(table.misses)} missed clicks, window {table.window}, asked {table.asked!r}, "
        f"{time.monotonic() - started:.1f} s"
    )


def check_end(
    page: Page,
    frames: Frames,
    server: Server,
    sets: tuple[str, ...] = ("deluxe",),
    prefix: str = "",
    sexes: tuple[str | None, ...] = (),
    houses: tuple[str | None, ...] = (),
) -> None:
    """(d) The end screen names the winner and links the replay, a munchkin-game/1 save."""
    end = page.locator("#end-screen")
    expect(end).to_be_visible()
    st = frames.state
    assert st is not None and st["view"]["over"]
    winners = [NAMES[s] for s in st["view"]["winners"]]
    assert winners, "the game hit the turn cap"
    expect(end.locator(".winners")).to_contain_text(" and ".join(winners))
    expect(end).to_contain_text("wins the game!" if len(winners) == 1 else "win the game!")
    replay = page.locator("#replay-link")
    expect(replay).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / f"{prefix}10-end-screen.png"))
    href = replay.get_attribute("href")
    assert href, "the replay link has no href"
    url = href if href.startswith("http") else server.url + href
    with urllib.request.urlopen(url, timeout=PATIENCE) as r:
        assert r.status == 200
        assert "attachment" in r.headers.get("Content-Disposition", "")
        body = r.read().decode()
    save = json.loads(body)
    assert save["format"] == "munchkin-game/1"
    assert save["setup"]["players"] == NAMES and save["setup"]["seed"] == SEED
    assert save["setup"]["sets"] == list(sets)
    game = Game.from_json(body)
    assert game.over and [NAMES[s] for s in game.winners] == winners
    # the browser game is the game the policy plays offline: every click and every bot move as foreseen
    played = [e["raw"] for e in save["log"] if "act" in e]
    foreseen = play_offline(SEED, sets, sexes, houses)["actions"]
    differ = next((i for i, (a, b) in enumerate(zip(played, foreseen)) if a != b), min(len(played), len(foreseen)))
    assert played == foreseen, (
        f"the game went its own way from action {differ} of {len(played)} (offline: {len(foreseen)}): "
        f"{played[differ : differ + 3]} instead of {foreseen[differ : differ + 3]}"
    )


STAR = ("star",)


def test_the_seed_gives_the_star_game_what_it_checks() -> None:
    """Browserless: SEED also makes a Star Munchkin game where a Sidekick is played and a Trap is
    played from a hand (narrated with the edition's word), ending well in time."""
    out = play_offline(SEED, STAR)
    assert out["winners"] and out["turns"] < 60, out["turns"]
    assert out["sidekicks_seen"], "no Sidekick was played"
    assert any(" plays the Trap " in line for line in out["narration"]), "no Trap was played from a hand"


def edition_game_in_browser(
    server: Server,
    sets: tuple[str, ...],
    prefix: str,
    sexes: tuple[str | None, ...] = (),
    houses: tuple[str | None, ...] = (),
    log_text: str = " plays the Trap ",
) -> Table:
    """A whole game of another edition in the browser (one person, three bots) from the lobby's
    set choice to the end screen, a Trap in the narration and a replay that is exactly the game
    the policy plays offline; returns the seat's record of what it saw."""
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in ARTIFACTS.glob(f"{prefix}*"):
        old.unlink()
    frames = Frames()
    with watched_browser(server) as page:
        page.on("websocket", frames.attach)
        create_table(page, server.url, sets, prefix=prefix, sexes=sexes, houses=houses)
        expect(page.locator("#hand .hand-card").first).to_be_visible()
        table = Table(page, frames, server, prefix=prefix)
        table.restarted = table.phone = True  # the Deluxe test covers the crash and the phone
        table.window = (0.0, 0.0, 0.0)  # ... and the window's countdown
        table.play()
        expect(page.locator("#log")).to_contain_text(log_text)
        check_end(page, frames, server, sets, prefix=prefix, sexes=sexes, houses=houses)
    return table


def test_a_star_munchkin_game_in_the_browser(server: Server) -> None:
    """A whole game of Star Munchkin in the browser (one person, three bots): the lobby's set
    choice, Sidekicks on the players' table, Traps in the narration, the end screen and a replay
    that is exactly the game the policy plays offline."""
    table = edition_game_in_browser(server, STAR, "star-")
    assert table.sidekick_shown, "no Sidekick was ever shown on the players' table"


GOOD_BAD = ("good-bad",)
GOOD_BAD_SEXES = ("female", None, None, None)  # the person declares her character's sex in the lobby


def test_the_seed_gives_the_good_bad_game_what_it_checks() -> None:
    """Browserless: SEED also makes a game of the Good, the Bad, and the Munchkin where a Steed
    and an Item Enhancer are played and a Trap is played from a hand, ending well in time."""
    out = play_offline(SEED, GOOD_BAD, GOOD_BAD_SEXES)
    assert out["winners"] and out["turns"] < 80, out["turns"]
    assert out["steeds_seen"] and out["enhancers_seen"], (out["steeds_seen"], out["enhancers_seen"])
    assert any(" plays the Trap " in line for line in out["narration"]), "no Trap was played from a hand"


def test_a_good_bad_game_in_the_browser(server: Server) -> None:
    """A whole game of the Good, the Bad, and the Munchkin in the browser (one person, three bots):
    the lobby's set and sex choices, Steeds and Item Enhancers on the players' table, Traps in the
    narration, the end screen and a replay that is exactly the game the policy plays offline."""
    table = edition_game_in_browser(server, GOOD_BAD, "good-bad-", GOOD_BAD_SEXES)
    assert table.steed_shown, "no Steed was ever shown on the players' table"
    assert table.enhancer_shown, "no Item Enhancer was ever shown on the players' table"
    assert "female" in table.my_sex, f"the person's declared sex is not shown: {table.my_sex!r}"
    assert not table.race_row, "a Race row was shown in an edition without Races"


HARRY_POTTER = ("harry-potter",)
HARRY_POTTER_HOUSES = ("Slytherin", None, None, None)  # the person chooses a House in the lobby


def test_the_seed_gives_the_harry_potter_game_what_it_checks() -> None:
    """Browserless: SEED also makes a Harry Potter game where a Role and a Proficiency are played
    and a Curse is played from a hand, the turn told in this book's words, ending well in time."""
    out = play_offline(SEED, HARRY_POTTER, houses=HARRY_POTTER_HOUSES)
    assert out["winners"] and out["turns"] < 80, out["turns"]
    assert out["houses"][0] == "slytherin" and all(out["houses"])
    assert out["roles_seen"] and out["proficiencies_seen"], (out["roles_seen"], out["proficiencies_seen"])
    assert any(" curses " in line for line in out["narration"]), "no Curse was played from a hand"
    assert any(" unlocks the door: " in line for line in out["narration"])


def test_a_harry_potter_game_in_the_browser(server: Server) -> None:
    """A whole game of Munchkin Harry Potter Deluxe in the browser (one person, three bots): the
    lobby's set and House choices, the House on the player's card, Roles and Proficiencies on the
    players' table, Curses in the narration, the end screen and a replay that is exactly the game
    the policy plays offline."""
    table = edition_game_in_browser(
        server, HARRY_POTTER, "harry-potter-", houses=HARRY_POTTER_HOUSES, log_text=" curses "
    )
    assert table.my_house == "Slytherin", f"the person's House is not shown: {table.my_house!r}"
    assert table.role_shown, "no Role was ever shown on the players' table"
    assert table.proficiency_shown, "no Proficiencies row was ever shown on the players' table"
    assert not table.race_row, "a Race row was shown in an edition without Races"


# ---------------------------------------------------------------------- the lobby's list and the seed notice
def post_table(server: Server, name: str, kinds: tuple[str, ...], **fields: Any) -> Msg:
    """Create a table through the API as the lobby's form would; returns the server's answer."""
    body = {
        "name": name,
        "sets": ["deluxe"],
        "seats": [{"name": f"{kind.title()} {i + 1}", "kind": kind} for i, kind in enumerate(kinds)],
        **fields,
    }
    req = urllib.request.Request(
        server.url + "/api/tables", json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=PATIENCE) as r:
        answer: Msg = json.loads(r.read())
    return answer


def get_json(server: Server, path: str) -> Msg:
    with urllib.request.urlopen(server.url + path, timeout=PATIENCE) as r:
        out: Msg = json.loads(r.read())
    return out


def test_the_lobby_pages_filters_and_marks_seeded_deals(server: Server) -> None:
    """The lobby's list in pages (?limit=2 asks the API for pages of two), its status filter with the
    counts, the "Seeded deal" badge on a table whose creator chose the seed and none on another, a
    refused name's reason, polling answered by 304; the table page's notice for a seeded deal and its
    turn clock."""
    ensure_debian_packages("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    people = ("human", "human", "human")  # nobody joins: the tables wait, open, and never change
    seeded = post_table(server, "Seeded practice", people, seed=12345)["table"]
    unseeded = post_table(server, "Fair deal", people, turn_clock=30, away_seconds=60)["table"]
    bots = post_table(server, "Bots only", ("bot", "bot", "bot"), bot_delay=0, window_seconds=0.5)["table"]
    assert seeded["seed"] == 12345 and unseeded["seed"] is None, (seeded["seed"], unseeded["seed"])

    def over() -> bool:
        return get_json(server, f"/api/tables/{bots['id']}")["status"] == "over"

    until_sync(over, "the bots' game ending (then the list holds still)", step=0.2)

    lists: list[tuple[str, int]] = []  # (query, status) of each GET /api/tables
    with watched_browser(server, expected="status of 422") as page:  # the browser logs the refused name
        page.on(
            "response",
            lambda r: lists.append((r.url.partition("?")[2], r.status)) if "/api/tables?" in r.url else None,
        )
        page.goto(server.url + "/?limit=2")
        rows = page.locator("#tables .table-row")
        # newest first: the bots' table and the fair deal, then "More tables" for the seeded one
        expect(rows).to_have_count(2)
        expect(rows.locator("h3")).to_have_text(["Bots only", "Fair deal"])
        more = page.locator("#more-tables")
        expect(more).to_be_visible()
        expect(page.locator('label[for="filter-all"]')).to_contain_text("(3)")
        expect(page.locator('label[for="filter-open"]')).to_contain_text("(2)")
        expect(page.locator('label[for="filter-over"]')).to_contain_text("(1)")
        more.click()
        expect(rows).to_have_count(3)
        expect(more).to_be_hidden()
        row = page.locator(f'.table-row[data-table-id="{seeded["id"]}"]')
        badge = row.locator(".seed-badge")
        expect(badge).to_have_text(re.compile(r"Seeded deal · seed 12345"))
        expect(badge).to_have_attribute("title", re.compile("whoever knows the seed"))
        expect(page.locator(f'.table-row[data-table-id="{unseeded["id"]}"] .seed-badge')).to_have_count(0)
        expect(page.locator(f'.table-row[data-table-id="{bots["id"]}"] .seed-badge')).to_have_count(0)
        page.screenshot(path=str(ARTIFACTS / "lobby-list.png"), full_page=True)
        # the list holds still: the next poll sends If-None-Match and gets 304
        page_until(page, lambda: any(status == 304 for _, status in lists), f"a 304 for the polls: {lists}")
        expect(rows).to_have_count(3)  # a 304 keeps the list as it was, the added page included

        page.locator('label[for="filter-open"]').click()
        expect(rows.locator("h3")).to_have_text(["Fair deal", "Seeded practice"])
        page.locator('label[for="filter-over"]').click()
        expect(rows.locator("h3")).to_have_text(["Bots only"])
        expect(rows.first).to_contain_text("Game over")
        page.locator('label[for="filter-all"]').click()
        expect(rows).to_have_count(2)  # the first page again
        assert any("status=open" in q for q, _ in lists) and any("after=" in q for q, _ in lists), lists

        # a refused name: the server's reason, shown as it is
        page.fill("#table-name", "Invisible\u200bink")
        page.click("#create-table")
        alert = page.locator("#lobby-error")
        expect(alert).to_be_visible()
        expect(alert).to_contain_text("the server refused the table")

        # the table page: the seeded table's notice; the other table's turn clock and no notice
        page.goto(server.url + f"/table/{seeded['id']}")
        notice = page.locator("#seed-notice")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("seed 12345")
        expect(notice).to_contain_text("whoever knows the seed")
        expect(page.locator("#turn-clock-fact")).to_be_hidden()
        page.screenshot(path=str(ARTIFACTS / "table-seed-notice.png"))
        page.goto(server.url + f"/table/{unseeded['id']}")
        expect(page.locator("#conn-status")).to_be_hidden()
        expect(page.locator("#turn-clock")).to_have_text("30 s")
        expect(page.locator("#seed-notice")).to_be_hidden()
