"""What keeps one table, one client or one request from holding up every other: replays and finished
tables rebuilt once in the worker process however many ask, no database call on the event loop,
a lobby list that costs the same with many finished tables and answers 304 before it is made,
finished tables kept for a set time, and a client that never reads dropped rather than buffered.

The apps' tables run on a `ManualClock` nobody moves (`test_server_tables.make_client`): nothing timed happens;
every wait for work is bounded (`waits`)."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from munchkin.agents.base import make_agent
from munchkin.engine.game import Game
from munchkin.server import hub as hub_module
from munchkin.server import tables
from munchkin.server.app import handle_message
from munchkin.server.hub import Hub, _key
from munchkin.server.store import SeatRow, Store, TableRow
from munchkin.server.tables import MAX_OUTBOX, Client, FinishedRunner, TableRunner
from test_server_tables import hub, make_client, new_table
from waits import PATIENCE, bounded, until, until_sync

Msg = dict[str, Any]


def wait_over(c: TestClient, tid: str) -> None:
    until_sync(lambda: c.get(f"/api/tables/{tid}").json()["status"] == "over", "the bot game ending", step=0.05)


def count_worker_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every call made to the worker process, by the name of what it ran."""
    calls: list[str] = []
    real = tables.in_worker

    async def counting(call: Callable[..., Any], *args: Any) -> Any:
        calls.append(call.__name__)
        return await real(call, *args)

    monkeypatch.setattr(tables, "in_worker", counting)
    monkeypatch.setattr(hub_module, "in_worker", counting)
    return calls


