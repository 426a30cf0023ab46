"""A table in play: the game, its bots, its response-window clock, and the seats and
spectators watching it. Everything runs on the server's event loop, one task per table."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import multiprocessing
import os
import random
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass
from typing import Any, Protocol, TypeVar

from munchkin.agents.base import Agent, decide, interjection, make_agent
from munchkin.agents.observation import observe
from munchkin.agents.registry import TIERS, resolve
from munchkin.cards.loader import add_set_dir, load_set, origin_problem, set_dir_origins, set_dirs
from munchkin.engine import actions as A
from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.cards import card_version
from munchkin.engine.chance import Chance, RecordedChance, SystemChance
from munchkin.engine.fair import deal
from munchkin.engine.game import RULES, WINNING_LEVEL, Game, Options, Setup, declared_sexes
from munchkin.engine.notation import parse
from munchkin.engine.state import CHARITY, CURSE_WINDOW, END_WINDOW, ROLLED, WINDOW
from munchkin.engine.view import narrate
from munchkin.menu import build_menu
from munchkin.server.chat import (
    CHAT_HISTORY,
    CHAT_KEPT,
    CHAT_MAX_CHARS,
    MAX_SPEAKERS,
    PHRASES,
    ChatRefused,
    Talk,
    may_read,
    move_words,
    slow_down,
)
from munchkin.server.clock import Clock
from munchkin.server.fairness import (
    clean_entropy,
    fair_chance,
    new_fair_record,
    public_fair,
    record_problem,
    revealed_fair,
)
from munchkin.server.fights import FightWatch
from munchkin.server.guard import clean_text
from munchkin.server.store import DamagedTable, SeatRow, Store, TableRow, now, token_hash
from munchkin.server.waiting import end_tasks, finish_tasks
from munchkin.story import game_story

log = logging.getLogger("munchkin.server")
T = TypeVar("T")

WINDOW_KINDS = frozenset({WINDOW, CURSE_WINDOW, ROLLED, END_WINDOW})
MAX_MESSAGE = 4096
BURST = 20  # messages a client may send at once
RATE = 10.0  # messages a second, sustained
BOT_BURST = 40  # bot actions between two commits, so that one table never holds up the others
# and a burst's time: the loop serves every socket between two bursts, so a burst this short keeps a ping
# under a few milliseconds of waiting even with a hundred bot tables playing flat out
BOT_BURST_SECONDS = 0.004
MAX_OUTBOX = 32  # replies waiting for a client that does not read them; past it the client is dropped
CHANCE_KINDS = frozenset({"shuffle", "roll", "pick"})  # the log entries that record a chance outcome
AWAY_SECONDS = 120.0  # default: how long a person may be away before a bot plays their seat
JOIN_SECONDS = 30.0  # default: how long a seat nobody has opened waits, once someone sat down, before a bot plays it
MAX_HOLD_SECONDS = 60.0  # longest a Wait! holds a window on a table without a turn clock; then the holder passes
STOP_SECONDS = 5.0  # `TableRunner.stop`: how long each of its steps may take (it returns within 3x this)


_replay_pool: ProcessPoolExecutor | None = None
_bot_pool: ProcessPoolExecutor | None = None


def bot_pool() -> ProcessPoolExecutor:
    """Worker processes, started on first use, in which the bots that think long (the Medium and Hard
    tiers) choose their moves, so that the server's event loop never waits on a search; as many as
    there are cores but one (at least one), each registering the server's set folders first."""
    global _bot_pool
    if _bot_pool is None:
        _bot_pool = ProcessPoolExecutor(
            max_workers=max(1, (os.cpu_count() or 2) - 1),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_follow_parent,
            initargs=(os.getpid(), [str(path) for path in set_dirs().values()]),
        )
    return _bot_pool


def think(spec: str, dice: str, memory: Any, g: Game, seat: int, legal: list[Action]) -> tuple[Action, Any]:
    """In a bot worker: the move of a bot of `spec` for `seat` among `legal`, its dice seeded from
    `dice` and its memory of the turn as the server's copy of it holds it; with its memory after."""
    for name in g.setup.sets:  # the sets' card hooks are registered when a set is first loaded here
        load_set(name)
    agent = make_agent(spec, 0)
    _seed_dice(agent, dice)
    restore = getattr(agent, "restore", None)
    if restore is not None:
        restore(memory)
    a = decide(agent, g, seat, legal)
    recall = getattr(agent, "memory", None)
    return a, recall() if recall is not None else None


def _seed_dice(agent: Agent, dice: str) -> None:
    rng = getattr(agent, "rng", None)
    if isinstance(rng, random.Random):
        rng.seed(dice)


def replay_pool() -> ProcessPoolExecutor:
    """One worker process, started on first use, that makes finished games' saves; it registers the
    designers' set folders registered here then (`munchkin serve --set-dir`), so it deals the same cards."""
    global _replay_pool
    if _replay_pool is None:
        _replay_pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_follow_parent,
            initargs=(os.getpid(), [str(path) for path in set_dirs().values()]),
        )
    return _replay_pool


def _follow_parent(parent: int, folders: list[str] | None = None) -> None:
    """In the worker: end when the server does, even when it was killed (no orphan left behind);
    register the server's set folders first."""
    for folder in folders or []:
        add_set_dir(folder)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()


def make_replay(
    setup: Setup, game_log: list[tuple[Any, ...]], rules: int = RULES, fair: dict[str, Any] | None = None
) -> str:
    """A finished game's `munchkin-game/1` save, rebuilt from its setup and log under the rules it was
    played with (in the worker process); a fair table's save reveals its record (`with_fair`)."""
    return with_fair(Game.from_log(setup, game_log, rules).to_json(), fair)


def with_fair(save: str, fair: dict[str, Any] | None) -> str:
    """A save with a fair table's record added under "fair" (its secret revealed: the game is over),
    for `munchkin verify`; a save of any other table as it is."""
    if fair is None:
        return save
    data = json.loads(save)
    data["fair"] = revealed_fair(fair)
    return json.dumps(data)


async def in_worker(call: Callable[..., T], *args: Any) -> T:
    """`call(*args)` in the worker process, awaited; a worker that died is started again once."""
    global _replay_pool
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(replay_pool(), call, *args)
    except BrokenProcessPool:
        log.warning("the replay worker died: starting another")
        _replay_pool = None
        return await loop.run_in_executor(replay_pool(), call, *args)


def replay_game(
    setup: Setup,
    rules: int,
    actions: list[list[Any]],
    chance: list[list[Any]],
    before: Callable[[Game, Action], None] | None = None,
    draw: Chance | None = None,
) -> Game:
    """A table's game rebuilt from its stored actions and chance outcomes (a seeded table draws them
    again from its seed, a fair one from `draw`, its generator, and must draw the same), under the rules
    it began with; `before(game, action)` runs before each action. Raises DamagedTable naming what does
    not fit."""
    recorded = RecordedChance(chance, then=SystemChance()) if setup.seed is None and draw is None else None
    g = Game(setup, draw if draw is not None else recorded, max(rules, 2))  # the table's rules (1 replays as 2)
    for i, raw in enumerate(actions):
        if len(raw) != len(Action._fields):
            raise DamagedTable(f"stored action {i} has {len(raw)} fields, not {len(Action._fields)}")
        raw[5] = tuple(raw[5])
        a = Action(*raw)
        if before is not None:
            before(g, a)
        try:
            g.apply_stored(a, rules)  # a table begun under older rules replays under them
        except MunchkinError as exc:
            raise DamagedTable(f"stored action {i} does not replay: {exc}") from exc
    drawn = [list(e) for e in g.log if e[0] in CHANCE_KINDS]
    if recorded is not None and len(drawn) > len(chance):
        raise DamagedTable(f"{len(drawn) - len(chance)} chance outcomes are missing from the database")
    if recorded is not None and recorded.remaining:
        raise DamagedTable(f"{recorded.remaining} stored chance outcomes were never drawn in the replay")
    if (chance or draw is not None) and json.loads(json.dumps(drawn)) != chance:
        raise DamagedTable("the replay drew other chance outcomes than the stored ones")
    return g


def finished_game(setup: Setup, rules: int, actions: list[list[Any]], chance: list[list[Any]]) -> Game:
    """A finished table's game from its stored rows; DamagedTable if they do not make a finished game."""
    g = replay_game(setup, rules, actions, chance)
    if not g.over:
        raise DamagedTable("its stored actions end before the game does")
    return g


def rebuild_save(
    setup: Setup, rules: int, actions: list[list[Any]], chance: list[list[Any]], fair: dict[str, Any] | None = None
) -> str:
    """In the worker process: a finished game's `munchkin-game/1` save, made from its stored rows (a fair
    table's with its record, `with_fair`)."""
    return with_fair(finished_game(setup, rules, actions, chance).to_json(), fair)


@dataclass
class FinishedGame:
    """A finished game as its watchers see it, made in the worker process so that the server never
    replays a game itself: each seat's body (and a spectator's, under None), narration and the story."""

    version: int
    bodies: dict[int | None, str]
    lines: dict[int | None, list[str]]
    story: dict[str, Any]


def rebuild_finished(setup: Setup, rules: int, actions: list[list[Any]], chance: list[list[Any]]) -> FinishedGame:
    """In the worker process: what a finished table shows each seat and its spectators."""
    g = finished_game(setup, rules, actions, chance)
    seats: list[int | None] = [None, *range(len(g.players))]
    return FinishedGame(
        g.version, {s: seat_body(g, s) for s in seats}, {s: narrate(g, s, 0) for s in seats}, game_story(g)
    )


