"""The server's API and WebSocket protocol: what a client may send, and what bad input gets.

The app's tables, and each socket's message bucket, keep time by a `ManualClock` the test moves by hand
(tests/test_server_clock.py): a window's countdown and the bucket's refill come when the test says, however
slow the machine."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from munchkin.server.app import create_app
from munchkin.server.clock import ManualClock
from munchkin.server.tables import RATE, TableRunner
from waits import PATIENCE, until_sync

Msg = dict[str, Any]
FORWARD = ("kick", "ready", "play", "loot", "end", "run", "refuse", "pass", "accept", "take", "choose")
PACE = 1 / RATE  # seconds of a person's pace between two moves: the message bucket refills one message in it


@pytest.fixture
def clock() -> ManualClock:
    """The tables' clock: it moves only when the test moves it."""
    return ManualClock()


@pytest.fixture
def client(tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'munchkin.db'}", clock=clock)) as c:
        yield c


def new_table(
    client: TestClient,
    kinds: list[str],
    names: list[str] | None = None,
    strength: str | None = "heuristic",
    **extra: Any,
) -> Msg:
    """Create a table of these seat kinds (seats named P0, P1, ... unless `names`; bots of `strength`,
    or the lobby's default with None), seed 11, no bot delay; its creation's answer."""
    seats: list[dict[str, Any]] = []
    for i, k in enumerate(kinds):
        seats.append({"name": names[i] if names else f"P{i}", "kind": k})
        if strength is not None:
            seats[-1]["strength"] = strength
    body = {"name": "test", "seats": seats, "bot_delay": 0, "seed": 11, **extra}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    out: Msg = r.json()
    return out


def runner(client: TestClient, table_id: str) -> TableRunner:
    r: TableRunner = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    return r


def answers(m: Msg) -> list[dict[str, Any]]:
    """The actions that answer what the game asks this seat (not those it may take at any time)."""
    return [a for a in m["actions"] if not a["any_time"]]


def recv_until(ws: WebSocketTestSession, pred: Callable[[Msg], bool], limit: int = 500) -> Msg:
    for _ in range(limit):
        m: Msg = ws.receive_json()
        if pred(m):
            return m
    raise AssertionError("the expected message never came")


def connect(client: TestClient, created: Msg, seat: int) -> tuple[WebSocketTestSession, str]:
    link = next(x for x in created["links"] if x["seat"] == seat)
    token = link["url"].split("token=")[1]
    return client.websocket_connect(f"/ws/{created['table']['id']}?token={token}"), token


def test_lobby_pages_and_api(client: TestClient) -> None:
    assert "Munchkin" in client.get("/").text
    assert client.get("/api/sets").json() == [
        {"id": "deluxe", "name": "Munchkin Deluxe"},
        {"id": "good-bad", "name": "The Good, the Bad, and the Munchkin"},
        {"id": "harry-potter", "name": "Munchkin Harry Potter Deluxe"},
        {"id": "star", "name": "Star Munchkin"},
    ]
    created = new_table(client, ["human", "bot", "bot"], seed=None)
    tid = created["table"]["id"]
    assert created["watch"] == f"/table/{tid}"
    assert [x["seat"] for x in created["links"]] == [0]
    listed = client.get("/api/tables").json()
    assert [t["id"] for t in listed["tables"]] == [tid] and listed["next"] is None
    assert listed["counts"] == {"open": 1, "playing": 1, "over": 0, "stopped": 0}
    summary = client.get(f"/api/tables/{tid}").json()
    assert summary["seats"][0] == {
        "seat": 0,
        "name": "P0",
        "kind": "human",
        "strength": "heuristic",
        "claimed": False,
        "connected": False,
        "stand_in": False,
    }
    assert summary["seed"] is None and summary["stopped"] is None
    seeded = new_table(client, ["bot", "bot", "bot"], seed=12345)["table"]
    assert seeded["seed"] == 12345, "a chosen seed is shown to everyone: it gives away the deck order"
    assert client.get(f"/table/{tid}").status_code == 200
    assert client.get("/table/nope").status_code == 404
    r = client.get(f"/api/tables/{tid}/replay")
    assert r.status_code == 409 and "hidden cards" in r.json()["detail"]


