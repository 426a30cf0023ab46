"""A person's seat nobody has opened yet (docs/server.md, "Absent people"): it is "not joined yet",
not someone who walked away. It gets a short first-join grace (`join_seconds`, from when the first
person sat down) before a bot plays it; anyone at the table may let a bot play it (or an away
person's seat) at once with a `stand_in` message; the person who opens their link later takes the
seat back; a fair table's deal waits for such a seat no longer than its grace; and every state says,
seat by seat, whether its person has joined and in how many seconds a bot plays for them.

The tables' clock is a `ManualClock`, moved by hand as in tests/test_server_clock.py."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from munchkin.server.app import handle_message
from munchkin.server.clock import ManualClock
from munchkin.server.hub import Hub
from munchkin.server.models import TableIn
from munchkin.server.store import Store
from munchkin.server.tables import Client, TableRunner
from test_server_clock import Socket, make_runner
from waits import bounded, until

Msg = dict[str, Any]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def seats(r: TableRunner) -> list[Msg]:
    """The seats as a state message shows them to everyone."""
    out: list[Msg] = json.loads(r.state_message(Client(Socket(), None)))["seats"]
    return out


def stand_in(r: TableRunner, c: Client, seat: Any) -> str | None:
    """Send a `stand_in` message as the client; the error it is refused with, or None if taken."""
    reply = handle_message(r, c, json.dumps({"type": "stand_in", "seat": seat}))
    return None if reply is None else str(reply["error"])


def play_until_bob_moves(r: TableRunner) -> None:
    """Play the table as its loop does (bots and stand-ins at once), Ann making her first move each
    time the game waits on her, until a move is made for Bob (seat 1); fails if it ever waits on Bob."""
    g = r.game
    for _ in range(400):
        before = len(g.log)
        while r._bots_act():
            r._commit()
        if any(e[0] == "act" and e[1].seat == 1 for e in g.log[before:]):
            return
        assert 1 not in g.to_act, "the game waits on Bob and no bot plays for him"
        r.act(0, g.text(g.legal_actions(0)[0]), g.version)
    raise AssertionError("the game never came to Bob")


def test_a_seat_nobody_opened_gets_its_first_join_grace_then_a_bot_until_its_person_joins(
    tmp_path: Path, clock: ManualClock
) -> None:
    async def main() -> None:
        r = make_runner(tmp_path, ["human", "human", "bot"], seed=3, clock=clock)
        assert r.join_seconds == 30 and r.away_seconds == 120, "the defaults"
        assert [(s["joined"], s["bot_in"]) for s in seats(r)] == [(False, None), (False, None), (True, None)]
        ann = Client(Socket(), 0)
        r.join(ann)  # the first person sits down: Bob's grace starts now
        clock.advance(29)
        assert r._stand_ins() == frozenset() and r._next_stand_in_time() == pytest.approx(clock.now + 1)
        bob = seats(r)[1]
        assert (bob["joined"], bob["connected"], bob["stand_in"], bob["bot_in"]) == (False, False, False, 1.0)
        assert seats(r)[0]["bot_in"] is None, "Ann is here: no bot is due for her"
        clock.advance(1)  # 30 s, not the 120 s an away person gets
        assert r._stand_ins() == {1}
        bob = seats(r)[1]
        assert (bob["stand_in"], bob["bot_in"], bob["joined"]) == (True, None, False)
        play_until_bob_moves(r)

        r.join(Client(Socket(), 1))  # Bob opens his link at last: the seat is his
        assert r._stand_ins() == frozenset() and seats(r)[1]["joined"] and seats(r)[1]["connected"]
        assert r.row.seats[1].claimed, "his seat is claimed (stored): he has joined"
        g = r.game
        for _ in range(400):  # from now on the game waits on Bob whenever it is his to decide
            while r._bots_act():
                r._commit()
            if 1 in g.to_act and 0 not in g.to_act:
                break
            r.act(0, g.text(g.legal_actions(0)[0]), g.version)
        version = g.version
        clock.advance(3600)
        assert r._bots_act() == 0 and g.version == version and 1 in g.to_act, "a bot played for Bob, who is here"
        await asyncio.sleep(0)
        r.store.close()

    asyncio.run(main())


def test_a_person_who_came_and_left_is_away_and_gets_the_away_time_not_the_grace(
    tmp_path: Path, clock: ManualClock
) -> None:
    async def main() -> None:
        r = make_runner(tmp_path, ["human", "human", "bot"], seed=3, clock=clock)
        r.join(Client(Socket(), 0))
        bob = Client(Socket(), 1)
        r.join(bob)
        r.leave(bob)  # Bob came, and went
        assert seats(r)[1]["joined"] and seats(r)[1]["bot_in"] == 120.0
        clock.advance(119)
        assert r._stand_ins() == frozenset()
        clock.advance(1)
        assert r._stand_ins() == {1}
        await asyncio.sleep(0)
        r.store.close()

    asyncio.run(main())


def test_anyone_at_the_table_may_let_a_bot_play_an_absent_seat_now(tmp_path: Path, clock: ManualClock) -> None:
    async def main() -> None:
        r = make_runner(tmp_path, ["human", "human", "human", "bot"], seed=3, clock=clock)
        ann, watcher = Client(Socket(), 0), Client(Socket(), None)
        r.join(ann)
        r.join(watcher)
        assert "spectators cannot call in a bot" in (stand_in(r, watcher, 1) or "")
        for bad in (None, "1", 1.0, True, -1, 4):
            assert stand_in(r, ann, bad) == (
                'a "stand_in" message needs "seat": the number of a person\'s seat, 0 to 3'
            ), bad
        assert stand_in(r, ann, 3) == "Di's seat is a bot's already"
        assert stand_in(r, ann, 0) == "Ann is at the table: a bot plays only for someone not joined yet or away"
        assert r._stand_ins() == frozenset() and r.called_in == set(), "nothing changed"

        assert stand_in(r, ann, 1) is None  # Bob has not joined: a bot plays for him at once
        assert r._stand_ins() == {1} and seats(r)[1]["stand_in"] and seats(r)[1]["bot_in"] is None
        assert seats(r)[2]["bot_in"] == 30.0, "Cy still has his grace"
        assert stand_in(r, ann, 1) == "a bot is playing for Bob already"
        play_until_bob_moves(r)

        cy = Client(Socket(), 2)
        r.join(cy)
        r.leave(cy)  # Cy came and went: away, with 120 s before a bot comes ...
        assert r._stand_ins() == {1}
        assert stand_in(r, ann, 2) is None  # ... unless someone lets a bot play now
        assert r._stand_ins() == {1, 2}

        bob = Client(Socket(), 1)
        r.join(bob)  # Bob takes his seat back; gone again, he is away like anyone else
        assert r._stand_ins() == {2} and r.called_in == {2}
        r.leave(bob)
        assert r._stand_ins() == {2} and seats(r)[1]["bot_in"] == 120.0

        r.leave(ann)  # nobody is left at the table: nobody may call in a bot, and none plays
        assert r._stand_ins() == frozenset() and seats(r)[1]["bot_in"] is None
        assert stand_in(r, cy, 1) == "only a person at the table may call in a bot"
        await asyncio.sleep(0)
        r.store.close()

    asyncio.run(main())


def test_the_game_over_refuses_a_bot_call_with_a_reason(tmp_path: Path, clock: ManualClock) -> None:
    async def main() -> None:
        r = make_runner(tmp_path, ["human", "human", "bot"], seed=3, clock=clock)
        ann = Client(Socket(), 0)
        r.join(ann)
        r.game.over = True  # a shortcut to the end, to check the reply there
        assert stand_in(r, ann, 1) == "the game is over"
        assert seats(r)[1]["bot_in"] is None, "no countdown once the game is over"
        await asyncio.sleep(0)
        r.store.close()

    asyncio.run(main())


# ------------------------------------------------------------------ a fair table's deal
class Sink:
    """A socket that reads whatever it is sent."""

    async def send_text(self, data: str) -> None:
        pass


async def undealt_while_it_waits(r: TableRunner, clock: ManualClock) -> bool:
    """Once the table's loop waits on its clock (its entropy written): is it still undealt?"""
    await until(lambda: clock.waiting() and not r.config_writes, "the table waiting on its clock")
    assert not r.failed, r.failed
    return not r.dealt


