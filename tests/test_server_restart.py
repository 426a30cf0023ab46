"""Kill the server with SIGKILL mid-game and start it again: every game goes on from exactly
where it was, on SQLite and on PostgreSQL, and each seat reconnects to the same state.

The server runs in a subprocess on the real clock: the tests wait for what it does with generous bounds
(`PATIENCE`), and what they assert holds however fast it does it."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from munchkin.agents.heuristic.agent import HeuristicAgent
from munchkin.engine.game import Game, Setup
from munchkin.engine.view import narrate
from munchkin.server.store import Store, database_url
from munchkin.server.tables import TableBots, TableRunner
from system import free_port, new_database, postgres_server
from waits import PATIENCE, until_sync

Msg = dict[str, Any]
FORWARD = ("kick", "ready", "play", "loot", "end", "run", "refuse", "accept", "take", "choose")


class Server:
    """`munchkin serve` in a subprocess on a free port."""

    def __init__(self, db_args: list[str], log: Path) -> None:
        self.port = free_port()
        self.db_args = db_args
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cmd = [sys.executable, "-c", "from munchkin.cli import app; app()", "serve", "--port", str(self.port)]
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen([*cmd, *self.db_args], stdout=out, stderr=subprocess.STDOUT)
        give_up = time.monotonic() + PATIENCE  # a busy machine may take a while to import, replay and listen
        while True:
            try:
                self.get("/api/sets")
                return
            except OSError:
                ended = self.proc.poll() is not None
                if ended or time.monotonic() > give_up:
                    why = "ended" if ended else f"did not answer within {PATIENCE:.0f} s"
                    raise AssertionError(f"the server {why}: {self.log.read_text()[-2000:]}") from None
                time.sleep(0.05)

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=PATIENCE)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=PATIENCE)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url(path), timeout=PATIENCE) as r:
            return json.loads(r.read())

    def post(self, path: str, body: Msg) -> Any:
        req = urllib.request.Request(
            self.url(path), data=json.dumps(body).encode(), headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=PATIENCE) as r:
            return json.loads(r.read())

    def ws(self, table: str, token: str | None = None) -> ClientConnection:
        q = f"?token={token}" if token else ""
        # closing a socket of a killed server otherwise waits 10 s now and then for a closing handshake
        return connect(f"ws://127.0.0.1:{self.port}/ws/{table}{q}", open_timeout=PATIENCE, close_timeout=1)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_args(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[str]]:
    if request.param == "sqlite":
        yield ["--data", str(tmp_path / "data")]
    else:
        with postgres_server() as url:
            yield ["--db", new_database(url, "munchkin")]


def next_state(ws: ClientConnection) -> Msg:
    while True:
        m: Msg = json.loads(ws.recv(timeout=PATIENCE))
        if m["type"] == "state":
            return m
        assert m["type"] in ("hello", "error", "pong"), m


class Seat:
    """A person at the table, playing forward; holds the whole narration it was sent."""

    def __init__(self, server: Server, table: str, token: str | None) -> None:
        self._cm = server.ws(table, token)
        self.ws = self._cm.__enter__()
        self.lines: list[str] = []
        self.state: Msg = {}
        self.seat: int | None = None
        self.fair: Msg | None = None  # the fair-deal record shown in the last state (None: a seeded table)
        self.sent: list[str] = []  # what this seat sent, newest last (told when the server falls silent)
        self.heard: list[str] = []  # the types of what it was sent since its last state, and any error

    def read(self) -> Msg:
        """The next state of the dealt game; before a fair table's deal, the seat gives its entropy, as the
        page does, and waits."""
        while True:
            try:
                m: Msg = json.loads(self.ws.recv(timeout=PATIENCE))
            except TimeoutError:
                raise AssertionError(f"the server said nothing for {PATIENCE:.0f} s to {self.where()}") from None
            self.heard.append(m["type"] if m["type"] != "error" else f"error: {m['error']}")
            if m["type"] == "hello":
                self.seat = m["seat"]
            if m["type"] == "error":
                if "too many messages" in m["error"]:  # a script is faster than a person: wait, answer again
                    time.sleep(1.0)
                    self.act()
                continue
            if m["type"] != "state":
                continue
            self.fair = m["fair"]
            if m["view"] is None:
                if self.seat is not None and m["fair"]["entropy"][self.seat] is None:
                    self.send({"type": "entropy", "entropy": f"seat {self.seat} was here"})
                continue
            assert m["log_start"] == len(self.lines), "the narration has a gap"
            self.lines += m["log"]
            self.state = m
            self.heard = []
            return m

    def where(self) -> str:
        """Where this seat stands, for a failure: its last state, what it last sent, what it heard since."""
        m = self.state
        v = m.get("view") or {}
        answers = [a["text"] for a in m.get("actions", []) if not a["any_time"]]
        return (
            f"seat {self.seat} at version {m.get('version')}, to act {v.get('to_act')} ({v.get('prompt')}), "
            f"window {bool(m.get('window'))}, answers {answers[:6]}; last sent {self.sent[-3:]}; "
            f"heard since {self.heard[-6:]}"
        )

    def act(self) -> bool:
        """Answer the latest state if it asks this seat anything."""
        m = self.state
        acts = [a["text"] for a in m.get("actions", []) if not a["any_time"]]  # answers, not any-time moves
        if not acts:
            return False
        if m["window"]:
            pick = "pass" if "pass" in acts else acts[0]
        else:
            pick = next((a for w in FORWARD for a in acts if a.startswith(w)), acts[0])
        self.send({"type": "act", "action": pick, "version": m["version"]})
        return True

    def send(self, msg: Msg) -> None:
        self.sent.append(f"{msg['type']} {msg.get('action', '')} v{msg.get('version', '')}".strip())
        self.ws.send(json.dumps(msg))

    def play_to_the_end(self) -> None:
        while not self.state["view"]["over"]:
            self.act()
            self.read()

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


def wait_until_over(server: Server, tid: str) -> None:
    """Wait for a table's game to end, however long a slow machine makes it take, as long as it goes on:
    fails only when its turn has stood still for PATIENCE seconds."""
    turn, moved_at = None, time.monotonic()
    while (summary := server.get(f"/api/tables/{tid}"))["status"] != "over":
        if summary["turn"] != turn:
            turn, moved_at = summary["turn"], time.monotonic()
        stood = time.monotonic() - moved_at
        assert stood < PATIENCE, f"table {tid}'s game has stood at turn {turn} for {stood:.0f} s: {summary}"
        time.sleep(0.1)


def finish_and_check(server: Server, *tables: str) -> None:
    """Wait for every table's game to end, then replay each, checking every action and chance outcome."""
    for tid in tables:
        wait_until_over(server, tid)
        with urllib.request.urlopen(server.url(f"/api/tables/{tid}/replay"), timeout=PATIENCE) as r:
            g = Game.from_json(r.read().decode())
        assert g.over
        assert [g.players[s].name for s in g.winners] == server.get(f"/api/tables/{tid}")["winners"]


