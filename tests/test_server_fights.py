"""The last fight (issue 34: a bot's fight flashed by, only the log remained): the table keeps a fight's
last strengths and how it ended, and sends it once to each watcher, in words each seat may hear."""

from __future__ import annotations

import contextlib
import copy
import threading
from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient

from munchkin.engine.combat import combat_breakdown
from munchkin.engine.game import Game, Setup
from munchkin.engine.view import narrate
from munchkin.server.clock import ManualClock
from munchkin.server.fights import FightWatch
from munchkin.server.tables import TableBots, TableRunner
from test_server_tables import client, clock_of, db, hub, new_table
from waits import PATIENCE

__all__ = ["client", "db"]  # the fixtures, used by name

NAMES = ["Ann", "Bob", "Cy", "Di"]


def test_the_watch_keeps_a_fights_last_strengths_and_each_seat_hears_its_own_lines() -> None:
    g = Game(Setup(sets=["deluxe"], players=NAMES, seed=4))
    bots = TableBots(dict.fromkeys(range(4), "easy"), 4)
    watch = FightWatch()
    fights: list[tuple[dict[str, Any], dict[str, Any] | None]] = []  # (last strengths seen, what the watch says)
    before: dict[str, Any] = {}
    while not g.over and len(fights) < 4:
        inter = bots.interjection(g)
        g.apply(inter if inter is not None else bots.choose(g, next(s for s in g.to_act if s in bots)))
        ended = g.combat is None and watch.start is not None
        watch.seen(g)
        if ended:
            fights.append((before, watch.message(g, None)))
        before = copy.deepcopy(combat_breakdown(g)) if g.combat is not None else {}
    assert len(fights) == 4, "the seeded game has four fights"
    assert watch.last is not None
    start, end, _ = watch.last
    for strengths, said in fights:
        assert said is not None and said["combat"] == strengths  # the numbers as the fight ended
        fighter = strengths["fighters"][0]["player"]
        assert said["lines"][0].startswith(f"{fighter} fights ")
        assert said["outcome"].endswith(".") and said["outcome"] != "The fight is over."
    kinds = {w for _, said in fights for w in ("killed", "ran away", "Bad Stuff") if said and w in said["outcome"]}
    assert "killed" in kinds and kinds & {"ran away", "Bad Stuff"}, [s for _, s in fights]
    for seat in (None, 0, 1, 2, 3):  # each seat's lines are its own narration of those events, no more
        said = watch.message(g, seat)
        assert said is not None and said["id"] == start
        heard = narrate(g, seat, start)[: len(narrate(g, seat, start)) - len(narrate(g, seat, end))]
        assert said["lines"] == heard[-len(said["lines"]) :] and said["lines"], seat


@contextlib.contextmanager
def watched_pace(r: TableRunner, clock: ManualClock) -> Iterator[None]:
    """The bots' delay between their own moves passes on the table's clock only once they pause (the table
    waits on its clock) and every watcher has been sent the state they paused at: each watcher sees every
    pause, however slow the machine (a thread moves the clock, as the test reads its socket)."""
    done = threading.Event()

    def pace() -> None:
        while not done.wait(0.005):
            clients = list(r.clients)
            if clock.waiting() and clients and all(not c.dirty and not c.outbox for c in clients):
                clock.advance(r.bot_delay)

    thread = threading.Thread(target=pace, name="bot-pace", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(PATIENCE)
        assert not thread.is_alive()


def test_a_fight_over_is_sent_once_to_each_watcher_with_what_it_may_hear(client: TestClient) -> None:
    created = new_table(client, ["bot", "bot", "bot"], seed=2, bot_delay=0.01)
    tid = created["table"]["id"]
    log: list[str] = []
    sent: dict[int, dict[str, Any]] = {}
    r = hub(client).tables[tid]
    with client.websocket_connect(f"/ws/{tid}") as ws, watched_pace(r, clock_of(client)):  # a spectator
        while len(sent) < 3:
            m = ws.receive_json()
            if m["type"] != "state":
                continue
            log[m["log_start"] :] = m["log"]
            fight = m.get("last_fight")
            if fight is not None:
                assert fight["id"] not in sent, "a fight over is sent once"
                sent[fight["id"]] = fight
                assert fight["lines"] and set(fight["lines"]) <= set(log), "only what the spectator heard"
                assert fight["combat"]["fighters"] and fight["combat"]["monsters"]
                assert fight["outcome"]
            assert not m["view"]["over"], "the game ended before three fights"