def seat_body(g: Game, seat: int | None) -> str:
    """The part of a state message that follows from the game alone (JSON): the seat's view, its
    actions and their menu (a spectator, seat None, gets the public view and no actions)."""
    view = g.view(seat)
    view.pop("legal", None)  # sent as `actions`, with their cards and any-time flags
    view.pop("any_time", None)
    actions: list[dict[str, Any]] = []
    if seat is not None and not g.over:  # a seat not waited on may still act at any time
        anytime = set(g.any_time(seat))
        for a in g.legal_actions(seat):
            cards = [x for x in (a.card, a.monster, *a.cards) if x >= 0]
            whim = g.rearranges(a)  # only rearranges the seat's own things: no card of use now (the page's mark)
            actions.append({"text": g.text(a), "kind": a.kind, "cards": cards, "any_time": a in anytime, "whim": whim})
    menu = build_menu(g, seat, view).to_json() if actions and seat is not None else None
    return json.dumps({"view": view, "actions": actions, "menu": menu})


class Socket(Protocol):
    async def send_text(self, data: str) -> None: ...


class Client:
    """One WebSocket at a table: a seat (or None for a spectator) and what it has been sent."""

    def __init__(
        self,
        ws: Socket,
        seat: int | None,
        burst: int = BURST,
        rate: float = RATE,
        device: bool = False,
        address: str = "",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ws = ws
        self.clock = clock  # the table's monotonic clock: the message bucket refills by it
        self.address = address  # the client's address key: a spectator's chat is rate-limited by it
        self.seat = seat  # on a pass-and-play device: the seat claimed now, None between two people
        self.device = device  # a pass-and-play table's device link: plays every person seat, one at a time
        self.burst, self.rate = burst, rate
        self.event_pos = 0  # engine events narrated so far
        self.lines = 0  # narration lines sent so far
        self.fight_sent = -1  # the last fight sent (its first event), so that it is sent once
        self.chat_next: int | None = None  # the chat line to send from (None: the history it may read)
        self.dirty = True
        self.outbox: deque[str] = deque()
        self.wake = asyncio.Event()
        self.wake.set()
        self.tokens = float(burst)
        self.refill_at = clock()
        self.refused = 0
        self.complained_at = -1.0
        self.task: asyncio.Task[None] | None = None
        self.dropped = ""  # why the server is dropping this client ("" while it is not)
        self.handler: asyncio.Task[Any] | None = None  # the task reading this client's socket

    def allow(self) -> bool:
        """Token bucket: BURST at once, RATE a second after that."""
        t = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (t - self.refill_at) * self.rate)
        self.refill_at = t
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False

    def may_complain(self) -> bool:
        """Tell a flooder its messages are refused, but at most a few times a second."""
        t = self.clock()
        if t - self.complained_at < 0.2:
            return False
        self.complained_at = t
        return True

    def send(self, msg: dict[str, Any]) -> None:
        """Queue a reply; a client that lets MAX_OUTBOX of them pile up unread is dropped (its socket
        closes), so a client that never reads cannot grow the server's memory."""
        if self.dropped:
            return
        if len(self.outbox) >= MAX_OUTBOX:
            self.drop(f"{MAX_OUTBOX} replies waited unread")
            return
        self.outbox.append(json.dumps(msg))
        self.wake.set()

    def touch(self) -> None:
        self.dirty = True
        self.wake.set()

    def drop(self, why: str) -> None:
        """Stop serving this client: its writer and its reader end, and so its socket closes."""
        if self.dropped:
            return
        self.dropped = why
        self.outbox.clear()
        for task in (self.task, self.handler):
            if task is not None and task is not asyncio.current_task():
                task.cancel()


class TableBots:
    """The bots of one table (seat -> tier), seeded from the table's bot seed, and the manners they
    keep: a bot offers each other seat at most one trade or gift a turn, since a person must answer
    every offer by hand. The tiers that think long (`heavy`) choose in a worker process (`think`)."""

    def __init__(self, strengths: dict[int, str], seed: int) -> None:
        self.seed = seed
        self.specs = {s: resolve(k if k != "heuristic" else "easy") for s, k in strengths.items()}
        self.agents: dict[int, Agent] = {s: make_agent(k, seed * 7919 + s) for s, k in self.specs.items()}
        self.heavy = {s for s, k in strengths.items() if k in TIERS and TIERS[k].heavy}
        self.stand_ins: dict[int, Agent] = {}  # people's seats a bot has played while they were away
        self.offered: set[tuple[int, int, int]] = set()  # (turn, bot, other seat)

    def __contains__(self, seat: object) -> bool:
        return seat in self.agents

    def stand_in(self, seat: int) -> None:
        """Let an Easy bot (the heuristic, fast enough to play on the loop) play a person's seat from now on
        (until `stand_in` is no longer asked)."""
        if seat not in self.agents and seat not in self.stand_ins:
            self.stand_ins[seat] = make_agent("heuristic", self.seed * 7919 + seat)

    def thinks_long(self, g: Game, seat: int) -> bool:
        """Whether this seat's bot chooses its move now in a worker process (a search it may run at
        this decision), not on the event loop."""
        if seat not in self.heavy:
            return False
        searches = getattr(self.agents[seat], "searches_at", None)
        pr = g.prompt
        return searches is None or bool(searches(pr.kind, getattr(pr, "stage", ""), g.active == seat))

    def interjection(self, g: Game) -> Action | None:
        """An any-time action a bot takes now while the game waits on another seat (its choice is
        a pure function of what the seat sees, so a restarted server plays on unchanged), else None."""
        return interjection(g, self.agents)

    def _dice(self, g: Game, seat: int) -> str:
        """The seed of a bot's dice for this position: the table, the seat and the game's version, so
        the same position always gets the same answer and a restarted server plays on unchanged."""
        return f"{self.seed}:{seat}:{g.version}"

    def _kept(self, g: Game, seat: int) -> list[Action]:
        """The legal actions a bot may take, its manners kept (no second offer to a seat this turn)."""
        legal = g.legal_actions(seat)
        hand = g.players[seat].hand if g.prompt.kind == CHARITY else ()  # Charity's gifts are no offers
        kept = [
            a
            for a in legal
            if not (a.kind in (A.GIVE, A.TRADE) and a.card not in hand and (g.turn, seat, a.target) in self.offered)
        ]
        extra = set(g.any_time(seat))
        if all(a in extra for a in kept):  # nothing left that answers the game: the manners give way
            kept = legal
        return kept

    def _noted(self, g: Game, seat: int, a: Action) -> Action:
        hand = g.players[seat].hand if g.prompt.kind == CHARITY else ()
        if a.kind in (A.GIVE, A.TRADE) and a.target >= 0 and a.card not in hand:  # an offer someone answers
            self.offered.add((g.turn, seat, a.target))
        return a

    def choose(self, g: Game, seat: int) -> Action:
        """The bot's action, chosen here (see `_dice` for its dice)."""
        agent = self.agents.get(seat) or self.stand_ins[seat]
        _seed_dice(agent, self._dice(g, seat))
        return self._noted(g, seat, decide(agent, g, seat, self._kept(g, seat)))

    def recall(self, g: Game, seat: int) -> None:
        """Go through a decision the bot took before a restart, so that what it remembers of the turn
        comes back: a bot that thinks long only recalls (its search is not run again)."""
        agent = self.agents.get(seat) or self.stand_ins.get(seat)
        recall = getattr(agent, "recall", None)
        if agent is None or recall is None:
            self.choose(g, seat)
            return
        _seed_dice(agent, self._dice(g, seat))
        kept = self._kept(g, seat)
        obs = observe(g, seat, kept)
        try:
            recall(obs)
        finally:
            obs.close()

    def job(self, g: Game, seat: int) -> tuple[str, str, Any, Game, int, list[Action]]:
        """What a worker needs to choose this bot's move (`think`): a copy of the game without its log."""
        agent = self.agents[seat]
        memory = getattr(agent, "memory", None)
        kept = self._kept(g, seat)
        return (
            self.specs[seat],
            self._dice(g, seat),
            memory() if memory is not None else None,
            g.clone(False),
            seat,
            kept,
        )

    def took(self, g: Game, seat: int, a: Action, memory: Any) -> Action:
        """A worker's move for this bot: its memory of the turn kept, its offer noted."""
        restore = getattr(self.agents[seat], "restore", None)
        if restore is not None:
            restore(memory)
        return self._noted(g, seat, a)


