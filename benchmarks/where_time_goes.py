"""Where a decision's time goes, by wall clock and without a profiler's per-call cost: making action
lists (timed around the outermost listing calls only), the agent (its observation and its pick), and
the rest (the steps that run between decisions), over seeded 4-player Deluxe games.

    .venv/bin/python benchmarks/where_time_goes.py random --games 3
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from munchkin.agents.base import decide, make_agent
from munchkin.engine import legal
from munchkin.engine.game import Game, Options, Setup

NAMES = ["Ann", "Bob", "Cid", "Dee"]
LISTINGS = ("compute_legal", "free_actions", "window_actions", "any_time_extras", "any_time_actions")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("agent", choices=["random", "heuristic"])
    ap.add_argument("--games", type=int, default=3)
    args = ap.parse_args()
    inside = [False]
    listing = [0.0]

    def timed(f: Any) -> Any:
        def run(*a: Any, **kw: Any) -> Any:
            if inside[0]:  # a list made within another: counted in the outer one
                return f(*a, **kw)
            inside[0] = True
            t = time.perf_counter()
            try:
                return f(*a, **kw)
            finally:
                listing[0] += time.perf_counter() - t
                inside[0] = False

        return run

    for name in LISTINGS:  # the modules that list call these through `legal`
        setattr(legal, name, timed(getattr(legal, name)))
    total = agent = 0.0
    decisions = 0
    for seed in range(1, args.games + 1):
        g = Game(Setup(["deluxe"], NAMES, seed, Options(turn_cap=5000)))
        bots = [make_agent(args.agent, seed * 7919 + i) for i in range(4)]
        t0 = time.perf_counter()
        while not g.over:
            seat = g.to_act[0]
            t = time.perf_counter()
            action = decide(bots[seat], g, seat)
            agent += time.perf_counter() - t
            g.apply(action)
            decisions += 1
        total += time.perf_counter() - t0
    us = 1e6 / decisions
    print(
        f"{args.agent}: {decisions} decisions, {total * us:.1f} µs a decision: lists {listing[0] * us:.1f}, "
        f"agent {agent * us:.1f} (lists it makes counted in lists), rest {(total - listing[0] - agent) * us:.1f}"
    )


if __name__ == "__main__":
    main()
