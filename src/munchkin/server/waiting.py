"""Bounded waits for the server's tasks: an event awaited with a timeout that never swallows a cancel,
and a group of tasks ended (or waited for) within a bound, so that stopping a table or the server
returns in bounded time whatever its tasks are doing."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("munchkin.server")

RECANCEL_SECONDS = 0.25  # while a cancelled task has not ended, it is cancelled again this often


async def wait_event(event: asyncio.Event, timeout: float | None) -> bool:
    """Wait until `event` is set, at most `timeout` seconds (None: without end); True if it was set.

    Python 3.11's `asyncio.wait_for` returns the awaited result when a cancel arrives just as that result
    does, and so swallows the cancel (a table's loop then waited on, and its stop with it, for ever);
    `asyncio.timeout` hands a cancel on in every case."""
    if timeout is None:
        await event.wait()
        return True
    try:
        async with asyncio.timeout(max(0.0, timeout)):
            await event.wait()
    except TimeoutError:
        return event.is_set()
    return True


def _collect(tasks: Iterable[asyncio.Future[Any]]) -> None:
    """Read the outcome of tasks that ended, so that none is reported as never retrieved."""
    for t in tasks:
        if t.done() and not t.cancelled():
            t.exception()


async def end_tasks(tasks: Iterable[asyncio.Future[Any] | None], seconds: float, what: str) -> bool:
    """Cancel `tasks` and wait at most `seconds` for them to end, cancelling again any that goes on (a
    task may swallow one cancel in a library's code); True if all ended. What did not is logged under
    `what` and left behind."""
    pending = {t for t in tasks if t is not None and not t.done()}
    if not pending:
        return True
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    while pending:
        for t in pending:
            t.cancel()
        left = until - loop.time()
        if left <= 0:
            break
        done, pending = await asyncio.wait(pending, timeout=min(RECANCEL_SECONDS, left))
        _collect(done)
    if pending:
        log.error(
            "%s: %d task(s) did not end within %.1f s of being cancelled: %s",
            what,
            len(pending),
            seconds,
            ", ".join(sorted(_name(t) for t in pending)),
        )
        return False
    return True


async def finish_tasks(tasks: Iterable[asyncio.Future[Any] | None], seconds: float, what: str) -> bool:
    """Wait at most `seconds` for `tasks` to finish by themselves (writes whose loss would lose what
    people were shown), then cancel what is left (`end_tasks`); True if all finished in time."""
    pending = {t for t in tasks if t is not None and not t.done()}
    if not pending:
        return True
    done, pending = await asyncio.wait(pending, timeout=seconds)
    _collect(done)
    if not pending:
        return True
    log.error(
        "%s: %d task(s) still at work after %.1f s: cancelled (their database calls may still end): %s",
        what,
        len(pending),
        seconds,
        ", ".join(sorted(_name(t) for t in pending)),
    )
    await end_tasks(pending, seconds, what)
    return False


def _name(t: asyncio.Future[Any]) -> str:
    return t.get_name() if isinstance(t, asyncio.Task) else repr(t)