def no_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on (the server started), fail if the server hands anything to asyncio's thread pool
    (where a rebuild would hold the interpreter lock the tables in play need)."""

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("asyncio.to_thread was called")

    monkeypatch.setattr(asyncio, "to_thread", refuse)


def test_a_replay_asked_for_many_times_at_once_is_made_once_in_the_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "m.db"
    with make_client(db) as c:
        tid = new_table(c, ["bot", "bot", "bot"], seed=4)["table"]["id"]
        wait_over(c, tid)
    with sqlite3.connect(db) as con:  # as if the save had never been stored
        con.execute("DELETE FROM munchkin_replays")
    calls = count_worker_calls(monkeypatch)
    with make_client(db) as c:
        no_threads(monkeypatch)
        h = hub(c)
        assert tid not in h.tables

        async def eight() -> list[bytes]:
            return list(await bounded(asyncio.gather(*(h.replay(tid) for _ in range(8))), "eight replays"))

        bodies = c.portal.call(eight)  # type: ignore[union-attr]
        assert calls == ["rebuild_save"], calls
        assert len(set(bodies)) == 1 and Game.from_json(bodies[0].decode()).over
        assert c.get(f"/api/tables/{tid}/replay").content == bodies[0]
        assert calls == ["rebuild_save"], "the second download was made again"
    with sqlite3.connect(db) as con:
        (stored,) = con.execute("SELECT body FROM munchkin_replays WHERE table_id = ?", (tid,)).fetchone()
    assert stored.encode() == bodies[0], "the save made on demand is stored"


def test_a_just_ended_games_replay_is_its_one_save_however_many_poll(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = count_worker_calls(monkeypatch)
    with make_client(tmp_path / "m.db") as c:
        no_threads(monkeypatch)
        tid = new_table(c, ["bot", "bot", "bot"], seed=4)["table"]["id"]
        h = hub(c)

        async def poll_as_it_ends() -> list[bytes]:
            runner = h.tables[tid]
            # the moment the game has ended and its save is on its way (looked at on every turn of the loop)
            await until(lambda: runner.replay_task is not None, "the game ending and its save on its way", step=0)
            return list(await bounded(asyncio.gather(*(h.replay(tid) for _ in range(4))), "four replays"))

        bodies = c.portal.call(poll_as_it_ends)  # type: ignore[union-attr]
        assert calls == ["make_replay"], calls
        assert len(set(bodies)) == 1 and Game.from_json(bodies[0].decode()).over


def test_a_finished_table_is_brought_back_once_from_the_worker_and_shows_what_a_rebuild_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "m.db"
    with make_client(db) as c:
        made = new_table(c, ["human", "bot", "bot"], seed=7)
        tid, url = made["table"]["id"], made["links"][0]["url"]
        with c.websocket_connect(f"/ws/{tid}?" + url.split("?")[1]) as ws:
            ws.receive_json()
            runner = hub(c).tables[tid]
            runner.bots.agents[0] = make_agent("random", 1)  # a bot plays the person's seat to the end
            c.portal.call(runner.wake.set)  # type: ignore[union-attr]
            wait_over(c, tid)
    calls = count_worker_calls(monkeypatch)
    with make_client(db) as c:
        no_threads(monkeypatch)
        with c.websocket_connect(f"/ws/{tid}") as a, c.websocket_connect(f"/ws/{tid}") as b:
            states = []
            for ws in (a, b):
                assert ws.receive_json()["type"] == "hello"
                states.append(next(m for m in iter(ws.receive_json, None) if m["type"] == "state"))
            runner = hub(c).tables[tid]
            assert isinstance(runner, FinishedRunner) and calls == ["rebuild_finished"], calls
            with c.websocket_connect(f"/ws/{tid}?" + url.split("?")[1]) as seat:
                seat.receive_json()
                mine = next(m for m in iter(seat.receive_json, None) if m["type"] == "state")
        # the same messages as a table rebuilt here would send (the time it was made aside)
        full = TableRunner(hub(c).rows[tid], Store(f"sqlite:///{db}"))
        full.ensure_replayed()
        for seat_no, got in ((None, states[0]), (0, mine)):
            want = json.loads(full.state_message(Client(_Socket(), seat_no)))
            for m in (want, got):
                m.pop("at")
                m["seats"] = [{k: v for k, v in s.items() if k != "connected"} for s in m["seats"]]
            assert got == want
        assert states[0]["log"] and states[0]["view"]["over"] and "hand" not in json.dumps(states[0]["view"]["you"])


class _Socket:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, data: str) -> None:
        self.sent.append(data)


def test_no_database_call_runs_on_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Creating a table, a person joining, moves, leaving and the expiry sweep: each database call runs
    on the database's thread, so a slow database (a lock wait, a far server) freezes no table."""
    loop_threads: set[int] = set()
    called: list[str] = []

    def watch(name: str) -> None:
        real = getattr(Store, name)

        def wrapped(self: Store, *args: Any, **kwargs: Any) -> Any:
            called.append(name)
            assert threading.get_ident() not in loop_threads, f"Store.{name} ran on the event loop"
            return real(self, *args, **kwargs)

        monkeypatch.setattr(Store, name, wrapped)

    for name in ("create_table", "append_actions", "claim", "touch", "expired", "delete_tables", "save_replay"):
        watch(name)
    with make_client(tmp_path / "m.db", expire_unjoined_minutes=0.0, expiry_sweep_seconds=3600) as c:
        c.portal.call(lambda: loop_threads.add(threading.get_ident()))  # type: ignore[union-attr]
        made = new_table(c, ["human", "bot", "bot"], seed=1)
        tid, url = made["table"]["id"], made["links"][0]["url"]
        with c.websocket_connect(f"/ws/{tid}?" + url.split("?")[1]) as ws:
            ws.receive_json()
            state = next(m for m in iter(ws.receive_json, None) if m["type"] == "state" and m["actions"])
            ws.send_text(
                json.dumps({"type": "act", "action": state["actions"][0]["text"], "version": state["version"]})
            )
            next(m for m in iter(ws.receive_json, None) if m["type"] == "state" and m["version"] > state["version"])
        lonely = new_table(c, ["human", "bot", "bot"])["table"]["id"]
        c.portal.call(hub(c).sweep_once)  # type: ignore[union-attr]
        assert lonely not in hub(c).rows
    assert {"create_table", "append_actions", "claim", "touch", "expired", "delete_tables"} <= set(called), called


def test_the_lobby_answers_304_before_making_the_page_and_its_etag_follows_every_change(tmp_path: Path) -> None:
    with make_client(tmp_path / "m.db") as c:
        made = new_table(c, ["human", "bot", "bot"])
        tid, url = made["table"]["id"], made["links"][0]["url"]
        first = c.get("/api/tables")
        tag = first.headers["etag"]
        assert c.get("/api/tables").headers["etag"] == tag, "nothing changed, the ETag did"
        h = hub(c)
        real = h.page
        h.page = lambda *_a: (_ for _ in ()).throw(AssertionError("the page was made for a 304"))  # type: ignore[method-assign]
        assert c.get("/api/tables", headers={"If-None-Match": tag}).status_code == 304
        h.page = real  # type: ignore[method-assign]
        with c.websocket_connect(f"/ws/{tid}?" + url.split("?")[1]) as ws:  # a person sits down
            ws.receive_json()
            r = c.get("/api/tables", headers={"If-None-Match": tag})
            assert r.status_code == 200 and r.headers["etag"] != tag
            assert r.json()["tables"][0]["seats"][0]["connected"] is True
        assert c.get("/api/tables?status=open", headers={"If-None-Match": tag}).headers["etag"] != tag


