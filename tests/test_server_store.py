"""The database as found on disk: rows damaged by hand (SQLite lets a column hold any type, and text that
is not UTF-8), a damaged stored replay, and the modes of the data folder and the database files."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from munchkin.cli import app as cli
from munchkin.engine.game import RULES, Game
from munchkin.server.app import create_app
from munchkin.server.clock import ManualClock
from munchkin.server.config import ServerSettings
from munchkin.server.hub import Hub
from munchkin.server.store import DataFolderError, Store, TableRow, database_url, replay_problem
from munchkin.server.tables import new_table_row, table_summary
from system import free_port, new_database, postgres_server
from waits import until_sync

Msg = dict[str, Any]

# each kind of damage, written with raw SQL into one table's rows, and the words its reason must hold
DAMAGE = {
    "updated is text": ("UPDATE munchkin_tables SET updated = 'yesterday' WHERE id = ?", "column updated holds text"),
    "turn is text": ("UPDATE munchkin_tables SET turn = 'three' WHERE id = ?", "column turn holds text"),
    "name is a BLOB": ("UPDATE munchkin_tables SET name = x'ff41' WHERE id = ?", "column name holds bytes"),
    "name is bad TEXT": (
        "UPDATE munchkin_tables SET name = CAST(x'ff41' AS TEXT) WHERE id = ?",
        "column name holds bytes that are not UTF-8",
    ),
    "seat name is a BLOB": (
        "UPDATE munchkin_seats SET name = x'ff41' WHERE table_id = ? AND seat = 1",
        "seat 1: the column name holds bytes",
    ),
    "seat name is bad TEXT": (
        "UPDATE munchkin_seats SET name = CAST(x'c328' AS TEXT) WHERE table_id = ? AND seat = 1",
        "seat 1: the column name holds bytes that are not UTF-8",
    ),
    "created is text": ("UPDATE munchkin_tables SET created = 'long ago' WHERE id = ?", "column created holds text"),
    "created is infinite": ("UPDATE munchkin_tables SET created = 9e999 WHERE id = ?", "column created holds inf"),
    "status is unknown": ("UPDATE munchkin_tables SET status = 'paused' WHERE id = ?", "column status is neither"),
    "winners are a BLOB": ("UPDATE munchkin_tables SET winners = x'5b5d' WHERE id = ?", "column winners holds bytes"),
    "config is bad TEXT": (
        "UPDATE munchkin_tables SET config = CAST(x'7bff7d' AS TEXT) WHERE id = ?",
        "column config holds bytes that are not UTF-8",
    ),
    "seat number is text": (
        "UPDATE munchkin_seats SET seat = 'two' WHERE table_id = ? AND seat = 2",
        "the column seat holds text",
    ),
    "seat kind is unknown": (
        "UPDATE munchkin_seats SET kind = 'ghost' WHERE table_id = ? AND seat = 1",
        "seat 1: the column kind is neither",
    ),
    "seat strength is a BLOB": (  # (a number in a text column becomes text: SQLite's type affinity)
        "UPDATE munchkin_seats SET strength = x'72616e646f6d' WHERE table_id = ? AND seat = 1",
        "seat 1: the column strength holds bytes (a BLOB), not text",
    ),
    "token hash is a BLOB": (
        "UPDATE munchkin_seats SET token_hash = x'00' WHERE table_id = ? AND seat = 0",
        "seat 0: the column token_hash holds bytes",
    ),
    "claimed is text": (
        "UPDATE munchkin_seats SET claimed = 'yes' WHERE table_id = ? AND seat = 0",
        "seat 0: the column claimed holds text",
    ),
}


def make_client(db: Path, **settings: Any) -> TestClient:
    """The app over `db`; one test client makes all the tables, so the per-address limits are off. Its tables
    keep time by a `ManualClock` nobody moves: nothing timed happens at them."""
    free = {"tables_per_minute": 0, "max_live_tables_per_address": 0}
    return TestClient(create_app(f"sqlite:///{db}", ServerSettings(**{**free, **settings}), ManualClock()))


def hub(c: TestClient) -> Hub:
    h: Hub = c.app.state.hub  # type: ignore[attr-defined]
    return h


def new_table(c: TestClient, kinds: list[str]) -> str:
    seats = [{"name": f"P{i}", "kind": k, "strength": "random"} for i, k in enumerate(kinds)]
    r = c.post("/api/tables", json={"name": "t", "seats": seats, "bot_delay": 0})
    assert r.status_code == 201, r.text
    tid: str = r.json()["table"]["id"]
    return tid


def damage(db: Path, sql: str, *args: Any) -> None:
    """Write damage into the file with raw SQL, as an operator's slip or a bad disk would."""
    with contextlib.closing(sqlite3.connect(db)) as con, con:
        con.execute(sql, args)