def stored_game(db_args: list[str], table_id: str) -> Game:
    """The game as the database holds it (read while the server is down): its stored actions replayed."""
    data = db_args[1] if db_args[0] == "--data" else None
    store = Store(database_url(Path(data) if data else None, None if data else db_args[1]))
    try:
        runner = TableRunner(next(t for t in store.tables() if t.id == table_id), store)
        runner.replay_stored()
        return runner.game
    finally:
        store.close()


def read_to_the_close(seat: Seat) -> None:
    """Read what a killed server sent the seat before it died (the socket keeps it), up to the close."""
    with contextlib.suppress(ConnectionClosed):
        drain(seat, PATIENCE)


def assert_stored_all_it_showed(db_args: list[str], table_id: str, watcher: Seat) -> None:
    """Every move a spectator was shown is in the database: the stored game has reached at least the version
    it was last shown (a version counts every move, so one lost move within a turn fails), and tells the
    narration it was shown, word for word."""
    g = stored_game(db_args, table_id)
    shown = watcher.state["version"]
    assert g.version >= shown, f"the spectator was shown version {shown}, the database holds {g.version}"
    told = narrate(g, None)
    assert told[: len(watcher.lines)] == watcher.lines, "the stored game tells another story than was shown"


def holds_still(m: Msg, seat: int | None) -> bool:
    """Does this state wait on `seat` alone, where nothing but its answer moves the game on: no response
    window's clock, no other seat waited on, and no moment at which a bot acts at any time (HeuristicAgent's
    INTERJECT_AT)? (A bot's burst of moves ends after a few milliseconds, and its moves so far are shown:
    on a busy machine a seat is shown many a state on which the bots still have moves to make.)"""
    v = m["view"]
    moment = (v["prompt"], v["moment"].get("stage", ""))
    asked = any(not a["any_time"] for a in m["actions"])
    return asked and not m["window"] and v["to_act"] == [seat] and moment not in HeuristicAgent.INTERJECT_AT


