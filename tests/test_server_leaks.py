"""Whole games through the server, every message to every seat and spectator inspected.

The server's own sender path runs unchanged; only the socket is a recorder, which lets the
oracle read the true game state at the instant each message goes out. The tables keep time by a
`ManualClock` that `_play_out` moves: a response window whose people let it run out closes as soon as
the table has gone still on it, however fast or slow the machine is.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from munchkin.server.app import Hub, OptionsIn, TableIn, handle_message
from munchkin.server.chat import Talk
from munchkin.server.clock import ManualClock
from munchkin.server.store import Store
from munchkin.server.tables import Client, TableRunner
from server_oracle import Oracle
from waits import PATIENCE, bounded, until

NAMES = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot"]
DX = ("deluxe",)


class Recorder:
    """A seat's socket: hands every message to the oracle, and plays a person's part at random,
    sometimes letting a response window run out instead of answering."""

    def __init__(self, runner: TableRunner, seat: int | None, oracle: Oracle, rng: random.Random) -> None:
        self.runner, self.seat, self.oracle, self.rng = runner, seat, oracle, rng
        self.client = Client(self, seat, burst=10**6, rate=1e9, address=f"10.0.0.{rng.randrange(1, 250)}")
        self.errors: list[str] = []
        self.raw: list[str] = []  # every message this socket was sent, as sent
        self.states = 0
        self.whispered: list[tuple[str, int]] = []  # (marker, recipient seat) of each whisper this seat said
        self.kinds: dict[str, int] = {}
        self.saw_end = False  # sent the state of the finished game

    async def send_text(self, data: str) -> None:
        self.raw.append(data)
        msg = json.loads(data)
        self.kinds[msg["type"]] = self.kinds.get(msg["type"], 0) + 1
        self.oracle.check(self.runner.game, self.seat, msg)
        if msg["type"] == "state" and msg["view"]["over"]:
            self.saw_end = True
        if msg["type"] == "error":
            if not msg["error"].startswith("stale action"):
                self.errors.append(msg["error"])
            return
        if msg["type"] == "state":
            self._talk()
        if msg["type"] != "state" or not msg["actions"]:
            return
        answers = [a for a in msg["actions"] if not a["any_time"]]
        if not answers and self.rng.random() >= 0.02:
            return  # not asked: now and then a move at any time (a Curse, a trade, an Item)
        if msg["window"] and self.seat in msg["window"]["clocked"] and self.rng.random() < 0.1:
            return  # let the clock run out: the server passes for us (never in one's own moment)
        if answers and self.rng.randrange(20):
            text = self.rng.choice(answers)["text"]
        else:
            text = self.rng.choice(msg["actions"])["text"]
        act = json.dumps({"type": "act", "action": text, "version": msg["version"]})
        asyncio.get_running_loop().call_soon(self._send, act)

    def _talk(self) -> None:
        """Now and then a public line; a person also whispers a unique marker to another person, which the
        test then looks for in every other socket's every message and in the replay."""
        self.states += 1
        if (self.states - 1) % 15 or len(self.whispered) >= 6 or self.seat is None and self.states > 150:
            return
        people = sorted(self.runner.humans - {self.seat}) if self.seat is not None else []
        if people and (self.states - 1) // 15 % 2 == 1:
            to = self.rng.choice(people)
            marker = f"whisper-{self.runner.id}-{self.seat}-{to}-{len(self.whispered)}"
            self.whispered.append((marker, to))
            line = {"type": "say", "text": marker, "to": to}
        else:
            line = {"type": "say", "text": f"public words {self.states} from {self.seat}"}
        asyncio.get_running_loop().call_soon(self._send, json.dumps(line))

    def _send(self, act: str) -> None:
        reply = handle_message(self.runner, self.client, act)
        if reply is not None:
            self.client.send(reply)


