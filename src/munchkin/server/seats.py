"""Who is at a table, a part of `TableRunner`: the seat a token opens, people joining and leaving, and
stand-ins (a bot for a person not joined yet or away: when it comes in), every seat as everyone sees it."""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from collections.abc import Callable
from typing import Any

from munchkin.engine.actions import MunchkinError
from munchkin.engine.game import Game
from munchkin.server.clients import Client
from munchkin.server.store import SeatRow, token_hash
from munchkin.server.table_state import TableState, _loop_running

log = logging.getLogger("munchkin.server")


class Seats(TableState):
    """Who is at the table: tokens, people joining and leaving, and the bots standing in for absent ones."""

    # ------------------------------------------------------------------ tokens
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

    def _tell_stand_ins(self) -> None:
        """A bot came in for someone, or gave a seat back: everyone is told at once."""
        standing = self._stand_ins()
        if standing != self.shown_stand_ins:
            self.shown_stand_ins = standing
            self._touch_all()
            self.on_change()

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

    # ------------------------------------------------------------------ joining and leaving
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
