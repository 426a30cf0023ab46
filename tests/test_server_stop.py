"""Stopping a table, and the server, returns in bounded time in every state a table can be in: waiting for
its deal (the entropy window), for a stand-in or a response window's clock, a bot thinking in a worker, a
write on the database's thread, a socket that takes nothing (half-open), a task that swallows a cancel.

Each test wakes the table in the same moment it stops it, as a person's message or a finished write does:
Python 3.11's `asyncio.wait_for` swallowed a cancel that came with its result, and the table's loop then
waited on for ever, and `Hub.stop` with it (issue 49: the test suite hung for half an hour on a busy
machine). Every wait here is bounded by `asyncio.wait_for`, so a stop that hangs fails the test. The
helpers of tests/test_server_clock.py are imported inside the two tests that use them, so that this file
runs as it is against the server before that fix (where three of its tests fail on a stop that hangs)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from munchkin.server import tables
from munchkin.server.hub import Hub
from munchkin.server.models import TableIn
from munchkin.server.store import Store
from munchkin.server.tables import Client, TableRunner
from waits import PATIENCE, until

NAMES = ["Ann", "Bob", "Cy", "Di"]
BOUND = PATIENCE  # a stop (its own bound: 3 x 5 s) that has not returned after this counts as hung
SHORT = 0.5  # the stop's own bound where a test makes a step outlast it on purpose


class Sink:
    """A socket that takes whatever it is sent."""

    async def send_text(self, data: str) -> None:
        pass


class HalfOpen:
    """A socket whose peer went away without closing: a send never completes."""

    async def send_text(self, data: str) -> None:
        await asyncio.Event().wait()


class Stubborn:
    """A socket in a library that swallows the first cancel of a send (and then waits on)."""

    def __init__(self) -> None:
        self.swallowed = 0

    async def send_text(self, data: str) -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.swallowed += 1
        await asyncio.Event().wait()


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    """An event that threads blocked by a test wait on; set at the test's end so that none is left."""
    g = threading.Event()
    yield g
    g.set()


def seats(*kinds: str, strength: str = "easy") -> list[dict[str, Any]]:
    return [{"name": NAMES[i], "kind": k, "strength": strength} for i, k in enumerate(kinds)]


async def stop_now(stopping: Any, wake: list[TableRunner]) -> Any:
    """Wake the tables and stop in the same moment (the race that swallowed the cancel); bounded."""
    for r in wake:
        r.wake.set()
    try:
        return await asyncio.wait_for(stopping, BOUND)
    except TimeoutError:
        raise AssertionError(f"the stop did not return within {BOUND} s") from None


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def hub_of(tmp: Path) -> Hub:
    return Hub(Store(f"sqlite:///{tmp / 'stop.db'}"))


def ended(r: TableRunner) -> None:
    assert r.task is not None and r.task.done(), "the table's loop is still running"
    assert all(c.task is None or c.task.done() for c in r.clients), "a sender is still running"


def test_stop_while_the_entropy_window_is_open(tmp_path: Path) -> None:
    async def go() -> None:
        hub = hub_of(tmp_path)
        r, _ = await hub.create(TableIn(name="deal", seats=seats("human", "human", "bot"), bot_delay=0))  # type: ignore[arg-type]
        r.join(Client(Sink(), 0))  # Ann sat down: the window's clock runs, Bob is waited for
        await asyncio.sleep(0.05)
        assert not r.dealt and r.task is not None and not r.task.done()
        assert await stop_now(hub.stop(), [r]) is True
        ended(r)
        hub.store.close()

    run(go())


def test_stop_while_a_stand_in_is_due(tmp_path: Path) -> None:
    async def go() -> None:
        hub = hub_of(tmp_path)
        spec = TableIn(name="away", seats=seats("human", "human", "bot"), bot_delay=0, seed=7)  # type: ignore[arg-type]
        r, _ = await hub.create(spec)
        r.join(Client(Sink(), 0))
        bob = Client(Sink(), 1)
        r.join(bob)
        await until(lambda: r.game.to_act and all(s != 2 for s in r.game.to_act), "a person's decision")
        r.leave(bob)  # Bob went away: his stand-in comes in after the table's away time
        await asyncio.sleep(0.05)
        assert r._next_stand_in_time() is not None
        assert await stop_now(hub.stop(), [r]) is True
        ended(r)
        hub.store.close()

    run(go())


def test_stop_while_a_response_window_counts_down(tmp_path: Path) -> None:
    from test_server_clock import drive, fight_window, make_runner

    async def go() -> None:
        r = make_runner(tmp_path, ["human", "human", "bot"], seed=3)
        drive(r, fight_window({0, 1}, own=True))  # Ann's or Bob's fight: the other answers on the clock
        r.window_seconds = 60
        r.join(Client(Sink(), 0))
        r.start()
        await until(lambda: r.deadline is not None, "the window's countdown")
        assert await stop_now(r.stop(), [r]) is True
        ended(r)
        r.store.close()

    run(go())


