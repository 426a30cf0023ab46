"""The response window's clock: a person's own decisions never pass by themselves; the clock runs
only for people answering someone else's moment; Wait! holds a window until its holder plays,
passes or goes away; and `Game.deciding`, which tells the two apart.

The table's clock is a `ManualClock` the test moves by hand (no test waits on the wall clock), and the
runner's loop step that closes a window whose time is up is `expire` below; two tests run the real loop
on that clock.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from munchkin.agents.random_agent import pick
from munchkin.engine import actions as A
from munchkin.engine.actions import MunchkinError
from munchkin.engine.game import Game, Setup
from munchkin.engine.state import CURSE_WINDOW, END_WINDOW, ROLLED, WINDOW
from munchkin.server import tables
from munchkin.server.app import handle_message
from munchkin.server.clock import ManualClock
from munchkin.server.models import TableIn
from munchkin.server.store import Store
from munchkin.server.tables import WINDOW_KINDS, Client, TableRunner, new_table_row
from waits import bounded, until

NAMES = ["Ann", "Bob", "Cy", "Di"]
WINDOW_LENGTH = 1.0
FORWARD = ("ready", "kick", "keep", "trouble", "loot", "end", "run", "flee_from", "pass", "refuse", "decline")
FORWARD += ("choose", "take", "discard", "give")


@pytest.fixture
def clock() -> ManualClock:
    """The tables' clock in a test: it moves only when the test moves it."""
    return ManualClock()