class TableRunner:
    """Runs one game: applies people's actions, plays the bots, times the response windows,
    commits every action before telling anyone of it, and keeps each client up to date."""

    def __init__(
        self,
        row: TableRow,
        store: Store,
        turn: asyncio.Lock | None = None,
        fresh: bool = False,
        clock: Clock | None = None,
    ) -> None:
        self.row = row
        self.clock = clock or Clock()  # the time of its countdowns, stand-ins, holds and bot delays
        self.turn = turn or asyncio.Lock()  # shared by a server's tables: one bot burst at a time
        self.id = row.id
        self.store = store
        cfg = row.config
        self.window_seconds = float(cfg["window_seconds"])
        self.allow_wait = bool(cfg.get("allow_wait", True))  # may a person hold a window by saying Wait!
        self.bot_delay = float(cfg["bot_delay"])
        self.away_seconds = float(cfg.get("away_seconds", AWAY_SECONDS))
        self.join_seconds = float(cfg.get("join_seconds", JOIN_SECONDS))
        clock = cfg.get("turn_clock")
        self.turn_clock: float | None = None if clock is None else float(clock)
        seed = cfg.get("seed")
        self.seed: int | None = None if seed is None else int(seed)
        self.seed_chosen = bool(cfg.get("seed_chosen", False))
        fair = cfg.get("fair")  # a fair table's record (fairness.py): None for a chosen seed or an older table
        problem = None if fair is None else record_problem(fair, len(row.seats))
        if problem:
            raise DamagedTable(problem)
        self.fair: dict[str, Any] | None = fair
        # the cards are dealt: a fair table waits for its people's entropy first (see `_await_deal`)
        self.dealt = self.fair is None or bool(self.fair.get("dealt"))
        self.first_seated: float | None = None  # when a person first sat here (monotonic): the window's clock
        self.config_lock = asyncio.Lock()  # a fair table's config writes (entropy, then the deal) in order
        self.config_writes = 0  # such writes not yet stored: nobody hears of them before they are
        self.setup = table_setup(row)
        self.rules = table_rules(row)
        self.humans = frozenset(s.seat for s in row.seats if s.kind == "human")
        self.pass_and_play = bool(cfg.get("pass_and_play"))  # one device plays every person seat (`claim`)
        self.device_hash = str(cfg.get("device_hash") or "")
        bot_seed = cfg.get("bot_seed", self.seed)
        if bot_seed is None:
            raise DamagedTable("its config has neither a seed nor a bot seed")
        self.bots = TableBots({s.seat: s.strength for s in row.seats if s.kind == "bot"}, int(bot_seed))
        self.thinker: int | None = None  # a bot seat whose move is to be chosen in a worker next
        self.stored = 0  # actions in the database
        self.stored_chance = 0  # chance outcomes in the database
        self.log_pos = 0  # entries of the game's log already stored
        self.clients: set[Client] = set()
        self.changed_at = time.time()  # wall time of the last committed change, for latency figures
        self.decided_at = self.clock.monotonic()  # when the game began waiting on its current decision
        self.committed_version = -1
        self.deadline: float | None = None  # monotonic time a response window closes (None: no countdown)
        self.bots_wait_until = (
            0.0  # after a person's move, a bot's own move waits `bot_delay` (time to act at any time)
        )
        self.window_prompt: tuple[str, frozenset[int]] | None = None  # the window's kind and seats on its clock
        self.held_by: list[int] = []  # seats holding the window now (they said Wait!), in the order they said it
        self.waited: set[int] = set()  # seats that have said Wait! in this round of the window
        self.paused_left: float | None = None  # seconds the countdown had left when the window was held
        self.hold_until: dict[int, float] = {}  # holder -> monotonic time their hold ends and they pass
        self.away_since: dict[int, float] = {s: self.clock.monotonic() for s in self.humans}  # seats nobody is at
        self.shown_stand_ins: frozenset[int] = frozenset()  # the stand-ins everyone has been told of
        self.called_in: set[int] = set()  # absent people's seats someone at the table asked a bot to play now
        self.wake = asyncio.Event()
        # batches of moves staged for the database, written one after another on its thread
        self.unwritten: deque[tuple[tuple[Any, ...], tuple[str, int, list[str]]]] = deque()
        self.writer: asyncio.Task[None] | None = None
        self.flushed = asyncio.Event()  # set while nothing waits to be written
        self.flushed.set()
        self.uncommitted = 0  # bot moves made since the last commit (unwatched tables store them in batches)
        self.on_change: Callable[[], None] = lambda: None  # the hub's: what the lobby lists has changed
        self.background: set[asyncio.Future[Any]] = set()  # database calls nobody waits for
        self.task: asyncio.Task[None] | None = None
        self.replay_task: asyncio.Task[str | None] | None = None
        self.failed = ""
        self.broken = False  # the stored game could not be rebuilt: there is no game to show
        self.unreplayed = not fresh  # a table from the database: its game is rebuilt on first use
        self._view_cache: dict[int | None, tuple[int, str]] = {}
        self._story: dict[str, Any] | None = None  # the finished game's story (munchkin.story), told once
        self.fights = FightWatch()  # the fight being played, and the last one over (fights.py)
        # table talk (chat.py): on or off, and whether people read spectators' lines (else spectators alone do)
        self.chat_on = bool(cfg.get("chat", True))
        self.spectator_chat = bool(cfg.get("spectator_chat", True))
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)  # the newest lines, to send
        self.chat_count = 0  # lines said at this table (the next line's `n`)
        self.chat_written = 0  # lines stored, so shown: every line below this `n`
        self.chat_unwritten: deque[dict[str, Any]] = deque()
        self.chat_writer: asyncio.Task[None] | None = None
        self.talk = Talk(clock=self.clock.monotonic)
        self.spectator_names: dict[str, str] = {}  # a spectator's address key -> "Spectator N"
        self.spectator_next = 1  # N of the next spectator to talk
        self.game: Game  # set once the cards are dealt (`dealt`)
        if fresh:  # a new table: its deal is stored with its row (`Store.create_table(row, deal_chance())`)
            if self.dealt:
                self.game = Game(self.setup, rules=self.rules)  # the rules its config names
                self.log_pos = len(self.game.log)
                self.stored_chance = len(self.deal_chance())
            elif not self.humans:  # nobody to give entropy: the window is closed as it opens
                self.deal_game()
            else:  # dealt later; a setup that cannot be dealt is refused now, on a deal thrown away
                Game(self.setup, SystemChance(), self.rules)

    def deal_chance(self) -> list[list[Any]]:
        """The chance outcomes drawn so far (a new table's deal), as stored."""
        return [list(e) for e in self.game.log[: self.log_pos] if e[0] in CHANCE_KINDS]

    # ------------------------------------------------------------------ a fair table's deal
    def deal_game(self) -> None:
        """Deal a fair table's cards from its generator, keyed by the secret and the entropy given now
        (`engine.fair.deal`: undeclared sexes, then Houses, then the decks), and note in its config the
        sexes and Houses drawn, what was declared, and that it is dealt. Stores nothing (`_deal` does)."""
        assert self.fair is not None and not self.dealt
        cfg = self.row.config
        declared = {"sexes": cfg.get("sexes"), "houses": cfg.get("houses")}
        g = deal(self.setup, fair_chance(self.fair), self.rules)
        cfg["sexes"], cfg["houses"] = g.setup.sexes, g.setup.houses
        self.fair["declared"] = declared
        self.fair["dealt"] = True
        self.setup = g.setup
        self.game = g
        self.dealt = True
        self.log_pos = len(g.log)
        self.stored_chance = len(self.deal_chance())
        self.committed_version = g.version
        self.decided_at = self.clock.monotonic()

    def _deal_due(self) -> float | None:
        """When the entropy window closes (monotonic): now (-inf) once every person's seat has given its
        entropy or has a bot called in for it, else when the last seat still missing stops being waited
        for: a seat nobody has opened `join_seconds` after a person first sat down (its first-join grace),
        any other `away_seconds` after; None while nobody has sat down."""
        assert self.fair is not None
        entropy = self.fair["entropy"]
        missing = [s for s in self.humans if entropy[s] is None and s not in self.called_in]
        if not missing:
            return -math.inf
        if self.first_seated is None:
            return None
        unjoined = min(self.join_seconds, self.away_seconds)
        grace = [unjoined if not self.row.seats[s].claimed else self.away_seconds for s in missing]
        return self.first_seated + max(grace)

    async def _await_deal(self) -> None:
        """Wait for the entropy window to close, then deal and store the deal (`_deal`); meanwhile tell
        everyone when a bot comes in for a seat, which the deal then no longer waits for."""
        while not self.dealt and not self.failed:
            due = self._deal_due()
            if due is not None and due <= self.clock.monotonic():
                await self._deal()
                return
            wake_at = [t for t in (due, self._next_stand_in_time()) if t is not None]
            await self.clock.wait(self.wake, min(wake_at) if wake_at else None)
            self.wake.clear()
            self._tell_stand_ins()

    async def _deal(self) -> None:
        """Deal, and store the config (entropy final, sexes and Houses drawn) with the deal's chance
        outcomes in one transaction, after any entropy still being written; nobody sees the cards before."""
        before = json.loads(json.dumps(self.row.config))
        self.config_writes += 1
        try:
            self.deal_game()
            config, chance = json.loads(json.dumps(self.row.config)), self.deal_chance()
            async with self.config_lock:
                await self.store.run(self.store.set_config, self.id, config, chance)
        except Exception as exc:  # the table stops undealt; a restart deals the same cards from the same key
            log.error("table %s: the deal could not be made or stored: %s", self.id, type(exc).__name__)
            self.failed = f"the deal could not be stored ({type(exc).__name__})"
            self.row.config.clear()
            self.row.config.update(before)
            self.fair = self.row.config["fair"]
            self.setup = table_setup(self.row)
            self.dealt = False
        finally:
            self.config_writes -= 1
        self._touch_all()
        self.on_change()
        self.wake.set()

    def give_entropy(self, seat: int, value: Any) -> None:
        """A person's entropy for a fair table's deal: checked (`clean_entropy`), final once given, public,
        and taken only before the cards are dealt. Raises MunchkinError (nothing changed) otherwise."""
        if self.failed:
            raise MunchkinError(f"this table has stopped: {self.failed}")
        if self.fair is None:
            raise MunchkinError("this table was dealt from a chosen seed (or before fair deals): it takes no entropy")
        if self.dealt:
            raise MunchkinError("the cards are dealt already: entropy can no longer be added")
        if seat not in self.humans:
            raise MunchkinError("only a person's seat gives entropy")
        if self.fair["entropy"][seat] is not None:
            raise MunchkinError("your entropy is given already, and it is final")
        self.fair["entropy"][seat] = clean_entropy(value)
        if not _loop_running():  # a test driving the table by hand: store at once
            self.store.set_config(self.id, self.row.config)
            self._touch_all()
            self.wake.set()
            return
        self.config_writes += 1

        async def write() -> None:
            try:
                async with self.config_lock:  # the config as it is now: a deal stored meanwhile is kept
                    config = json.loads(json.dumps(self.row.config))
                    await self.store.run(self.store.set_config, self.id, config)
            except Exception as exc:
                log.error("table %s: an entropy could not be stored: %s", self.id, type(exc).__name__)
            finally:
                self.config_writes -= 1
                self._touch_all()
                self.on_change()
                self.wake.set()

        task = asyncio.ensure_future(write())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def give_device_entropy(self, value: Any) -> None:
        """A pass-and-play device's entropy: one device, one source, given for each person seat that has
        none yet (a seat link's person may have given their own). Raises MunchkinError as `give_entropy`."""
        if self.fair is not None and not self.dealt:
            missing = [s for s in sorted(self.humans) if self.fair["entropy"][s] is None]
            if not missing:
                raise MunchkinError("every person's entropy is given already, and it is final")
            clean_entropy(value)  # refused before any seat takes it
            for seat in missing:
                self.give_entropy(seat, value)
            return
        self.give_entropy(min(self.humans), value)  # says why no entropy is taken now

    def fair_info(self, over: bool) -> dict[str, Any] | None:
        """What every seat and spectator may see of a fair table (`fairness.public_fair`): the secret
        only once the game is over."""
        return public_fair(self.fair, over)

    # ------------------------------------------------------------------ loading
    def ensure_replayed(self) -> None:
        """Rebuild the game from the database if not done yet; a table that cannot be rebuilt says why."""
        if not self.unreplayed:
            return
        self.unreplayed = False
        try:
            self.replay_stored()
        except Exception as exc:  # one broken table must not keep the others down
            log.error("table %s could not be restored: %s", self.id, exc)
            self.failed = f"could not be restored: {exc}"
            self.broken = True

    def replay_stored(self) -> None:
        """Rebuild the game after a restart: its stored actions, with its stored chance outcomes (a seeded
        table draws them again from its seed, a fair one from its generator, and must draw the same). A
        fair table not dealt yet has nothing to rebuild: it waits for its entropy again."""

        def bots_remember(g: Game, a: Action) -> None:
            if a.seat in self.bots and a.seat in g.to_act:
                self.bots.recall(g, a.seat)  # the bot goes through its moves again: what it remembers comes back

        self.restore_chat(self.store.chat(self.id, CHAT_KEPT), self.store.chat_count(self.id))
        actions = self.store.actions(self.id)
        chance = self.store.chance(self.id)
        if not self.dealt:
            if actions or chance:
                raise DamagedTable("it holds moves but its fair-deal record says the cards are not dealt")
            return
        draw = fair_chance(self.fair) if self.fair is not None else None
        g = self.game = replay_game(self.setup, self.rules, actions, chance, bots_remember, draw)
        self.stored = len(actions)
        self.stored_chance = sum(1 for e in g.log if e[0] in CHANCE_KINDS)
        self.log_pos = len(g.log)

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")

    async def stop(self, seconds: float = STOP_SECONDS) -> bool:
        """Stop the table within 3 x `seconds` whatever it is doing (waiting for its deal or a clock, a bot
        thinking in a worker, a write on the database's thread, a socket that takes nothing): its loop and
        its people's senders are cancelled (`seconds` for them to end), then the moves, chat and claims
        still being written and a finished game's save get `seconds` to be stored (what people were shown
        is stored before the server goes) and are cancelled after. True if all ended in time."""
        what = f"table {self.id} stopping"
        senders = [c.task for c in self.clients]
        ended = await end_tasks([self.task, *senders], seconds, what)
        writes = [self.writer, self.chat_writer, self.replay_task, *self.background]
        return await finish_tasks(writes, seconds, what) and ended

    # ------------------------------------------------------------------ the loop
    async def _run(self) -> None:
        try:
            if not self.dealt:
                await self._await_deal()
                if not self.dealt or self.failed:
                    return
            await self._play()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug must not take the server down; the table says what happened
            log.exception("table %s stopped", self.id)
            self.failed = f"{type(exc).__name__}: {exc}"
            self._touch_all()
            self.on_change()

    async def _play(self) -> None:
        """Play the dealt game to its end: bots in bursts, windows on their clocks, stand-ins."""
        g = self.game
        self._window_clock()
        while not g.over and not self.failed:
            await self.flushed.wait()  # the last moves are stored, and so shown, before the bots go on
            if self.failed:
                break
            async with self.turn:  # held across one yield, so tables take turns and sockets get served
                moved = self._bots_act()
                if moved:
                    self._moved(moved)
                    await asyncio.sleep(0)
            if not moved and self.thinker is not None:  # a bot that thinks long, in a worker
                moved = await self._think(self.thinker)
            if moved:
                if self._next_is_bot_move():
                    await self.clock.sleep(self.bot_delay)
                continue
            wake_at = [t for t in (self.deadline, self._next_stand_in_time()) if t is not None]
            wake_at += self.hold_until.values()
            if self.bots_wait_until:  # the bots wait for people to act at any time: wake up then
                wake_at.append(self.bots_wait_until)
            if not await self.clock.wait(self.wake, min(wake_at) if wake_at else None):
                if self.deadline is not None and self.clock.monotonic() >= self.deadline:
                    self._window_expired()
                elif any(t <= self.clock.monotonic() for t in self.hold_until.values()):
                    self._holds_expired()
            self.wake.clear()
            self._tell_stand_ins()

    def _tell_stand_ins(self) -> None:
        """A bot came in for someone, or gave a seat back: everyone is told at once."""
        standing = self._stand_ins()
        if standing != self.shown_stand_ins:
            self.shown_stand_ins = standing
            self._touch_all()
            self.on_change()

    def _moved(self, moved: int) -> None:
        """Bots made `moved` moves: store them now, unless nobody watches and the bots play straight on
        (then a bigger batch later: a write costs as much as a burst; whoever connects waits for it)."""
        self.uncommitted += moved
        if self.clients or self.uncommitted >= BOT_BURST or not self._bots_play_on():
            self._commit()

    async def _think(self, seat: int) -> int:
        """A long-thinking bot's move, chosen in a worker process while the event loop serves everyone
        else; applied if the game has not moved on meanwhile (a person acting at any time, a clock).
        The number of moves made (0 or 1)."""
        global _bot_pool
        self.thinker = None
        g = self.game
        version = g.version
        job = self.bots.job(g, seat)
        try:
            a, memory = await asyncio.get_running_loop().run_in_executor(bot_pool(), think, *job)
        except BrokenProcessPool:
            _bot_pool = None  # a worker died: the next think starts a new pool
            raise
        if g is not self.game or g.over or g.version != version or seat not in g.to_act:
            return 0
        async with self.turn:
            g.apply(self.bots.took(g, seat, a, memory))
            self._moved(1)
        return 1

    def _watch_fight(self) -> None:
        """Follow the fight for the page's last fight, while someone watches (a table nobody watches
        weighs no fight for nobody; one who comes meets the fight from its next move)."""
        if self.clients:
            self.fights.seen(self.game)
        else:
            self.fights.forget()

    def _bots_play_on(self) -> bool:
        """Will the bots move again at once (no delay, and the game waits on a bot)?"""
        g = self.game
        standing = self._stand_ins()
        return not g.over and self.bot_delay == 0 and any(s in self.bots or s in standing for s in g.to_act)

    def stored_all(self) -> bool:
        """Is every move of the game stored, and a fair table's entropy and deal? (Nobody is told of a
        state before it is.)"""
        if self.config_writes:
            return False
        return not self.dealt or (not self.unwritten and self.log_pos == len(self.game.log))

    def _next_is_bot_move(self) -> bool:
        g = self.game
        standing = self._stand_ins()
        return (
            not g.over
            and self.bot_delay > 0
            and g.prompt.kind not in WINDOW_KINDS
            and any(s in self.bots or s in standing for s in g.to_act)
        )

    def _bots_act(self) -> int:
        """Bots answer at once; between their own-turn moves, and before their first after a person's
        move, they wait `bot_delay` (so people may act at any time, e.g. curse a bot before its door
        opens). A bot also plays for a person who is away, and makes one move for a person whose
        turn clock ran out."""
        g = self.game
        n = 0
        if self.bots_wait_until:
            if self.bots_wait_until > self.clock.monotonic() and self._next_is_bot_move():
                return 0
            self.bots_wait_until = 0.0
        until = _perf() + BOT_BURST_SECONDS
        while not g.over and n < BOT_BURST and (n == 0 or _perf() < until):
            inter = self.bots.interjection(g)  # a bot acting at any time, on another's moment
            if inter is not None:
                g.apply(inter)
                self._watch_fight()
                n += 1
                continue
            standing = self._stand_ins()
            seat = next((s for s in g.to_act if s in self.bots or s in standing), None)
            clocked = False
            if seat is None:
                seat = self._clock_expired()
                clocked = seat is not None
            if seat is None:
                break
            if n and self.bot_delay > 0 and g.prompt.kind not in WINDOW_KINDS:
                break
            if seat not in self.bots:
                self.bots.stand_in(seat)
            elif self.bots.thinks_long(g, seat) and not clocked:
                self.thinker = seat  # chosen in a worker (`_think`), once this burst is stored
                break
            g.apply(self.bots.choose(g, seat))
            self._watch_fight()  # every move of a burst: a bot's fight may begin and end within one
            n += 1
            if clocked:
                self.decided_at = self.clock.monotonic()
                break
        return n

    # ------------------------------------------------------------------ absent people
    def people_here(self) -> bool:
        """Is a person connected to a seat? (Spectators do not keep a table from expiring.)"""
        return any(c.seat is not None or c.device for c in self.clients)

    def _connected(self) -> set[int]:
        """The people's seats someone is at: a pass-and-play device is at all of them, claimed or not."""
        here = {c.seat for c in self.clients if c.seat is not None}
        if any(c.device for c in self.clients):
            here |= self.humans
        return here

    def _over(self) -> bool:
        """Is the game over (a finished table brought back for watchers has no game of its own)?"""
        g: Game | None = getattr(self, "game", None) if self.dealt else None
        return self.row.status == "over" or (g is not None and g.over)

    def _bot_due(self, seat: int) -> float | None:
        """When a bot is due to play this person's seat (monotonic; -inf: someone called one in), or None
        while its person is here. A seat nobody has opened yet is not someone who walked away: it gets
        its first-join grace, `join_seconds` from when a person first sat at the table (in this run of
        the server); a person who came and left gets `away_seconds` from leaving."""
        since = self.away_since.get(seat)
        if since is None:
            return None
        if seat in self.called_in:
            return -math.inf
        if self.row.seats[seat].claimed:
            return since + self.away_seconds
        return None if self.first_seated is None else self.first_seated + self.join_seconds

    def _stand_ins(self) -> frozenset[int]:
        """People's seats a bot plays now: their person has not joined within the first-join grace, has
        been away longer than the table allows, or someone called a bot in for them, while someone else
        is still at the table (with nobody there, nobody is kept waiting)."""
        if not self.away_since:
            return frozenset()
        here = self._connected() & self.humans
        if not here:
            return frozenset()
        t = self.clock.monotonic()
        return frozenset(s for s in self.away_since if (due := self._bot_due(s)) is not None and due <= t)

    def _next_stand_in_time(self) -> float | None:
        """When the next stand-in or turn clock comes due (monotonic), to wake the loop then."""
        times = []
        if self._connected() & self.humans:
            dues = [(s, self._bot_due(s)) for s in self.away_since if s not in self.shown_stand_ins]
            times += [due for s, due in dues if due is not None]
        if self.dealt and self.turn_clock is not None and self._clocked_seats():
            times.append(self.decided_at + self.turn_clock)
        return min(times) if times else None

    def call_in(self, by: int, seat: Any) -> None:
        """Someone at the table asks a bot to play an absent person's seat now (not joined yet, or away),
        rather than waiting out its grace; the person takes the seat back when they open their link.
        Raises MunchkinError (nothing changed) for anything else."""
        if self.failed:
            raise MunchkinError(f"this table has stopped: {self.failed}")
        if self._over():
            raise MunchkinError("the game is over")
        n = len(self.row.seats)
        if type(seat) is not int or not 0 <= seat < n:
            raise MunchkinError(f'a "stand_in" message needs "seat": the number of a person\'s seat, 0 to {n - 1}')
        name = self.row.seats[seat].name
        if seat not in self.humans:
            raise MunchkinError(f"{name}'s seat is a bot's already")
        if by not in self._connected():
            raise MunchkinError("only a person at the table may call in a bot")
        if seat not in self.away_since:
            raise MunchkinError(f"{name} is at the table: a bot plays only for someone not joined yet or away")
        if seat in self._stand_ins():
            raise MunchkinError(f"a bot is playing for {name} already")
        self.called_in.add(seat)
        self._touch_all()
        self.on_change()
        self.wake.set()

    def _clocked_seats(self) -> list[int]:
        """Connected people whose own decision the game waits on: what a turn clock (if any) hurries."""
        g = self.game
        if g.over:
            return []
        return [s for s in g.deciding() if s in self.humans and s not in self.away_since]

    def _clock_expired(self) -> int | None:
        """A connected person's own decision that has outlasted the table's turn clock (if it has one)."""
        if self.turn_clock is None or self.clock.monotonic() - self.decided_at < self.turn_clock:
            return None
        seats = self._clocked_seats()
        return seats[0] if seats else None

    def _window_seats(self) -> frozenset[int]:
        """The people a response window's clock runs for: those waited on in someone else's moment
        (interfering in another's fight, answering another's Curse or roll, the end-of-turn window).
        A person's own decision never runs on it, nor a seat a bot is standing in for."""
        g = self.game
        if g.over or g.prompt.kind not in WINDOW_KINDS:
            return frozenset()
        own = g.deciding()
        standing = self._stand_ins()
        return frozenset(s for s in g.to_act if s in self.humans and s not in standing and s not in own)

    def _window_expired(self) -> None:
        """Time is up: everyone still on the window's clock passes (never the one whose moment it is)."""
        g = self.game
        kind = g.prompt.kind
        for seat in sorted(self._window_seats()):
            if g.over or g.prompt.kind != kind:
                break
            if seat not in self._window_seats():
                continue
            p = next((a for a in g.legal_actions(seat) if a.kind == A.PASS), None)
            if p is not None:
                g.apply(p)
        self.deadline = None
        self._commit()

    def _window_clock(self) -> None:
        """Start the countdown when a window opens or someone plays into it (passes do not restart it);
        keep it stopped while someone holds the window, and let it run on when the last holder has
        played, passed or gone away (a new round's countdown in full, else from where it stood)."""
        g = self.game
        kind = g.prompt.kind
        clocked = self._window_seats()
        if not clocked:
            self.deadline = self.paused_left = self.window_prompt = None
            self._set_holds([])
            self.waited = set()
            return
        prev = self.window_prompt
        last = next((e[1] for e in reversed(g.log) if e[0] in ("act", "forced")), None)
        fresh = (
            prev is None
            or prev[0] != kind
            or not clocked <= prev[1]
            or last is None
            or last.kind != A.PASS
            or (self.deadline is None and self.paused_left is None)
        )
        if fresh:  # a new round of the window: a new countdown, and everyone may say Wait! again
            # but a hold lasts until its holder plays or passes: another's play into the window does not end it
            same = prev is not None and prev[0] == kind
            keep = [s for s in self.held_by if same and s in clocked and (last is None or last.seat != s)]
            self._set_holds(keep)
            self.waited = set(keep)
            if keep:  # still held: the new round's full countdown starts when the last hold ends
                self.deadline, self.paused_left = None, self.window_seconds
            else:
                self.deadline, self.paused_left = self.clock.monotonic() + self.window_seconds, None
        else:
            self._keep_holds(clocked)
        self.window_prompt = (kind, clocked)

    def _keep_holds(self, clocked: frozenset[int]) -> None:
        """Holds end for those no longer on the window's clock; with none left, the countdown runs on
        from where it stood when the window was held."""
        self._set_holds([s for s in self.held_by if s in clocked])
        if not self.held_by and self.paused_left is not None:
            self.deadline = self.clock.monotonic() + self.paused_left
            self.paused_left = None

    def hold_limit(self) -> float:
        """How long one Wait! may hold a window: the table's turn clock if it has one, else MAX_HOLD_SECONDS."""
        return self.turn_clock if self.turn_clock is not None else MAX_HOLD_SECONDS

    def _set_holds(self, seats: list[int]) -> None:
        """The seats holding the window now; the others' hold deadlines are forgotten."""
        self.held_by = seats
        self.hold_until = {s: t for s, t in self.hold_until.items() if s in seats}

    def _holds_expired(self) -> None:
        """A Wait! has held the window as long as it may: its holder passes (a person who is still
        deciding cannot hold the table for ever); the countdown then runs on for the others."""
        g = self.game
        now = self.clock.monotonic()
        for seat in [s for s in self.held_by if self.hold_until.get(s, math.inf) <= now]:
            self.hold_until.pop(seat, None)
            p = next((a for a in g.legal_actions(seat) if a.kind == A.PASS), None) if seat in g.to_act else None
            if p is not None and not g.over:
                g.apply(p)
            else:
                self._keep_holds(frozenset(s for s in self.held_by if s != seat))
        self._commit()

    def hold(self, seat: int) -> None:
        """Wait!: a person on a window's clock stops its countdown until they play or pass, once per
        round of the window. Raises MunchkinError (nothing changed) when they may not."""
        if not self.dealt or self.config_writes:
            raise MunchkinError("no response window is waiting on you: the cards are not dealt yet")
        g = self.game
        if not self.allow_wait:
            raise MunchkinError("this table does not allow Wait!: its response windows always run on the clock")
        if g.over or g.prompt.kind not in WINDOW_KINDS or seat not in g.to_act:
            raise MunchkinError("no response window is waiting on you")
        if seat in g.deciding():
            raise MunchkinError("this is your own decision: the table waits for you anyway, no need to say Wait!")
        if seat not in self._window_seats():
            raise MunchkinError("no response window is waiting on you")
        if seat in self.waited:
            raise MunchkinError("you have already said Wait! in this window: play or pass")
        self.waited.add(seat)
        self._set_holds([*self.held_by, seat])
        self.hold_until[seat] = self.clock.monotonic() + self.hold_limit()
        if self.deadline is not None:
            self.paused_left = max(0.0, self.deadline - self.clock.monotonic())
            self.deadline = None
        self._touch_all()
        self.wake.set()

    # ------------------------------------------------------------------ people
    def act(self, seat: int, text: str, version: int, check: Callable[[list[Action]], None] | None = None) -> None:
        """A person's action: checked (by `check` too, which sees the parsed actions before they are
        applied and may raise), applied, committed. Raises MunchkinError (nothing changed)."""
        if self.failed:
            raise MunchkinError(f"this table has stopped: {self.failed}")
        if not self.dealt or self.config_writes:
            raise MunchkinError("the cards are not dealt yet: they are dealt once every person has given entropy")
        g = self.game
        if version != g.version:
            raise MunchkinError(
                f"stale action: the table has moved on (now at version {g.version}, yours was {version})"
            )
        if g.over:
            raise MunchkinError("the game is over")
        if seat not in g.to_act and not g.any_time(seat):
            who = ", ".join(g.players[s].name for s in g.to_act) or "nobody"
            raise MunchkinError(f"it is not your turn to act; waiting on {who}")
        acts = parse(g, text, seat)  # a seat not waited on: only what it may do at any time parses
        if check is not None:
            check(acts)
        if len(acts) == 1:
            g.apply(acts[0])
        else:
            g.apply_sequence(acts)
        self._commit()
        if self._next_is_bot_move():
            self.bots_wait_until = self.clock.monotonic() + self.bot_delay
        self.wake.set()

    # ------------------------------------------------------------------ table talk
    def restore_chat(self, lines: list[dict[str, Any]], count: int) -> None:
        """The chat as stored (its newest lines, and how many were said), after a restart."""
        self.chat.clear()
        self.chat.extend(lines)
        self.chat_count = self.chat_written = max(count, lines[-1]["n"] + 1 if lines else 0)
        numbers = [_spectator_number(x.get("name")) for x in lines if x.get("spectator")]
        self.spectator_next = max(numbers, default=0) + 1  # a spectator after a restart gets a new number

    def say(self, c: Client, msg: dict[str, Any]) -> None:
        """A chat line, a whisper or a quick phrase (`{"type": "say", ...}`): checked, then stored and sent
        to those who may read it (`chat.may_read`); a phrase that is a move is taken first, exactly as an
        `act` would be, and its line is said only if the move is. Raises ChatRefused (nothing said)."""
        if not self.chat_on:
            raise ChatRefused("chat is turned off at this table")
        if c.device and c.seat is None:
            raise ChatRefused("no seat is claimed on this device: press “I am …” first, then talk")
        spectator = c.seat is None
        key, text, to, action = msg.get("phrase"), msg.get("text"), msg.get("to"), msg.get("action")
        phrase = None
        if key is not None:
            if not isinstance(key, str) or key not in PHRASES:
                shown = repr(key)[:40]
                raise ChatRefused(f"no quick phrase {shown}: the phrases are {', '.join(PHRASES)}")
            phrase = PHRASES[key]
            if text is not None:
                raise ChatRefused('a quick phrase has its own words: send "phrase" or "text", not both')
        elif not isinstance(text, str):
            raise ChatRefused('a "say" message needs "text": the line to say (or "phrase": a quick phrase\'s key)')
        if to is not None:
            self._whisper_to(c, to)
        move = phrase is not None and phrase.move is not None
        version = msg.get("version")
        if move:
            if spectator:
                raise ChatRefused(f"the phrase {key} is a move: spectators cannot make moves")
            if to is not None:
                raise ChatRefused(f"the phrase {key} is a move: it is said to the whole table, not whispered")
            if not isinstance(action, str) or not action.strip() or type(version) is not int:
                raise ChatRefused(
                    f'the phrase {key} goes with its move: send "action" (the move\'s text) and "version"'
                )
        elif action is not None:
            moves = ", ".join(k for k, p in PHRASES.items() if p.move)
            raise ChatRefused(f'"action" goes only with a phrase that is a move ({moves})')
        if phrase is None:
            try:
                words = clean_text(str(text), "a chat line", CHAT_MAX_CHARS)
            except ValueError as exc:
                raise ChatRefused(str(exc)) from None
        who = f"address {c.address}" if spectator else f"seat {c.seat}"
        wait = self.talk.wait(who)
        if wait > 0:
            raise ChatRefused(slow_down(wait), wait)
        cards: list[int] = []
        if phrase is not None and move:
            assert c.seat is not None and isinstance(action, str) and isinstance(version, int)
            said: list[tuple[str, list[int]]] = []
            g: Game | None = getattr(self, "game", None) if self.dealt else None  # a finished table's has none

            def check(acts: list[Action]) -> None:
                assert g is not None and phrase is not None
                said.append(move_words(g, phrase, acts))

            self.act(c.seat, action, version, check)
            words, cards = said[0]
        elif phrase is not None:
            words = phrase.words
        self.talk.take(who)
        name = self.spectator_name(c.address) if spectator else self.row.seats[c.seat].name  # type: ignore[index]
        line = {
            "n": self.chat_count,
            "at": round(time.time(), 3),
            "from": c.seat,
            "name": name,
            "spectator": spectator,
            "to": to,
            "text": words,
            "phrase": key,
            "cards": cards,
        }
        self.chat_count += 1
        self.chat.append(line)
        self._store_chat(line)

    def _whisper_to(self, c: Client, to: Any) -> None:
        """May this client whisper to seat `to`? Raises ChatRefused saying why not."""
        n = len(self.row.seats)
        if c.seat is None:
            raise ChatRefused("spectators cannot whisper: only a person at the table may whisper to one seat")
        if type(to) is not int or not 0 <= to < n:
            raise ChatRefused(f'"to" is null (everyone) or the number of a seat, 0 to {n - 1}')
        if to == c.seat:
            raise ChatRefused("you cannot whisper to yourself")
        if to not in self.humans:
            raise ChatRefused(f"{self.row.seats[to].name}'s seat is a bot's: bots do not read chat")

    def spectator_name(self, address: str) -> str:
        """A spectator's name in the chat: "Spectator N", one N an address at this table (in this run)."""
        name = self.spectator_names.get(address)
        if name is None:
            if len(self.spectator_names) >= MAX_SPEAKERS:  # the oldest forgotten: its next visit gets a new number
                del self.spectator_names[next(iter(self.spectator_names))]
            name = self.spectator_names[address] = f"Spectator {self.spectator_next}"
            self.spectator_next += 1
        return name

    def _store_chat(self, line: dict[str, Any]) -> None:
        """Store a line on the database's thread, lines in the order said; a line is sent once stored."""
        if not _loop_running():  # a test driving the table by hand: store at once
            self.store.add_chat(self.id, line)
            self.chat_written = line["n"] + 1
            self._touch_all()
            return
        self.chat_unwritten.append(line)
        if self.chat_writer is None or self.chat_writer.done():
            self.chat_writer = asyncio.get_running_loop().create_task(self._write_chat(), name=f"table-{self.id}-chat")

    async def _write_chat(self) -> None:
        while self.chat_unwritten:
            line = self.chat_unwritten[0]
            try:
                await self.store.run(self.store.add_chat, self.id, line)
            except Exception:  # what was said is shown all the same; it will not outlive a restart
                log.exception("table %s: chat line %d could not be stored", self.id, line["n"])
            self.chat_unwritten.popleft()
            self.chat_written = line["n"] + 1
            self._touch_all()

    def _chat_for(self, c: Client) -> list[dict[str, Any]]:
        """The chat lines to send this client now: those stored since its last state that it may read
        (its first state: the newest CHAT_HISTORY of the history it may read)."""
        upto, start = self.chat_written, c.chat_next
        c.chat_next = upto
        if start is not None and start >= upto:
            return []
        spectator = c.seat is None and not c.device
        out: list[dict[str, Any]] = []
        for line in reversed(self.chat):
            n = line["n"]
            if n >= upto:
                continue
            if start is not None and n < start:
                break
            if may_read(line, c.seat, spectator, self.spectator_chat):
                out.append(line)
                if len(out) >= CHAT_HISTORY:
                    break
        out.reverse()
        return out

    # ------------------------------------------------------------------ commit & broadcast
    def _commit(self) -> None:
        """Store the actions taken and the chance drawn since the last commit, then tell everyone. The
        write runs on the database's own thread (never on the event loop), one batch after another;
        nobody hears of the new state before it is written (`_sender` waits while a write is pending)."""
        g = self.game
        self._watch_fight()
        new: list[Action] = []
        chance: list[list[Any]] = []
        for entry in g.log[self.log_pos :]:
            if entry[0] == "act":
                new.append(entry[1])
            elif entry[0] in CHANCE_KINDS:
                chance.append(list(entry))
        status = "over" if g.over else "playing"
        winners = [g.players[s].name for s in g.winners]
        entries = [(list(a), f"{g.players[a.seat].name}: {a.kind}") for a in new]
        batch = (self.id, self.stored, entries, (status, g.turn, winners), self.stored_chance, chance)
        self.stored += len(new)
        self.stored_chance += len(chance)
        self.log_pos = len(g.log)
        self.uncommitted = 0
        if g.version != self.committed_version:
            self.decided_at = self.clock.monotonic()
            self.committed_version = g.version
        self._window_clock()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a test driving the table by hand): write at once
            self.store.append_actions(*batch)
            self._written(status, g.turn, winners)
            return
        self.unwritten.append((batch, (status, g.turn, winners)))
        self.flushed.clear()
        if self.writer is None or self.writer.done():
            self.writer = loop.create_task(self._write(), name=f"table-{self.id}-writer")

    async def _write(self) -> None:
        """Write the pending batches in order; a write that fails stops the table (what it showed is stored)."""
        while self.unwritten:
            batch, shown = self.unwritten[0]
            try:
                await self.store.run(self.store.append_actions, *batch)
            except Exception as exc:
                log.exception("table %s: a move could not be stored", self.id)
                self.failed = f"the database could not store a move ({type(exc).__name__}: {exc})"
                self.unwritten.clear()
                self.flushed.set()
                self._touch_all()
                self.on_change()
                self.wake.set()
                return
            self.unwritten.popleft()
            self._written(*shown)
        self.flushed.set()

    def _written(self, status: str, turn: int, winners: list[str]) -> None:
        """A batch is stored: the table's row says so and everyone hears of it."""
        listed = (self.row.status, self.row.turn, self.row.winners) != (status, turn, winners)
        self.row.status, self.row.turn, self.row.winners = status, turn, winners
        self.changed_at = self.row.updated = time.time()
        self._touch_all()
        if listed:  # the lobby shows a table's turn, status and winners
            self.on_change()
        if status == "over" and not self.unwritten and self.replay_task is None and _loop_running():
            self.replay_task = asyncio.get_running_loop().create_task(self.save_replay())

    def replay_task_done(self) -> bool:
        return self.replay_task is None or self.replay_task.done()

    async def save_replay(self) -> str | None:
        """Make the finished game's save once, in the worker process (a replay is seconds of pure Python
        that, in a thread, would take the interpreter lock from the tables in play), store it and return
        it; None if it could not be made (the first download makes it again)."""
        try:
            game = self.game
            body: str = await in_worker(make_replay, game.setup, list(game.log), game.rules, self.fair)
            await self.store.run(self.store.save_replay, self.id, body)
        except Exception:
            log.exception("table %s: the replay could not be stored", self.id)
            return None
        return body

    def _touch_all(self) -> None:
        for c in self.clients:
            c.touch()

    def state_message(self, c: Client) -> str:
        """The latest state for one client: its view, new narration, its actions, the window (before a
        fair table's deal: no view, no actions, and its record, to give entropy)."""
        if not self.dealt:
            return self._splice(c, None, False, [], json.dumps({"view": None, "actions": [], "menu": None}))
        g = self.game
        seat = c.seat
        cached = self._view_cache.get(seat)
        if cached is None or cached[0] != g.version:
            cached = self._view_cache[seat] = (g.version, seat_body(g, seat))
        lines = narrate(g, seat, c.event_pos)
        c.event_pos = len(g.events)
        return self._splice(c, g.version, g.over, lines, cached[1])

    def _splice(self, c: Client, version: int | None, over: bool, lines: list[str], body: str) -> str:
        """A state message: what changes from moment to moment, with the seat's body spliced in (one
        encoding of the view a version, however many watch it)."""
        extra: dict[str, Any] = {
            "type": "state",
            "version": version,
            "at": self.changed_at,
            "log_start": c.lines,
            "log": lines,
            "window": self._window_info(),
            "seats": self.seat_list(),
            "replay": f"/api/tables/{self.id}/replay" if over else None,
            "stopped": self.failed or None,
            "winning_level": WINNING_LEVEL,
            "story": self._game_story() if over else None,
            "fair": self.fair_info(over),
            "deal_in": self._deal_in(),
            "chat": self._chat_for(c),
        }
        fight = self.fights.last
        if fight is not None and fight[0] != c.fight_sent:  # a fight is over: sent once to each client
            extra["last_fight"] = self.fights.message(self.game, c.seat)
            c.fight_sent = fight[0]
        if c.device:
            extra["device"] = self._device_info(c)
        c.lines += len(lines)
        return json.dumps(extra)[:-1] + ", " + body[1:]

    def _deal_in(self) -> float | None:
        """Seconds until a fair table deals at the latest (0: now), or None: dealt, or nobody has sat down."""
        if self.dealt or self.fair is None:
            return None
        due = self._deal_due()
        return None if due is None else round(max(0.0, due - self.clock.monotonic()), 1)

    def _game_story(self) -> dict[str, Any]:
        """The finished game's Levels turn by turn and figures, from its public events; computed once."""
        if self._story is None:
            self._story = game_story(self.game)
        return self._story

    def _window_info(self) -> dict[str, Any] | None:
        """The response window waiting on people, as everyone may see it: whose moment it is, who is on
        its clock and how long is left (None: no countdown), who holds it (said Wait!), who has."""
        if not self.dealt:
            return None
        g = self.game
        if g.over or g.prompt.kind not in WINDOW_KINDS:
            return None
        waiting = [s for s in g.to_act if s in self.humans]
        if not waiting:
            return None
        clocked = self._window_seats()
        left = self.paused_left if self.held_by else None
        now = self.clock.monotonic()
        return {
            "kind": g.prompt.kind,
            "seconds": self.window_seconds,
            "remaining": None if self.deadline is None else round(max(0.0, self.deadline - self.clock.monotonic()), 2),
            "waiting": waiting,
            "deciding": list(g.deciding()),
            "clocked": [s for s in g.to_act if s in clocked],
            "held_by": list(self.held_by),
            "held_left": None if left is None else round(left, 2),
            "hold_seconds": self.hold_limit(),
            "hold_left": [round(max(0.0, self.hold_until.get(s, now) - now), 2) for s in self.held_by],
            "waited": sorted(self.waited),
            "allow_wait": self.allow_wait,
        }

    def seat_list(self) -> list[dict[str, Any]]:
        """Every seat as everyone may see it: who is connected, who has ever joined, whom a bot plays
        and in how many seconds one will (`bot_in`, so that a page can count down without a clock of ours)."""
        connected = self._connected()
        standing = self._stand_ins()
        t = self.clock.monotonic()
        over = self._over()
        here = bool(connected & self.humans)

        def bot_in(seat: int) -> float | None:
            due = None if over or not here or seat in standing else self._bot_due(seat)
            return None if due is None else round(max(0.0, due - t), 1)

        return [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "strength": s.strength,
                "connected": s.seat in connected,
                "joined": s.claimed or s.kind == "bot",
                "stand_in": s.seat in standing,
                "bot_in": bot_in(s.seat),
            }
            for s in self.row.seats
        ]

    def summary(self) -> dict[str, Any]:
        return table_summary(
            self.row,
            connected=self._connected(),
            spectators=sum(1 for c in self.clients if c.seat is None and not c.device),
            stand_ins=self._stand_ins(),
            stopped=self.failed,
        )

    # ------------------------------------------------------------------ clients
    def seat_for_token(self, token: str) -> SeatRow | None:
        h = token_hash(token)
        for s in self.row.seats:
            if s.kind == "human" and secrets.compare_digest(s.token_hash, h):
                return s
        return None

    def is_device_token(self, token: str) -> bool:
        """Is this the device link's token of a pass-and-play table (compared as hashes, in constant time)?"""
        return (
            self.pass_and_play
            and bool(self.device_hash)
            and secrets.compare_digest(self.device_hash, token_hash(token))
        )

    # ------------------------------------------------------------------ pass and play: one device, several people
    def _owed(self) -> list[int]:
        """People's seats whose own decision the game waits on (`Game.deciding`), in the order it waits on them."""
        if not self.dealt:
            return []
        g = self.game
        if g.over:
            return []
        own = g.deciding()
        return [s for s in g.to_act if s in own and s in self.humans]

    def _claim_blocked(self, seat: int) -> int | None:
        """The person whose own decision comes before `seat` may hold the device, or None: a seat the game
        asks something (its own decision, or an answer in a window) may always hold it."""
        if not self.dealt or self.game.over or seat in self.game.to_act:
            return None
        return next((s for s in self._owed() if s != seat), None)

    def _device_info(self, c: Client) -> dict[str, Any]:
        """What a device's page needs to hand itself round (public: who is waited on, never a card): the
        seat claimed, the people whose own decision waits (hand the device to them) and the people a
        response window waits on besides (each may take the device to play a card, or let the clock run)."""
        owed = self._owed()
        window = self._window_info()
        answering = [s for s in (window or {}).get("waiting", []) if s not in owed]
        return {"claimed": c.seat, "people": sorted(self.humans), "owed": owed, "answering": answering}

    def _set_claim(self, c: Client, seat: int | None, why: str) -> None:
        """The device now shows `seat`'s view (None: the public table). Its narration starts again from the
        first line as that seat may hear it, and a `claimed` message goes before the next state, so the
        page drops everything of the previous seat before anything of the next arrives."""
        c.seat = seat
        c.event_pos = 0
        c.lines = 0
        c.fight_sent = -1  # the last fight again, as this seat heard it
        c.chat_next = None  # the chat again, as this seat may read it
        player = None if seat is None else self.row.seats[seat].name
        c.send({"type": "claimed", "seat": seat, "player": player, "why": why})
        c.touch()

    def claim(self, c: Client, seat: Any) -> None:
        """A device takes a person's seat: checked, then that seat's view is sent to it (and nobody else's).
        Raises MunchkinError (nothing changed) when it may not."""
        if not c.device:
            raise MunchkinError(
                "only a pass-and-play table's device link can claim a seat: a seat link plays its own seat"
            )
        if type(seat) is not int:
            raise MunchkinError('a "claim" message needs "seat": the number of a person\'s seat')
        if not 0 <= seat < len(self.row.seats):
            raise MunchkinError(f"there is no seat {seat} at this table (seats 0 to {len(self.row.seats) - 1})")
        if seat not in self.humans:
            raise MunchkinError(
                f"seat {seat} ({self.row.seats[seat].name}) is a bot's: the device plays people's seats"
            )
        if not self.dealt:
            raise MunchkinError("the cards are not dealt yet: there is no hand to show")
        first = self._claim_blocked(seat)
        if first is not None:
            name = self.row.seats[first].name
            raise MunchkinError(f"{name}'s own decision comes first: hand the device to {name}")
        if c.seat != seat:
            self._set_claim(c, seat, "")

    def release(self, c: Client) -> None:
        """The device's person hides their hand: the public table until the next claim."""
        if not c.device:
            raise MunchkinError("only a pass-and-play table's device link claims and releases seats")
        if c.seat is not None:
            name = self.row.seats[c.seat].name
            self._set_claim(c, None, f"{name} hid their hand")

    def lapse_claim(self, c: Client) -> bool:
        """End a device's claim once the game waits on another person's own decision (and no longer on the
        claimed seat): the device then shows the public table until that person claims it. True if it ended."""
        if not c.device or c.seat is None:
            return False
        first = self._claim_blocked(c.seat)
        if first is None:
            return False
        name = self.row.seats[first].name
        self._set_claim(c, None, f"{name}'s own decision: hand the device to {name}")
        return True

    def join(self, c: Client) -> None:
        self.clients.add(c)
        seats = sorted(self.humans) if c.device else [] if c.seat is None else [c.seat]
        if seats and self.first_seated is None:
            self.first_seated = self.clock.monotonic()  # the entropy window's clock starts (`_deal_due`)
        for seat in seats:
            self.away_since.pop(seat, None)  # back at the table: a stand-in gives the seat back
            self.called_in.discard(seat)
            s = self.row.seats[seat]
            if not s.claimed:
                s.claimed = True
                self._in_background("a seat's claim", self.store.claim, self.id, seat)
        if seats:
            self.row.updated = time.time()
        c.task = asyncio.get_running_loop().create_task(self._sender(c))
        self._touch_all()
        self.on_change()
        self.wake.set()

    def leave(self, c: Client) -> None:
        self.clients.discard(c)
        if c.task is not None:
            c.task.cancel()
        seats = sorted(self.humans) if c.device else [] if c.seat is None else [c.seat]
        gone = [s for s in seats if s in self.humans and s not in self._connected()]
        for seat in gone:
            self.away_since[seat] = self.clock.monotonic()
            if seat in self.held_by:  # a window held by someone who went away must not wait for ever
                self._keep_holds(frozenset(s for s in self.held_by if s != seat))
        if gone:
            self.row.updated = time.time()
            self._in_background("a visit", self.store.touch, self.id)  # counts against expiry
        self._touch_all()
        self.on_change()
        self.wake.set()

    def _in_background(self, what: str, call: Callable[..., Any], *args: Any) -> None:
        """A database call nobody waits for (a claim, a visit), on the database's thread; a failure is logged."""

        def done(task: asyncio.Future[Any]) -> None:
            self.background.discard(task)
            if not task.cancelled() and task.exception() is not None:
                log.error("table %s: %s could not be stored: %s", self.id, what, task.exception())

        if not _loop_running():
            try:
                call(*args)
            except Exception as exc:
                log.error("table %s: %s could not be stored: %s", self.id, what, exc)
            return
        task = asyncio.ensure_future(self.store.run(call, *args))
        self.background.add(task)
        task.add_done_callback(done)

    async def _sender(self, c: Client) -> None:
        """One writer per socket: queued replies first, then the latest state (never a backlog), and only
        once it is stored: while a move waits to be written, the state waits too."""
        try:
            while True:
                await c.wake.wait()
                c.wake.clear()
                self.lapse_claim(c)
                while c.outbox:
                    await c.ws.send_text(c.outbox.popleft())
                if c.dirty and self.stored_all():
                    if self.lapse_claim(c):  # checked again as the state is made: no hand outlives its claim
                        continue
                    c.dirty = False
                    await c.ws.send_text(self.state_message(c))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the client is gone; anything else is a bug to see in the log
            if _gone(exc):
                c.drop("the client had gone")
            else:
                log.exception("table %s: a message to seat %s could not be sent", self.id, c.seat)
                c.drop(f"sending failed ({type(exc).__name__})")


