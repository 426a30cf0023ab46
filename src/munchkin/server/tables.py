"""A table in play: `TableRunner` runs one game on the server's event loop, one task per table (the loop, the
bots' bursts and long thoughts, people's actions, every move stored first); `FinishedRunner` for a finished one."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from munchkin.cards.loader import set_dirs
from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.game import Game
from munchkin.engine.notation import parse
from munchkin.server.bots import TableBots, think
from munchkin.server.broadcast import Broadcast
from munchkin.server.chat import CHAT_KEPT
from munchkin.server.clients import MAX_MESSAGE, MAX_OUTBOX, RATE, Client
from munchkin.server.dealing import FairDeal
from munchkin.server.fairness import fair_chance
from munchkin.server.pass_and_play import PassAndPlay
from munchkin.server.replays import CHANCE_KINDS, FinishedGame, make_replay, replay_game, seat_body, with_fair
from munchkin.server.rows import new_table_row, table_setup, table_summary
from munchkin.server.seats import Seats
from munchkin.server.store import DamagedTable, Store, TableRow
from munchkin.server.table_state import _loop_running
from munchkin.server.talking import TableTalk
from munchkin.server.waiting import end_tasks, finish_tasks
from munchkin.server.windows import MAX_HOLD_SECONDS, WINDOW_KINDS, Windows
from munchkin.server.workers import _follow_parent, in_worker

# Defined here, and kept importable from here for the tests. `in_worker`, `bot_pool` and `think` are looked
# up in this module by `save_replay` and `_think`, so that a test that replaces them here replaces them.
__all__ = [
    "BOT_BURST",
    "BOT_BURST_SECONDS",
    "MAX_HOLD_SECONDS",
    "MAX_MESSAGE",
    "MAX_OUTBOX",
    "RATE",
    "STOP_SECONDS",
    "WINDOW_KINDS",
    "Client",
    "FinishedRunner",
    "TableBots",
    "TableRunner",
    "bot_pool",
    "in_worker",
    "make_replay",
    "new_table_row",
    "seat_body",
    "table_setup",
    "table_summary",
    "think",
    "with_fair",
]

log = logging.getLogger("munchkin.server")

BOT_BURST = 40  # bot actions between two commits, so that one table never holds up the others
# and a burst's time: the loop serves every socket between two bursts, so a burst this short keeps a ping
# under a few milliseconds of waiting even with a hundred bot tables playing flat out
BOT_BURST_SECONDS = 0.004
STOP_SECONDS = 5.0  # `TableRunner.stop`: how long each of its steps may take (it returns within 3x this)


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


class TableRunner(FairDeal, Seats, Windows, TableTalk, PassAndPlay, Broadcast):
    """Runs one game: applies people's actions, plays the bots, times the response windows,
    commits every action before telling anyone of it, and keeps each client up to date.

    Its state is `TableState` (table_state.py); its parts, a module each: the fair deal (dealing.py), seats
    and stand-ins (seats.py), response windows and the turn clock (windows.py), table talk (talking.py),
    one screen (pass_and_play.py) and what clients are told (broadcast.py). Here: loading, the loop and
    its bots, people's actions, and the commit."""

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

    # ------------------------------------------------------------------ commit: stored, then told
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


_perf = time.perf_counter  # the bursts' own clock (tests replace the module's `time` with a clock of theirs)


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
