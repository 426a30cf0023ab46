"""The worker process in which finished games are rebuilt (`in_worker`), so that no replay runs on the event
loop, and what every worker does first (`_follow_parent`); the bots' own pool is `tables.bot_pool`."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from munchkin.cards.loader import add_set_dir, set_dirs

log = logging.getLogger("munchkin.server")
T = TypeVar("T")

_replay_pool: ProcessPoolExecutor | None = None


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
