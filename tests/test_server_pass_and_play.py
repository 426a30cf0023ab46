"""A pass-and-play table: one device link plays every person seat, one claimed at a time. Claims are
accepted only from the device and only for the table's people, end when another person's own decision
comes, and the device is sent the claimed seat's view, or the public one between two people.

The app's tables and the device's message bucket keep time by a `ManualClock` the test moves by hand
(tests/test_server_clock.py): no window, grace or away time runs out unless a test says so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from munchkin.server.app import create_app
from munchkin.server.clock import ManualClock
from munchkin.server.config import ServerSettings
from munchkin.server.hub import Hub
from test_server_protocol import PACE

Msg = dict[str, Any]
SEED = 5  # seat 0 readies first, then seat 1, then the bot (character creation, one seat after another)


@pytest.fixture
def clock() -> ManualClock:
    """The tables' clock: it moves only when the test moves it."""
    return ManualClock()


@pytest.fixture
def client(tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'munchkin.db'}", ServerSettings(), clock)) as c:
        yield c


def new_table(c: TestClient, kinds: list[str], **extra: Any) -> Msg:
    seats = [{"name": name, "kind": k} for name, k in zip(["Ann", "Bob", "Cy", "Di"], kinds, strict=False)]
    body = {"name": "one screen", "seats": seats, "bot_delay": 0, "seed": SEED, "pass_and_play": True, **extra}
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    out: Msg = r.json()
    return out


def query(url: str) -> str:
    return url.split("?", 1)[1]


def next_of(ws: WebSocketTestSession, kind: str) -> Msg:
    """The next message of this type (states the server coalesced on the way are skipped)."""
    for _ in range(200):
        m: Msg = ws.receive_json()
        if m["type"] == kind:
            return m
        assert m["type"] != "error" or kind == "error", f"unexpected error: {m['error']}"
    raise AssertionError(f"no {kind} message came")


def state_where(ws: WebSocketTestSession, ok: Any) -> Msg:
    for _ in range(200):
        m: Msg = ws.receive_json()
        assert m["type"] != "error", m["error"]
        if m["type"] == "state" and ok(m):
            return m
    raise AssertionError("no such state came")


def refused(ws: WebSocketTestSession, msg: Msg) -> str:
    ws.send_json(msg)
    err: str = next_of(ws, "error")["error"]
    return err


def hands(c: TestClient, tid: str) -> dict[int, set[str]]:
    h: Hub = c.app.state.hub  # type: ignore[attr-defined]
    g = h.tables[tid].game
    return {p.seat: {g.cdef[x].name for x in p.hand} for p in g.players}


def test_a_pass_and_play_table_needs_two_people_and_gives_one_device_link(client: TestClient) -> None:
    r = client.post(
        "/api/tables",
        json={"seats": [{"name": "Ann", "kind": "human"}, {"name": "B", "kind": "bot"}, {"name": "C", "kind": "bot"}],
              "pass_and_play": True},
    )  # fmt: skip
    assert r.status_code == 422
    assert "at least two person seats" in r.json()["detail"] and "(this one has 1)" in r.json()["detail"]
    r = client.post("/api/tables", json={"seats": [], "pass_and_play": "yes"})
    assert "pass_and_play: must be true or false" in r.json()["detail"]
    made = new_table(client, ["human", "human", "bot"])
    assert made["device"].startswith(f"/table/{made['table']['id']}?device=1&token=")
    assert made["table"]["pass_and_play"] is True
    assert [link["seat"] for link in made["links"]] == [0, 1]  # the per-seat links stay, as at any table
    plain = client.post("/api/tables", json={"seats": [{"name": n, "kind": "human"} for n in "ABC"]}).json()
    assert plain["device"] is None and plain["table"]["pass_and_play"] is False