@pytest.mark.parametrize(
    "body,words",
    [
        ({"seats": [{"name": "A", "kind": "bot"}, {"name": "B", "kind": "bot"}]}, "at least 3"),
        (
            {"seats": [{"name": "A", "kind": "bot"}, {"name": "a", "kind": "bot"}, {"name": "C", "kind": "bot"}]},
            "different",
        ),
        ({"seats": [{"name": "A", "kind": "alien"}] * 3}, "human"),
        ({"sets": ["nowhere"], "seats": [{"name": n, "kind": "bot"} for n in "ABC"]}, "unknown card set"),
        ({"window_seconds": 0.1, "seats": [{"name": n, "kind": "bot"} for n in "ABC"]}, "greater than or equal"),
        (
            {"seats": [{"name": "<b>", "kind": "bot"}, {"name": "B", "kind": "bot"}, {"name": "C", "kind": "bot"}]},
            "plain",
        ),
    ],
)
def test_a_bad_table_is_refused_with_the_reason(client: TestClient, body: Msg, words: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422
    assert words in json.dumps(r.json())
    assert client.get("/api/tables").json()["tables"] == []


def test_bad_messages_get_a_clear_error_and_change_nothing(client: TestClient) -> None:
    created = new_table(client, ["human", "human", "bot"])
    tid = created["table"]["id"]
    r = runner(client, tid)
    ws_cm, _ = connect(client, created, 0)
    other_cm, _ = connect(client, created, 1)
    with ws_cm as ws, other_cm as other:
        hello = ws.receive_json()
        assert hello["type"] == "hello" and hello["seat"] == 0 and hello["player"] == "P0"
        state = recv_until(ws, lambda m: m["type"] == "state" and bool(answers(m)))
        version, stored = r.game.version, r.stored
        assert state["version"] == version and state["window"] is None

        def refused(sock: WebSocketTestSession, raw: str, words: str) -> None:
            sock.send_text(raw)
            m = recv_until(sock, lambda m: m["type"] == "error")
            assert words in m["error"], m["error"]
            assert (r.game.version, r.stored) == (version, stored)

        refused(ws, "{not json", "malformed JSON")
        refused(ws, "[1, 2]", "JSON object")
        refused(ws, json.dumps({"type": "dance"}), "unknown message type 'dance'")
        refused(ws, json.dumps({"type": "act", "action": "x" * 5000, "version": version}), "too large")
        refused(ws, json.dumps({"type": "act", "action": "ready"}), '"version"')
        refused(ws, json.dumps({"type": "act", "version": version}), '"action"')
        refused(ws, json.dumps({"type": "act", "action": "dance a jig", "version": version}), "dance")
        refused(
            ws,
            json.dumps({"type": "act", "action": "kick open the door", "version": version}),
            "'kick open the door' is not legal now (character creation",
        )
        refused(ws, json.dumps({"type": "act", "action": "ready", "version": version - 1}), "stale action")
        refused(ws, json.dumps({"type": "more_time"}), "no response window")
        # seat 1 may not act while seat 0 creates a character
        other.receive_json()
        refused(other, json.dumps({"type": "act", "action": "ready", "version": version}), "not your turn")
        # a good action moves the game; the very same message sent again is refused as stale
        good = json.dumps({"type": "act", "action": answers(state)[0]["text"], "version": version})
        ws.send_text(good)
        recv_until(ws, lambda m: m["type"] == "state" and m["version"] > version)
        assert r.stored > stored
        version, stored = r.game.version, r.stored
        refused(ws, good, "stale action")
        ws.send_text(json.dumps({"type": "ping"}))
        assert recv_until(ws, lambda m: m["type"] != "state") == {"type": "pong"}


def test_spectators_and_bad_tokens(client: TestClient) -> None:
    created = new_table(client, ["human", "bot", "bot"])
    tid = created["table"]["id"]
    with client.websocket_connect(f"/ws/{tid}") as spec:
        hello = spec.receive_json()
        assert hello["seat"] is None
        st = recv_until(spec, lambda m: m["type"] == "state")
        assert st["view"]["hand"] == [] and st["actions"] == [] and st["view"]["you"] is None
        spec.send_text(json.dumps({"type": "act", "action": "ready", "version": st["version"]}))
        assert "spectators cannot act" in recv_until(spec, lambda m: m["type"] == "error")["error"]
    with client.websocket_connect(f"/ws/{tid}?token=forged") as bad:
        assert "not valid" in bad.receive_json()["error"]
        with pytest.raises(WebSocketDisconnect):
            bad.receive_json()
    with client.websocket_connect("/ws/nosuchtable") as lost:
        assert "no table" in lost.receive_json()["error"]


def test_a_flooding_client_is_throttled_while_the_tables_play_on(client: TestClient, clock: ManualClock) -> None:
    """A flood of 300 pings while the clock stands: the bucket's 20 are answered, then one complaint and
    nothing (a complaint at most every 0.2 s); meanwhile the other table plays on. The clock moves half a
    second: the bucket has refilled, the flooder may act again."""
    created = new_table(client, ["human", "bot", "bot"])
    bots = new_table(client, ["bot", "bot", "bot"], bot_delay=0.02, seed=5)  # it waits 0.02 s of the clock a move
    watched = runner(client, bots["table"]["id"])
    r = runner(client, created["table"]["id"])
    ws_cm, _ = connect(client, created, 0)
    with ws_cm as ws:
        state = recv_until(ws, lambda m: m["type"] == "state" and bool(answers(m)))
        # the bots' table pauses after its first moves, until the clock moves (the person's table waits on
        # the person, with no end: the one wait on the clock is the bots')
        until_sync(lambda: clock.waiting() == 1, "the bots' table pausing between its moves")
        before = watched.game.version
        assert not watched.game.over, "the bots' game ended before the flood: it cannot show that it plays on"
        for _ in range(300):
            ws.send_text(json.dumps({"type": "ping"}))
        clock.advance(0.02)  # the bots' pause ends while the flood is read (a fifth of a message refilled)
        replies = []
        while not replies or replies[-1]["type"] != "error":
            m = ws.receive_json()
            if m["type"] != "state":
                replies.append(m)
        pongs = sum(1 for m in replies if m["type"] == "pong")
        assert pongs == 20 and len(replies) == 21 and "too many messages" in replies[-1]["error"]
        until_sync(lambda: watched.game.version > before, "the other table playing on")
        flooder = next(c for c in r.clients if c.seat == 0)
        until_sync(lambda: flooder.refused == 280, "the whole flood read (280 pings refused)")
        clock.advance(0.5)  # the bucket refills at 10 a second; the flooder may act again
        version = r.game.version
        assert version == state["version"]
        ws.send_text(json.dumps({"type": "act", "action": answers(state)[0]["text"], "version": version}))
        # (the socket may still hold states: the table says it moved)
        until_sync(lambda: r.game.version != version, "the refilled flooder's move taken")
        recv_until(ws, lambda m: m["type"] == "state" and m["version"] > version)
        ws.send_text(json.dumps({"type": "ping"}))
        assert recv_until(ws, lambda m: m["type"] != "state") == {"type": "pong"}, "the flood's complaints ended"


def test_a_response_window_counts_down_and_wait_holds_it_once(client: TestClient, clock: ManualClock) -> None:
    # seed 4: under rules 6 (no clock for a person with only whims) seed 3 brings the person one window only
    created = new_table(client, ["human", "bot", "bot"], window_seconds=2.0, seed=4)
    r = runner(client, created["table"]["id"])
    ws_cm, _ = connect(client, created, 0)

    def clocked_window(ws: WebSocketTestSession) -> Msg | None:
        """Play on until a response window runs on the person's clock (someone else's moment). The clock
        moves only by the person's pace before each move, never while a window counts down for them."""
        for _ in range(3000):
            m = ws.receive_json()
            if m["type"] == "state" and m["view"]["over"]:
                return None
            if m["type"] != "state" or not answers(m):
                continue
            if r.game.version != m["version"]:
                continue  # read late: the game has moved on, and a newer state is on its way
            if m["window"] and 0 in m["window"]["clocked"]:
                return m
            # play on, with moves that move the game forward (no equipping back and forth)
            acts = [a["text"] for a in answers(m)]
            pick = next((a for w in FORWARD for a in acts if a.startswith(w)), acts[0])
            clock.advance(PACE)  # a person's pace: a flood of moves is throttled (and a throttled one lost)
            ws.send_text(json.dumps({"type": "act", "action": pick, "version": m["version"]}))
        return None

    with ws_cm as ws:
        window = clocked_window(ws)
        assert window is not None, "no response window reached the person"
        assert window["window"]["remaining"] == 2.0 and window["window"]["seconds"] == 2.0
        assert window["window"]["held_by"] == [] and window["window"]["allow_wait"] is True
        assert any(a["text"] == "pass" for a in window["actions"])
        ws.send_text(json.dumps({"type": "wait"}))

        def wait_answered(m: Msg) -> bool:
            """The answer to Wait!: a held window, or an error about it (not one left over from playing on)."""
            stale = m["type"] == "error" and m["error"].startswith(("stale action", "too many messages"))
            return (m["type"] == "error" and not stale) or bool(m.get("window") and m["window"]["held_by"])

        held = recv_until(ws, wait_answered)
        assert held["type"] == "state", held
        assert held["window"]["held_by"] == [0] and held["window"]["remaining"] is None
        ws.send_text(json.dumps({"type": "wait"}))
        assert "already said Wait!" in recv_until(ws, lambda m: m["type"] == "error")["error"]
        ws.send_text(json.dumps({"type": "act", "action": "pass", "version": held["version"]}))
        recv_until(ws, lambda m: m["type"] == "state" and m["version"] > held["version"])
        assert r.held_by == []
        # the next window on the person's clock: nobody answers, it closes by itself and the seat passes
        window = clocked_window(ws)
        assert window is not None, "no second response window reached the person"
        version = window["version"]
        assert window["window"]["remaining"] == 2.0
        until_sync(lambda: clock.waiting() == 1, "the table waiting on the window's countdown")
        clock.advance(1.5)  # three quarters of the window: it still waits on the person
        assert r.game.version == version and 0 in r.game.to_act and r.deadline == pytest.approx(clock.now + 0.5)
        clock.advance(1.0)  # past its end: the table wakes by itself and passes for the person
        recv_until(ws, lambda m: m["type"] == "state" and m["version"] > version, limit=50)
        passed = [e[1] for e in r.game.log if e[0] == "act"][-5:]
        assert any(a.seat == 0 and a.kind == "pass" for a in passed)


def test_finished_tables_come_back_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'munchkin.db'}"
    with TestClient(create_app(url, clock=ManualClock())) as c:
        tid = new_table(c, ["bot", "bot", "bot"], seed=4)["table"]["id"]
        until_sync(lambda: c.get(f"/api/tables/{tid}").json()["status"] == "over", "the bots' game ending", step=0.05)
        replay = c.get(f"/api/tables/{tid}/replay")
        assert replay.status_code == 200, replay.text
        first = replay.text
        winners = c.get(f"/api/tables/{tid}").json()["winners"]
    with TestClient(create_app(url, clock=ManualClock())) as c:
        assert tid not in c.app.state.hub.tables, "a finished game is rebuilt only when asked for"  # type: ignore[attr-defined]
        summary = c.get(f"/api/tables/{tid}").json()
        assert summary["status"] == "over" and summary["winners"] == winners and winners
        assert c.get(f"/api/tables/{tid}/replay").text == first