def test_the_lobby_pages_match_a_plain_sort_over_many_tables(tmp_path: Path) -> None:
    """The index walked from a cursor gives the pages a full sort and filter would, for every status."""
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    h = Hub(store)
    rng = random.Random(5)
    for i in range(400):
        status = rng.choice(["over", "over", "over", "playing"])
        seats = [SeatRow(s, f"P{s}", rng.choice(["human", "bot"]), "random", "", rng.random() < 0.5) for s in range(3)]
        row = TableRow(f"t{i:03d}", "t", float(rng.randrange(50)), {}, status, 0, [], seats)
        row.damaged = "broken" if rng.random() < 0.05 else ""
        h._add(row)
    h.live_order = [k for k in h.order if not (h.rows[k[1]].status == "over" and not h.rows[k[1]].damaged)]

    def reference(status: str) -> list[str]:
        rows = sorted(h.rows.values(), key=_key, reverse=True)
        out = []
        for r in rows:
            kind = h._status(r)
            if status == "all" or kind == status or (status == "open" and kind == "playing" and h._open(r)):
                out.append(r.id)
        return out

    for status in ("all", "open", "playing", "over", "stopped"):
        for limit in (1, 7, 100):
            seen: list[str] = []
            after = None
            for _ in range(500):
                page = h.page(status, limit, after)
                seen += [t["id"] for t in page["tables"]]
                after = page["next"]
                if after is None:
                    break
            assert seen == reference(status), (status, limit)
    counts = h.page("all", 1, None)["counts"]
    assert counts["over"] == sum(1 for r in h.rows.values() if h._status(r) == "over")
    assert counts["stopped"] == sum(1 for r in h.rows.values() if r.damaged)
    store.close()


def test_finished_tables_are_deleted_after_the_retention_and_kept_with_none(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with make_client(db) as c:
        old, recent = (new_table(c, ["bot", "bot", "bot"], seed=s)["table"]["id"] for s in (4, 5))
        wait_over(c, old)
        wait_over(c, recent)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE munchkin_tables SET updated = updated - 31 * 86400 WHERE id = ?", (old,))
    with make_client(db, keep_finished_days=0) as c:  # 0: kept for ever
        assert {t["id"] for t in c.get("/api/tables").json()["tables"]} == {old, recent}
    with make_client(db) as c:  # the default, 30 days
        assert [t["id"] for t in c.get("/api/tables").json()["tables"]] == [recent]
        assert c.get(f"/api/tables/{old}/replay").status_code == 404
        assert c.get(f"/api/tables/{recent}/replay").status_code == 200
    with sqlite3.connect(db) as con:
        left = {t for (t,) in con.execute("SELECT table_id FROM munchkin_replays")}
        left |= {t for (t,) in con.execute("SELECT DISTINCT table_id FROM munchkin_actions")}
    assert left == {recent}


class _Stuck:
    """A client's socket that never takes what it is sent (its reader never reads)."""

    async def send_text(self, data: str) -> None:
        await asyncio.Event().wait()


def test_a_client_that_never_reads_is_dropped_once_its_replies_pile_up(tmp_path: Path) -> None:
    async def main() -> Client:
        store = Store(f"sqlite:///{tmp_path / 'm.db'}")
        h = Hub(store)
        runner, _ = await h.create(
            hub_module.TableIn(seats=[{"name": n, "kind": "human"} for n in ("A", "B", "C")], seed=1)  # type: ignore[list-item]
        )
        await bounded(runner.stop(), "the table's stop")
        client = Client(_Stuck(), 0, burst=10_000)
        client.handler = asyncio.ensure_future(asyncio.Event().wait())  # stands for the socket's reader
        runner.join(client)
        await asyncio.sleep(0)
        for _ in range(MAX_OUTBOX + 10):
            reply = handle_message(runner, client, json.dumps({"type": "ping"}))
            if reply is not None:
                client.send(reply)
        await asyncio.sleep(0)
        assert client.handler.cancelled() and client.task is not None and client.task.cancelled()
        runner.leave(client)
        store.close()
        return client

    client = asyncio.run(main())
    assert client.dropped == f"{MAX_OUTBOX} replies waited unread" and not client.outbox


def test_errors_quote_only_an_excerpt_of_what_was_sent(tmp_path: Path) -> None:
    with make_client(tmp_path / "m.db") as c:
        made = new_table(c, ["human", "bot", "bot"], seed=1)
        tid, url = made["table"]["id"], made["links"][0]["url"]
        with c.websocket_connect(f"/ws/{tid}?" + url.split("?")[1]) as ws:
            ws.receive_json()
            state = next(m for m in iter(ws.receive_json, None) if m["type"] == "state")

            def error_for(msg: Msg) -> str:
                ws.send_text(json.dumps(msg))
                return str(next(m for m in iter(ws.receive_json, None) if m["type"] == "error")["error"])

            unknown = error_for({"type": "x" * 4000})
            assert unknown.startswith("unknown message type 'xxx") and len(unknown) < 150
            long = error_for({"type": "act", "action": "play " + "y" * 3000, "version": state["version"]})
            assert long == "an action's text is at most 400 characters; this one has 3005"
            bad = error_for({"type": "act", "action": "frobnicate " + "z" * 300, "version": state["version"]})
            assert "z" * 60 not in bad and "frobnicate zzz" in bad and len(bad) < 400, bad


def test_a_failed_send_is_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    class Broken:
        async def send_text(self, data: str) -> None:
            raise ValueError("a bug in sending")

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'm.db'}")
        h = Hub(store)
        runner, _ = await h.create(
            hub_module.TableIn(seats=[{"name": n, "kind": "human"} for n in ("A", "B", "C")], seed=1)  # type: ignore[list-item]
        )
        client = Client(Broken(), None)
        runner.join(client)
        await until(lambda: client.dropped, "the client dropped once its send failed")
        assert client.dropped == "sending failed (ValueError)"
        runner.leave(client)
        assert await bounded(h.stop(), "the hub's stop")
        store.close()

    asyncio.run(main())
    assert any("could not be sent" in r.getMessage() for r in caplog.records)


