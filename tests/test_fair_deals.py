"""Provably fair deals (docs/server.md, "Provably fair deals"):

- the generator draws exactly as the docs describe it (read here afresh from the docs' words);
- a fair table played to its end shows no seat, spectator, lobby list or log its secret before the
  end, shows everyone each person's entropy, reveals the secret at the end, and verifies honestly;
- `munchkin verify` names the first draw that differs in a tampered save, refuses a secret that does
  not match the commitment, and says what is wrong with a file it cannot check (exit 2, no traceback);
- a person's entropy changes the deal, is final, and is refused after the deal or when malformed;
- a restart keeps the commitment, the entropy and the secret, and deals (or rebuilds) the same cards;
- the entropy window closes `away_seconds` after the first person sat down, without those still missing;
- a table from before fair deals (no record, chance from the system) still loads, plays and replays.

The tables played through the server's loop keep time by a `ManualClock` moved by hand (tests/test_server_clock.py):
the entropy window and the response windows close when the test says, however slow the machine.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from munchkin.agents.base import decide, make_agent
from munchkin.cli import app as cli
from munchkin.engine.chance import FairChance, SystemChance, fair_commitment, fair_key
from munchkin.engine.fair import deal
from munchkin.engine.game import Game, Setup
from munchkin.server.app import Hub, OptionsIn, TableIn, handle_message
from munchkin.server.clock import ManualClock
from munchkin.server.fairness import new_fair_record
from munchkin.server.store import Store
from munchkin.server.tables import Client, TableRunner, new_table_row, table_setup, with_fair
from munchkin.verify import Unverifiable, verify_text
from server_oracle import Oracle
from test_server_leaks import Recorder
from waits import bounded, until

SECRET = bytes(range(32))
NAMES = ["Ann", "Bob", "Cid"]
Msg = dict[str, Any]


# ------------------------------------------------------------------ the generator, as the docs describe it
def doc_words(key: bytes, label: bytes, index: int) -> Iterator[int]:
    """The stream of a draw as docs/server.md words it: HMAC-SHA256(key, label + index (8 bytes) + block
    (4 bytes)), each block read as four 64-bit big-endian words."""
    block = 0
    while True:
        raw = hmac.new(key, label + index.to_bytes(8, "big") + block.to_bytes(4, "big"), hashlib.sha256).digest()
        yield from (int.from_bytes(raw[i : i + 8], "big") for i in range(0, 32, 8))
        block += 1


def doc_below(words: Iterator[int], n: int) -> int:
    """A number below n: the first word under 2**64 - (2**64 mod n), mod n."""
    limit = 2**64 - 2**64 % n
    return next(u for u in words if u < limit) % n


def test_the_generator_draws_as_the_docs_say() -> None:
    entropy = ["tea and toast", "", "ünïcødé ✓"]
    message = b"munchkin-fair/1" + b"".join(len(e.encode()).to_bytes(4, "big") + e.encode() for e in entropy)
    key = hmac.new(SECRET, message, hashlib.sha256).digest()
    assert fair_key(SECRET, entropy) == key
    assert fair_commitment(SECRET) == hashlib.sha256(SECRET).hexdigest()
    chance = FairChance(key)
    cards = [90, 3, 71, 14, 55, 8, 23]
    chance.shuffle(cards)  # draw 0
    expected = sorted(cards)
    words = doc_words(key, b"draw", 0)
    for k in range(len(expected) - 1, 0, -1):
        j = doc_below(words, k + 1)
        expected[k], expected[j] = expected[j], expected[k]
    assert cards == expected
    assert chance.roll() == 1 + doc_below(doc_words(key, b"draw", 1), 6)
    hand = [40, 12, 33]  # a pick reads the cards sorted by number, whatever order the hand is in
    assert chance.pick(hand) == sorted(hand)[doc_below(doc_words(key, b"draw", 2), 3)]
    assert chance.choice(("male", "female")) == ("male", "female")[doc_below(doc_words(key, b"choice", 0), 2)]
    copy = chance.copy()
    assert [copy.roll() for _ in range(20)] == [chance.roll() for _ in range(20)], "a copy draws on alike"
    other = FairChance(fair_key(SECRET, ["tea and toast", "", "ünïcødé ✗"]))
    assert [other.roll() for _ in range(40)] != [FairChance(key).roll() for _ in range(40)]
    assert "FairChance(draws=" in repr(chance) and key.hex() not in repr(chance)


# ------------------------------------------------------------------ a finished fair game's save
def fair_game(entropy: list[str | None], secret: bytes = SECRET) -> tuple[Game, Msg]:
    """A fair game dealt as a table deals it (`engine.fair.deal`) and played to its end by bots, with the
    record its table keeps: what `with_fair` reveals in its save."""
    record = new_fair_record(len(NAMES))
    record.update(secret=secret.hex(), commitment=fair_commitment(secret), entropy=entropy, dealt=True)
    record["declared"] = {"sexes": [None, "female", None], "houses": None}
    key = fair_key(secret, [e or "" for e in entropy])
    g = deal(Setup(["deluxe"], NAMES, None, sexes=[None, "female", None]), FairChance(key))  # type: ignore[list-item]
    bots = [make_agent("heuristic", 7919 + s) for s in range(len(NAMES))]
    while not g.over:
        seat = g.to_act[0]
        g.apply(decide(bots[seat], g, seat, g.legal_actions(seat)))
    return g, record


@pytest.fixture(scope="module")
def save() -> str:
    g, record = fair_game(["Ann's tea", "0123abcd", None])
    return with_fair(g.to_json(), record)


def draws(data: Msg) -> list[tuple[int, Msg]]:
    """The save's chance outcomes in order: (log entry, entry)."""
    return [(i, e) for i, e in enumerate(data["log"]) if {"shuffle", "roll", "pick"} & set(e)]