def test_stop_while_a_bot_thinks_in_the_worker(
    tmp_path: Path, gate: threading.Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    thinking = threading.Event()

    def think(*_args: Any) -> Any:  # a search that takes longer than the server will wait
        thinking.set()
        gate.wait(60)
        raise RuntimeError("the test let the search go")

    pool = ThreadPoolExecutor(1)
    monkeypatch.setattr(tables, "bot_pool", lambda: pool)
    monkeypatch.setattr(tables, "think", think)

    async def go() -> None:
        hub = hub_of(tmp_path)
        spec = TableIn(name="think", seats=seats("bot", "bot", "bot", strength="hard"), bot_delay=0, seed=3)  # type: ignore[arg-type]
        r, _ = await hub.create(spec)
        await until(thinking.is_set, "a search in the worker")
        assert await stop_now(hub.stop(), [r]) is True
        ended(r)
        hub.store.close()

    run(go())
    gate.set()
    pool.shutdown(wait=True)


def test_stop_while_a_write_is_pending_waits_for_it_within_its_bound(
    tmp_path: Path, gate: threading.Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that ends within the bound is waited for (what people were shown is stored); one that does
    not is left behind after the bound, and both the stop and the store's close still return."""
    writing = threading.Event()
    real = Store.append_actions

    def slow(self: Store, *args: Any) -> None:
        writing.set()
        gate.wait(60)
        real(self, *args)

    monkeypatch.setattr(Store, "append_actions", slow)
    from test_server_clock import move

    async def go(release_after: float | None) -> tuple[bool, bool, int, int]:
        hub = hub_of(tmp_path)
        spec = TableIn(name="write", seats=seats("human", "bot", "bot"), bot_delay=0, seed=5)  # type: ignore[arg-type]
        r, _ = await hub.create(spec)
        r.join(Client(Sink(), 0))
        r.act(0, move(r.game, 0), r.game.version)  # Ann moves: her move is written, the bots' after it
        await until(writing.is_set, "a write on the database's thread")
        if release_after is not None:
            asyncio.get_running_loop().call_later(release_after, gate.set)
        stopped = await stop_now(hub.stop(SHORT * 4 if release_after is not None else SHORT), [r])
        ended(r)
        closed = hub.store.close(SHORT)
        return stopped, closed, r.stored, len(Store(f"sqlite:///{tmp_path / 'stop.db'}").actions(r.id))

    stopped, closed, shown, stored = run(go(release_after=0.2))
    assert (
        stopped is True and closed is True and shown > 0 and stored == shown
    )  # the pending write was waited for, and stored
    gate.clear()
    writing.clear()
    (tmp_path / "stop.db").unlink()
    stopped, closed, shown, _ = run(go(release_after=None))
    assert (
        stopped is False and closed is False
    )  # the write outlasted the bound: left behind, said so, and the stop returned
    gate.set()


def test_closing_the_store_does_not_wait_for_ever_on_a_stuck_call(tmp_path: Path, gate: threading.Event) -> None:
    store = Store(f"sqlite:///{tmp_path / 'stuck.db'}")

    async def go() -> None:
        stuck = asyncio.ensure_future(store.run(gate.wait, 60))
        queued = asyncio.ensure_future(store.run(lambda: None))
        await asyncio.sleep(0.05)
        assert store.close(SHORT) is False
        await asyncio.wait([queued], timeout=BOUND)
        assert queued.cancelled()  # a call queued behind the stuck one is dropped
        gate.set()
        assert await asyncio.wait_for(stuck, BOUND) is True

    run(go())


@pytest.mark.parametrize("socket", [HalfOpen, Stubborn])
def test_stop_while_a_socket_takes_nothing(tmp_path: Path, socket: type) -> None:
    async def go() -> None:
        hub = hub_of(tmp_path)
        spec = TableIn(name="socket", seats=seats("human", "bot", "bot"), bot_delay=0, seed=11)  # type: ignore[arg-type]
        r, _ = await hub.create(spec)
        s = socket()
        c = Client(s, 0)
        r.join(c)
        await asyncio.sleep(0.1)
        assert c.task is not None and not c.task.done()
        assert await stop_now(hub.stop(), [r]) is True
        ended(r)
        if isinstance(s, Stubborn):
            assert s.swallowed == 1  # cancelled again after swallowing the first
        hub.store.close()

    run(go())


def test_the_hub_stops_every_table_at_once_whatever_each_is_doing(tmp_path: Path, gate: threading.Event) -> None:
    """Many tables in different states, the expiry sweep running: one stop ends them all."""

    async def go() -> None:
        hub = hub_of(tmp_path)
        hub.start()
        runners = []
        for i, kinds in enumerate([("human", "human", "bot"), ("human", "bot", "bot"), ("bot", "bot", "bot")] * 3):
            spec = TableIn(name=f"t{i}", seats=seats(*kinds), bot_delay=0.01 * (i % 2), seed=i if i % 3 else None)  # type: ignore[arg-type]
            r, _ = await hub.create(spec)
            if i % 2:
                r.join(Client(HalfOpen() if i % 4 == 1 else Sink(), 0))
            runners.append(r)
        await asyncio.sleep(0.2)
        assert await stop_now(hub.stop(), runners) is True
        for r in runners:
            ended(r)
        assert hub.sweeper is not None and hub.sweeper.done()
        hub.store.close()

    run(go())