def ann_plays_a_while(ann: Seat) -> bool:
    """Ann plays 60 states, then on to where she must choose and nothing else moves (her table holds still);
    False when her game ends first."""
    for _ in range(60):
        if ann.read()["view"]["over"]:
            return False
        ann.act()
    while True:
        m = ann.read()
        if m["view"]["over"]:
            return False
        if holds_still(m, ann.seat):
            return True
        ann.act()


def test_kill_9_and_restart_loses_nothing(db_args: list[str], tmp_path: Path) -> None:
    server = Server(db_args, tmp_path / "server.log")
    server.start()
    try:
        seats = [{"name": "Ann", "kind": "human"}] + [
            {"name": n, "kind": "bot", "strength": "heuristic"} for n in ("Bob", "Cy")
        ]
        for _attempt in range(3):  # the table draws its own chance: now and then its game ends within Ann's part
            h = server.post("/api/tables", {"name": "people", "seats": seats, "bot_delay": 0})
            hid = h["table"]["id"]
            token = h["links"][0]["url"].split("token=")[1]
            ann = Seat(server, hid, token)
            if ann_plays_a_while(ann):
                break
            ann.close()
        else:
            raise AssertionError("Ann's game ended before the kill at three tables in a row")
        before_ann = ann.state
        before_lines = list(ann.lines)
        # the bots' table starts only now and is killed a few dozen moves in, so that it is mid-game at the kill
        # however long Ann's part took (started with hers, it was over before the kill now and then)
        bots = [{"name": n, "kind": "bot", "strength": s} for n, s in zip("WXYZ", ["random", "heuristic"] * 2)]
        bid = server.post("/api/tables", {"name": "bots", "seats": bots, "bot_delay": 0.01, "seed": 8})["table"]["id"]
        watcher = Seat(server, bid, None)
        while watcher.read()["version"] < 50:
            assert not watcher.state["view"]["over"], "the bots' game ended within 50 versions"

        server.kill()  # mid-game for both tables: the bot table is in the middle of its moves
        read_to_the_close(watcher)
        assert not watcher.state["view"]["over"], "the bots' game was over before the kill"
        assert_stored_all_it_showed(db_args, bid, watcher)
        ann.close()
        watcher.close()
        server.start()

        again = Seat(server, hid, token)
        m = again.read()
        assert m["version"] == before_ann["version"]
        assert m["view"] == before_ann["view"], "the table came back different"
        assert m["actions"] == before_ann["actions"]
        assert again.lines == before_lines, "the narration came back different"
        summary = server.get(f"/api/tables/{hid}")
        assert summary["status"] == "playing" and summary["seats"][0]["claimed"]
        assert again.fair == before_ann["fair"] and again.fair is not None and again.fair["secret"] is None

        watcher2 = Seat(server, bid, None)
        w = watcher2.read()  # its first state tells the whole narration so far: what was shown before comes first
        assert w["version"] >= watcher.state["version"]
        assert watcher2.lines[: len(watcher.lines)] == watcher.lines, "the bots' table came back different"

        again.play_to_the_end()
        finish_and_check(server, hid, bid)
        again.close()
        watcher2.close()
    finally:
        server.stop()


def drain_until(seat: Seat, lines: int, seconds: float) -> None:
    """Read a spectator's narration until it holds at least `lines` lines, or `seconds` have passed."""
    end = time.monotonic() + seconds
    while len(seat.lines) < lines and time.monotonic() < end:
        drain(seat, min(0.5, end - time.monotonic()))