def test_an_honest_save_verifies_and_each_kind_of_tampered_draw_is_named(save: str) -> None:
    good = verify_text(save)
    assert good.honest, good
    data = json.loads(save)
    outcomes = draws(data)
    assert "dealt honestly" in good.summary and f"all {len(outcomes)} draws" in good.summary
    assert any("'Ann\\'s tea'" in d or "Ann's tea" in d for d in good.details)
    kinds = {k for _, e in outcomes for k in ("shuffle", "roll", "pick") if k in e}
    assert kinds == {"shuffle", "roll", "pick"}, f"this game has no {set(['shuffle', 'roll', 'pick']) - kinds}"
    for kind in ("roll", "pick", "shuffle"):
        index, (at, entry) = next((n, o) for n, o in enumerate(outcomes) if kind in o[1])
        tampered = json.loads(save)
        e = tampered["log"][at]
        if kind == "roll":
            was, e["roll"] = e["roll"], e["roll"] % 6 + 1
            recorded, generated = str(e["roll"]), str(was)
        elif kind == "pick":
            was, e["card"] = e["card"], e["card"] + 1
            recorded, generated = f"card {e['card']}", f"card {was}"
        else:
            was = list(e["cards"])
            e["cards"][0], e["cards"][1] = e["cards"][1], e["cards"][0]
            recorded, generated = f"the order {e['cards'][0]}, {e['cards'][1]},", f"the order {was[0]}, {was[1]},"
        v = verify_text(json.dumps(tampered))
        assert not v.honest and v.summary.startswith(f"NOT honest: draw {index}, "), (kind, v)
        assert f"(log entry {at})" in v.summary
        assert any(d.startswith(f"the save records {recorded}") for d in v.details), (kind, v.details)
        assert any(d.startswith(f"the generator gives {generated}") for d in v.details), (kind, v.details)


def test_the_command_says_honest_or_names_the_draw(save: str, tmp_path: Path) -> None:
    honest = tmp_path / "honest.json"
    honest.write_text(save, encoding="utf-8")
    r = CliRunner().invoke(cli, ["verify", str(honest)])
    assert r.exit_code == 0 and "The table dealt honestly" in r.output, r.output
    data = json.loads(save)
    index, (at, entry) = next((n, o) for n, o in enumerate(draws(data)) if "roll" in o[1])
    was = entry["roll"]
    data["log"][at]["roll"] = was % 6 + 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    r = CliRunner().invoke(cli, ["verify", str(bad)])
    assert r.exit_code == 1 and f"NOT honest: draw {index}," in r.output, r.output
    assert f"the save records {was % 6 + 1}\n" in r.output and f"the generator gives {was}\n" in r.output