def test_a_seat_declares_its_characters_sex(client: TestClient) -> None:
    """The Good, the Bad, and the Munchkin: a character's sex is the player's own unless they
    declare otherwise; the lobby lets each seat declare it, the rest are drawn from the seed."""
    seats = [
        {"name": "Kitty", "kind": "human", "sex": "female"},
        {"name": "Dillon", "kind": "bot", "sex": "male"},
        {"name": "Bob", "kind": "bot"},
    ]
    r = client.post("/api/tables", json={"name": "t", "sets": ["good-bad"], "seats": seats, "bot_delay": 0, "seed": 5})
    assert r.status_code == 201, r.text
    g = runner(client, r.json()["table"]["id"]).game
    assert [p.sex for p in g.players[:2]] == ["female", "male"]
    assert g.players[2].sex in ("male", "female")
    bad = client.post("/api/tables", json={"name": "t", "seats": [{**seats[0], "sex": "robot"}, *seats[1:]]})
    assert bad.status_code == 422 and "sex" in bad.text


def test_a_seat_chooses_its_house(client: TestClient) -> None:
    """Harry Potter: each player chooses a House card at setup; undeclared Houses are drawn from
    the seed, an unknown House or one with no House card left is refused with its reason."""
    seats = [
        {"name": "Collin", "kind": "human", "house": "Slytherin"},
        {"name": "Susan", "kind": "bot", "house": "ravenclaw"},
        {"name": "Bob", "kind": "bot"},
    ]
    body = {"name": "t", "sets": ["harry-potter"], "seats": seats, "bot_delay": 0, "seed": 5}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    g = runner(client, r.json()["table"]["id"]).game
    assert [p.house for p in g.players[:2]] == ["slytherin", "ravenclaw"]
    assert g.players[2].house in ("gryffindor", "hufflepuff", "ravenclaw", "slytherin")
    state = g.view(0)
    assert state["players"][0]["house"] == "Slytherin" and state["houses_in_game"]
    bad = client.post("/api/tables", json={**body, "seats": [{**seats[0], "house": "Durmstrang"}, *seats[1:]]})
    assert bad.status_code == 422 and "unknown House 'Durmstrang'" in bad.text
    four = [{"name": n, "kind": "bot", "house": "Slytherin"} for n in ("A", "B", "C", "D")]
    full = client.post("/api/tables", json={**body, "seats": four})
    assert full.status_code == 422 and "cannot show 4 Slytherin" in full.text
    deluxe = client.post("/api/tables", json={**body, "sets": ["deluxe"]})
    assert deluxe.status_code == 422 and "Harry Potter" in deluxe.text