def _still(r: TableRunner) -> bool:
    """Has the table gone still: its moves stored, its loop not woken, no bot thinking, and every socket
    sent all it has to send?"""
    sockets_done = all(not c.outbox and not c.wake.is_set() and not c.dirty for c in r.clients)
    return sockets_done and r.stored_all() and not r.wake.is_set() and r.thinker is None


async def _play_out(clock: ManualClock, runners: list[TableRunner]) -> None:
    """Let the tables play their games to the end on `clock`, which moves only here: when the table whose
    response window closes first has gone still on it, and was still with nothing changed at the last look
    too (so that any answer its sockets' last messages called for has been given: a person who lets the
    window run out gives none), the clock moves to that moment and the window closes, as the real clock
    would close it once the people on it had had their time. Fails when no table moves for PATIENCE s."""
    last: dict[str, tuple[Any, ...] | None] = {}  # each table at the last look, if it was still then
    moved_at, seen_before = time.monotonic(), None
    while not all(r.game.over or r.failed for r in runners):
        await asyncio.sleep(0.01)  # at least one turn of the loop: what was scheduled at the last look has run
        seen = {r.id: (r.game.version, r.chat_count, tuple(c.seat for c in r.clients)) for r in runners}
        live = [r for r in runners if not (r.game.over or r.failed)]
        due = [r.deadline for r in live if r.deadline is not None]
        if due and min(due) > clock.now:
            first = min(due)
            owners = [r for r in live if r.deadline == first]
            if all(_still(r) and last.get(r.id) == seen[r.id] for r in owners):
                clock.advance(first - clock.now)
        last = {r.id: seen[r.id] if _still(r) else None for r in runners}
        if seen != seen_before:
            moved_at, seen_before = time.monotonic(), seen
        elif time.monotonic() - moved_at > PATIENCE:
            stuck = [
                f"{r.id}: version {r.game.version}, waiting on {r.game.to_act} ({r.game.prompt.kind}), "
                f"window closes at {r.deadline} (clock {clock.now}), still {_still(r)}"
                for r in live
            ]
            raise AssertionError(f"no table moved for {PATIENCE:.0f} s: " + "; ".join(stuck))


async def _play_tables(
    db: Path, layouts: list[list[str]], seed: int, sets: tuple[str, ...] = ("deluxe",)
) -> list[dict[str, Any]]:
    store = Store(f"sqlite:///{db}")
    clock = ManualClock()
    hub = Hub(store, clock=clock)
    rng = random.Random(seed)
    results = []
    recorders: list[tuple[TableRunner, Oracle, list[Recorder]]] = []
    for i, kinds in enumerate(layouts):
        seats = [
            {"name": NAMES[s], "kind": k, "strength": ("random", "heuristic")[(i + s) % 2]} for s, k in enumerate(kinds)
        ]
        opts = OptionsIn(listen_at_the_door=(seed + i) % 2 == 0, shared_victories=i == 1)
        spec = TableIn(
            name=f"leak {i}",
            sets=list(sets),
            seats=seats,
            options=opts,
            window_seconds=0.5,
            bot_delay=0,
            seed=seed * 100 + i,
        )
        runner, _tokens = await hub.create(spec)
        runner.talk = Talk(lines=10**6)  # no chat rate limit: every line the recorders say is said
        oracle = Oracle(runner.game)
        recs = [Recorder(runner, s, oracle, rng) for s, k in enumerate(kinds) if k == "human"]
        recs += [Recorder(runner, None, oracle, rng) for _ in range(2)]
        for r in recs:
            runner.join(r.client)
        recorders.append((runner, oracle, recs))
    try:
        await _play_out(clock, [r for r, _, _ in recorders])
        # the last state reaches everyone at a finished table (each socket's sender sends it); the test says
        # which socket it never reached
        with contextlib.suppress(AssertionError):
            await until(
                lambda: all(rec.saw_end for r, _, recs in recorders if r.game.over for rec in recs),
                "the finished games' last states reaching every socket",
            )
        for runner, oracle, recs in recorders:
            replay = (await bounded(hub.replay(runner.id), "the replay")).decode() if runner.game.over else ""
            results.append(
                {
                    "over": runner.game.over,
                    "failed": runner.failed,
                    "decisions": runner.game.decisions,
                    "stored": len(store.actions(runner.id)),
                    "oracle": oracle,
                    "errors": [e for r in recs for e in r.errors],
                    "states": sum(r.kinds.get("state", 0) for r in recs),
                    "spectator_states": [r.kinds.get("state", 0) for r in recs if r.seat is None],
                    "saw_end": [r.saw_end for r in recs],
                    "whispers": whisper_leaks(recs, replay),
                    "said": runner.chat_count,
                    "replay_chat": len(json.loads(replay).get("chat", [])) if replay else 0,
                }
            )
    finally:
        await bounded(hub.stop(), "the hub stopping")
        store.close()
    return results