def test_a_wrong_secret_fails_the_commitment_and_other_entropy_fails_the_first_draw(save: str) -> None:
    data = json.loads(save)
    data["fair"]["secret"] = hashlib.sha256(b"not the secret").hexdigest()
    v = verify_text(json.dumps(data))
    assert not v.honest and v.summary == "NOT honest: the commitment does not match the secret"
    assert f"the table showed the commitment {data['fair']['commitment']}" in v.details
    data = json.loads(save)
    data["fair"]["entropy"][1] = "0123abce"  # the secret is right, but not the entropy the deal was keyed with
    v = verify_text(json.dumps(data))
    assert not v.honest and v.summary.startswith("NOT honest: draw 0, the shuffle of the door deck"), v


def test_verify_says_what_is_wrong_with_a_file_it_cannot_check(save: str, tmp_path: Path) -> None:
    g = Game(Setup(["deluxe"], NAMES, 5))
    seeded = g.to_json()
    unfinished = json.loads(save)
    unfinished["fair"]["secret"] = None
    cases = {
        "missing.json": (None, "cannot read"),
        "garbage.json": ("{not json", "it is not JSON"),
        "list.json": ("[1, 2]", "not a saved Munchkin game"),
        "seeded.json": (seeded, 'no fair-deal record ("fair")'),
        "unfinished.json": (json.dumps(unfinished), "reveals no secret"),
        "short.json": (save.replace(json.loads(save)["fair"]["secret"], "abc"), "not 64 hexadecimal digits"),
    }
    for name, (text, words) in cases.items():
        path = tmp_path / name
        if text is not None:
            path.write_text(text, encoding="utf-8")
        r = CliRunner().invoke(cli, ["verify", str(path)])
        assert r.exit_code == 2, (name, r.output)
        assert words in r.output and "Traceback" not in r.output, (name, r.output)
        assert r.exception is None or isinstance(r.exception, SystemExit), (name, r.exception)
    with pytest.raises(Unverifiable, match="not JSON"):
        verify_text("")


# ------------------------------------------------------------------ a fair table, by hand (no event loop)
def runner_at(tmp_path: Path, kinds: list[str], name: str = "t.db", secret: bytes | None = None) -> TableRunner:
    """A new fair table (not started: the test plays its loop's part), stored as the server stores it."""
    seats = [{"name": n, "kind": k} for n, k in zip(NAMES, kinds)]
    row, _ = new_table_row("fair", ["deluxe"], seats, {}, 5.0, 0.0, None)
    if secret is not None:
        row.config["fair"].update(secret=secret.hex(), commitment=fair_commitment(secret))
    store = Store(f"sqlite:///{tmp_path / name}")
    r = TableRunner(row, store, fresh=True)
    store.create_table(row, [])
    return r


def state(r: TableRunner, seat: int | None) -> Msg:
    out: Msg = json.loads(r.state_message(Client(None, seat)))  # type: ignore[arg-type]
    return out