def table_setup(row: TableRow) -> Setup:
    """The game's setup from a table's stored config (raises if the config is damaged, or DamagedTable
    if it was dealt from a designer folder this server was not given, or whose cards changed since)."""
    cfg = row.config
    problem = origin_problem(cfg.get("origin"), "table", sets=cfg.get("sets"), rules=cfg.get("rules"))
    if problem:
        raise DamagedTable(problem)
    seed = cfg.get("seed")
    seed = None if seed is None else int(seed)
    return Setup(
        sets=list(cfg["sets"]),
        players=[s.name for s in row.seats],
        seed=seed,
        options=Options(**cfg["options"]),
        sexes=cfg.get("sexes") if seed is None else declared_sexes(cfg.get("sexes"), seed),
        houses=cfg.get("houses"),
        # the cards the table began with (a table from before sets had versions: every set's first)
        card_versions=cfg.get("card_versions") or {s: 1 for s in cfg["sets"]},
        origin=cfg.get("origin"),
    )


def table_rules(row: TableRow) -> int:
    """The rules the table began under (see `munchkin.engine.game.RULES`)."""
    return int(row.config.get("rules", 1))


def _gone(exc: Exception) -> bool:
    """Does this error from a send only say that the client has gone away?"""
    from starlette.websockets import WebSocketDisconnect

    # a send after the socket was closed: by Starlette's words, or uvicorn's (a ping the client never answered)
    said = ("close message has been sent", "after sending 'websocket.close'")
    closed = isinstance(exc, RuntimeError) and any(w in str(exc) for w in said)
    return closed or isinstance(exc, (WebSocketDisconnect, OSError))