def drain(seat: Seat, seconds: float) -> None:
    """Read whatever arrives for a while (a spectator's narration, say)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            m: Msg = json.loads(seat.ws.recv(timeout=max(0.01, end - time.monotonic())))
        except TimeoutError:
            return
        if m["type"] == "state":
            assert m["log_start"] == len(seat.lines), "the narration has a gap"
            seat.lines += m["log"]
            seat.state = m


def test_kill_9_at_random_moments_three_times(db_args: list[str], tmp_path: Path) -> None:
    """Whatever anyone was shown before a kill is still there after it, word for word. Ann makes a random
    number of moves before each kill; the bots' table is wherever its own pace has taken it by then."""
    import random

    rng = random.Random(2026)
    server = Server(db_args, tmp_path / "server.log")
    server.start()
    try:
        seats = [{"name": "Ann", "kind": "human"}] + [{"name": n, "kind": "bot"} for n in ("Bob", "Cy", "Di")]
        h = server.post("/api/tables", {"name": "people", "seats": seats, "bot_delay": 0, "seed": 33})
        bots = [{"name": n, "kind": "bot", "strength": "random"} for n in "PQR"]
        b = server.post("/api/tables", {"name": "bots", "seats": bots, "bot_delay": 0.003, "seed": 12})
        hid, bid = h["table"]["id"], b["table"]["id"]
        token = h["links"][0]["url"].split("token=")[1]
        for _ in range(3):
            ann, watcher = Seat(server, hid, token), Seat(server, bid, None)
            ann.read()
            for _ in range(rng.randint(2, 40)):
                if ann.state["view"]["over"]:
                    break
                ann.act()
                ann.read()
            watcher.read()  # its first state, with the narration so far
            drain(watcher, 0.05)
            version = ann.state["version"]
            server.kill()
            read_to_the_close(watcher)
            shown_ann, shown_bots = list(ann.lines), list(watcher.lines)
            assert shown_bots, "the spectator was shown nothing: there is nothing to compare"
            assert_stored_all_it_showed(db_args, bid, watcher)
            ann.close()
            watcher.close()
            server.start()
            ann, watcher = Seat(server, hid, token), Seat(server, bid, None)
            assert ann.read()["version"] >= version
            drain_until(watcher, len(shown_bots), PATIENCE)  # the table may take a moment to replay after the kill
            assert ann.lines[: len(shown_ann)] == shown_ann, "a person was shown something that was lost"
            assert watcher.lines[: len(shown_bots)] == shown_bots, "a spectator was shown something that was lost"
            ann.close()
            watcher.close()
        ann = Seat(server, hid, token)
        ann.read()
        ann.play_to_the_end()
        ann.close()
        finish_and_check(server, hid, bid)
        # the bots' game went exactly as it would have with no kill at all
        with urllib.request.urlopen(server.url(f"/api/tables/{bid}/replay"), timeout=PATIENCE) as r:
            played = [e["raw"] for e in json.loads(r.read())["log"] if "act" in e]
        g = Game(Setup(["deluxe"], ["P", "Q", "R"], 12))
        table_bots = TableBots({0: "random", 1: "random", 2: "random"}, 12)
        while not g.over:
            g.apply(table_bots.choose(g, g.to_act[0]))
        assert played == json.loads(json.dumps([e[1] for e in g.log if e[0] == "act"]))
    finally:
        server.stop()


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (read from /proc)."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.add(int(stat.parent.name))
    return out


def test_a_killed_server_leaves_no_worker_behind(tmp_path: Path) -> None:
    """A finished game's save is made in a worker process; when the server is killed, the worker ends too."""
    server = Server(["--data", str(tmp_path / "data")], tmp_path / "server.log")
    server.start()
    try:
        bots = [{"name": n, "kind": "bot", "strength": "random"} for n in "PQR"]
        tid = server.post("/api/tables", {"name": "bots", "seats": bots, "bot_delay": 0})["table"]["id"]
        wait_until_over(server, tid)
        assert server.proc is not None
        pid = server.proc.pid
        workers: set[int] = set()

        def started() -> bool:
            workers.update(children(pid))
            return bool(workers)

        until_sync(started, "the replay worker starting")
        assert workers, "the replay worker never started"
        with urllib.request.urlopen(server.url(f"/api/tables/{tid}/replay"), timeout=PATIENCE) as r:
            saved = Game.from_json(r.read())
        assert saved.over
        server.kill()
        # the worker looks for its parent every second: give it time to see that it has gone
        with contextlib.suppress(AssertionError):
            until_sync(lambda: not any(Path(f"/proc/{w}").exists() for w in workers), "the worker ending")
        assert not any(Path(f"/proc/{w}").exists() for w in workers), "the worker outlived its server"
    finally:
        server.stop()


