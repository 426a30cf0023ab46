"""All tables of one server: created, restored after a restart, looked up."""

from __future__ import annotations

import asyncio
import logging
import math
import threading
from collections import OrderedDict
from typing import Any

from fastapi import HTTPException

from munchkin.cards.loader import available_sets as set_names
from munchkin.cards.loader import load_set
from munchkin.engine.actions import MunchkinError
from munchkin.server.config import ServerSettings
from munchkin.server.models import TableIn
from munchkin.server.store import Store, TableRow, now
from munchkin.server.tables import TableRunner, new_table_row, rebuild_replay, table_summary

log = logging.getLogger("munchkin.server")

REPLAY_CACHE_BYTES = 32 * 1024 * 1024  # finished games' saves kept in memory for repeated downloads


def available_sets() -> list[dict[str, str]]:
    """Every card set: those shipped in the package and designers' folders (`munchkin serve --set-dir`)."""
    return [{"id": name, "name": load_set(name).title} for name in set_names()]


def _key(row: TableRow) -> tuple[float, str]:
    return (row.created, row.id)


def cursor_of(row: TableRow) -> str:
    return f"{row.created!r}_{row.id}"


def parse_cursor(text: str) -> tuple[float, str]:
    """A page cursor back into its (created, id) key; a bad one is refused with why."""
    created, sep, tid = text.partition("_")
    try:
        value = float(created)
    except ValueError:
        value = math.nan
    if not sep or not tid or not math.isfinite(value):
        raise HTTPException(422, f"{text[:40]!r} is not a page cursor: use the 'next' of the previous page")
    return (value, tid)