def _spectator_number(name: Any) -> int:
    """N of "Spectator N" (0 for any other name)."""
    text = str(name)
    tail = text.removeprefix("Spectator ")
    return int(tail) if tail != text and tail.isdigit() else 0


_perf = time.perf_counter  # the bursts' own clock (tests replace the module's `time` with a clock of theirs)


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class FinishedRunner(TableRunner):
    """A finished table brought back for people who watch it: what it shows each seat was made in the
    worker process (`rebuild_finished`), so nothing here replays the game; the seats and who is
    connected are live as at any table."""

    def __init__(self, row: TableRow, store: Store, finished: FinishedGame, turn: asyncio.Lock | None = None) -> None:
        super().__init__(row, store, turn)
        self.finished = finished
        self.unreplayed = False
        self._story = finished.story

    def ensure_replayed(self) -> None:
        """Nothing to do: the game was rebuilt in the worker process."""

    def stored_all(self) -> bool:
        return True

    def start(self) -> None:
        """A finished game has no loop to run."""

    def state_message(self, c: Client) -> str:
        f = self.finished
        lines = f.lines.get(c.seat, []) if c.event_pos == 0 else []
        c.event_pos = 1  # the whole narration goes in the first message, none after
        return self._splice(c, f.version, True, lines, f.bodies[c.seat])

    def _window_info(self) -> dict[str, Any] | None:
        return None

    def _owed(self) -> list[int]:
        return []

    def _claim_blocked(self, seat: int) -> int | None:
        return None

    def act(self, seat: int, text: str, version: int, check: Callable[[list[Action]], None] | None = None) -> None:
        raise MunchkinError("the game is over")

    def hold(self, seat: int) -> None:
        raise MunchkinError("the game is over")