def whisper_leaks(recs: list[Recorder], replay: str) -> tuple[int, list[str]]:
    """How many whispers were said, and where a whisper's marker was found that it must never be: any
    socket but its speaker's and its recipient's (a third seat, a spectator), or the replay; a whisper
    its recipient never received counts too (the test would prove nothing)."""
    said = [(m, r.seat, to) for r in recs for m, to in r.whispered]
    leaks: list[str] = []
    for marker, by, to in said:
        for r in recs:
            found = any(marker in text for text in r.raw)
            if r.seat in (by, to) and r.seat is not None:
                if r.seat == to and not found:
                    leaks.append(f"{marker} never reached seat {to}")
            elif found:
                leaks.append(f"{marker} reached {'a spectator' if r.seat is None else f'seat {r.seat}'}")
        if marker in replay:
            leaks.append(f"{marker} is in the replay")
    return len(said), leaks


@pytest.mark.parametrize(
    "seed,layouts,sets",
    [
        (1, [["human", "bot", "bot"], ["human", "human", "bot", "bot"], ["bot", "human", "bot", "human", "bot"]], DX),
        (2, [["human", "human", "human"], ["bot", "bot", "human", "bot", "bot", "human"], ["bot", "bot", "bot"]], DX),
        (3, [["human", "bot", "human", "bot"], ["human", "human", "human", "human"], ["bot", "human", "bot"]], DX),
        (4, [["human", "bot", "bot", "bot"], ["bot", "human", "bot"]], ("star",)),
        (5, [["human", "bot", "bot", "bot"], ["bot", "bot", "human", "bot"]], ("star", "deluxe")),
        (6, [["human", "bot", "bot", "bot"], ["bot", "human", "bot"]], ("good-bad",)),
        (7, [["human", "bot", "bot", "bot"], ["bot", "bot", "human", "bot"]], ("good-bad", "deluxe")),
        (8, [["human", "bot", "bot", "bot"], ["bot", "human", "bot", "bot", "bot"]], ("harry-potter",)),
        (9, [["bot", "human", "bot"], ["bot", "bot", "human", "bot"]], ("harry-potter", "deluxe")),
    ],
    ids=[
        "deluxe-1",
        "deluxe-2",
        "deluxe-3",
        "star-4",
        "star+deluxe-5",
        "good-bad-6",
        "good-bad+deluxe-7",
        "harry-potter-8",
        "harry-potter+deluxe-9",
    ],
)
def test_no_message_shows_a_seat_what_it_may_not_know(
    tmp_path: Path, seed: int, layouts: list[list[str]], sets: tuple[str, ...]
) -> None:
    results = asyncio.run(_play_tables(tmp_path / "leaks.db", layouts, seed, sets))
    whispering: list[int] = []
    for i, r in enumerate(results):
        o: Oracle = r["oracle"]
        assert r["over"] and not r["failed"], f"table {i} did not finish: {r['failed']}"
        assert r["stored"] == r["decisions"], f"table {i}: {r['decisions']} actions taken, {r['stored']} stored"
        assert not r["errors"], f"table {i}: listed actions refused: {r['errors'][:3]}"
        assert o.problems == [], f"table {i}: {len(o.problems)} leaks, first: {o.problems[:3]}"
        assert o.lines > 50, "the game was too short to tell anything"
        assert all(n > 0 for n in r["spectator_states"])
        assert all(r["saw_end"]), f"table {i}: the finished game's state never reached some socket: {r['saw_end']}"
        whispers, leaks = r["whispers"]
        assert not leaks, f"table {i}: whispers leaked: {leaks[:3]}"
        assert r["said"] > 0 and r["replay_chat"] > 0, "nobody talked, or the replay kept no public line"
        whispering.append(whispers)
    assert sum(whispering) > 0 or all(len([k for k in kinds if k == "human"]) < 2 for kinds in layouts)