def test_a_persons_entropy_is_public_final_and_changes_the_deal(tmp_path: Path) -> None:
    a = runner_at(tmp_path, ["human", "human", "bot"], "a.db", SECRET)
    b = runner_at(tmp_path, ["human", "human", "bot"], "b.db", SECRET)
    assert not a.dealt and a.fair_info(False)["commitment"] == fair_commitment(SECRET)  # type: ignore[index]
    with pytest.raises(Exception, match="not dealt yet"):
        a.act(0, "ready", 0)
    a.give_entropy(0, "  Ann's lucky   socks ")
    b.give_entropy(0, "Ann's lucky sockz")
    for seat in (None, 0, 1):  # everyone sees it, spectators too; nobody sees the secret
        m = state(a, seat)
        assert m["view"] is None and m["actions"] == [] and m["fair"]["entropy"] == ["Ann's lucky socks", None, None]
        assert SECRET.hex() not in json.dumps(m) and m["fair"]["secret"] is None
    with pytest.raises(Exception, match="given already, and it is final"):
        a.give_entropy(0, "again")
    for value, words in [
        ("bell\x07", "U+0007"),
        ("x" * 129, "at most 128 characters"),
        ("   ", "may not be empty"),
        (None, 'needs "entropy"'),
        (5, 'needs "entropy"'),
    ]:
        with pytest.raises(Exception, match=re.escape(words)):
            a.give_entropy(1, value)
    assert a.fair_info(False)["entropy"][1] is None, "a refused entropy was kept"  # type: ignore[index]
    spectator = Client(None, None)  # type: ignore[arg-type]
    reply = handle_message(a, spectator, json.dumps({"type": "entropy", "entropy": "me too"}))
    assert reply is not None and "spectators cannot give entropy" in reply["error"]
    a.deal_game()
    b.deal_game()
    assert a.game.door_deck != b.game.door_deck, "one seat's entropy changed nothing"
    key = fair_key(SECRET, ["Ann's lucky socks", "", ""])  # what the deal was keyed with: seat 1 gave none
    again = deal(Setup(["deluxe"], NAMES, None), FairChance(key))
    assert (again.door_deck, again.treasure_deck) == (a.game.door_deck, a.game.treasure_deck)
    with pytest.raises(Exception, match="dealt already"):
        a.give_entropy(1, "late")
    seeded_row, _ = new_table_row("s", ["deluxe"], [{"name": n, "kind": "human"} for n in NAMES], {}, 5.0, 0.0, 9)
    assert "fair" not in seeded_row.config
    seeded = TableRunner(seeded_row, a.store, fresh=True)
    with pytest.raises(Exception, match="chosen seed"):
        seeded.give_entropy(0, "x")
    for r in (a, b):
        r.store.close()


def test_the_protocol_shows_the_commitment_and_takes_entropy(tmp_path: Path) -> None:
    """Through the app: the lobby's entry, each seat's hello and states show the commitment; a person
    gives entropy with a message and everyone's next state shows it."""
    from fastapi.testclient import TestClient

    from munchkin.server.app import create_app

    # on a clock that stands: Bob's first-join grace never runs out, and the deal waits for him throughout
    with TestClient(create_app(f"sqlite:///{tmp_path / 'app.db'}", clock=ManualClock())) as c:
        seats = [{"name": n, "kind": k} for n, k in zip(NAMES, ("human", "human", "bot"))]
        made = c.post("/api/tables", json={"name": "fair", "seats": seats}).json()
        tid, fair = made["table"]["id"], made["table"]["fair"]
        assert fair["dealt"] is False and fair["secret"] is None and len(fair["commitment"]) == 64
        assert [t["fair"] for t in c.get("/api/tables").json()["tables"]] == [fair]
        token = made["links"][0]["url"].split("token=")[1]
        with c.websocket_connect(f"/ws/{tid}?token={token}") as ann, c.websocket_connect(f"/ws/{tid}") as watcher:
            for ws in (ann, watcher):
                hello = ws.receive_json()
                assert hello["type"] == "hello" and hello["fair"] == fair
            ann.send_json({"type": "entropy", "entropy": "Ann was here"})
            for ws in (ann, watcher):
                m = ws.receive_json()
                while m["type"] != "state" or m["fair"]["entropy"][0] is None:
                    m = ws.receive_json()
                assert m["view"] is None and m["fair"]["entropy"] == ["Ann was here", None, None]
            watcher.send_json({"type": "entropy", "entropy": "me too"})
            assert "spectators cannot give entropy" in next(
                m["error"] for m in iter(watcher.receive_json, None) if m["type"] == "error"
            )
        assert "fair-panel" in c.get(f"/table/{tid}").text