class Socket:
    """A client's socket that keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, data: str) -> None:
        self.sent.append(json.loads(data))

    def last_state(self) -> dict[str, Any]:
        return next(m for m in reversed(self.sent) if m["type"] == "state")


def make_runner(
    tmp: Path,
    kinds: list[str],
    seed: int,
    allow_wait: bool = True,
    db: str = "clock.db",
    clock: ManualClock | None = None,
) -> TableRunner:
    """A table not yet started (the test plays its loop's part), with a seed for a known game, on a clock
    the test moves (a new one if none is given)."""
    store = Store(f"sqlite:///{tmp / db}")
    seats = [{"name": NAMES[i], "kind": k, "strength": "heuristic"} for i, k in enumerate(kinds)]
    row, _ = new_table_row("clock", ["deluxe"], seats, {}, WINDOW_LENGTH, 0.0, seed, allow_wait=allow_wait)
    runner = TableRunner(row, store, fresh=True, clock=clock or ManualClock())
    store.create_table(row, runner.deal_chance())
    return runner


def move(g: Game, seat: int) -> str:
    """A person's move that moves the game on: pass in a window, else the first forward move."""
    acts = g.legal_actions(seat)
    if any(a.kind == A.PASS for a in acts):
        return "pass"
    for kind in FORWARD:
        for a in acts:
            if a.kind == kind:
                return g.text(a)
    return g.text(acts[0])


def drive(r: TableRunner, until: Callable[[Game], bool], limit: int = 3000) -> None:
    """Play the table as its loop would (bots at once) with the people's forward moves, until `until`."""
    g = r.game
    for _ in range(limit):
        while r._bots_act():
            r._commit()
        if until(g):
            return
        assert not g.over, "the game ended before the position the test needs"
        seat = g.to_act[0]
        r.act(seat, move(g, seat), g.version)
    raise AssertionError("the position the test needs never came")


def expire(r: TableRunner) -> None:
    """The loop's step when it wakes: a window whose time is up closes for those on its clock."""
    if r.deadline is not None and r.clock.monotonic() >= r.deadline:
        r._window_expired()


def wait_windows(r: TableRunner, clock: ManualClock, n: int) -> None:
    for _ in range(n):
        clock.advance(WINDOW_LENGTH)
        expire(r)


def passed(r: TableRunner, seat: int, since: int) -> bool:
    return any(e[0] == "act" and e[1].seat == seat and e[1].kind == A.PASS for e in r.game.log[since:])


def fight_window(people: set[int], own: bool, others: int = 1) -> Callable[[Game], bool]:
    """A combat window waiting on a person in their own fight (own) or in a bot's fight (not own),
    with at least `others` people on the clock."""

    def ok(g: Game) -> bool:
        if g.prompt.kind != WINDOW or not people & set(g.to_act):
            return False
        deciding = set(g.deciding()) & people
        clocked = (set(g.to_act) & people) - deciding
        return bool(deciding) == own and len(clocked) >= others

    return ok


# ---------------------------------------------------------------------- the engine
def test_deciding_names_whose_own_moment_it_is() -> None:
    """Outside windows everyone waited on decides for themselves; in a fight's window only the
    fighters; at a roll the runner; in a Curse's window its victim; before the next turn nobody."""
    seen: set[str] = set()
    for seed in range(4):
        g = Game(Setup(["deluxe"], NAMES, seed))
        rng = random.Random(seed)
        while not g.over:
            p, own = g.prompt, g.deciding()
            assert set(own) <= set(g.to_act)
            if p.kind == WINDOW:
                assert g.combat is not None
                assert set(own) == set(g.to_act) & set(g.combat.fighters())
            elif p.kind == ROLLED:
                assert set(own) == set(g.to_act) & {p.runner}
            elif p.kind == CURSE_WINDOW:
                assert set(own) == set(g.to_act) & {p.victim}
            elif p.kind == END_WINDOW:
                assert own == ()
            else:
                assert own == g.to_act
            if own != g.to_act:
                seen.add(p.kind)
            s = g.to_act[0]
            g.apply(pick(rng, g.legal_actions(s), g.any_time(s)))
        assert g.deciding() == ()
    assert {WINDOW, END_WINDOW} <= seen, seen  # windows where some answer another's moment did come


# ---------------------------------------------------------------------- the clock
def test_a_fighters_own_window_never_passes_while_another_persons_does(tmp_path: Path, clock: ManualClock) -> None:
    r = make_runner(tmp_path, ["human", "human", "bot"], seed=3, clock=clock)
    drive(r, fight_window({0, 1}, own=True))
    g = r.game
    fighter = next(s for s in g.deciding() if s in r.humans)
    other = next(s for s in g.to_act if s in r.humans and s != fighter)
    assert r.deadline is not None, "the other person's answer runs on the clock"
    at = len(g.log)
    clock.advance(WINDOW_LENGTH * 0.9)
    expire(r)
    assert other in g.to_act, "the window closed before its time"
    wait_windows(r, clock, 1)
    assert passed(r, other, at) and not passed(r, fighter, at)
    # the fighter's moment: sixty windows later they still decide, and no countdown runs
    version = g.version
    wait_windows(r, clock, 60)
    assert g.version == version and fighter in g.to_act and g.prompt.kind in WINDOW_KINDS
    assert r.deadline is None
    info = r._window_info()
    assert info is not None and info["remaining"] is None and fighter in info["deciding"] and info["clocked"] == []


def test_the_real_loop_leaves_the_fighter_be(tmp_path: Path, clock: ManualClock) -> None:
    """The same with the table's own loop: the other person's window closes by itself when its time is
    up, and the fighter is still asked fifty window lengths later."""

    async def main() -> None:
        r = make_runner(tmp_path, ["human", "human", "bot"], seed=3, clock=clock)
        drive(r, fight_window({0, 1}, own=True))
        g = r.game
        fighter = next(s for s in g.deciding() if s in r.humans)
        other = next(s for s in g.to_act if s in r.humans and s != fighter)
        at = len(g.log)
        sock = Socket()
        r.join(Client(sock, fighter))
        r.start()
        try:
            await until(lambda: r.deadline is not None and clock.waiting(), "the other person's countdown")
            clock.advance(WINDOW_LENGTH * 0.9)
            await asyncio.sleep(0.05)
            assert not passed(r, other, at), "the window closed before its time"
            clock.advance(WINDOW_LENGTH * 0.1)
            await until(lambda: passed(r, other, at), "the other person's window closing by itself")
            await until(lambda: sock.sent and sock.last_state()["version"] == g.version, "the latest state sent")
            assert r.deadline is None, "a countdown runs on the fighter's own moment"
            version = g.version
            clock.advance(50 * WINDOW_LENGTH)
            await asyncio.sleep(0.05)
            assert g.version == version and fighter in g.to_act and not passed(r, fighter, at) and not r.failed
            window = sock.last_state()["window"]
            assert window["deciding"] == [fighter] and window["remaining"] is None
        finally:
            await bounded(r.stop(), "the table's stop")
            r.store.close()

    asyncio.run(main())


def test_own_decisions_outside_windows_never_pass(tmp_path: Path, clock: ManualClock) -> None:
    """Losing, Running Away, answering a call for help: no window clock at all."""
    r = make_runner(tmp_path, ["human", "bot", "bot"], seed=3, clock=clock)
    drive(r, lambda g: g.prompt.kind not in WINDOW_KINDS and g.phase != "setup" and 0 in g.to_act)
    version = r.game.version
    wait_windows(r, clock, 60)
    assert r.game.version == version and r.deadline is None and r._window_info() is None


def test_an_absent_fighter_gets_a_stand_in_and_a_turn_clock_still_hurries_an_own_window(
    tmp_path: Path, clock: ManualClock
) -> None:
    """The fighter's window waits for them, but not for ever: a bot stands in for a person away longer
    than the table allows, and an opt-in turn clock makes a connected person's move in their own fight."""

    async def main() -> None:
        r = make_runner(tmp_path, ["human", "human", "bot"], seed=3, clock=clock)
        drive(r, fight_window({0, 1}, own=True, others=0))
        g = r.game
        fighter = next(s for s in g.deciding() if s in r.humans)
        other = Client(Socket(), 1 - fighter)
        r.row.seats[fighter].claimed = True  # the fighter came once and left (not a seat never opened)
        r.join(other)  # someone is at the table; the fighter is away
        at = len(g.log)
        clock.advance(r.away_seconds - 1)
        assert r._bots_act() == 0 and fighter in g.to_act
        clock.advance(1)
        assert fighter in r._stand_ins()
        while r._bots_act():
            r._commit()
        assert any(e[0] == "act" and e[1].seat == fighter for e in g.log[at:]), "no stand-in played the fight"
        r.leave(other)
        await asyncio.sleep(0)
        r.store.close()

        r = make_runner(tmp_path, ["human", "bot", "bot"], seed=3, db="clocked.db", clock=clock)
        r.turn_clock = 30.0
        drive(r, fight_window({0}, own=True, others=0))
        me = Client(Socket(), 0)
        r.join(me)
        r._commit()  # the game waits on the person from now on
        version = r.game.version
        clock.advance(29)
        assert r._bots_act() == 0 and r.game.version == version
        clock.advance(1)
        assert r._bots_act() == 1 and r.game.version > version
        r.leave(me)
        await asyncio.sleep(0)
        r.store.close()

    asyncio.run(main())


# ---------------------------------------------------------------------- Wait!
def test_wait_holds_a_window_once_and_ends_when_its_holder_passes(tmp_path: Path, clock: ManualClock) -> None:
    r = make_runner(tmp_path, ["human", "human", "bot"], seed=3, clock=clock)
    drive(r, fight_window({0, 1}, own=False, others=2))
    g = r.game
    ann, bob = sorted(s for s in g.to_act if s in r.humans)
    clock.advance(WINDOW_LENGTH / 4)
    r.hold(ann)
    assert r.deadline is None and r.held_by == [ann]
    info = r._window_info()
    assert info is not None and info["held_by"] == [ann] and info["remaining"] is None
    assert info["held_left"] == pytest.approx(WINDOW_LENGTH * 3 / 4)
    with pytest.raises(MunchkinError, match="already said Wait!"):
        r.hold(ann)
    at, version = len(g.log), g.version
    wait_windows(r, clock, 30)  # held: nobody passes
    assert g.version == version and {ann, bob} <= set(g.to_act)
    r.act(ann, "pass", g.version)  # the holder passes: the countdown runs on from where it stood
    assert r.held_by == [] and r.deadline == pytest.approx(clock.now + WINDOW_LENGTH * 3 / 4)
    with pytest.raises(MunchkinError, match="no response window"):
        r.hold(ann)
    wait_windows(r, clock, 1)
    assert passed(r, bob, at)


def test_another_persons_play_does_not_end_a_hold(tmp_path: Path, clock: ManualClock) -> None:
    """Bob plays into the window Ann holds: a new round, and still Ann's hold, with a full countdown after."""
    r = make_runner(tmp_path, ["human", "human", "bot"], seed=3, clock=clock)
    drive(r, fight_window({0, 1}, own=False, others=2))
    g = r.game
    ann, bob = sorted(s for s in g.to_act if s in r.humans)
    r.hold(ann)
    play = next(a for a in g.legal_actions(bob) if a.kind != A.PASS)
    r.act(bob, g.text(play), g.version)
    assert ann in r._window_seats(), "Bob's play closed the window for Ann: this seed no longer tests the hold"
    assert r.held_by == [ann] and r.deadline is None and r.paused_left == WINDOW_LENGTH
    with pytest.raises(MunchkinError, match="already said Wait!"):
        r.hold(ann)
    r.act(ann, "pass", g.version)
    assert r.held_by == []
    assert r._window_seats() == {bob}, "Bob's answer is no longer on the clock: this seed no longer tests the countdown"
    assert r.deadline == pytest.approx(clock.now + WINDOW_LENGTH), "the new round's countdown did not start in full"


def two_cards_in_a_bots_fight(g: Game) -> bool:
    """A bot's fight whose window runs on Ann's clock while she holds two cards she may play into it:
    after she plays one, the window has something to ask her again."""
    if not fight_window({0}, own=False)(g):
        return False
    return len({a.card for a in g.legal_actions(0) if a.kind == A.PLAY and a.card >= 0}) >= 2


def test_wait_ends_when_its_holder_plays_and_the_round_starts_again(tmp_path: Path, clock: ManualClock) -> None:
    """Ann holds a bot's fight a quarter of the way into its countdown, then plays a card into it: her
    hold ends, and the window, which still waits on her (she has another card), starts a new round with a
    full countdown (not the three quarters left when she held it) in which she may say Wait! again.
    Seed 6 comes to such a window in the first turn."""
    r = make_runner(tmp_path, ["human", "bot", "bot"], seed=6, clock=clock)
    drive(r, two_cards_in_a_bots_fight)
    g = r.game
    clock.advance(WINDOW_LENGTH / 4)
    r.hold(0)
    assert r.paused_left == pytest.approx(WINDOW_LENGTH * 3 / 4)
    wait_windows(r, clock, 10)
    assert 0 in g.to_act and r.held_by == [0] and r.deadline is None, "the held window did not wait"
    play = next(a for a in g.legal_actions(0) if a.kind == A.PLAY and a.card >= 0)
    r.act(0, g.text(play), g.version)
    assert r._window_seats() == {0}, "Ann's play closed the window for her: this seed no longer tests a new round"
    assert r.held_by == [] and r.waited == set(), "the holder's own play did not end her hold"
    assert r.deadline == pytest.approx(clock.now + WINDOW_LENGTH), "the new round's countdown did not start in full"
    r.hold(0)  # a new round: Wait! may be said again
    info = r._window_info()
    assert info is not None and info["held_by"] == [0] and info["waited"] == [0] and r.deadline is None
    r.store.close()


def test_a_held_window_ends_when_its_holder_goes_away(tmp_path: Path, clock: ManualClock) -> None:
    async def main() -> None:
        r = make_runner(tmp_path, ["human", "human", "bot"], seed=3, clock=clock)
        drive(r, fight_window({0, 1}, own=False))
        g = r.game
        holder = next(s for s in g.to_act if s in r._window_seats())
        ann, bob = Client(Socket(), holder), Client(Socket(), 1 - holder)
        r.join(ann)
        r.join(bob)
        r.hold(holder)
        assert r.deadline is None
        r.leave(ann)  # the page closed, the connection dropped
        assert r.held_by == [] and r.deadline is not None
        at = len(g.log)
        wait_windows(r, clock, 1)
        assert passed(r, holder, at), "the absent person's window did not close"
        r.leave(bob)
        await asyncio.sleep(0)
        r.store.close()

    asyncio.run(main())


def test_wait_is_refused_with_a_reason(tmp_path: Path, clock: ManualClock) -> None:
    off = make_runner(tmp_path, ["human", "bot", "bot"], seed=3, allow_wait=False, db="off.db", clock=clock)
    drive(off, fight_window({0}, own=False))
    version = off.game.version
    with pytest.raises(MunchkinError, match="does not allow Wait!"):
        off.hold(0)
    assert off.deadline is not None and off.held_by == [] and off.game.version == version
    info = off._window_info()
    assert info is not None and info["allow_wait"] is False
    off.store.close()

    r = make_runner(tmp_path, ["human", "bot", "bot"], seed=3, clock=clock)
    drive(r, fight_window({0}, own=True, others=0))
    with pytest.raises(MunchkinError, match="own decision"):
        r.hold(0)
    me, spectator = Client(Socket(), 0, burst=100), Client(Socket(), None, burst=100)
    reply = handle_message(r, spectator, json.dumps({"type": "wait"}))
    assert reply is not None and "spectators cannot" in reply["error"]
    reply = handle_message(r, me, json.dumps({"type": "more_time"}))  # the older word is answered as Wait!
    assert reply is not None and "own decision" in reply["error"]
    drive(r, fight_window({0}, own=False))
    assert handle_message(r, me, json.dumps({"type": "more_time"})) is None and r.held_by == [0]
    r.store.close()


def test_the_option_and_the_default_window() -> None:
    seats = [{"name": n, "kind": "human"} for n in NAMES[:3]]
    spec = TableIn(seats=seats)
    assert spec.window_seconds == 15.0 and spec.allow_wait is True
    assert TableIn(seats=seats, window_seconds=2.6, allow_wait=False).allow_wait is False
    row, _ = new_table_row("t", ["deluxe"], seats, {}, 2.6, 0.0, 1, allow_wait=False)
    assert row.config["allow_wait"] is False and tables.table_summary(row)["allow_wait"] is False


# ---------------------------------------------------------------------- bots alone
def test_a_bot_table_plays_to_the_end_with_no_window_clock(tmp_path: Path, clock: ManualClock) -> None:
    async def main() -> None:
        r = make_runner(tmp_path, ["bot", "bot", "bot"], seed=5, clock=clock)
        r.window_seconds = 30.0  # were bots kept waiting on windows, the game would never end (the clock stands)
        sock = Socket()
        r.join(Client(sock, None))
        r.start()
        try:
            states: list[dict[str, Any]] = []

            def over() -> bool:
                assert r.deadline is None and not r.failed
                states[:] = [m for m in sock.sent if m["type"] == "state"]
                return bool(states) and states[-1]["view"]["over"]  # the spectator's sender has the last word

            await until(over, "the bots' game ending and the spectator told")
            assert r.game.over and r.game.winners
            assert all(m["window"] is None for m in states), "a bot table showed a window clock"
            await until(lambda: r.replay_task is not None and r.replay_task.done(), "the finished game's save")
        finally:
            await bounded(r.stop(), "the table's stop")
            r.store.close()

    asyncio.run(main())


def hold_step(r: TableRunner) -> None:
    """The loop's step when it wakes at a hold's end: the holder passes."""
    if any(t <= r.clock.monotonic() for t in r.hold_until.values()):
        r._holds_expired()


@pytest.mark.parametrize("turn_clock", [None, 12.0])
def test_a_hold_lasts_at_most_its_bound_and_then_its_holder_passes(
    tmp_path: Path, clock: ManualClock, turn_clock: float | None
) -> None:
    """Wait! holds a window until the holder plays or passes, but not for ever: for the turn clock when
    the table has one, else MAX_HOLD_SECONDS; then the holder passes and the countdown runs on."""
    r = make_runner(tmp_path, ["human", "human", "bot"], seed=3, clock=clock)
    r.turn_clock = turn_clock
    bound = turn_clock if turn_clock is not None else tables.MAX_HOLD_SECONDS
    drive(r, fight_window({0, 1}, own=False, others=2))
    g = r.game
    ann, bob = sorted(s for s in g.to_act if s in r.humans)
    clock.advance(WINDOW_LENGTH / 2)
    r.hold(ann)
    info = r._window_info()
    assert info is not None and info["hold_seconds"] == bound and info["hold_left"] == [bound]
    at, version = len(g.log), g.version
    clock.advance(bound - 1)
    hold_step(r)
    assert g.version == version and r.held_by == [ann], "the hold ended before its bound"
    assert r._window_info()["hold_left"] == [1.0]  # type: ignore[index]
    clock.advance(1)
    hold_step(r)
    assert passed(r, ann, at), "the holder did not pass when the hold ran out"
    assert r.held_by == [] and r.deadline == pytest.approx(clock.now + WINDOW_LENGTH / 2)
    wait_windows(r, clock, 1)
    assert passed(r, bob, at)
