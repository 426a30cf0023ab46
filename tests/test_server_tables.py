"""The server's tables as an attacker and an operator see them: an unpredictable deal that still
replays exactly, a chosen seed shown to everyone, expiry, paging, damaged rows, stored replays,
and a bot standing in for a person who walked away.

The tables run on a `ManualClock` the test moves by hand (tests/test_server_clock.py): no countdown, stand-in,
turn clock or bot delay fires unless a test moves the clock, however slow the machine; what a test waits for
is work, within `waits.PATIENCE`."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from munchkin.engine.game import Game, Options, Setup
from munchkin.server.app import create_app
from munchkin.server.clock import Clock, ManualClock
from munchkin.server.config import ServerSettings
from munchkin.server.hub import Hub
from munchkin.server.tables import WINDOW_KINDS, TableRunner
from waits import PATIENCE, bounded, until, until_sync

Msg = dict[str, Any]
DAY = 86_400.0


def make_client(db: Path, clock: Clock | None = None, **settings: Any) -> TestClient:
    """The app over `db`, its tables and limits on `clock` (a new `ManualClock` unless given: nothing timed
    happens unless the test moves it). The hub's expiry sweep, which runs on the wall clock, comes once a
    day unless asked otherwise: a test that sweeps calls `sweep_once`, and none may lose a finished table
    to a sweep that happened to come while a slow machine ran it."""
    settings.setdefault("expiry_sweep_seconds", DAY)
    return TestClient(create_app(f"sqlite:///{db}", ServerSettings(**settings), clock or ManualClock()))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "munchkin.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with make_client(db) as c:
        yield c


def hub(c: TestClient) -> Hub:
    h: Hub = c.app.state.hub  # type: ignore[attr-defined]
    return h


def clock_of(c: TestClient) -> ManualClock:
    """The clock the app's tables keep time by, which the test moves."""
    clock = hub(c).clock
    assert isinstance(clock, ManualClock)
    return clock


def new_table(c: TestClient, kinds: list[str], **extra: Any) -> Msg:
    seats = [{"name": f"P{i}", "kind": k, "strength": "random"} for i, k in enumerate(kinds)]
    r = c.post("/api/tables", json={"name": "t", "seats": seats, "bot_delay": 0, **extra})
    assert r.status_code == 201, r.text
    out: Msg = r.json()
    return out


def deal_now(c: TestClient, tid: str) -> TableRunner:
    """A fair table's cards dealt: each person's seat gives its entropy (on the server's loop, as a message
    would), the deal is stored and the bots have played up to a person's decision; returns the table."""
    r = hub(c).tables[tid]
    for seat in sorted(r.humans):
        c.portal.call(r.give_entropy, seat, f"entropy of seat {seat}")  # type: ignore[union-attr]

    def waits_on_a_person() -> bool:
        assert not r.failed, f"table {tid} was not dealt: {r.failed}"
        return r.dealt and r.stored_all() and bool(r.game.to_act) and set(r.game.to_act) <= r.humans

    until_sync(waits_on_a_person, f"table {tid} dealt, stored and waiting on a person")
    return r


def wait_over(c: TestClient, tid: str, seconds: float = PATIENCE) -> Msg:
    """The table's summary once its game is no longer being played."""
    s: Msg = {}

    def done() -> bool:
        s.update(c.get(f"/api/tables/{tid}").json())
        return s["status"] != "playing"

    until_sync(done, f"table {tid} finishing", seconds, step=0.05)
    return s


def stored_config(db: Path, tid: str) -> Msg:
    with sqlite3.connect(db) as con:
        (cfg,) = con.execute("SELECT config FROM munchkin_tables WHERE id = ?", (tid,)).fetchone()
    out: Msg = json.loads(cfg)
    return out


def ints_in(x: Any) -> list[int]:
    if isinstance(x, bool):
        return []
    if isinstance(x, int):
        return [x]
    if isinstance(x, dict):
        return [i for v in x.values() for i in ints_in(v)]
    if isinstance(x, list):
        return [i for v in x for i in ints_in(v)]
    return []


