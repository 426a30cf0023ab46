"""How many countdowns a person at a table would see over a whole game, under rules 5 and under rules 6
(issue 34: a window does not wait on a seat whose only moves are whims, such as discarding its own Race).

Seat 0 stands for the person (played here by the heuristic bot, so both games start alike), against
three heuristic bots, the same seed under both rules. A countdown starts, as at a server table
(`TableRunner._window_clock`), when a response window waits on seat 0 in someone else's moment and it
was not on the clock just before, or the window changed kind, or someone played into it (a new round).
It also counts the countdowns opened only for whims (every move of seat 0 besides passing a whim).

    .venv/bin/python benchmarks/window_clocks.py [--seeds 1-5] [--set deluxe]
"""

from __future__ import annotations

import argparse

from munchkin.agents.base import decide, interjection, make_agent
from munchkin.engine import actions as A
from munchkin.engine.game import Game, Options, Setup
from munchkin.engine.state import CURSE_WINDOW, END_WINDOW, ROLLED, WINDOW
from munchkin.simulate import NAMES

WINDOW_KINDS = frozenset({WINDOW, CURSE_WINDOW, ROLLED, END_WINDOW})
PERSON = 0


def countdowns(sets: list[str], seed: int, rules: int) -> tuple[int, int, int]:
    """(countdowns seat 0 would see, those opened for whims only, decisions in the game) for one game."""
    g = Game(Setup(list(sets), NAMES[:4], seed, Options(turn_cap=2000)), rules=rules)
    bots = {s: make_agent("heuristic", seed * 7919 + s) for s in range(4)}
    clocks = whims = 0
    was: str | None = None  # the window kind seat 0 was on the clock in, after the last action
    last_pass = True
    while not g.over:
        on = g.prompt.kind in WINDOW_KINDS and PERSON in g.to_act and PERSON not in g.deciding()
        if on and (was != g.prompt.kind or not last_pass):
            clocks += 1
            if all(a.kind == A.PASS or g.rearranges(a) for a in g.legal_actions(PERSON)):
                whims += 1
        was = g.prompt.kind if on else None
        a = interjection(g, bots)
        if a is None:
            seat = g.to_act[0]
            a = decide(bots[seat], g, seat, g.legal_actions(seat))
        last_pass = a.kind == A.PASS
        g.apply(a)
    return clocks, whims, g.decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1-5", help="a range of seeds, e.g. 1-5")
    ap.add_argument("--set", default="deluxe", help="sets, comma-separated")
    args = ap.parse_args()
    lo, _, hi = args.seeds.partition("-")
    sets = args.set.split(",")
    totals = {5: [0, 0], 6: [0, 0]}
    for seed in range(int(lo), int(hi or lo) + 1):
        row = []
        for rules in (5, 6):
            clocks, whims, decisions = countdowns(sets, seed, rules)
            totals[rules][0] += clocks
            totals[rules][1] += whims
            row.append(f"rules {rules}: {clocks} countdowns ({whims} for whims only) in {decisions} decisions")
        print(f"seed {seed}: " + "; ".join(row))
    for rules, (clocks, whims) in totals.items():
        print(f"total, rules {rules}: {clocks} countdowns, {whims} of them for whims only")


if __name__ == "__main__":
    main()
