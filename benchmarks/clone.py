"""How long copying a game takes, against rebuilding it from its log (the only copy before
issue 14), at turns 5, 20 and 40 of seeded 4-player heuristic Deluxe games, on one core.

    .venv/bin/python benchmarks/clone.py [--games 5] [--repeat 200]

`Game.clone()` must be at least 100 times faster than `Game.from_log` at turn 40, and no slower
at turn 40 than at turn 5 (within noise): its cost follows the size of the table, not the length
of the game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from munchkin.agents.base import decide, make_agent
from munchkin.engine.game import Game, Options, Setup

TURNS = (5, 20, 40)
NAMES = ["Ann", "Bob", "Cid", "Dee"]


def games_at(turn: int, seeds: list[int]) -> list[Game]:
    """Each seed's heuristic game, stopped at the first decision of `turn` (games over sooner are skipped)."""
    out = []
    for seed in seeds:
        g = Game(Setup(["deluxe"], NAMES, seed, Options(turn_cap=5000)))
        bots = [make_agent("heuristic", seed * 7919 + i) for i in range(4)]
        while not g.over and g.turn < turn:
            s = g.to_act[0]
            g.apply(decide(bots[s], g, s, g.legal_actions(s)))
        if not g.over:
            out.append(g)
    return out


def per_call(fn: object, repeat: int) -> float:
    """Median seconds of one call of `fn`, over `repeat` timed batches."""
    call = fn  # type: ignore[assignment]
    times = []
    n = 10
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            call()  # type: ignore[operator]
        times.append((time.perf_counter() - t0) / n)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5, help="games measured at each turn")
    ap.add_argument("--repeat", type=int, default=50, help="timed batches per measurement")
    args = ap.parse_args()
    seeds = list(range(1, 200))
    rows = []
    for turn in TURNS:
        gs = games_at(turn, seeds)[: args.games]
        if not gs:
            print(f"no game lasted to turn {turn}")
            return 1
        clone = statistics.median(per_call(g.clone, args.repeat) for g in gs)
        replay = statistics.median(
            per_call(lambda g=g: Game.from_log(g.setup, g.log), max(3, args.repeat // 10)) for g in gs
        )
        entries = statistics.median(len(g.log) for g in gs)
        rows.append((turn, clone, replay))
        print(
            f"turn {turn:2}: clone {clone * 1e6:7.1f} µs   replay {replay * 1e3:6.2f} ms   "
            f"replay/clone {replay / clone:6.0f}x   (log of {entries:.0f} entries, {len(gs)} games)"
        )
    at5, at40 = rows[0][1], rows[-1][1]
    ratio40 = rows[-1][2] / rows[-1][1]
    print(f"clone at turn 40 / at turn 5: {at40 / at5:.2f}; replay/clone at turn 40: {ratio40:.0f}x (goal >= 100x)")
    return 0 if ratio40 >= 100 else 1


if __name__ == "__main__":
    sys.exit(main())
