"""Bounded waits for the tests: wait for something to happen, never for ever and never against the
machine's speed. A test's timers run on a `ManualClock` it moves by hand; what it waits for here is
work (a table's loop reacting, a write, a page drawing), and `PATIENCE` is only where it gives up and
calls that work lost: far above what the work takes on a loaded machine, far below the per-test
timeout (pyproject.toml), so a hang fails with its own message first."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

PATIENCE = 120.0  # seconds: what takes a few milliseconds on a quiet machine is called lost after this


async def until(condition: Callable[[], object], what: str, seconds: float = PATIENCE, step: float = 0.01) -> None:
    """On an event loop: wait until `condition()` is true; fail naming `what` after `seconds`."""
    give_up = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > give_up:
            raise AssertionError(f"never happened within {seconds:.0f} s: {what}")
        await asyncio.sleep(step)


def until_sync(condition: Callable[[], object], what: str, seconds: float = PATIENCE, step: float = 0.02) -> None:
    """Off any event loop (a server in another thread or process): as `until`."""
    give_up = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > give_up:
            raise AssertionError(f"never happened within {seconds:.0f} s: {what}")
        time.sleep(step)


async def bounded(work: Awaitable[T], what: str, seconds: float = PATIENCE) -> T:
    """Await `work`, failing naming `what` after `seconds` (it is cancelled then)."""
    try:
        return await asyncio.wait_for(work, seconds)
    except TimeoutError:
        raise AssertionError(f"not done within {seconds:.0f} s: {what}") from None