def test_a_long_message_is_refused_and_a_frame_over_64_kib_closes_the_socket(tmp_path: Path) -> None:
    """`munchkin serve` itself, since uvicorn enforces the frame limit: a message over 4,096 bytes up to
    64 KiB gets an error and the socket stays open (a ping after it is answered); a longer one is not
    read, and the server closes the socket with 1009, message too big."""
    from websockets.exceptions import ConnectionClosedError

    from munchkin.server.config import MAX_FRAME
    from munchkin.server.tables import MAX_MESSAGE
    from test_server_restart import Server

    server = Server(["--data", str(tmp_path)], tmp_path / "server.log")
    server.start()
    try:
        seats = [{"name": n, "kind": "human"} for n in ("Ann", "Bob", "Cy")]
        table = server.post("/api/tables", {"seats": seats})
        token = table["links"][0]["url"].split("token=")[1]
        with server.ws(table["table"]["id"], token) as ws:
            assert json.loads(ws.recv(timeout=PATIENCE))["type"] == "hello"

            def reply() -> Msg:
                while True:  # states may come between
                    m: Msg = json.loads(ws.recv(timeout=PATIENCE))
                    if m["type"] != "state":
                        return m

            for size in (MAX_MESSAGE + 1, MAX_FRAME):
                message = json.dumps({"type": "ping", "pad": "x" * (size - 27)})
                assert len(message) == size
                ws.send(message)
                assert reply() == {"type": "error", "error": f"message too large: {size} bytes, the limit is 4096"}
                ws.send(json.dumps({"type": "ping"}))
                assert reply() == {"type": "pong"}, "the socket stays open"
            ws.send("x" * (MAX_FRAME + 1))
            with pytest.raises(ConnectionClosedError) as closed:
                while True:
                    ws.recv(timeout=PATIENCE)
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == 1009
            assert closed.value.rcvd.reason == f"frame exceeds limit of {MAX_FRAME} bytes"
    finally:
        server.stop()