def stored(db: Path, sql: str, *args: Any) -> Any:
    """One value as SQLite holds it (text as its bytes: it may not be UTF-8)."""
    with contextlib.closing(sqlite3.connect(db)) as con:
        con.text_factory = bytes
        (value,) = con.execute(sql, args).fetchone()
    return value


def stored_body(db: Path, tid: str) -> Any:
    return stored(db, "SELECT body FROM munchkin_replays WHERE table_id = ?", tid)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "munchkin.db"


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, str]]:
    """A database holding one finished bot game whose save is stored: (the file, the table's id, the save)."""
    db = tmp_path_factory.mktemp("finished") / "munchkin.db"
    with make_client(db) as c:
        tid = new_table(c, ["bot", "bot", "bot"])
        runner = hub(c).tables[tid]
        until_sync(
            lambda: runner.game.over and runner.replay_task is not None and runner.replay_task_done(),
            "the bot game finishing and its save stored",
        )
    yield db, tid, stored_body(db, tid).decode()


def test_tables_damaged_in_any_column_are_listed_stopped_and_the_others_serve(db: Path) -> None:
    with make_client(db, tables_per_minute=0) as c:
        bad = {kind: new_table(c, ["human", "bot", "bot"]) for kind in DAMAGE}
        good = new_table(c, ["human", "bot", "bot"])
    for kind, (sql, _) in DAMAGE.items():
        damage(db, sql, bad[kind])
    with make_client(db) as c:  # start-up succeeds over every kind of damage at once
        r = c.get("/api/tables?limit=100")
        assert r.status_code == 200, r.text
        listed = {t["id"]: t for t in r.json()["tables"]}
        assert listed[good]["status"] == "playing" and listed[good]["stopped"] is None
        assert r.json()["counts"]["stopped"] == len(DAMAGE)
        for kind, (_, words) in DAMAGE.items():
            s = listed[bad[kind]]
            assert s["status"] == "stopped" and words in s["stopped"], (kind, s["stopped"])
            one = c.get(f"/api/tables/{bad[kind]}")
            assert one.status_code == 200 and one.json()["stopped"] == s["stopped"], kind
        assert listed[bad["name is a BLOB"]]["name"] == bad["name is a BLOB"], "an unreadable name shows as the id"
        assert listed[bad["name is bad TEXT"]]["name"] == bad["name is bad TEXT"]
        assert listed[bad["seat name is a BLOB"]]["seats"][1]["name"] == "seat 1"
        stopped = c.get("/api/tables?status=stopped&limit=100").json()["tables"]
        assert {t["id"] for t in stopped} == set(bad.values())
        with c.websocket_connect(f"/ws/{bad['turn is text']}") as ws:
            msg = ws.receive_json()
            assert msg["type"] == "error" and "column turn" in msg["error"]
        healthy = hub(c).get(good)
        assert not healthy.failed and healthy.task is not None, "the healthy table plays on"
    # the damaged rows are left as they were, for the operator to mend
    assert stored(db, "SELECT name FROM munchkin_tables WHERE id = ?", bad["name is bad TEXT"]) == b"\xffA"


def test_a_table_whose_id_is_not_text_is_listed_under_a_safe_id(db: Path) -> None:
    with make_client(db) as c:
        bad = new_table(c, ["human", "bot", "bot"])
        good = new_table(c, ["human", "bot", "bot"])
    damage(db, "UPDATE munchkin_tables SET id = x'ff41' WHERE id = ?", bad)
    damage(db, "UPDATE munchkin_seats SET table_id = x'ff41' WHERE table_id = ?", bad)
    with make_client(db) as c:
        r = c.get("/api/tables")
        assert r.status_code == 200
        listed = {t["id"]: t for t in r.json()["tables"]}
        assert set(listed) == {good, "unreadable-ff41"}
        s = listed["unreadable-ff41"]
        assert s["status"] == "stopped" and "column id holds bytes" in s["stopped"] and len(s["seats"]) == 3