class Hub:
    """All tables of this server: every table's row (light), and the games of those being played or watched."""

    def __init__(self, store: Store, settings: ServerSettings | None = None) -> None:
        self.store = store
        self.settings = settings or ServerSettings()
        self.rows: dict[str, TableRow] = {}  # every table, newest last
        self.tables: dict[str, TableRunner] = {}  # tables whose game is in memory
        self.turn = asyncio.Lock()
        self.building = threading.Lock()
        self.replays: OrderedDict[str, bytes] = OrderedDict()  # saves downloaded lately, newest last
        self.replay_bytes = 0
        self.sweeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ start-up and expiry
    def load(self) -> None:
        """Forget expired tables, then rebuild every unfinished game; finished ones are rebuilt only when
        someone watches them. A table whose rows cannot be read is marked stopped; the others serve."""
        self.expire_stored()
        for row in self.store.tables():
            self.rows[row.id] = row
            if row.damaged:
                log.error("table %s (%r) is stopped: its stored data is damaged: %s", row.id, row.name, row.damaged)
                continue
            if row.status == "over":
                continue
            runner = self._runner(row)
            if runner is None:
                continue
            runner.ensure_replayed()
            if not runner.failed and not runner.game.over:
                runner.start()

    def _runner(self, row: TableRow) -> TableRunner | None:
        """A table's game in memory (rebuilt on first use); None, with the row marked, if its config is damaged."""
        try:
            runner = TableRunner(row, self.store, self.turn)
        except Exception as exc:  # a damaged config must not keep the server or the other tables down
            row.damaged = row.damaged or f"its config cannot be used ({type(exc).__name__}: {exc})"
            log.error("table %s (%r) is stopped: %s", row.id, row.name, row.damaged)
            return None
        self.tables[row.id] = runner
        return runner

    def expire_stored(self) -> list[str]:
        """Delete the stored tables that have expired and nobody is at; returns their ids."""
        t = now()
        cfg = self.settings
        ids = self.store.expired(t - cfg.expire_unjoined_minutes * 60, t - cfg.expire_idle_hours * 3600)
        ids = [i for i in ids if i not in self.tables or not self.tables[i].clients]
        if ids:
            self.store.delete_tables(ids)
            log.info("%d expired tables removed", len(ids))
        return ids

    async def sweep(self) -> None:
        """Now and then: remove expired tables, and free the games of finished tables nobody watches."""
        while True:
            await asyncio.sleep(self.settings.expiry_sweep_seconds)
            try:
                await self.sweep_once()
            except Exception:  # the sweep must go on; the next one tries again
                log.exception("the expiry sweep failed")

    async def sweep_once(self) -> None:
        for tid in self.expire_stored():
            runner = self.tables.pop(tid, None)
            if runner is not None:
                await runner.stop()
            self.rows.pop(tid, None)
        for tid, runner in list(self.tables.items()):
            if runner.row.status == "over" and not runner.clients and runner.replay_task_done():
                del self.tables[tid]

    def start(self) -> None:
        self.sweeper = asyncio.get_running_loop().create_task(self.sweep(), name="expiry-sweep")

    async def stop(self) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
        await asyncio.gather(*(r.stop() for r in self.tables.values()))

    # ------------------------------------------------------------------ tables
    def live_tables(self) -> int:
        """Unfinished tables held now (the server refuses new ones past its limit)."""
        return sum(1 for r in self.rows.values() if r.status == "playing" and not r.damaged)

    def create(self, spec: TableIn) -> tuple[TableRunner, dict[int, str]]:
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
            turn_clock=spec.turn_clock,
            allow_wait=spec.allow_wait,
        )
        try:
            runner = TableRunner(row, self.store, self.turn, fresh=True)
        except MunchkinError as exc:
            raise HTTPException(422, str(exc)) from None
        if spec.seed is None:  # the sexes and Houses the game drew: stored, so a restart deals the same table
            drawn = runner.game.setup
            row.config["sexes"], row.config["houses"] = drawn.sexes, drawn.houses
            runner.setup = drawn
        self.store.create_table(row, runner.deal_chance())
        self.rows[row.id] = row
        self.tables[row.id] = runner
        runner.start()
        return runner, tokens

    def row(self, table_id: str) -> TableRow:
        r = self.rows.get(table_id)
        if r is None:
            raise HTTPException(404, f"no table {table_id!r}")
        return r

    def get(self, table_id: str) -> TableRunner:
        """A table's game, rebuilt from storage if it is not in memory; 404 if there is no such table,
        409 if its stored rows are damaged."""
        row = self.row(table_id)
        with self.building:  # worker threads may rebuild finished games: one at a time, each once
            r = self.tables.get(table_id)
            if r is None and not row.damaged:
                r = self._runner(row)
            if r is None:
                raise HTTPException(409, f"table {table_id} is stopped: its stored data is damaged: {row.damaged}")
            r.ensure_replayed()
        return r

    def summary(self, table_id: str) -> dict[str, Any]:
        r = self.tables.get(table_id)
        return r.summary() if r is not None else table_summary(self.row(table_id))

    def page(self, status: str, limit: int, after: str | None) -> dict[str, Any]:
        """One page of the lobby's list, newest first, filtered by status, with the count of each status."""
        counts = {"open": 0, "playing": 0, "over": 0, "stopped": 0}
        chosen: list[TableRow] = []
        start = parse_cursor(after) if after else None
        more = False
        for row in sorted(self.rows.values(), key=_key, reverse=True):
            kind = self._status(row)
            counts[kind] += 1
            if kind == "playing" and self._open(row):
                counts["open"] += 1
            if status != "all" and status != kind and not (status == "open" and kind == "playing" and self._open(row)):
                continue
            if start is not None and _key(row) >= start:
                continue
            if len(chosen) < limit:
                chosen.append(row)
            else:
                more = True
        return {
            "tables": [self.summary(r.id) for r in chosen],
            "next": cursor_of(chosen[-1]) if more and chosen else None,
            "counts": counts,
        }

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

    def replay(self, table_id: str) -> str:
        """A finished game's save, from storage (made once); raises HTTPException when there is none.
        Runs in a worker thread: it may read the database and, once, rebuild the game."""
        row = self.row(table_id)
        if row.damaged:
            raise HTTPException(409, f"table {table_id}'s stored game is damaged ({row.damaged}): it has no replay")
        if row.status != "over":
            raise HTTPException(409, "the game is still on: its log holds every player's hidden cards")
        body = self.store.replay(table_id)
        if body is None:
            body = rebuild_replay(row, self.store)
        return body