def test_the_oracle_catches_leaks(tmp_path: Path) -> None:
    """The judge itself can fail: a message with another seat's hand or a face-down card's name."""
    from munchkin.engine.game import Game, Setup

    g = Game(Setup(["deluxe"], NAMES[:3], 7))
    o = Oracle(g)
    other = g.players[1].hand[0]
    card = {"id": other, "name": g.cdef[other].name, "kind": "x", "deck": g.cdef[other].deck}
    view = g.view(0)
    msg = {"type": "state", "view": view, "log": [], "actions": []}
    o.check(g, 0, msg)
    assert o.problems == []
    view["hand"].append(card)
    o.check(g, 0, msg)
    assert len(o.problems) == 1 and "hidden cards" in o.problems[0]
    visible = {g.cdef[c].name for c in range(g.ncards) if c not in set(g.door_deck) | set(g.treasure_deck)}
    visible -= {g.cdef[c].name for p in g.players[1:] for c in p.hand}
    # a card deep in the door deck whose name seat 0 has seen nowhere (the same name may lie face-up elsewhere)
    unseen = next((g.cdef[c].name for c in reversed(g.door_deck) if g.cdef[c].name not in visible), None)
    assert unseen is not None, "every door card's name is in seat 0's sight: no narration to catch"
    o2 = Oracle(g)
    o2.check(g, 0, {"type": "state", "view": g.view(0), "log": [f"Bravo draws {unseen}."], "actions": []})
    assert o2.problems and "never could see" in o2.problems[0]
    o3 = Oracle(g)
    o3.check(g, None, {"type": "state", "view": g.view(0), "log": [], "actions": []})
    assert any("hidden cards" in p for p in o3.problems), "a spectator must not see seat 0's hand"
    whisper = {"n": 0, "from": 0, "to": 1, "text": "psst", "spectator": False, "cards": [], "phrase": None}
    for seat, leaks in ((1, 0), (0, 0), (2, 1), (None, 1)):
        o4 = Oracle(g)
        o4.check(g, seat, {"type": "state", "view": g.view(seat), "log": [], "actions": [], "chat": [whisper]})
        assert len(o4.problems) == leaks and all("whisper" in p for p in o4.problems), (seat, o4.problems)


class DeviceRecorder(Recorder):
    """A pass-and-play table's device, played as its people would: the person whose own decision waits
    takes it, now and then a person a window waits on takes it to answer, or the one holding it hides
    their hand; it plays the claimed seat at random. Each message is judged as the seat claimed when
    it was sent, and between two people as a spectator's."""

    RACES = ("own decision comes first", "claim ended", "no seat is claimed")  # the game moved on meanwhile

    def __init__(self, runner: TableRunner, oracle: Oracle, rng: random.Random) -> None:
        super().__init__(runner, None, oracle, rng)
        self.client = Client(self, None, burst=10**6, rate=1e9, device=True)
        self.claimed: dict[int | None, int] = {}  # claimed messages by seat (None: the claim ended)
        self.mismatched: list[str] = []

    async def send_text(self, data: str) -> None:
        msg = json.loads(data)
        if msg["type"] == "claimed":
            self.seat = msg["seat"]
            self.claimed[self.seat] = self.claimed.get(self.seat, 0) + 1
        if msg["type"] == "error" and any(r in msg["error"] for r in self.RACES):
            return
        if msg["type"] == "state":
            device = msg["device"]
            if device["claimed"] != self.seat:
                self.mismatched.append(f"state for seat {device['claimed']} after a claim of {self.seat}")
            if self.seat is None and device["owed"]:
                self._later({"type": "claim", "seat": device["owed"][0]})
            elif self.seat is None and device["answering"] and self.rng.random() < 0.5:
                self._later({"type": "claim", "seat": self.rng.choice(device["answering"])})
            elif self.seat is not None and self.seat not in msg["view"]["to_act"] and self.rng.random() < 0.1:
                self._later({"type": "release"})
        await super().send_text(data)

    def _later(self, msg: dict[str, Any]) -> None:
        asyncio.get_running_loop().call_soon(self._send, json.dumps(msg))