async def dealt(r: TableRunner) -> bool:
    await until(lambda: r.dealt or r.failed, "the deal")
    assert not r.failed, r.failed
    return r.dealt


async def _fair_deal(db: Path) -> None:
    store = Store(f"sqlite:///{db}")
    clock = ManualClock()
    hub = Hub(store, clock=clock)
    people = [{"name": n, "kind": "human"} for n in ("Ann", "Bob")] + [{"name": "Cy", "kind": "bot"}]
    spec = TableIn(name="fair", seats=people, bot_delay=0, join_seconds=10, away_seconds=600)  # type: ignore[arg-type]

    # Bob never opens his link: the deal waits his grace, not the away time
    r, _ = await hub.create(spec)
    ann = Client(Sink(), 0)
    r.join(ann)
    r.give_entropy(0, "Ann's")
    clock.advance(9.9)
    assert await undealt_while_it_waits(r, clock), "dealt before Bob's grace ran out"
    msg = json.loads(r.state_message(ann))
    assert msg["deal_in"] == 0.1 and msg["seats"][1]["bot_in"] == 0.1 and msg["view"] is None
    clock.advance(0.1)  # ... Bob's 10 s have gone by
    assert await dealt(r), "the deal waited past Bob's first-join grace"
    assert r.row.config["fair"]["entropy"] == ["Ann's", None, None]
    assert r._stand_ins() == {1} and json.loads(r.state_message(ann))["deal_in"] is None

    # Bob came and left without his entropy: the deal waits the away time for him ...
    r, _ = await hub.create(spec)
    ann = Client(Sink(), 0)
    r.join(ann)
    bob = Client(Sink(), 1)
    r.join(bob)
    r.leave(bob)
    r.give_entropy(0, "Ann's")
    clock.advance(10)
    assert await undealt_while_it_waits(r, clock), "Bob joined: the deal waits the away time for him"
    assert json.loads(r.state_message(ann))["deal_in"] == 590
    assert handle_message(r, ann, json.dumps({"type": "stand_in", "seat": 1})) is None  # ... or a bot now
    assert await dealt(r), "a bot was called in for Bob, and still the deal waited"

    # a bot called in for a seat nobody opened: dealt at once
    r, _ = await hub.create(spec)
    ann = Client(Sink(), 0)
    r.join(ann)
    r.give_entropy(0, "Ann's")
    assert handle_message(r, ann, json.dumps({"type": "stand_in", "seat": 1})) is None
    assert await dealt(r)
    assert r._stand_ins() == {1}
    assert await bounded(hub.stop(), "the hub's stop")
    store.close()


def test_a_fair_tables_deal_waits_for_a_seat_nobody_opened_no_longer_than_its_grace(tmp_path: Path) -> None:
    asyncio.run(_fair_deal(tmp_path / "fair.db"))


def test_the_hello_and_the_lobby_carry_the_grace(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from munchkin.server.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'm.db'}", clock=ManualClock())) as c:
        seats_in = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}, {"name": "Cy", "kind": "bot"}]
        created = c.post("/api/tables", json={"seats": seats_in, "join_seconds": 45}).json()
        assert created["table"]["join_seconds"] == 45
        token = created["links"][0]["url"].split("token=")[1]
        with c.websocket_connect(f"/ws/{created['table']['id']}?token={token}") as ws:
            hello = ws.receive_json()
            assert hello["join_seconds"] == 45
            state = next(m for m in iter(ws.receive_json, None) if m["type"] == "state")
            assert state["seats"][1]["bot_in"] == 45 and state["seats"][1]["joined"] is False
            ws.send_json({"type": "stand_in", "seat": 0})
            reply = next(m for m in iter(ws.receive_json, None) if m["type"] == "error")
            assert reply["error"] == "Ann is at the table: a bot plays only for someone not joined yet or away"