def test_a_live_table_keeps_no_seed_and_still_replays_exactly(db: Path) -> None:
    with make_client(db) as c:
        a = new_table(c, ["human", "bot", "bot"])["table"]
        b = new_table(c, ["human", "bot", "bot"])["table"]
        ga, gb = deal_now(c, a["id"]).game, deal_now(c, b["id"]).game
        assert a["seed"] is None and ga.setup.seed is None
        assert ga.door_deck != gb.door_deck, "two fresh tables deal alike"
        deal = (list(ga.door_deck), [p.hand for p in ga.players])
        before = ga.fingerprint()
        cfg = stored_config(db, a["id"])
    assert cfg["seed"] is None and not cfg["seed_chosen"]
    # no whole number the table stores deals its cards: try each one as a seed
    for n in ints_in(cfg):
        g = Game(Setup(cfg["sets"], ["P0", "P1", "P2"], n, Options(**cfg["options"]), cfg["sexes"]))
        assert (list(g.door_deck), [p.hand for p in g.players]) != deal, f"{n} reproduces the deal"
    with make_client(db) as c:  # a restart rebuilds the deal from the stored chance outcomes
        g = hub(c).get(a["id"]).game
        assert g.fingerprint() == before and (list(g.door_deck), [p.hand for p in g.players]) == deal


def test_a_bot_table_restarted_mid_game_plays_on_and_its_replay_is_exact(db: Path) -> None:
    with make_client(db) as c:
        # a millisecond of the table's clock between the bots' own moves: the clock stands until the watcher
        # below moves it, so the bots stop after each such move, however fast or slow the machine, and the
        # server is stopped in one of those pauses, 30 moves in (with no delay they could play hundreds of
        # moves first, and a short game, 5% of random Star and Deluxe games end within 400, be over)
        tid = new_table(c, ["bot", "bot", "bot"], sets=["star", "deluxe"], bot_delay=0.001)["table"]["id"]
        r = hub(c).tables[tid]
        # the server dies mid-game, in a pause of the bots
        c.portal.call(stop_in_a_pause, r, clock_of(c), 30)  # type: ignore[union-attr]
        assert not r.game.over
    with make_client(db, Clock()) as c:  # on the machine's clock: the bots play on, a millisecond apart
        s = wait_over(c, tid)
        assert s["status"] == "over", s
        body = c.get(f"/api/tables/{tid}/replay").text
        live = hub(c).get(tid).game
        assert json.loads(body)["setup"]["seed"] is None
        replayed = Game.from_json(body)  # rebuilt from the recorded chance, checked entry by entry
        assert replayed.fingerprint() == live.fingerprint() and replayed.winners == live.winners
        with sqlite3.connect(db) as con:
            (stored,) = con.execute("SELECT body FROM munchkin_replays WHERE table_id = ?", (tid,)).fetchone()
        assert stored == body, "the replay is served from storage"


async def stop_in_a_pause(r: TableRunner, clock: ManualClock, moves: int) -> None:
    """On the server's loop: each time the table's bots pause between their own moves (the table waits on
    its clock), move the clock on by their delay, until they have made `moves` moves; then stop the table
    in the pause that follows. Fails if the table stops or its game ends first."""

    def pausing() -> bool:
        assert not r.failed, r.failed
        assert not r.game.over, f"the game ended after {r.game.decisions} moves: the test needs it on"
        return clock.waiting() > 0

    while r.game.decisions < moves:
        await until(pausing, "the bots pausing between their moves")
        clock.advance(r.bot_delay)
    await until(pausing, "the bots pausing between their moves")
    await bounded(r.stop(), "the table's stop")


def test_a_chosen_seed_is_shown_to_everyone_before_they_join(client: TestClient) -> None:
    created = new_table(client, ["human", "human", "bot"], seed=12345)
    tid = created["table"]["id"]
    listed = client.get("/api/tables").json()["tables"]
    assert [t["seed"] for t in listed if t["id"] == tid] == [12345]
    with client.websocket_connect(f"/ws/{tid}") as ws:  # a spectator, before anyone has joined
        hello = ws.receive_json()
        assert hello["type"] == "hello" and hello["seed"] == 12345
    assert hub(client).tables[tid].game.setup.seed == 12345