def table_summary(
    r: TableRow,
    connected: set[int] | frozenset[int] = frozenset(),
    spectators: int = 0,
    stand_ins: frozenset[int] = frozenset(),
    stopped: str = "",
) -> dict[str, Any]:
    """What the lobby shows of a table (public: no tokens, no cards). The seed is shown only when the
    table's creator chose it, since then whoever knows it can work out every hand; a fair table's
    commitment and entropy are shown, its secret only once the game is over."""
    cfg = r.config
    stopped = stopped or (f"its stored data is damaged: {r.damaged}" if r.damaged else "")
    return {
        "id": r.id,
        "name": r.name,
        "sets": cfg.get("sets", []),
        "status": "stopped" if stopped else r.status,
        "stopped": stopped or None,
        "turn": r.turn + 1,
        "created": r.created,
        "window_seconds": cfg.get("window_seconds"),
        "allow_wait": cfg.get("allow_wait", True),
        "away_seconds": cfg.get("away_seconds", AWAY_SECONDS),
        "join_seconds": cfg.get("join_seconds", JOIN_SECONDS),
        "turn_clock": cfg.get("turn_clock"),
        "pass_and_play": bool(cfg.get("pass_and_play")),
        "chat": cfg.get("chat", True),
        "spectator_chat": cfg.get("spectator_chat", True),
        "seed": cfg.get("seed") if cfg.get("seed_chosen") else None,
        "spectators": spectators,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "strength": s.strength,
                "claimed": s.claimed or s.kind == "bot",
                "connected": s.seat in connected,
                "stand_in": s.seat in stand_ins,
            }
            for s in r.seats
        ],
        "winners": r.winners,
        "fair": public_fair(cfg.get("fair"), r.status == "over"),
    }


