"""The time a table keeps: its countdowns, stand-ins, holds and bot delays read `Clock.monotonic` and wait
with `Clock.wait`. The server runs on the wall clock (`Clock`); a test hands a table a `ManualClock`
and moves it by hand, so that no test of a timer depends on how fast the machine is."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from munchkin.server.waiting import wait_event


class Clock:
    """The machine's monotonic clock: what a server's tables run on."""

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (its start means nothing)."""
        return time.monotonic()

    async def wait(self, event: asyncio.Event, until: float | None) -> bool:
        """Wait until `event` is set or this clock reads `until` (None: no end); True if the event was set."""
        return await wait_event(event, None if until is None else until - self.monotonic())

    async def sleep(self, seconds: float) -> None:
        """Let `seconds` pass on this clock (0: just let the others run once)."""
        await asyncio.sleep(max(0.0, seconds))


class ManualClock(Clock):
    """A clock that stands still until `advance` moves it, waking whoever waits for the time it reaches;
    for tests (a table's whole loop runs on it, and a 2-minute away time passes in a call)."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._timers: list[tuple[float, asyncio.Future[Any]]] = []
        self._lock = threading.Lock()  # a test may move the clock from another thread than the server's loop
        self.turns = 0  # waits ended so far: a test that moved the clock sees when a table has woken and gone on

    def monotonic(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock on by `seconds`; the waits whose time has come end (on their loop's next turn)."""
        if seconds < 0:
            raise ValueError("a clock does not go back")
        with self._lock:
            self.now += seconds
            due = [fut for until, fut in self._timers if until <= self.now]
            self._timers = [(until, fut) for until, fut in self._timers if until > self.now]
        for fut in due:
            if not fut.done():
                fut.get_loop().call_soon_threadsafe(_settle, fut)

    def waiting(self) -> int:
        """How many waits with an end are under way (a test moves the clock once the table waits)."""
        return sum(1 for _, fut in self._timers if not fut.done())

    async def wait(self, event: asyncio.Event, until: float | None) -> bool:
        if event.is_set():
            return True
        if until is not None and until <= self.now:
            return False
        loop = asyncio.get_running_loop()
        timer: asyncio.Future[Any] = loop.create_future()
        if until is not None:
            with self._lock:
                self._timers.append((until, timer))
        setting: asyncio.Future[Any] = loop.create_task(event.wait())
        try:
            await asyncio.wait({setting, timer}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            setting.cancel()
            timer.cancel()
            with self._lock:
                self._timers = [(u, f) for u, f in self._timers if f is not timer]
            self.turns += 1
        return event.is_set()

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        await self.wait(asyncio.Event(), self.now + seconds)


def _settle(fut: asyncio.Future[Any]) -> None:
    if not fut.done():
        fut.set_result(None)