# ------------------------------------------------------------------ through the server's loop
class FairRecorder(Recorder):
    """A seat's socket (see test_server_leaks): before the deal it keeps every message and gives its
    entropy when asked, as the page does; after it, the oracle judges every message as usual."""

    def __init__(self, runner: TableRunner, seat: int | None, oracle: Oracle, entropy: str | None) -> None:
        super().__init__(runner, seat, oracle, random.Random(seat))
        self.entropy = entropy
        self.sent: list[str] = []
        self.before_deal: list[Msg] = []

    async def send_text(self, data: str) -> None:
        self.sent.append(data)
        msg = json.loads(data)
        if self.runner.dealt and msg.get("view") is not None:
            await super().send_text(data)
            return
        self.before_deal.append(msg)
        mine = msg.get("fair", {}).get("entropy", [None] * 9)[self.seat] if self.seat is not None else ""
        if msg["type"] == "state" and self.entropy and mine is None:
            self.entropy, given = None, self.entropy
            asyncio.get_running_loop().call_soon(self._send, json.dumps({"type": "entropy", "entropy": given}))


async def keep_time(runner: TableRunner, clock: ManualClock, step: float) -> None:
    """The clock's part in a table played through its loop (run beside it, until cancelled): when the table
    waits on its clock and has gone still (its moves stored, its loop not woken, every socket sent all it has
    to send) with nothing changed since the last look too, so that every seat has had its turn to answer
    what it was last sent, the clock moves on by `step`: a response window a person lets run out closes, as
    the wall clock would close it once they had had their time."""

    def still() -> bool:
        sockets_done = all(not c.outbox and not c.wake.is_set() and not c.dirty for c in runner.clients)
        return bool(clock.waiting()) and sockets_done and runner.stored_all() and not runner.wake.is_set()

    last: tuple[int, int, int] | None = None
    while True:
        await asyncio.sleep(0.01)  # at least one turn of the loop: what was scheduled at the last look has run
        seen = (runner.game.version if runner.dealt else -1, runner.chat_count, clock.turns)
        if still() and seen == last:
            clock.advance(step)
        last = seen if still() else None


async def _play_fair_table(db: Path) -> Msg:
    """A fair table of two people (playing at random, as the leak tests do), two bots and a spectator,
    played to its end; the lobby's list, the summary and the replay asked for all along."""
    store = Store(f"sqlite:///{db}")
    clock = ManualClock()
    hub = Hub(store, clock=clock)
    seats = [{"name": n, "kind": k} for n, k in zip(("Ann", "Bob", "Cid", "Dee"), ("human", "human", "bot", "bot"))]
    spec = TableIn(name="fair", seats=seats, options=OptionsIn(), window_seconds=0.5, bot_delay=0)  # type: ignore[arg-type]
    runner, _ = await hub.create(spec)
    secret = runner.row.config["fair"]["secret"]
    oracle = Oracle(Game(Setup(["deluxe"], ["Ann", "Bob", "Cid", "Dee"], 0)))  # the card names; judged on the real game
    recs = [FairRecorder(runner, 0, oracle, "Ann's tea"), FairRecorder(runner, 1, oracle, "b0b" * 8)]
    recs.append(FairRecorder(runner, None, oracle, None))
    listed: list[str] = []  # what the lobby and the summary said while the game was on
    refused = 0
    try:
        await bounded(hub.replay(runner.id), "the replay asked for while the game is on")
    except AssertionError:
        raise
    except Exception as exc:
        refused += "still on" in str(exc)
    ticking = asyncio.ensure_future(keep_time(runner, clock, runner.window_seconds))
    try:
        for r in recs:
            runner.join(r.client)

        def over() -> bool:
            assert not runner.failed, f"the game did not end: {runner.failed}"
            if runner.row.status != "over":
                listed.extend([hub.page_body("all", 20, None).decode(), json.dumps(hub.summary(runner.id))])
            return runner.dealt and runner.game.over

        await until(over, "the fair game ending", step=0.05)
        await until(
            lambda: runner.row.status == "over" and all(r.saw_end for r in recs), "the end reaching everyone", step=0.05
        )
    finally:
        ticking.cancel()
    body = (await bounded(hub.replay(runner.id), "the finished game's replay")).decode()
    out = {"secret": secret, "recs": recs, "listed": listed, "refused": refused, "body": body}
    out["summary"] = hub.summary(runner.id)
    out["commitment"] = runner.row.config["fair"]["commitment"]
    await bounded(hub.stop(), "the hub's stop")
    store.close()
    return out