async def _play_device_tables(db: Path, layouts: list[list[str]], seed: int) -> list[dict[str, Any]]:
    store = Store(f"sqlite:///{db}")
    clock = ManualClock()
    hub = Hub(store, clock=clock)
    rng = random.Random(seed)
    tables: list[tuple[TableRunner, Oracle, DeviceRecorder, Recorder]] = []
    for i, kinds in enumerate(layouts):
        seats = [{"name": NAMES[s], "kind": k, "strength": "heuristic"} for s, k in enumerate(kinds)]
        spec = TableIn(
            name=f"device {i}",
            seats=seats,  # type: ignore[arg-type]
            window_seconds=0.5,
            bot_delay=0,
            seed=seed * 100 + i,
            pass_and_play=True,
        )
        runner, _tokens = await hub.create(spec, "", f"device-{i}")
        runner.talk = Talk(lines=10**6)  # the device talks as the seat it holds (see Recorder._talk), unlimited
        oracle = Oracle(runner.game)
        device, spectator = DeviceRecorder(runner, oracle, rng), Recorder(runner, None, oracle, rng)
        runner.join(device.client)
        runner.join(spectator.client)
        tables.append((runner, oracle, device, spectator))
    results = []
    try:
        await _play_out(clock, [r for r, *_ in tables])
        with contextlib.suppress(AssertionError):  # as in _play_tables
            await until(
                lambda: all(d.saw_end for r, _, d, _ in tables if r.game.over),
                "the finished games' last states reaching the device",
            )
        for runner, oracle, device, _spectator in tables:
            results.append(
                {
                    "over": runner.game.over,
                    "failed": runner.failed,
                    "oracle": oracle,
                    "errors": device.errors,
                    "claimed": device.claimed,
                    "mismatched": device.mismatched,
                    "stand_ins": runner.bots.stand_ins,
                    "people": sorted(runner.humans),
                }
            )
    finally:
        await bounded(hub.stop(), "the hub stopping")
        store.close()
    return results


@pytest.mark.parametrize("seed", [11, 12])
def test_a_pass_and_play_device_sees_only_the_claimed_seat(tmp_path: Path, seed: int) -> None:
    """The device of a pass-and-play table, handed from person to person for whole games: while one
    person holds it nothing of another's hand reaches it, and between two people nothing hidden at all."""
    layouts = [["human", "human", "bot"], ["human", "bot", "human", "human"]]
    results = asyncio.run(_play_device_tables(tmp_path / "device.db", layouts, seed))
    for i, r in enumerate(results):
        o: Oracle = r["oracle"]
        assert o.problems == [], f"table {i}: {len(o.problems)} leaks, first: {o.problems[:3]}"
        assert r["over"] and not r["failed"], f"table {i} did not finish: {r['failed']}"
        assert not r["errors"], f"table {i}: refused: {r['errors'][:3]}"
        assert not r["mismatched"], r["mismatched"][:3]
        assert all(r["claimed"].get(s, 0) > 3 for s in r["people"]), f"every person held the device: {r['claimed']}"
        assert r["claimed"].get(None, 0) > 3, "claims ended as other people's decisions came"
        assert not r["stand_ins"], "the device is at every person seat: no bot stood in"
        assert o.lines > 50