def test_the_table_list_is_paged_filtered_and_cheap_to_poll(client: TestClient) -> None:
    ids = [new_table(client, ["human", "bot", "bot"])["table"]["id"] for _ in range(5)]
    over = new_table(client, ["bot", "bot", "bot"])["table"]["id"]
    wait_over(client, over)
    first = client.get("/api/tables?limit=2")
    page = first.json()
    assert [t["id"] for t in page["tables"]] == [over, ids[4]] and page["next"]
    assert page["counts"] == {"open": 5, "playing": 5, "over": 1, "stopped": 0}
    seen = [t["id"] for t in page["tables"]]
    while page["next"]:
        page = client.get(f"/api/tables?limit=2&after={page['next']}").json()
        seen += [t["id"] for t in page["tables"]]
    assert seen == [over, *reversed(ids)]
    assert [t["id"] for t in client.get("/api/tables?status=over").json()["tables"]] == [over]
    assert len(client.get("/api/tables?status=open").json()["tables"]) == 5
    again = client.get("/api/tables?limit=2", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    for bad in ("limit=0", "limit=1000", "after=nonsense", "status=mine"):
        r = client.get(f"/api/tables?{bad}")
        assert r.status_code == 422, bad


def test_tables_nobody_joined_expire_and_finished_ones_keep_their_replays(db: Path) -> None:
    with make_client(db) as c:
        lonely = [new_table(c, ["human", "human", "bot"])["table"]["id"] for _ in range(3)]
        done = new_table(c, ["bot", "bot", "bot"])["table"]["id"]
        wait_over(c, done)
        replay = c.get(f"/api/tables/{done}/replay").text
    with make_client(db, expire_unjoined_minutes=0.0) as c:  # start-up expires them before loading
        listed = [t["id"] for t in c.get("/api/tables").json()["tables"]]
        assert listed == [done] and not hub(c).tables
        assert c.get(f"/api/tables/{lonely[0]}").status_code == 404
        assert c.get(f"/api/tables/{done}/replay").text == replay
    with sqlite3.connect(db) as con:
        left = {t for (t,) in con.execute("SELECT DISTINCT table_id FROM munchkin_seats")}
        left |= {t for (t,) in con.execute("SELECT DISTINCT table_id FROM munchkin_chance")}
    assert left == {done}, "an expired table leaves nothing behind"


def test_the_sweep_expires_idle_tables_a_spectator_watches_but_not_one_a_person_sits_at(db: Path) -> None:
    """A spectator alone does not keep a table nobody plays at: one client could hold the server full."""
    with make_client(db, expire_unjoined_minutes=0.0, expiry_sweep_seconds=3600) as c:
        idle = new_table(c, ["human", "bot", "bot"])["table"]["id"]
        watched = new_table(c, ["human", "bot", "bot"])["table"]["id"]
        made = new_table(c, ["human", "bot", "bot"])
        seated, url = made["table"]["id"], made["links"][0]["url"]
        with (
            c.websocket_connect(f"/ws/{watched}") as spectator,
            c.websocket_connect(f"/ws/{seated}?" + url.split("?")[1]) as person,
        ):
            assert spectator.receive_json()["type"] == "hello" and person.receive_json()["type"] == "hello"
            assert hub(c).tables[seated].people_here() and not hub(c).tables[watched].people_here()
            c.portal.call(hub(c).sweep_once)  # type: ignore[union-attr]
            assert idle not in hub(c).rows and watched not in hub(c).rows and seated in hub(c).rows
            assert c.get(f"/api/tables/{idle}").status_code == 404
            assert c.get(f"/api/tables/{watched}").status_code == 404
            assert c.get(f"/api/tables/{seated}").json()["status"] == "playing"


@pytest.mark.parametrize(
    "damage,words",
    [
        ("UPDATE munchkin_tables SET config = '{broken' WHERE id = ?", "config is not valid JSON"),
        ("UPDATE munchkin_tables SET winners = 'nope' WHERE id = ?", "winners are not valid JSON"),
        ("DELETE FROM munchkin_seats WHERE table_id = ?", "seats are missing"),
        ("DELETE FROM munchkin_chance WHERE table_id = ?", "could not be restored"),
        ("UPDATE munchkin_actions SET raw = '[1' WHERE table_id = ? AND seq = 0", "could not be restored"),
    ],
)
def test_a_damaged_table_is_stopped_and_the_others_serve(db: Path, damage: str, words: str) -> None:
    with make_client(db) as c:
        bad = new_table(c, ["human", "bot", "bot"])["table"]["id"]
        good = new_table(c, ["human", "bot", "bot"])["table"]["id"]
        for tid in (bad, good):  # each table gets an action stored: the one to be damaged, and the one to come back
            r = deal_now(c, tid)
            r.act(0, r.game.text(r.game.legal_actions(0)[0]), r.game.version)
    with sqlite3.connect(db) as con:
        con.execute(damage, (bad,))
    with make_client(db) as c:
        s = c.get(f"/api/tables/{bad}").json()
        assert s["status"] == "stopped" and words in s["stopped"], s
        assert c.get(f"/api/tables/{good}").json()["status"] == "playing"
        with sqlite3.connect(db) as con:
            (n,) = con.execute("SELECT COUNT(*) FROM munchkin_actions WHERE table_id = ?", (good,)).fetchone()
        assert n >= 1, "the good table stored no action: its restoring would show nothing"
        healthy = hub(c).get(good)
        assert not healthy.failed and healthy.game.decisions >= n
        with c.websocket_connect(f"/ws/{bad}") as ws:  # no hello: the reason, and the socket is closed
            msg = ws.receive_json()
            assert msg["type"] == "error" and "stopped" in msg["error"] and words in msg["error"], msg
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4409


def test_a_damaged_finished_game_says_so_instead_of_still_on(db: Path) -> None:
    with make_client(db) as c:
        tid = new_table(c, ["bot", "bot", "bot"])["table"]["id"]
        wait_over(c, tid)
        r = hub(c).tables[tid]
        until_sync(lambda: r.replay_task is not None and r.replay_task_done(), "the finished game's replay stored")
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM munchkin_replays WHERE table_id = ?", (tid,))
        con.execute("DELETE FROM munchkin_actions WHERE table_id = ? AND seq = 3", (tid,))
    with make_client(db) as c:
        r = c.get(f"/api/tables/{tid}/replay")
        assert r.status_code == 409 and "damaged" in r.json()["detail"] and "still on" not in r.json()["detail"]
        assert "action 3 is missing" in r.json()["detail"]


def test_a_bot_stands_in_for_a_person_who_walked_away(client: TestClient) -> None:
    # seeded: a deal where seat 0 has something to play at character creation (with nothing, "ready"
    # is its only action, which the engine takes by itself, and the game would wait on seat 1)
    created = new_table(client, ["human", "human", "bot"], away_seconds=10, seed=1)
    tid = created["table"]["id"]
    runner: TableRunner = hub(client).tables[tid]
    clock = clock_of(client)
    tokens = {x["seat"]: x["url"].split("token=")[1] for x in created["links"]}
    with client.websocket_connect(f"/ws/{tid}?token={tokens[1]}") as ws1:
        ws1.receive_json()
        with client.websocket_connect(f"/ws/{tid}?token={tokens[0]}") as ws0:
            ws0.receive_json()
            assert runner.game.to_act == (0,), "the game waits on seat 0's character creation"
        # seat 0 left; seat 1 is still here. Once the table knows it, it waits on its clock for seat 0's
        # stand-in, due the table's 10 s after seat 0 left
        until_sync(
            lambda: not client.get(f"/api/tables/{tid}").json()["seats"][0]["connected"],
            "the table hearing that seat 0 left",
            step=0.05,
        )
        assert 0 in runner.away_since and 1 not in runner.away_since
        assert runner.away_since[0] == clock.now
        until_sync(clock.waiting, "the table waiting on its clock for seat 0's stand-in")
        clock.advance(9)  # 9 s of the 10: its bots' step (run on the server's loop) plays nothing for seat 0
        moved = client.portal.call(runner._bots_act)  # type: ignore[union-attr]
        assert moved == 0 and runner.game.decisions == 0 and runner.game.to_act == (0,), "a bot played seat 0 early"
        assert not client.get(f"/api/tables/{tid}").json()["seats"][0]["stand_in"]
        assert runner.shown_stand_ins == frozenset()
        clock.advance(1)  # ... and now seat 0 has been away for the table's 10 s: the table wakes by itself
        until_sync(lambda: runner.game.to_act != (0,), "the stand-in playing seat 0")
        assert runner.game.decisions >= 1 and 0 not in runner.game.to_act, "the stand-in played seat 0"
        seats = client.get(f"/api/tables/{tid}").json()["seats"]
        assert seats[0]["stand_in"] and not seats[1]["stand_in"]
        until_sync(lambda: runner.shown_stand_ins == {0}, "everyone told of the stand-in")
        state = next(m for m in iter(ws1.receive_json, None) if m["type"] == "state" and m["seats"][0]["stand_in"])
        assert state["seats"][0]["stand_in"], "everyone sees that a bot plays seat 0"
        with client.websocket_connect(f"/ws/{tid}?token={tokens[0]}") as ws0:  # back: the seat is theirs again
            ws0.receive_json()
            assert not client.get(f"/api/tables/{tid}").json()["seats"][0]["stand_in"]


def test_a_connected_person_is_hurried_only_by_a_turn_clock(client: TestClient) -> None:
    calm = new_table(client, ["human", "bot", "bot"])
    clocked = new_table(client, ["human", "bot", "bot"], turn_clock=10)
    runners = [hub(client).tables[t["table"]["id"]] for t in (calm, clocked)]
    clock = clock_of(client)

    def own_moves(r: TableRunner) -> int:
        return sum(1 for e in r.game.log if e[0] == "act" and e[1].seat == 0)

    with contextlib.ExitStack() as stack:
        for t in (calm, clocked):
            token = t["links"][0]["url"].split("token=")[1]
            ws = stack.enter_context(client.websocket_connect(f"/ws/{t['table']['id']}?token={token}"))
            ws.receive_json()
            ws.send_json({"type": "entropy", "entropy": "my own"})  # the cards are dealt once the person gives it

        def at_own_decision(r: TableRunner) -> bool:
            assert not r.failed, r.failed
            return r.dealt and r.game.to_act == (0,) and r.game.prompt.kind not in WINDOW_KINDS and r.stored_all()

        # the bots have done what they may: each game waits on the person alone, and the clocked table's
        # loop waits on its clock for the turn clock (the only timer either table has)
        until_sync(
            lambda: all(at_own_decision(r) for r in runners) and clock.waiting() == 1,
            "both games waiting on the person's own decision, one of them on the turn clock",
        )
        assert runners[1]._next_stand_in_time() == clock.now + 10 and runners[0]._next_stand_in_time() is None
        before = [own_moves(r) for r in runners]
        clock.advance(9)  # the person has been thinking for 9 s of the turn clock's 10: nobody plays for them
        assert [client.portal.call(r._bots_act) for r in runners] == [0, 0]  # type: ignore[union-attr]
        assert [own_moves(r) for r in runners] == before
        clock.advance(991)  # ... and now for a long time: the clocked table's loop wakes by itself
        until_sync(lambda: own_moves(runners[1]) > before[1], "the turn clock making the person's move")
        assert own_moves(runners[1]) > before[1], "the turn clock made the person's move"
        # the calm table's bots' step, run on the server's loop now, makes no move for the person either
        assert client.portal.call(runners[0]._bots_act) == 0  # type: ignore[union-attr]
        assert own_moves(runners[0]) == before[0], "without a turn clock a connected person is never hurried"
        assert 0 in runners[0].game.to_act


def test_everyone_is_told_at_once_when_a_bot_stands_in_even_off_turn(client: TestClient) -> None:
    # seeded: a deal where seat 0 has something to play at character creation, so the game waits on it
    created = new_table(client, ["human", "human", "human"], away_seconds=10, seed=1)
    tid = created["table"]["id"]
    runner: TableRunner = hub(client).tables[tid]
    clock = clock_of(client)
    token = created["links"][0]["url"].split("token=")[1]
    with client.websocket_connect(f"/ws/{tid}?token={token}") as ws:
        first = next(m for m in iter(ws.receive_json, None) if m["type"] == "state")
        assert runner.game.to_act == (0,) and not any(s["stand_in"] for s in first["seats"])
        # seat 2 came once (a seat never opened has its own grace) and is away since the table was made (the
        # clock has not moved); the game waits on seat 0, who is here. Woken, the table waits for seat 2's due
        assert runner.away_since[2] == clock.now
        runner.row.seats[2].claimed = True
        turns = clock.turns
        client.portal.call(runner.wake.set)  # type: ignore[union-attr]
        until_sync(lambda: clock.turns > turns and clock.waiting(), "the table waiting on its clock again")
        clock.advance(9)  # 9 s of the table's 10
        assert client.portal.call(runner._stand_ins) == frozenset() and runner.shown_stand_ins == frozenset()  # type: ignore[union-attr]
        clock.advance(1)  # ... seat 2 has been away too long: the table wakes by itself and tells everyone
        # (no waiting on the socket for a message that may never come)
        until_sync(lambda: runner.shown_stand_ins == {2}, "everyone told of the stand-in")
        m = next(m for m in iter(ws.receive_json, None) if m["type"] == "state")
        assert [s["stand_in"] for s in m["seats"]] == [False, False, True]
        assert m["version"] == first["version"], "told at once, not at the game's next move"


def test_a_medium_bot_thinks_in_a_worker_and_a_restart_plays_on_unchanged(tmp_path: Path) -> None:
    """A Medium bot (a search) chooses its searched moves in a worker process, never on the server's
    event loop (the server's own copy of it never searches); a table stopped mid-game and restarted
    ends exactly as the same seeded table played straight through (the bot recalls its turn)."""
    from munchkin.agents.search import SearchAgent
    from munchkin.server import tables

    seats = [{"name": n, "kind": "bot", "strength": k} for n, k in (("Ann", "medium"), ("Bob", "easy"), ("Cy", "easy"))]
    spec = {"name": "t", "seats": seats, "bot_delay": 0, "seed": 11}
    ends = []
    for stop in (False, True):
        db = tmp_path / f"{stop}.db"
        with make_client(db) as c:
            tid = c.post("/api/tables", json={**spec, "bot_delay": 0.001 if stop else 0}).json()["table"]["id"]
            r = hub(c).tables[tid]
            if stop:
                # a millisecond of the table's clock between the bots' own moves, which only this moves
                c.portal.call(stop_in_a_pause, r, clock_of(c), 150)  # type: ignore[union-attr]
                assert not r.game.over
            else:
                assert wait_over(c, tid, 300)["status"] == "over"
                agent = r.bots.agents[0]
                assert isinstance(agent, SearchAgent) and agent.thoughts == [], "it searched on the event loop"
                assert tables._bot_pool is not None
        if stop:
            with make_client(db, Clock()) as c:  # on the machine's clock: the bots play on, a millisecond apart
                assert wait_over(c, tid, 300)["status"] == "over"
                r = hub(c).get(tid)
        ends.append((r.game.fingerprint(), r.game.winners, r.game.version))
    assert ends[0] == ends[1]


def test_the_lobby_offers_bot_tiers_naming_the_agent_behind_each(client: TestClient) -> None:
    """GET /api/bots: Easy, Medium and Hard (then Random), each with its agent and how it plays; a seat
    may take any of them, an unknown strength is refused with the choices named."""
    bots = client.get("/api/bots").json()
    assert [b["id"] for b in bots] == ["easy", "medium", "hard", "random"]
    assert [b["agent"] for b in bots] == ["heuristic", "search:2", "search:fast", "random"]
    assert all(b["label"] and b["about"] for b in bots)
    seats = [{"name": n, "kind": "bot", "strength": k} for n, k in (("A", "easy"), ("B", "hard"), ("C", "random"))]
    r = client.post("/api/tables", json={"name": "t", "seats": seats, "seed": 3})
    assert r.status_code == 201, r.text
    runner = hub(client).tables[r.json()["table"]["id"]]
    assert runner.bots.specs == {0: "heuristic", 1: "search:fast", 2: "random"} and runner.bots.heavy == {1}
    seats[0]["strength"] = "genius"
    bad = client.post("/api/tables", json={"name": "t", "seats": seats})
    assert bad.status_code == 422 and "medium" in bad.text