def test_a_fair_table_keeps_its_secret_to_the_end_then_verifies(tmp_path: Path, caplog: Any) -> None:
    caplog.set_level(logging.DEBUG)
    out = asyncio.run(_play_fair_table(tmp_path / "fair.db"))
    secret, recs = out["secret"], out["recs"]
    assert out["refused"] == 1, "the replay was served while the game was on"
    assert out["listed"] and all(secret not in text for text in out["listed"]), "the lobby told the secret"
    assert all(out["commitment"] in text for text in out["listed"][:2])
    for rec in recs:
        assert not rec.errors, rec.errors
        msgs = [json.loads(m) for m in rec.sent]
        states = [m for m in msgs if m["type"] == "state"]
        end = next(i for i, m in enumerate(states) if m["view"] is not None and m["view"]["over"])
        assert all(secret not in json.dumps(m) for m in states[:end]), "a state before the end told the secret"
        assert all(m["fair"]["commitment"] == out["commitment"] for m in states)
        assert states[end]["fair"]["secret"] == secret, "the end did not reveal the secret"
        dealt = [m["fair"] for m in states if m["view"] is not None]
        assert dealt and all(f["dealt"] and f["entropy"] == ["Ann's tea", "b0b" * 8, None, None] for f in dealt)
        assert rec.saw_end
    assert recs[0].oracle.problems == [] and recs[0].oracle.lines > 20, recs[0].oracle.problems[:3]
    assert secret not in caplog.text, "the log told the secret"
    assert out["summary"]["fair"]["secret"] == secret
    verdict = verify_text(out["body"])
    assert verdict.honest, verdict
    assert json.loads(out["body"])["fair"]["entropy"] == ["Ann's tea", "b0b" * 8, None, None]


async def _restart(db: Path) -> Msg:
    """A fair table of two people: one gives entropy, the server stops, starts, the other gives theirs,
    the cards are dealt; the server stops and starts again."""
    seats = [{"name": n, "kind": k} for n, k in zip(NAMES, ("human", "human", "bot"))]
    spec = TableIn(name="fair", seats=seats, bot_delay=0)  # type: ignore[arg-type]
    store = Store(f"sqlite:///{db}")
    hub = Hub(store, clock=ManualClock())  # (nobody sits down: no timer would run, and none can)
    runner, _ = await hub.create(spec)
    record = json.loads(json.dumps(runner.row.config["fair"]))
    runner.give_entropy(0, "first")
    await until(lambda: not runner.config_writes, "the entropy stored")
    await bounded(hub.stop(), "the hub's stop")
    store.close()
    seen: Msg = {"record": record}
    for round in ("pending", "dealt"):
        store = Store(f"sqlite:///{db}")
        hub = Hub(store, clock=ManualClock())
        hub.load()
        runner = hub.tables[runner.id]
        seen[round] = {"fair": json.loads(json.dumps(runner.row.config["fair"])), "dealt": runner.dealt}
        if round == "pending":
            runner.give_entropy(1, "second")

            def dealt(r: TableRunner = runner) -> bool:
                assert not r.failed, r.failed
                return r.dealt and r.stored_all()

            await until(dealt, "the deal made and stored")
            seen["deal"] = (list(runner.game.door_deck), [p.hand for p in runner.game.players])
        else:
            seen["rebuilt"] = (list(runner.game.door_deck), [p.hand for p in runner.game.players])
            seen["setup"] = runner.game.setup
        await bounded(hub.stop(), "the hub's stop")
        store.close()
    return seen