def test_the_expiry_sweep_leaves_out_a_row_it_cannot_read_and_goes_on(
    db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with make_client(db) as c:
        bad = new_table(c, ["human", "bot", "bot"])
        idle = new_table(c, ["human", "bot", "bot"])
    damage(db, "UPDATE munchkin_tables SET updated = 'yesterday' WHERE id = ?", bad)
    caplog.set_level(logging.WARNING, logger="munchkin.server")
    with make_client(db, expire_unjoined_minutes=0.0, expiry_sweep_seconds=3600) as c:
        # start-up expired the idle table and left the unreadable one, listed as stopped
        assert c.get(f"/api/tables/{idle}").status_code == 404
        assert c.get(f"/api/tables/{bad}").json()["status"] == "stopped"
        later = new_table(c, ["human", "bot", "bot"])
        c.portal.call(hub(c).sweep_once)  # type: ignore[union-attr]
        assert c.get(f"/api/tables/{later}").status_code == 404, "the sweep went on past the bad row"
        assert c.get(f"/api/tables/{bad}").status_code == 200
    left_out = [r.getMessage() for r in caplog.records if "left out of expiry" in r.getMessage()]
    assert len(left_out) == 1 and bad in left_out[0] and "column updated" in left_out[0], left_out


@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        b"\xff\xfe{}",  # a BLOB that is not UTF-8
        "CAST",  # TEXT that is not UTF-8
        '{"format": "munchkin-game/1"}',
        '{"format": "munchkin-game/1", "setup": {"sets": [], "players": [], "seed": null}, "log": "x"}',
        "cut",  # a well-formed save cut short: fewer actions than the table stored
        "other players",  # a save of another table
    ],
)
def test_a_damaged_stored_replay_is_never_served_but_made_again(
    finished: tuple[Path, str, str], body: str | bytes, caplog: pytest.LogCaptureFixture
) -> None:
    db, tid, good = finished
    save = json.loads(good)
    if body == "CAST":
        damage(db, "UPDATE munchkin_replays SET body = CAST(x'7bff7d' AS TEXT) WHERE table_id = ?", tid)
    else:
        if body == "cut":
            acts = [i for i, e in enumerate(save["log"]) if "act" in e]
            body = json.dumps({**save, "log": save["log"][: acts[-3]]})
        elif body == "other players":
            body = json.dumps({**save, "setup": {**save["setup"], "players": ["X", "Y", "Z"]}})
        damage(db, "UPDATE munchkin_replays SET body = ? WHERE table_id = ?", body, tid)
    damaged = stored_body(db, tid)
    caplog.set_level(logging.WARNING, logger="munchkin.server")
    with make_client(db) as c:
        r = c.get(f"/api/tables/{tid}/replay")
        assert r.status_code == 200 and r.content != damaged
        assert r.text == good, "the save made again from the stored actions is the one first made"
        Game.from_json(r.text)
    assert any("stored replay is damaged" in m.getMessage() and tid in m.getMessage() for m in caplog.records)
    assert stored_body(db, tid).decode() == good, "the stored save was mended"


def test_a_damaged_replay_of_a_game_whose_actions_are_damaged_too_answers_409(finished: tuple[Path, str, str]) -> None:
    db, tid, good = finished
    raw = stored(db, "SELECT raw FROM munchkin_actions WHERE table_id = ? AND seq = 3", tid).decode()
    damage(db, "UPDATE munchkin_replays SET body = '{broken' WHERE table_id = ?", tid)
    damage(db, "UPDATE munchkin_actions SET raw = '[1' WHERE table_id = ? AND seq = 3", tid)
    try:
        with make_client(db) as c:
            r = c.get(f"/api/tables/{tid}/replay")
            assert r.status_code == 409 and "damaged" in r.json()["detail"], r.text
            assert "{broken" not in r.text
    finally:  # the module's game is shared: mend it for the tests after this one
        damage(db, "UPDATE munchkin_actions SET raw = ? WHERE table_id = ? AND seq = 3", raw, tid)
        damage(db, "UPDATE munchkin_replays SET body = ? WHERE table_id = ?", good, tid)


def test_replay_problem_accepts_a_real_save_and_names_what_is_wrong(finished: tuple[Path, str, str]) -> None:
    _, _, good = finished
    save = json.loads(good)
    players, acts = save["setup"]["players"], sum(1 for e in save["log"] if "act" in e)
    assert replay_problem(good, players, acts) is None
    assert replay_problem(good, players, acts + 1) == f"its log holds {acts} actions, fewer than the {acts + 1} stored"
    assert replay_problem("[" * 100_000, players, acts) == "its JSON is nested too deep"
    assert (
        replay_problem("[1", players, acts)
        == "it is not valid JSON (Expecting ',' delimiter: line 1 column 3 (char 2))"
    )
    assert replay_problem(json.dumps({**save, "rules": "2"}), players, acts) == (
        f"the save's rules are not a whole number from 1 to {RULES}"
    )
    log = [*save["log"][:5], {"act": "kick"}]
    assert replay_problem(json.dumps({**save, "log": log}), players, 0) == (
        "log entry 5 has no 'raw' list of the action's fields"
    )