def test_a_database_that_stalls_holds_up_no_table(tmp_path: Path) -> None:
    """Another process holds the SQLite file locked while a person moves: the move waits (it is told to nobody
    before it is stored), and meanwhile another table's spectator is answered. The lock is held until the test
    has seen both (or, if the ping waited for the database, until `PATIENCE` is up: then the test fails)."""
    db = tmp_path / "m.db"
    with make_client(db) as c:
        made = new_table(c, ["human", "bot", "bot"], seed=1)
        tid, url = made["table"]["id"], made["links"][0]["url"]
        other = new_table(c, ["human", "bot", "bot"], seed=2)["table"]["id"]
        runner = hub(c).tables[tid]
        with c.websocket_connect(f"/ws/{tid}?" + url.split("?")[1]) as ws, c.websocket_connect(f"/ws/{other}") as spec:
            state = next(m for m in iter(ws.receive_json, None) if m["type"] == "state" and m["actions"])
            next(m for m in iter(spec.receive_json, None) if m["type"] == "state")
            locked, release, released = threading.Event(), threading.Event(), threading.Event()

            def hold_the_lock() -> None:
                con = sqlite3.connect(db, timeout=PATIENCE, isolation_level=None)
                con.execute("BEGIN EXCLUSIVE")
                locked.set()
                release.wait(PATIENCE)
                released.set()
                con.execute("COMMIT")
                con.close()

            holder = threading.Thread(target=hold_the_lock)
            holder.start()
            try:
                assert locked.wait(PATIENCE)
                act = {"type": "act", "action": state["actions"][0]["text"], "version": state["version"]}
                ws.send_text(json.dumps(act))
                spec.send_text(json.dumps({"type": "ping"}))
                assert next(m for m in iter(spec.receive_json, None) if m["type"] == "pong") == {"type": "pong"}
                assert not released.is_set(), "the spectator's ping waited for the database"

                # the move is made, and its write waits on the locked file: nobody has been told of it yet
                def waiting_to_be_stored() -> bool:
                    assert not runner.failed, runner.failed  # (SQLite gives up on a lock after 5 s: src/store.py)
                    return runner.game.version > state["version"] and bool(runner.unwritten)

                until_sync(waiting_to_be_stored, "the move made and waiting to be stored")
                assert not released.is_set()
                release.set()
                moved = next(
                    m for m in iter(ws.receive_json, None) if m["type"] == "state" and m["version"] > state["version"]
                )
                assert released.is_set(), "the move was told before it was stored"
                assert moved["version"] > state["version"]
            finally:
                release.set()
                holder.join(PATIENCE)
            assert not holder.is_alive()