def test_two_writers_storing_one_replay_both_succeed() -> None:
    """The game's end and a download that rebuilt the save may store it at the same moment: on
    PostgreSQL the second insert waits for the first to commit, and must then not fail."""
    import threading

    from sqlalchemy import insert as sql_insert
    from sqlalchemy import select, text

    from munchkin.server.store import Store, replays_t

    with postgres_server() as url:
        store = Store(new_database(url, "munchkin"))

        def body() -> Any:  # as stored (`Store.replay` serves only a valid save, and these are not)
            with store.engine.connect() as conn:
                return conn.execute(select(replays_t.c.body).where(replays_t.c.table_id == "t1")).scalar()

        try:
            errors: list[BaseException] = []

            def second() -> None:
                try:
                    store.save_replay("t1", "second")
                except BaseException as exc:  # noqa: BLE001 - reported to the test below
                    errors.append(exc)

            def waits_on_a_lock() -> bool:  # a backend of this database waits for another's transaction
                with store.engine.connect() as look:  # a transaction of its own: its view of the activity is new
                    sql = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    return bool(look.execute(text(sql + " AND datname = current_database()")).scalar())

            with store.engine.connect() as first:
                tx = first.begin()
                first.execute(sql_insert(replays_t).values(table_id="t1", body="first"))
                writer = threading.Thread(target=second)
                writer.start()
                # the first commits only once the second insert waits for it, however slow the machine
                until_sync(lambda: waits_on_a_lock() or not writer.is_alive(), "the second writer reaching its insert")
                assert writer.is_alive(), "the second writer should wait for the first to commit"
                tx.commit()
            writer.join(PATIENCE)
            assert not writer.is_alive() and errors == []
            assert body() == "second"
            store.save_replay("t1", "third")  # storing again rewrites it
            assert body() == "third"
        finally:
            store.close()


def test_a_table_stored_under_the_rules_before_any_time_actions_replays(tmp_path: Path) -> None:
    """A table begun before issue 15 (its config has no "rules") whose stored actions never said the
    passes the window before the next turn now asks: the server replays it, the passes added."""
    import lzma

    from munchkin.server.store import DamagedTable, Store
    from munchkin.server.tables import TableRunner, new_table_row

    data = Path(__file__).parent / "data" / "rules1-saves.jsonl.xz"
    saves = [json.loads(line) for line in lzma.decompress(data.read_bytes()).decode().splitlines()]
    save = next(s for s in saves if s["setup"]["sets"] == ["deluxe"] and s["setup"]["seed"] == 6)
    setup = save["setup"]
    seats = [{"name": n, "kind": "bot", "strength": "random"} for n in setup["players"]]
    row, _ = new_table_row("old", setup["sets"], seats, setup["options"], 5.0, 0.0, setup["seed"])
    del row.config["rules"]  # as a table made before the rules had a number
    store = Store(f"sqlite:///{tmp_path / 'old.db'}")
    try:
        store.create_table(row, [])
        acts = [[e["raw"], e["act"]] for e in save["log"] if "act" in e]
        store.append_actions(row.id, 0, [(raw, text) for raw, text in acts], ("over", 0, []))
        runner = TableRunner(store.tables()[0], store)
        runner.replay_stored()
        g = runner.game
        assert g.over and g.fingerprint() == save["state"]
        assert runner.stored == len(acts) < sum(1 for e in g.log if e[0] == "act")  # passes were added
        row.config["rules"] = 2  # the same actions under today's rules: the first missing pass stops them
        store2 = Store(f"sqlite:///{tmp_path / 'new.db'}")
        store2.create_table(row, [])
        store2.append_actions(row.id, 0, [(raw, text) for raw, text in acts], ("over", 0, []))
        with pytest.raises(DamagedTable, match="does not replay"):
            TableRunner(store2.tables()[0], store2).replay_stored()
        store2.close()
    finally:
        store.close()