def new_table_row(
    name: str,
    sets: list[str],
    seats: list[dict[str, Any]],
    options: dict[str, Any],
    window_seconds: float,
    bot_delay: float,
    seed: int | None,
    away_seconds: float = AWAY_SECONDS,
    turn_clock: float | None = None,
    allow_wait: bool = True,
    join_seconds: float = JOIN_SECONDS,
    device_token: str | None = None,
    chat: bool = True,
    spectator_chat: bool = True,
) -> tuple[TableRow, dict[int, str]]:
    """A fresh table and the secret token of each person's seat. Without a chosen seed the table keeps
    no seed at all: it is a fair table, dealt from a secret drawn now and the entropy its people give
    (`fairness.new_fair_record`), its chance outcomes stored one by one. A `device_token` makes it a
    pass-and-play table: that token (stored as its hash only) plays every person seat from one page."""
    tokens: dict[int, str] = {}
    rows = []
    for i, s in enumerate(seats):
        tok = ""
        if s["kind"] == "human":
            tok = tokens[i] = secrets.token_urlsafe(18)
        rows.append(
            SeatRow(i, s["name"], s["kind"], s.get("strength", "heuristic"), token_hash(tok) if tok else "", False)
        )
    cfg: dict[str, object] = {
        "sets": sets,
        "options": asdict(Options(**options)),
        "seed": seed,
        "seed_chosen": seed is not None,
        "bot_seed": seed if seed is not None else secrets.randbits(128),  # the bots' own dice, not the game's
        "window_seconds": window_seconds,
        "bot_delay": bot_delay,
        "away_seconds": away_seconds,
        "join_seconds": join_seconds,
        "turn_clock": turn_clock,
        "allow_wait": allow_wait,
        "chat": chat,
        "spectator_chat": spectator_chat,
        "rules": RULES,
        "card_versions": {s: card_version(s) for s in sets},
    }
    folders = set_dir_origins(sets)
    if folders:  # dealt from `serve --set-dir` folders: their names and hashes, checked when it is restored
        cfg["origin"] = {"set_dirs": folders}
    if seed is None:
        cfg["fair"] = new_fair_record(len(seats))
    if device_token is not None:
        cfg["pass_and_play"] = True
        cfg["device_hash"] = token_hash(device_token)
    if any(s.get("sex") for s in seats):  # declared sexes; the others are drawn by the game
        cfg["sexes"] = [s.get("sex") for s in seats]
    if any(s.get("house") for s in seats):  # declared Houses; the others are drawn by the game
        cfg["houses"] = [s.get("house") or None for s in seats]
    t = now()
    row = TableRow(secrets.token_hex(6), name, t, cfg, "playing", 0, [], rows, updated=t)
    return row, tokens
