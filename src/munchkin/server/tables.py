"""A table in play: the game, its bots, its response-window clock, and the seats and
spectators watching it. Everything runs on the server's event loop, one task per table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections import deque
from dataclasses import asdict
from typing import Any, Protocol

from munchkin.agents.base import Agent, make_agent
from munchkin.engine import actions as A
from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.game import Game, Options, Setup, declared_sexes
from munchkin.engine.notation import parse
from munchkin.engine.state import CURSE_WINDOW, END_WINDOW, ROLLED, WINDOW
from munchkin.engine.view import narrate
from munchkin.server.store import SeatRow, Store, TableRow, now, token_hash

log = logging.getLogger("munchkin.server")

WINDOW_KINDS = frozenset({WINDOW, CURSE_WINDOW, ROLLED, END_WINDOW})
MAX_MESSAGE = 4096
BURST = 20  # messages a client may send at once
RATE = 10.0  # messages a second, sustained
BOT_BURST = 40  # bot actions between two commits, so that one table never holds up the others


class Socket(Protocol):
    async def send_text(self, data: str) -> None: ...


class Client:
    """One WebSocket at a table: a seat (or None for a spectator) and what it has been sent."""

    def __init__(self, ws: Socket, seat: int | None, burst: int = BURST, rate: float = RATE) -> None:
        self.ws = ws
        self.seat = seat
        self.burst, self.rate = burst, rate
        self.event_pos = 0  # engine events narrated so far
        self.lines = 0  # narration lines sent so far
        self.dirty = True
        self.outbox: deque[str] = deque()
        self.wake = asyncio.Event()
        self.wake.set()
        self.tokens = float(burst)
        self.refill_at = time.monotonic()
        self.refused = 0
        self.complained_at = -1.0
        self.task: asyncio.Task[None] | None = None

    def allow(self) -> bool:
        """Token bucket: BURST at once, RATE a second after that."""
        t = time.monotonic()
        self.tokens = min(float(self.burst), self.tokens + (t - self.refill_at) * self.rate)
        self.refill_at = t
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False

    def may_complain(self) -> bool:
        """Tell a flooder its messages are refused, but at most a few times a second."""
        t = time.monotonic()
        if t - self.complained_at < 0.2:
            return False
        self.complained_at = t
        return True

    def send(self, msg: dict[str, Any]) -> None:
        self.outbox.append(json.dumps(msg))
        self.wake.set()

    def touch(self) -> None:
        self.dirty = True
        self.wake.set()


class TableBots:
    """The bots of one table (seat -> strength), seeded from the table's seed, and the manners
    they keep: a bot offers each other seat at most one trade or gift a turn, since a person
    must answer every offer by hand."""

    def __init__(self, strengths: dict[int, str], seed: int) -> None:
        self.seed = seed
        self.agents: dict[int, Agent] = {s: make_agent(k, seed * 7919 + s) for s, k in strengths.items()}
        self.offered: set[tuple[int, int, int]] = set()  # (turn, bot, other seat)

    def __contains__(self, seat: object) -> bool:
        return seat in self.agents

    def choose(self, g: Game, seat: int) -> Action:
        """The bot's action. Its dice are seeded from the table, the seat and the game's version, so
        the same position always gets the same answer: a restarted server plays on unchanged."""
        agent = self.agents[seat]
        rng = getattr(agent, "rng", None)
        if isinstance(rng, random.Random):
            rng.seed(f"{self.seed}:{seat}:{g.version}")
        legal = g.legal_actions(seat)
        kept = [a for a in legal if not (a.kind in (A.GIVE, A.TRADE) and (g.turn, seat, a.target) in self.offered)]
        a = agent.act(g, seat, kept or legal)
        if a.kind in (A.GIVE, A.TRADE) and a.target >= 0:
            self.offered.add((g.turn, seat, a.target))
        return a


class TableRunner:
    """Runs one game: applies people's actions, plays the bots, times the response windows,
    commits every action before telling anyone of it, and keeps each client up to date."""

    def __init__(self, row: TableRow, store: Store, turn: asyncio.Lock | None = None) -> None:
        self.row = row
        self.turn = turn or asyncio.Lock()  # shared by a server's tables: one bot burst at a time
        self.id = row.id
        self.store = store
        cfg = row.config
        self.window_seconds = float(cfg["window_seconds"])
        self.bot_delay = float(cfg["bot_delay"])
        self.setup = Setup(
            sets=list(cfg["sets"]),
            players=[s.name for s in row.seats],
            seed=int(cfg["seed"]),
            options=Options(**cfg["options"]),
            sexes=declared_sexes(cfg.get("sexes"), int(cfg["seed"])),
            houses=cfg.get("houses"),
        )
        self.game = Game(self.setup)
        self.humans = frozenset(s.seat for s in row.seats if s.kind == "human")
        self.bots = TableBots({s.seat: s.strength for s in row.seats if s.kind == "bot"}, int(cfg["seed"]))
        self.stored = 0  # actions in the database
        self.clients: set[Client] = set()
        self.changed_at = time.time()  # wall time of the last committed change, for latency figures
        self.deadline: float | None = None  # monotonic time a response window closes
        self.window_prompt: tuple[str, frozenset[int]] | None = None
        self.more_time: set[int] = set()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.failed = ""
        self.unreplayed = True  # a table from the database: its actions are not applied yet
        self._view_cache: dict[int | None, tuple[int, str]] = {}

    # ------------------------------------------------------------------ loading
    def ensure_replayed(self) -> None:
        """Replay the stored actions if not done yet; a table that cannot be rebuilt says why."""
        if not self.unreplayed:
            return
        self.unreplayed = False
        try:
            self.replay_stored()
        except Exception as exc:  # one broken table must not keep the others down
            log.error("table %s could not be restored: %s", self.id, exc)
            self.failed = f"could not be restored: {exc}"

    def replay_stored(self) -> None:
        """Rebuild the game from the database after a restart."""
        g = self.game
        for i, raw in enumerate(self.store.actions(self.id)):
            raw[5] = tuple(raw[5])
            a = Action(*raw)
            if a.seat in self.bots and a.seat in g.to_act:
                self.bots.choose(g, a.seat)  # the bot goes through its moves again: what it remembers comes back
            try:
                g.apply(a)
            except MunchkinError as exc:
                raise RuntimeError(f"table {self.id}: stored action {i} does not replay: {exc}") from exc
            self.stored += 1

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        for c in list(self.clients):
            if c.task is not None:
                c.task.cancel()

    # ------------------------------------------------------------------ the loop
    async def _run(self) -> None:
        g = self.game
        try:
            self._window_clock()
            while not g.over:
                async with self.turn:  # held across one yield, so tables take turns and sockets get served
                    moved = self._bots_act()
                    if moved:
                        self._commit()
                        await asyncio.sleep(0)
                if moved:
                    if self._next_is_bot_move():
                        await asyncio.sleep(self.bot_delay)
                    continue
                timeout = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
                try:
                    await asyncio.wait_for(self.wake.wait(), timeout)
                except TimeoutError:
                    if self.deadline is not None and time.monotonic() >= self.deadline:
                        self._window_expired()
                self.wake.clear()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug must not take the server down; the table says what happened
            log.exception("table %s stopped", self.id)
            self.failed = f"{type(exc).__name__}: {exc}"
            self._touch_all()

    def _next_is_bot_move(self) -> bool:
        g = self.game
        return (
            not g.over
            and self.bot_delay > 0
            and g.prompt.kind not in WINDOW_KINDS
            and any(s in self.bots for s in g.to_act)
        )

    def _bots_act(self) -> int:
        """Bots answer at once; between their own-turn moves they wait `bot_delay`."""
        g = self.game
        n = 0
        while not g.over and n < BOT_BURST:
            seat = next((s for s in g.to_act if s in self.bots), None)
            if seat is None:
                break
            if n and self.bot_delay > 0 and g.prompt.kind not in WINDOW_KINDS:
                break
            g.apply(self.bots.choose(g, seat))
            n += 1
        return n

    def _window_expired(self) -> None:
        """Time is up: everyone still in the window passes."""
        g = self.game
        for seat in [s for s in g.to_act if s in self.humans]:
            if g.over or g.prompt.kind not in WINDOW_KINDS or seat not in g.to_act:
                break
            p = next((a for a in g.legal_actions(seat) if a.kind == A.PASS), None)
            if p is not None:
                g.apply(p)
        self.deadline = None
        self._commit()

    def _window_clock(self) -> None:
        """Start the countdown when a window opens or someone plays into it; passes do not restart it."""
        g = self.game
        kind = g.prompt.kind
        waiting = frozenset(s for s in g.to_act if s in self.humans)
        if g.over or kind not in WINDOW_KINDS or not waiting:
            self.deadline = None
            self.window_prompt = None
            return
        prev = self.window_prompt
        last = next((e[1] for e in reversed(g.log) if e[0] in ("act", "forced")), None)
        fresh = (
            prev is None
            or prev[0] != kind
            or not waiting <= prev[1]
            or last is None
            or last.kind != A.PASS
            or self.deadline is None
        )
        if fresh:
            self.deadline = time.monotonic() + self.window_seconds
            self.more_time = set()
        self.window_prompt = (kind, waiting)

    # ------------------------------------------------------------------ people
    def act(self, seat: int, text: str, version: int) -> None:
        """A person's action: checked, applied, committed. Raises MunchkinError (nothing changed)."""
        g = self.game
        if self.failed:
            raise MunchkinError(f"this table has stopped: {self.failed}")
        if version != g.version:
            raise MunchkinError(
                f"stale action: the table has moved on (now at version {g.version}, yours was {version})"
            )
        if g.over:
            raise MunchkinError("the game is over")
        if seat not in g.to_act:
            who = ", ".join(g.players[s].name for s in g.to_act) or "nobody"
            raise MunchkinError(f"it is not your turn to act; waiting on {who}")
        acts = parse(g, text, seat)
        if len(acts) == 1:
            g.apply(acts[0])
        else:
            g.apply_sequence(acts)
        self._commit()
        self.wake.set()

    def ask_more_time(self, seat: int) -> None:
        g = self.game
        if self.deadline is None or seat not in g.to_act or seat not in self.humans:
            raise MunchkinError("no response window is waiting on you")
        if seat in self.more_time:
            raise MunchkinError("you have already asked for more time in this window")
        self.more_time.add(seat)
        self.deadline += self.window_seconds
        self._touch_all()
        self.wake.set()

    # ------------------------------------------------------------------ commit & broadcast
    def _commit(self) -> None:
        """Store the actions taken since the last commit, then tell everyone."""
        g = self.game
        new: list[Action] = []
        want = g.decisions - self.stored
        i = len(g.log) - 1
        while len(new) < want:
            if g.log[i][0] == "act":
                new.append(g.log[i][1])
            i -= 1
        new.reverse()
        status = "over" if g.over else "playing"
        winners = [g.players[s].name for s in g.winners]
        entries = [(list(a), f"{g.players[a.seat].name}: {a.kind}") for a in new]
        self.store.append_actions(self.id, self.stored, entries, (status, g.turn, winners))
        self.stored = g.decisions
        self.row.status, self.row.turn, self.row.winners = status, g.turn, winners
        self.changed_at = time.time()
        self._window_clock()
        self._touch_all()

    def _touch_all(self) -> None:
        for c in self.clients:
            c.touch()

    def state_message(self, c: Client) -> str:
        """The latest state for one client: its view, new narration, its actions, the window."""
        g = self.game
        seat = c.seat
        cached = self._view_cache.get(seat)
        if cached is None or cached[0] != g.version:
            view = g.view(seat)
            view.pop("legal", None)
            actions: list[dict[str, Any]] = []
            if seat is not None and seat in g.to_act and not g.over:
                for a in g.legal_actions(seat):
                    cards = [x for x in (a.card, a.monster, *a.cards) if x >= 0]
                    actions.append({"text": g.text(a), "kind": a.kind, "cards": cards})
            body = json.dumps({"view": view, "actions": actions})
            cached = (g.version, body)
            self._view_cache[seat] = cached
        lines = narrate(g, seat, c.event_pos)
        c.event_pos = len(g.events)
        extra: dict[str, Any] = {
            "type": "state",
            "version": g.version,
            "at": self.changed_at,
            "log_start": c.lines,
            "log": lines,
            "window": self._window_info(),
            "seats": self.seat_list(),
            "replay": f"/api/tables/{self.id}/replay" if g.over else None,
            "stopped": self.failed or None,
        }
        c.lines += len(lines)
        return json.dumps(extra)[:-1] + ", " + cached[1][1:]  # splice in the cached view: one encoding per version

    def _window_info(self) -> dict[str, Any] | None:
        if self.deadline is None or self.game.over:
            return None
        g = self.game
        return {
            "kind": g.prompt.kind,
            "seconds": self.window_seconds,
            "remaining": round(max(0.0, self.deadline - time.monotonic()), 2),
            "waiting": [s for s in g.to_act if s in self.humans],
            "more_time_used": sorted(self.more_time),
        }

    def seat_list(self) -> list[dict[str, Any]]:
        connected = {c.seat for c in self.clients}
        return [
            {"seat": s.seat, "name": s.name, "kind": s.kind, "strength": s.strength, "connected": s.seat in connected}
            for s in self.row.seats
        ]

    def summary(self) -> dict[str, Any]:
        r = self.row
        connected = {c.seat for c in self.clients}
        return {
            "id": r.id,
            "name": r.name,
            "sets": r.config["sets"],
            "status": "stopped" if self.failed else r.status,
            "turn": r.turn + 1,
            "created": r.created,
            "window_seconds": self.window_seconds,
            "spectators": sum(1 for c in self.clients if c.seat is None),
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "strength": s.strength,
                    "claimed": s.claimed or s.kind == "bot",
                    "connected": s.seat in connected,
                }
                for s in r.seats
            ],
            "winners": r.winners,
        }

    # ------------------------------------------------------------------ clients
    def seat_for_token(self, token: str) -> SeatRow | None:
        h = token_hash(token)
        for s in self.row.seats:
            if s.kind == "human" and secrets.compare_digest(s.token_hash, h):
                return s
        return None

    def join(self, c: Client) -> None:
        self.clients.add(c)
        if c.seat is not None:
            s = self.row.seats[c.seat]
            if not s.claimed:
                s.claimed = True
                self.store.claim(self.id, c.seat)
        c.task = asyncio.get_running_loop().create_task(self._sender(c))
        self._touch_all()

    def leave(self, c: Client) -> None:
        self.clients.discard(c)
        if c.task is not None:
            c.task.cancel()
        self._touch_all()

    async def _sender(self, c: Client) -> None:
        """One writer per socket: queued replies first, then the latest state (never a backlog)."""
        with contextlib.suppress(Exception):
            while True:
                await c.wake.wait()
                c.wake.clear()
                while c.outbox:
                    await c.ws.send_text(c.outbox.popleft())
                if c.dirty:
                    c.dirty = False
                    await c.ws.send_text(self.state_message(c))


def new_table_row(
    name: str,
    sets: list[str],
    seats: list[dict[str, str]],
    options: dict[str, Any],
    window_seconds: float,
    bot_delay: float,
    seed: int | None,
) -> tuple[TableRow, dict[int, str]]:
    """A fresh table and the secret token of each person's seat."""
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
        "seed": seed if seed is not None else secrets.randbelow(2**31),
        "window_seconds": window_seconds,
        "bot_delay": bot_delay,
    }
    if any(s.get("sex") for s in seats):  # declared sexes; the others are drawn from the seed
        cfg["sexes"] = [s.get("sex") for s in seats]
    if any(s.get("house") for s in seats):  # declared Houses; the others are drawn from the seed
        cfg["houses"] = [s.get("house") or None for s in seats]
    row = TableRow(secrets.token_hex(6), name, now(), cfg, "playing", 0, [], rows)
    return row, tokens