def test_a_restart_keeps_the_commitment_the_entropy_and_the_secret(tmp_path: Path) -> None:
    seen = asyncio.run(_restart(tmp_path / "restart.db"))
    first, pending, dealt = seen["record"], seen["pending"], seen["dealt"]
    assert not pending["dealt"] and pending["fair"]["entropy"] == ["first", None, None]
    for kept in (pending["fair"], dealt["fair"]):
        assert (kept["secret"], kept["commitment"]) == (first["secret"], first["commitment"])
    assert dealt["dealt"] and dealt["fair"]["entropy"] == ["first", "second", None]
    assert seen["rebuilt"] == seen["deal"], "the restart dealt other cards"
    key = fair_key(bytes.fromhex(first["secret"]), ["first", "second", ""])
    declared = Setup(["deluxe"], NAMES, None)
    again = deal(declared, FairChance(key))
    assert (list(again.door_deck), [p.hand for p in again.players]) == seen["deal"]
    assert again.setup.sexes == seen["setup"].sexes, "the sexes were not drawn from the generator"


class Sink:
    """A socket that reads whatever it is sent."""

    async def send_text(self, data: str) -> None:
        pass


async def _window_closes(db: Path) -> Msg:
    seats = [{"name": n, "kind": k} for n, k in zip(NAMES, ("human", "human", "bot"))]
    store = Store(f"sqlite:///{db}")
    clock = ManualClock()
    hub = Hub(store, clock=clock)
    runner, _ = await hub.create(TableIn(name="fair", seats=seats, bot_delay=0, away_seconds=10))  # type: ignore[arg-type]
    runner.join(Client(Sink(), 0))  # Ann sits down
    assert runner.first_seated == clock.now
    runner.give_entropy(0, "only Ann")
    await until(lambda: clock.waiting() and not runner.config_writes, "the table waiting, Ann's entropy stored")
    clock.advance(9)  # Bob never came: the table waits for him ...
    assert not runner.failed, runner.failed
    waited = runner.dealt
    assert runner._deal_due() == clock.now + 1 and clock.waiting() == 1, "the table waits on its clock"
    clock.advance(1)  # ... until the table's away time after Ann sat down (shorter than Bob's first-join grace)

    def dealt() -> bool:
        assert not runner.failed, runner.failed
        return runner.dealt

    await until(dealt, "the deal")
    out = {"waited": waited, "entropy": list(runner.row.config["fair"]["entropy"]), "deck": list(runner.game.door_deck)}
    out["key"] = fair_key(bytes.fromhex(runner.row.config["fair"]["secret"]), ["only Ann", "", ""])
    await bounded(hub.stop(), "the hub's stop")
    store.close()
    return out


def test_the_entropy_window_closes_the_tables_away_time_after_the_first_person_sat_down(tmp_path: Path) -> None:
    out = asyncio.run(_window_closes(tmp_path / "window.db"))
    assert out["waited"] is False and out["entropy"] == ["only Ann", None, None]
    assert out["deck"] == deal(Setup(["deluxe"], NAMES, None), FairChance(out["key"])).door_deck


def test_a_table_from_before_fair_deals_loads_plays_and_replays_as_before(tmp_path: Path) -> None:
    seats = [{"name": n, "kind": k} for n, k in zip(NAMES, ("human", "bot", "bot"))]
    row, _ = new_table_row("old", ["deluxe"], seats, {}, 5.0, 0.0, None)
    del row.config["fair"]  # as a server before fair deals made it: chance from the system
    g = Game(table_setup(row), SystemChance())
    row.config["sexes"], row.config["houses"] = g.setup.sexes, g.setup.houses
    store = Store(f"sqlite:///{tmp_path / 'old.db'}")
    store.create_table(row, [list(e) for e in g.chance_log()])
    r = TableRunner(row, store)
    r.ensure_replayed()
    assert not r.failed and r.dealt and r.fair is None and r.game.fingerprint() == g.fingerprint()
    assert state(r, None)["fair"] is None and r.summary()["fair"] is None
    seat = r.game.to_act[0]
    r.act(seat, r.game.text(r.game.legal_actions(seat)[0]), r.game.version)  # it plays on
    again = TableRunner(row, store)
    again.ensure_replayed()
    assert not again.failed and again.game.fingerprint() == r.game.fingerprint()
    save = with_fair(again.game.to_json(), again.fair)
    assert "fair" not in json.loads(save) and Game.from_json(save).fingerprint() == r.game.fingerprint()
    with pytest.raises(Unverifiable, match="no fair-deal record"):
        verify_text(save)
    store.close()