def test_a_fresh_data_folder_and_database_are_their_owners_alone(tmp_path: Path) -> None:
    old = os.umask(0)  # the loosest umask: the modes must not depend on it
    try:
        data = tmp_path / "a" / "data"
        store = Store(database_url(data, None))
        try:
            with store.engine.begin() as conn:  # a write: SQLite makes its -wal and -shm files
                conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS probe (x INTEGER)")
            modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in data.iterdir()}
        finally:
            store.close()
    finally:
        os.umask(old)
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert modes == {"munchkin.db": 0o600, "munchkin.db-wal": 0o600, "munchkin.db-shm": 0o600}


def test_an_open_data_folder_is_warned_of_and_its_database_files_are_made_private(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data = tmp_path / "shared"
    data.mkdir()
    data.chmod(0o755)
    for name in ("munchkin.db", "munchkin.db-wal", "munchkin.db-shm"):  # left by an older server
        (data / name).touch()
        (data / name).chmod(0o644)
    caplog.set_level(logging.WARNING, logger="munchkin.server")
    store = Store(database_url(data, None))
    try:  # (SQLite removes -wal and -shm when the last connection closes: look while it is open)
        with store.engine.connect():
            modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in data.iterdir()}
    finally:
        store.close()
    assert modes == {"munchkin.db": 0o600, "munchkin.db-wal": 0o600, "munchkin.db-shm": 0o600}
    assert stat.S_IMODE(data.stat().st_mode) == 0o755, "an existing folder is left as it is"
    warned = [r.getMessage() for r in caplog.records if str(data) in r.getMessage()]
    assert len(warned) == 1 and "mode 0755" in warned[0] and f"chmod 700 {data}" in warned[0]


def test_a_data_folder_that_is_a_file_is_refused_in_words(tmp_path: Path) -> None:
    f = tmp_path / "notes.txt"
    f.write_text("mine")
    with pytest.raises(DataFolderError, match="is not a folder"):
        database_url(f, None)
    result = CliRunner().invoke(cli, ["serve", "--port", str(free_port()), "--data", str(f)])
    said = " ".join(result.output.replace("│", " ").split())  # the message as one line, out of its box
    assert result.exit_code == 2 and "is not a folder" in said and "Traceback" not in said, result.output
    assert f.read_text() == "mine"


def test_postgresql_reads_typed_rows_and_still_catches_what_its_types_allow() -> None:
    with postgres_server() as url:
        store = Store(new_database(url, "munchkin"))
        try:
            rows: list[TableRow] = []
            for _ in range(3):
                seats = [
                    {"name": f"P{i}", "kind": k, "strength": "random"} for i, k in enumerate(["human", "bot", "bot"])
                ]
                row, _tokens = new_table_row("t", ["deluxe"], seats, {}, 15.0, 0.0, 7)
                store.create_table(row, [])
                rows.append(row)
            good, bad, over = rows
            store.append_actions(over.id, 0, [], ("over", 4, ["P1"]))
            store.save_replay(over.id, '{"format": "munchkin-game/1"}')
            with store.engine.begin() as conn:
                conn.exec_driver_sql("UPDATE munchkin_tables SET status = 'paused', turn = -2 WHERE id = %s", (bad.id,))
                conn.exec_driver_sql("UPDATE munchkin_seats SET claimed = 5 WHERE table_id = %s", (bad.id,))
            read = {r.id: r for r in store.tables()}
            assert read[good.id].damaged == "" and read[good.id].seats == good.seats
            assert read[over.id].damaged == "" and read[over.id].winners == ["P1"] and read[over.id].turn == 4
            reason = read[bad.id].damaged
            assert "column status is neither" in reason and "column turn is negative" in reason
            assert "seat 0: the column claimed is neither 0 nor 1" in reason
            json.dumps([table_summary(r) for r in read.values()], allow_nan=False)  # listable as JSON
            assert store.replay(over.id) is None, "a damaged save is not served"
            assert store.expired(time.time() + 1, time.time() + 1) == [good.id]
        finally:
            store.close()