def test_claims_are_checked_and_end_when_another_persons_own_decision_comes(client: TestClient) -> None:
    made = new_table(client, ["human", "human", "bot"])
    tid = made["table"]["id"]
    mine = hands(client, tid)
    with client.websocket_connect(f"/ws/{tid}?{query(made['device'])}") as ws:
        hello = next_of(ws, "hello")
        assert hello["device"] is True and hello["seat"] is None
        first = next_of(ws, "state")  # nobody claimed: the public table, and whose own decision waits
        assert first["device"] == {"claimed": None, "people": [0, 1], "owed": [0], "answering": []}
        assert first["view"]["hand"] == [] and first["actions"] == []
        assert all(s["connected"] for s in first["seats"] if s["kind"] == "human")  # the device is at every seat
        assert "no seat is claimed" in refused(ws, {"type": "act", "action": "ready", "version": first["version"]})
        assert refused(ws, {"type": "claim", "seat": 1}) == "Ann's own decision comes first: hand the device to Ann"
        assert "Cy) is a bot's" in refused(ws, {"type": "claim", "seat": 2})
        assert "there is no seat 7" in refused(ws, {"type": "claim", "seat": 7})
        assert 'needs "seat"' in refused(ws, {"type": "claim", "seat": "0"})
        ws.send_json({"type": "claim", "seat": 0})
        claimed = next_of(ws, "claimed")
        assert claimed == {"type": "claimed", "seat": 0, "player": "Ann", "why": ""}
        ann = next_of(ws, "state")
        assert {c["name"] for c in ann["view"]["hand"]} == mine[0] and ann["view"]["you"] == 0
        assert ann["device"]["claimed"] == 0 and ann["log_start"] == 0
        ws.send_json({"type": "act", "action": "ready", "version": ann["version"]})
        ended = next_of(ws, "claimed")  # Bob's own decision now: Ann's hand leaves the device
        assert ended == {
            "type": "claimed",
            "seat": None,
            "player": None,
            "why": "Bob's own decision: hand the device to Bob",
        }
        public = next_of(ws, "state")
        assert public["view"]["hand"] == [] and public["actions"] == [] and public["menu"] is None
        assert public["device"]["owed"] == [1] and public["log_start"] == 0
        assert not any(name in line for line in public["log"] for name in mine[0] | mine[1])
        assert refused(ws, {"type": "claim", "seat": 0}) == "Bob's own decision comes first: hand the device to Bob"
        ws.send_json({"type": "claim", "seat": 1})
        assert next_of(ws, "claimed")["player"] == "Bob"
        bob = next_of(ws, "state")
        assert {c["name"] for c in bob["view"]["hand"]} == mine[1] and bob["view"]["you"] == 1
        ws.send_json({"type": "release"})  # Bob hides his hand himself
        assert next_of(ws, "claimed") == {"type": "claimed", "seat": None, "player": None, "why": "Bob hid their hand"}
        assert next_of(ws, "state")["view"]["hand"] == []


def test_only_the_device_claims_and_a_seat_link_plays_as_before(client: TestClient) -> None:
    made = new_table(client, ["human", "human", "bot"])
    tid = made["table"]["id"]
    with (
        client.websocket_connect(f"/ws/{tid}?{query(made['links'][0]['url'])}") as seat,
        client.websocket_connect(f"/ws/{tid}") as spectator,
    ):
        assert next_of(seat, "hello")["seat"] == 0 and next_of(spectator, "hello")["device"] is False
        st = next_of(seat, "state")
        for ws in (seat, spectator):
            assert "only a pass-and-play table's device link can claim" in refused(ws, {"type": "claim", "seat": 0})
        assert "device" not in st and st["view"]["you"] == 0 and st["view"]["hand"]
        seat.send_json({"type": "act", "action": "ready", "version": st["version"]})
        state_where(seat, lambda m: m["view"]["to_act"] == [1])
    bad = made["device"].replace("token=", "token=x")
    with client.websocket_connect(f"/ws/{tid}?{query(bad)}") as ws:
        assert ws.receive_json()["error"] == "that seat token is not valid at this table"
    other = client.post("/api/tables", json={"seats": [{"name": n, "kind": "human"} for n in "ABC"]}).json()
    with client.websocket_connect(f"/ws/{other['table']['id']}?{query(made['device'])}") as ws:  # another table's
        assert ws.receive_json()["error"] == "that seat token is not valid at this table"


