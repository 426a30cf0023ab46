"""A table's state (`TableState`): everything a `TableRunner` holds, set up from its stored row, which the
runner's parts (a mixin a module: dealing, seats, windows, talking, pass_and_play, broadcast) share."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from munchkin.engine.actions import Action
from munchkin.engine.chance import SystemChance
from munchkin.engine.game import Game
from munchkin.server.bots import TableBots
from munchkin.server.chat import CHAT_KEPT, Talk
from munchkin.server.clients import Client
from munchkin.server.clock import Clock
from munchkin.server.fairness import record_problem
from munchkin.server.fights import FightWatch
from munchkin.server.replays import CHANCE_KINDS
from munchkin.server.rows import AWAY_SECONDS, JOIN_SECONDS, table_rules, table_setup
from munchkin.server.store import DamagedTable, Store, TableRow


class TableState:
    """A table's state: its row and config, its game once dealt, its clients, its clocks and what is being
    stored; `TableRunner` (tables.py) is this state with its parts."""

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

    def _touch_all(self) -> None:
        for c in self.clients:
            c.touch()

    if TYPE_CHECKING:  # what one part of the runner calls of another, for the type checker only

        def deal_game(self) -> None: ...  # dealing
        def fair_info(self, over: bool) -> dict[str, Any] | None: ...
        def _deal_in(self) -> float | None: ...
        def _connected(self) -> set[int]: ...  # seats
        def _stand_ins(self) -> frozenset[int]: ...
        def _next_stand_in_time(self) -> float | None: ...
        def _tell_stand_ins(self) -> None: ...
        def seat_list(self) -> list[dict[str, Any]]: ...
        def _clocked_seats(self) -> list[int]: ...  # windows
        def _keep_holds(self, clocked: frozenset[int]) -> None: ...
        def _window_info(self) -> dict[str, Any] | None: ...
        def _chat_for(self, c: Client) -> list[dict[str, Any]]: ...  # talking
        def _device_info(self, c: Client) -> dict[str, Any]: ...  # pass_and_play
        def lapse_claim(self, c: Client) -> bool: ...
        async def _sender(self, c: Client) -> None: ...  # broadcast
        def stored_all(self) -> bool: ...  # tables
        def _commit(self) -> None: ...
        def act(
            self, seat: int, text: str, version: int, check: Callable[[list[Action]], None] | None = None
        ) -> None: ...


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
