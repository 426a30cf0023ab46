"""All tables of one server: created, restored after a restart, looked up, listed, expired."""

from __future__ import annotations

import asyncio
import bisect
import hashlib
import json
import logging
import math
import secrets
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from fastapi import HTTPException

from munchkin.cards.loader import available_sets as set_names
from munchkin.cards.loader import load_set
from munchkin.engine.actions import MunchkinError
from munchkin.server.chat import CHAT_KEPT
from munchkin.server.clock import Clock
from munchkin.server.config import ServerSettings
from munchkin.server.models import TableIn
from munchkin.server.replays import rebuild_finished, rebuild_save
from munchkin.server.rows import new_table_row, table_rules, table_setup, table_summary
from munchkin.server.store import DamagedTable, Store, TableRow, now
from munchkin.server.tables import STOP_SECONDS, FinishedRunner, TableRunner
from munchkin.server.waiting import end_tasks
from munchkin.server.workers import in_worker

log = logging.getLogger("munchkin.server")
T = TypeVar("T")

REPLAY_CACHE_BYTES = 32 * 1024 * 1024  # finished games' saves kept in memory for repeated downloads
PAGE_CACHE = 64  # lobby pages kept for the current state of the tables
DAY = 86_400.0


def available_sets() -> list[dict[str, str]]:
    """Every card set: those shipped in the package and designers' folders (`munchkin serve --set-dir`)."""
    return [{"id": name, "name": load_set(name).title} for name in set_names()]


Key = tuple[float, str]


def _key(row: TableRow) -> Key:
    return (row.created, row.id)


def cursor_of(row: TableRow) -> str:
    return f"{row.created!r}_{row.id}"


def parse_cursor(text: str) -> Key:
    """A page cursor back into its (created, id) key; a bad one is refused with why."""
    created, sep, tid = text.partition("_")
    try:
        value = float(created)
    except ValueError:
        value = math.nan
    if not sep or not tid or not math.isfinite(value):
        raise HTTPException(422, f"{text[:40]!r} is not a page cursor: use the 'next' of the previous page")
    return (value, tid)


def _finished(row: TableRow) -> bool:
    """A table the lobby lists as over (a damaged one is listed as stopped instead)."""
    return row.status == "over" and not row.damaged


