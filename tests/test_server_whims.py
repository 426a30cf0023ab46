"""A person whose only moves are whims (discarding their own Race or Class, an Item equipped or traded)
gets no countdown at a table of rules 6: no window waits on them, the state message marks those moves
`whim` and any-time, and they may still take them while the table moves on (issue 34, point 2)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from munchkin.engine import actions as A
from munchkin.engine.game import RULES, Game
from munchkin.server.clock import ManualClock
from munchkin.server.store import Store
from munchkin.server.tables import TableRunner, new_table_row, seat_body
from test_server_clock import move

PERSON = 0
NAMES = ["Ann", "Bob", "Cy", "Di"]
KINDS = ["human", "human", "bot", "bot"]
SEED = 1


def character_move(g: Game, seat: int) -> str:
    """At character creation, a Race or Class first (so the person has one to discard); else forward."""
    for a in g.legal_actions(seat):
        d = g.cdef[a.card] if a.card >= 0 else None
        if g.prompt.kind == "main" and a.kind == A.PLAY and d is not None and (d.is_race or d.is_class):
            if a.card in g.players[seat].hand:
                return g.text(a)
    return move(g, seat)


def runner(tmp: Path, rules: int, seed: int) -> TableRunner:
    """Two people (seats 0 and 1) and two bots, a known seed, the table begun under `rules`."""
    store = Store(f"sqlite:///{tmp / f'whims{rules}-{seed}.db'}")
    seats = [{"name": n, "kind": k, "strength": "heuristic"} for n, k in zip(NAMES, KINDS, strict=True)]
    row, _ = new_table_row("whims", ["deluxe"], seats, {}, 1.0, 0.0, seed)
    row.config["rules"] = rules
    r = TableRunner(row, store, fresh=True, clock=ManualClock())  # it stands still: no window passes by itself
    store.create_table(row, r.deal_chance())
    assert r.game.rules == rules
    return r


def whims_only(g: Game, seat: int) -> bool:
    """The seat's moves are passing and whims, a discard of its own among them."""
    moves = g.legal_actions(seat)
    return any(a.kind == A.DISCARD for a in moves) and all(a.kind == A.PASS or g.rearranges(a) for a in moves)


def play(r: TableRunner, watch: Callable[[TableRunner], bool] | None = None, limit: int = 4000) -> int:
    """Play the table as its loop would (bots at once, the people's moves in turn: a Race or Class when
    they can, else moving on); count the positions where the person of seat 0 is on a window's clock
    with only whims to play; stop early where `watch` says so."""
    g = r.game
    whim_clocks = 0
    for _ in range(limit):
        while r._bots_act():
            r._commit()
        if g.over or (watch is not None and watch(r)):
            break
        if PERSON in r._window_seats() and whims_only(g, PERSON):
            whim_clocks += 1
        seat = g.to_act[0]
        r.act(seat, character_move(g, seat), g.version)
    return whim_clocks


def test_whims_put_a_person_on_the_clock_under_rules_5_only(tmp_path: Path) -> None:
    """The same seeded table, begun under rules 5 and under rules 6: under 5 the person is put on a
    window's clock with only whims to play; under 6 never."""
    before = play(runner(tmp_path, 5, SEED))
    after = play(runner(tmp_path, RULES, SEED))
    assert RULES >= 6 and before > 0 and after == 0, (before, after)


def test_a_person_with_only_self_discards_gets_no_countdown_and_may_still_discard(tmp_path: Path) -> None:
    def other_person_decides(r: TableRunner) -> bool:  # the table waits on seat 1; seat 0 has only whims
        g = r.game
        return 1 in g.to_act and PERSON not in g.to_act and whims_only(g, PERSON)

    r = runner(tmp_path, RULES, SEED)
    play(r, other_person_decides)
    g = r.game
    assert other_person_decides(r), "the position the test needs never came"
    assert PERSON not in r._window_seats()
    info = r._window_info()
    assert info is None or PERSON not in info["clocked"] + info["waiting"]
    moves = json.loads(seat_body(g, PERSON))["actions"]
    discards = [m for m in moves if m["kind"] == A.DISCARD]
    assert discards and all(m["whim"] and m["any_time"] for m in moves)  # the page marks no card "can use now"
    text = discards[0]["text"]
    r.act(PERSON, text, g.version)  # still theirs, at any time, while the table waits on seat 1
    assert text.removeprefix("discard ") not in [g.name(c) for c in g.players[PERSON].character_cards()]
    assert PERSON not in r._window_seats()


def test_the_state_message_says_which_moves_are_whims(tmp_path: Path) -> None:
    r = runner(tmp_path, RULES, SEED)
    g = r.game
    seen = set()
    for _ in range(400):
        while r._bots_act():
            r._commit()
        if g.over:
            break
        sent = [(m["text"], m["whim"]) for m in json.loads(seat_body(g, PERSON))["actions"]]
        assert sent == [(g.text(a), g.rearranges(a)) for a in g.legal_actions(PERSON)]
        seen |= {w for _, w in sent}
        seat = g.to_act[0]
        r.act(seat, character_move(g, seat), g.version)
    assert seen == {True, False}
