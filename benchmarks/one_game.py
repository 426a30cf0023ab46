"""One seeded 4-player Deluxe game, to count its instructions (timings on a busy machine swing too
much to compare engines by): run it under callgrind, then again with `--setup-only`, and subtract.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python benchmarks/one_game.py random 2
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python benchmarks/one_game.py random 2 \
        --setup-only

To count another commit's engine, put its `src` first: `PYTHONPATH=<its tree>/src`.
"""

from __future__ import annotations

import argparse

from munchkin.agents.base import decide, make_agent
from munchkin.engine.game import Game, Options, Setup

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("agent", choices=["random", "heuristic"])
    ap.add_argument("seed", type=int)
    ap.add_argument("--setup-only", action="store_true", help="make the game and the agents, play nothing")
    args = ap.parse_args()
    g = Game(Setup(["deluxe"], NAMES, args.seed, Options(turn_cap=5000)))
    bots = [make_agent(args.agent, args.seed * 7919 + i) for i in range(4)]
    if args.setup_only:
        return
    decisions = 0
    while not g.over:
        seat = g.to_act[0]
        g.apply(decide(bots[seat], g, seat))
        decisions += 1
    print(f"{args.agent} seed {args.seed}: {decisions} decisions")


if __name__ == "__main__":
    main()