class Hub:
    """All tables of this server: every table's row (light), kept in order of creation, and the games
    of those being played or watched. Every database call from the event loop goes through
    `Store.run`; every rebuild of a stored game runs in the worker process, once however many ask."""

    def __init__(self, store: Store, settings: ServerSettings | None = None, clock: Clock | None = None) -> None:
        self.store = store
        self.settings = settings or ServerSettings()
        self.clock = clock or Clock()  # every table's timers (a test hands in a `ManualClock`)
        self.rows: dict[str, TableRow] = {}  # every table
        self.order: list[Key] = []  # every table's key, oldest first
        self.live_order: list[Key] = []  # the keys of tables not listed as over (playing, stopped), oldest first
        self.tables: dict[str, TableRunner] = {}  # tables whose game is in memory
        self.turn = asyncio.Lock()
        self.building = threading.Lock()
        self.creators: dict[str, str] = {}  # table id -> the address key that created it (since this start)
        self.replays: OrderedDict[str, bytes] = OrderedDict()  # saves downloaded lately, newest last
        self.replay_bytes = 0
        self.builds: dict[tuple[str, str], asyncio.Task[Any]] = {}  # worker rebuilds under way, shared
        self.version = 0  # counts every change to what the lobby lists (its ETag)
        self.boot = secrets.token_hex(4)  # an ETag of an earlier start never matches
        self.pages: OrderedDict[tuple[str, int, str | None], tuple[int, bytes]] = OrderedDict()
        self.sweeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ the ordered index
    def _index(self, row: TableRow) -> None:
        key = _key(row)
        bisect.insort(self.order, key)
        if not _finished(row):
            bisect.insort(self.live_order, key)

    def _unindex(self, row: TableRow) -> None:
        key = _key(row)
        for keys in (self.order, self.live_order):
            i = bisect.bisect_left(keys, key)
            if i < len(keys) and keys[i] == key:
                del keys[i]

    def changed(self, table_id: str | None = None) -> None:
        """Something the lobby lists has changed (a table's turn, status, seats or watchers)."""
        self.version += 1
        self.pages.clear()
        row = self.rows.get(table_id) if table_id is not None else None
        if row is not None and _finished(row):
            key = _key(row)
            i = bisect.bisect_left(self.live_order, key)
            if i < len(self.live_order) and self.live_order[i] == key:
                del self.live_order[i]

    def _add(self, row: TableRow) -> None:
        self.rows[row.id] = row
        self._index(row)

    def _remove(self, table_id: str) -> None:
        row = self.rows.pop(table_id, None)
        if row is not None:
            self._unindex(row)
        self.creators.pop(table_id, None)
        body = self.replays.pop(table_id, None)
        if body is not None:
            self.replay_bytes -= len(body)

    # ------------------------------------------------------------------ start-up and expiry
    def load(self) -> None:
        """Forget expired tables, then rebuild every unfinished game; finished ones are rebuilt only when
        someone watches them. A table whose rows cannot be read is marked stopped; the others serve."""
        self.store.delete_tables(self._expired_ids())
        for row in self.store.tables():
            self._add(row)
            if row.damaged:
                log.error("table %s (%r) is stopped: its stored data is damaged: %s", row.id, row.name, row.damaged)
                continue
            if row.status == "over":
                continue
            runner = self._runner(row)
            if runner is None:
                continue
            runner.ensure_replayed()
            if not runner.failed and (not runner.dealt or not runner.game.over):
                runner.start()
        self.live_order = [k for k in self.order if not _finished(self.rows[k[1]])]  # a row marked damaged above

    def _runner(self, row: TableRow) -> TableRunner | None:
        """A table's game in memory (rebuilt on first use); None, with the row marked, if its config is damaged."""
        try:
            runner = TableRunner(row, self.store, self.turn, clock=self.clock)
        except Exception as exc:  # a damaged config must not keep the server or the other tables down
            why = str(exc) if isinstance(exc, DamagedTable) else f"{type(exc).__name__}: {exc}"
            row.damaged = row.damaged or f"its config cannot be used ({why})"
            log.error("table %s (%r) is stopped: %s", row.id, row.name, row.damaged)
            return None
        self._keep(runner)
        return runner

    def _keep(self, runner: TableRunner) -> None:
        """Hold a table's game in memory; it tells the hub when what the lobby lists changes."""
        self.tables[runner.id] = runner
        table_id = runner.id
        runner.on_change = lambda: self.changed(table_id)

    def _expired_ids(self) -> list[str]:
        """The stored tables whose time is up (on the database's thread): unfinished ones idle past their
        limit, finished ones older than the retention (`keep_finished_days`, 0: kept for ever)."""
        t, cfg = now(), self.settings
        ids = self.store.expired(t - cfg.expire_unjoined_minutes * 60, t - cfg.expire_idle_hours * 3600)
        if cfg.keep_finished_days > 0:
            ids += self.store.finished_before(t - cfg.keep_finished_days * DAY)
        return ids

    async def expire_stored(self) -> list[str]:
        """Delete the stored tables whose time is up and nobody is at (a person in a seat; spectators do
        not keep a table), on the database's thread; returns their ids."""
        ids = await self.store.run(self._expired_ids)
        ids = [i for i in ids if i not in self.tables or not self.tables[i].people_here()]
        if ids:
            await self.store.run(self.store.delete_tables, ids)
            log.info("%d expired tables removed", len(ids))
        return ids

    async def sweep(self) -> None:
        """Now and then: remove expired tables, and free the games of finished tables nobody watches."""
        while True:
            await asyncio.sleep(self.settings.expiry_sweep_seconds)  # wall time: tests call `sweep_once`
            try:
                await self.sweep_once()
            except Exception:  # the sweep must go on; the next one tries again
                log.exception("the expiry sweep failed")

    async def sweep_once(self) -> None:
        gone = await self.expire_stored()
        for tid in gone:
            runner = self.tables.pop(tid, None)
            if runner is not None:
                await runner.stop()
            self._remove(tid)
        for tid in [t for t in self.creators if self.rows.get(t) is None or self.rows[t].status != "playing"]:
            del self.creators[tid]
        for tid, runner in list(self.tables.items()):
            if runner.row.status == "over" and not runner.clients and runner.replay_task_done():
                del self.tables[tid]
        if gone:
            self.changed()

    def start(self) -> None:
        self.sweeper = asyncio.get_running_loop().create_task(self.sweep(), name="expiry-sweep")

    async def stop(self, seconds: float = STOP_SECONDS) -> bool:
        """Stop every table and the hub's own tasks (the expiry sweep, rebuilds in the worker) at once,
        within 3 x `seconds` in all (`TableRunner.stop`); True if everything ended in time."""
        own = end_tasks([self.sweeper, *self.builds.values()], seconds, "the hub stopping")
        ended = await asyncio.gather(own, *(r.stop(seconds) for r in list(self.tables.values())))
        return all(ended)

    # ------------------------------------------------------------------ tables
    def live_tables(self, creator: str | None = None) -> int:
        """Unfinished tables held now (the server refuses new ones past its limit), or those of them
        created from one address key since the server started."""
        if creator is not None:
            mine = [self.rows.get(t) for t, k in self.creators.items() if k == creator]
            return sum(1 for r in mine if r is not None and r.status == "playing" and not r.damaged)
        return sum(1 for k in self.live_order if self.rows[k[1]].status == "playing" and not self.rows[k[1]].damaged)

    async def create(
        self, spec: TableIn, creator: str = "", device_token: str | None = None
    ) -> tuple[TableRunner, dict[int, str]]:
        """A new table, stored (on the database's thread) before anyone hears of it, and started; a
        pass-and-play table takes its device link's token (`device_token`), made by the caller."""
        if spec.pass_and_play and device_token is None:
            raise ValueError("a pass-and-play table needs its device link's token")
        known = {s["id"] for s in available_sets()}
        bad = [s for s in spec.sets if s not in known]
        if bad:
            raise HTTPException(422, f"unknown card set(s) {', '.join(bad)}; available: {', '.join(sorted(known))}")
        row, tokens = new_table_row(
            spec.name.strip(),
            list(dict.fromkeys(spec.sets)),
            [s.model_dump() for s in spec.seats],
            spec.options.model_dump(),
            spec.window_seconds,
            spec.bot_delay,
            spec.seed,
            away_seconds=spec.away_seconds,
            join_seconds=spec.join_seconds,
            turn_clock=spec.turn_clock,
            allow_wait=spec.allow_wait,
            device_token=device_token if spec.pass_and_play else None,
            chat=spec.chat,
            spectator_chat=spec.spectator_chat,
        )
        try:
            runner = TableRunner(row, self.store, self.turn, fresh=True, clock=self.clock)
        except MunchkinError as exc:
            raise HTTPException(422, str(exc)) from None
        # a fair table dealt at once (bots only) noted the sexes and Houses it drew in its config, so a restart
        # deals the same table; one with people is dealt once they have given entropy (TableRunner._deal)
        await self.store.run(self.store.create_table, row, runner.deal_chance() if runner.dealt else [])
        self._add(row)
        self._keep(runner)
        if creator:
            self.creators[row.id] = creator
        runner.start()
        self.changed()
        return runner, tokens

    def row(self, table_id: str) -> TableRow:
        r = self.rows.get(table_id)
        if r is None:
            raise HTTPException(404, f"no table {table_id!r}")
        return r

    def get(self, table_id: str) -> TableRunner:
        """A table's game, rebuilt from storage here if it is not in memory (it blocks: for tests and
        tools; the server itself uses `open`); 404 if there is no such table, 409 if it is damaged."""
        row = self.row(table_id)
        with self.building:
            r = self.tables.get(table_id)
            if r is None and not row.damaged:
                r = self._runner(row)
            if r is None:
                raise HTTPException(409, f"table {table_id} is stopped: its stored data is damaged: {row.damaged}")
            r.ensure_replayed()
        return r

    async def open(self, table_id: str) -> TableRunner:
        """A table for someone who connects: in memory already, or a finished table brought back from the
        worker process (one rebuild however many connect at once); 404 if there is no such table, 409 if
        its stored data is damaged."""
        row = self.row(table_id)
        runner = self.tables.get(table_id)
        if runner is not None:
            return runner
        if row.damaged or row.status != "over":  # an unfinished table that is not in memory could not be loaded
            why = row.damaged or "it could not be restored"
            raise HTTPException(409, f"table {table_id} is stopped: its stored data is damaged: {why}")
        finished = await self._shared(("finished", table_id), lambda: self._build_finished(row))
        chat = await self.store.run(self._stored_chat, table_id)
        runner = self.tables.get(table_id)  # another connection may have brought it back meanwhile
        if runner is None:
            runner = FinishedRunner(row, self.store, finished, self.turn)
            runner.restore_chat(*chat)
            self._keep(runner)
        return runner

    async def _build_finished(self, row: TableRow) -> Any:
        return await self._rebuild(row, rebuild_finished)

    async def _rebuild(self, row: TableRow, make: Callable[..., T], *extra: Any) -> T:
        """`make(setup, rules, actions, chance, *extra)` in the worker process, from the table's stored rows
        (read on the database's thread); rows that do not make a finished game mark the table damaged (409)."""
        try:
            actions, chance = await self.store.run(self._stored_rows, row.id)
            return await in_worker(make, table_setup(row), table_rules(row), actions, chance, *extra)
        except BrokenProcessPool:
            raise HTTPException(503, "the server cannot rebuild games just now: try again in a minute") from None
        except Exception as exc:  # DamagedTable, or a config or row that cannot be used
            raise self._damaged(
                row, str(exc) if isinstance(exc, DamagedTable) else f"{type(exc).__name__}: {exc}"
            ) from None

    def _stored_chat(self, table_id: str) -> tuple[list[dict[str, Any]], int]:
        return self.store.chat(table_id, CHAT_KEPT), self.store.chat_count(table_id)

    def _stored_rows(self, table_id: str) -> tuple[list[list[Any]], list[list[Any]]]:
        return self.store.actions(table_id), self.store.chance(table_id)

    def _damaged(self, row: TableRow, why: str) -> HTTPException:
        """A stored game that does not replay: the table is listed as stopped from now on."""
        row.damaged = row.damaged or why
        log.error("table %s (%r) is stopped: its stored data is damaged: %s", row.id, row.name, why)
        if not any(k == _key(row) for k in self.live_order):
            bisect.insort(self.live_order, _key(row))
        self.changed()
        return HTTPException(409, f"table {row.id}'s stored game is damaged ({why}): it has no replay")

    async def _shared(self, key: tuple[str, str], make: Callable[[], Awaitable[T]]) -> T:
        """The result of `make()`, started once for everyone who asks while it runs."""
        task = self.builds.get(key)
        if task is None:
            task = asyncio.ensure_future(make())
            self.builds[key] = task
            task.add_done_callback(lambda _t: self.builds.pop(key, None))
        result: T = await asyncio.shield(task)
        return result

    def summary(self, table_id: str) -> dict[str, Any]:
        r = self.tables.get(table_id)
        return r.summary() if r is not None else table_summary(self.row(table_id))

    # ------------------------------------------------------------------ the lobby's list
    def etag(self, status: str, limit: int, after: str | None) -> str:
        """The ETag of one page as things stand: it changes whenever anything the lobby lists changes."""
        made = hashlib.blake2b(f"{status}|{limit}|{after or ''}".encode(), digest_size=6).hexdigest()
        return f'"{self.boot}-{self.version}-{made}"'

    def page_body(self, status: str, limit: int, after: str | None) -> bytes:
        """One page of the list as JSON, made once for the current state however many poll it."""
        key = (status, limit, after)
        hit = self.pages.get(key)
        if hit is not None and hit[0] == self.version:
            return hit[1]
        body = json.dumps(self.page(status, limit, after)).encode()
        self.pages[key] = (self.version, body)
        while len(self.pages) > PAGE_CACHE:
            self.pages.popitem(last=False)
        return body

    def page(self, status: str, limit: int, after: str | None) -> dict[str, Any]:
        """One page of the lobby's list, newest first, filtered by status, with the count of each status.
        It walks the index from the cursor back, and a filter on unfinished tables walks only those, so
        a page costs the same with a hundred thousand finished tables stored as with none."""
        start = parse_cursor(after) if after else None
        keys = self.order if status in ("all", "over") else self.live_order
        end = bisect.bisect_left(keys, start) if start is not None else len(keys)
        chosen: list[TableRow] = []
        more = False
        for i in range(end - 1, -1, -1):
            row = self.rows[keys[i][1]]
            kind = self._status(row)
            if status != "all" and status != kind and not (status == "open" and kind == "playing" and self._open(row)):
                continue
            if len(chosen) == limit:
                more = True
                break
            chosen.append(row)
        return {
            "tables": [self.summary(r.id) for r in chosen],
            "next": cursor_of(chosen[-1]) if more and chosen else None,
            "counts": self.counts(),
        }

    def counts(self) -> dict[str, int]:
        """How many tables of each status: the unfinished ones counted one by one, the finished by number."""
        counts = {"open": 0, "playing": 0, "over": len(self.order) - len(self.live_order), "stopped": 0}
        for key in self.live_order:
            row = self.rows[key[1]]
            kind = self._status(row)
            counts[kind] += 1
            if kind == "playing" and self._open(row):
                counts["open"] += 1
        return counts

    def _status(self, row: TableRow) -> str:
        r = self.tables.get(row.id)
        if row.damaged or (r is not None and r.failed):
            return "stopped"
        return "over" if row.status == "over" else "playing"

    @staticmethod
    def _open(row: TableRow) -> bool:
        return any(s.kind == "human" and not s.claimed for s in row.seats)

    # ------------------------------------------------------------------ replays
    def cached_replay(self, table_id: str) -> bytes | None:
        """A finished game's save from memory, if it was downloaded lately (no thread, no database)."""
        body = self.replays.get(table_id)
        if body is not None:
            self.replays.move_to_end(table_id)
        return body

    def cache_replay(self, table_id: str, body: bytes) -> None:
        """Keep a downloaded save in memory, dropping the least recently asked for past the budget."""
        if table_id in self.replays:
            return
        self.replays[table_id] = body
        self.replay_bytes += len(body)
        while self.replay_bytes > REPLAY_CACHE_BYTES and len(self.replays) > 1:
            _, old = self.replays.popitem(last=False)
            self.replay_bytes -= len(old)

    async def replay(self, table_id: str) -> bytes:
        """A finished game's save: from memory, else from storage (on the database's thread), else made
        once in the worker process from the stored rows and stored, however many ask for it at once.
        Raises HTTPException: 404 no such table, 409 a game still on or a damaged one."""
        row = self.row(table_id)
        if row.damaged:
            raise HTTPException(409, f"table {table_id}'s stored game is damaged ({row.damaged}): it has no replay")
        if row.status != "over":
            raise HTTPException(409, "the game is still on: its log holds every player's hidden cards")
        body = self.cached_replay(table_id)
        if body is None:
            body = await self._shared(("replay", table_id), lambda: self._make_replay(row))
        chat = await self.store.run(self.store.chat, table_id, None, True)
        return with_chat(body, chat)

    async def _make_replay(self, row: TableRow) -> bytes:
        runner = self.tables.get(row.id)
        text: str | None = None
        if runner is not None and runner.replay_task is not None:  # the game ended here: its save is on its way
            text = await asyncio.shield(runner.replay_task)
        if text is None:
            text = await self.store.run(self.store.replay, row.id)
        if text is None:
            fair = row.config.get("fair")  # a fair table's save reveals its record (the game is over)
            text = await self._rebuild(row, rebuild_save, fair if isinstance(fair, dict) else None)
            await self.store.run(self.store.save_replay, row.id, text)
        body = text.encode()
        self.cache_replay(row.id, body)
        return body


def with_chat(save: bytes, chat: list[dict[str, Any]]) -> bytes:
    """A finished game's save with the table's chat said to everyone added under "chat" (never a
    whisper: `Store.chat(public=True)`); a save without chat as it is. The save is not parsed: the
    lines are spliced in before its closing brace."""
    if not chat:
        return save
    body = save.rstrip()
    if not body.endswith(b"}"):
        data = json.loads(save)
        data["chat"] = chat
        return json.dumps(data).encode()
    return body[:-1] + b', "chat": ' + json.dumps(chat).encode() + b"}"


__all__ = ["Hub", "available_sets", "with_chat"]