def test_a_window_keeps_an_answering_persons_claim_and_lists_who_may_answer(
    client: TestClient, clock: ManualClock
) -> None:
    """In a fight's window the fighter's own decision waits; another person the window waits on may
    still take the device (their claim holds while they are asked), and the public state lists them."""
    made = new_table(client, ["human", "human", "human"], window_seconds=60)
    tid = made["table"]["id"]
    h: Hub = client.app.state.hub  # type: ignore[attr-defined]
    runner = h.tables[tid]
    with client.websocket_connect(f"/ws/{tid}?{query(made['device'])}") as ws:
        next_of(ws, "hello")
        st = next_of(ws, "state")
        for _ in range(20):  # each person in turn takes the device and makes the first move listed
            if runner.game.prompt.kind == "window":
                break
            owner = st["device"]["owed"][0]
            if st["device"]["claimed"] != owner:
                clock.advance(PACE)  # a person's pace: the device's messages are not a flood
                ws.send_json({"type": "claim", "seat": owner})
                st = state_where(ws, lambda m, o=owner: m["device"]["claimed"] == o)
            move = next(a["text"] for a in st["actions"] if not a["any_time"])
            clock.advance(PACE)
            ws.send_json({"type": "act", "action": move, "version": st["version"]})
            st = state_where(ws, lambda m, v=st["version"]: m["version"] != v)
        else:
            raise AssertionError("no fight's window came")
        g = runner.game
        fighter = g.deciding()[0]
        other = next(s for s in g.to_act if s not in g.deciding())
        if st["version"] != g.version:
            st = state_where(ws, lambda m: m["version"] == g.version)
        assert st["device"]["owed"] == [fighter] and other in st["device"]["answering"]
        assert st["window"]["clocked"] and other in st["window"]["clocked"]
        ws.send_json({"type": "claim", "seat": other})  # "Bob wants to play a card"
        assert next_of(ws, "claimed")["seat"] == other
        mine = state_where(ws, lambda m: m["device"]["claimed"] == other)
        assert mine["view"]["you"] == other and any(a["text"] == "pass" for a in mine["actions"])
        ws.send_json({"type": "act", "action": "pass", "version": mine["version"]})
        ended = next_of(ws, "claimed")  # no longer asked, and the fighter's own decision waits: handed back
        assert ended["seat"] is None and ended["why"].endswith(f"hand the device to {runner.row.seats[fighter].name}")


def test_the_device_keeps_every_person_seat_from_a_stand_in(client: TestClient, clock: ManualClock) -> None:
    made = new_table(client, ["human", "human", "bot"], away_seconds=10)
    tid = made["table"]["id"]
    h: Hub = client.app.state.hub  # type: ignore[attr-defined]
    runner = h.tables[tid]
    assert set(runner.away_since) == {0, 1}  # nobody has come yet
    clock.advance(60)  # both seats have been empty for a minute
    with client.websocket_connect(f"/ws/{tid}?{query(made['device'])}") as ws:
        next_of(ws, "hello")
        st = next_of(ws, "state")
        assert runner.away_since == {} and runner._stand_ins() == frozenset()  # the device is at both seats
        assert not any(s["stand_in"] for s in st["seats"])
        assert client.get(f"/api/tables/{tid}").json()["spectators"] == 0
        assert all(s["claimed"] for s in client.get(f"/api/tables/{tid}").json()["seats"])
    assert set(runner.away_since) == {0, 1}  # gone: both people's seats are away again
