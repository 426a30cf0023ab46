"""How long copying a game takes, against rebuilding it from its log (the only copy before
issue 14), at turns 5, 20 and 40 of seeded 4-player heuristic Deluxe games, on one core.

    .venv/bin/python benchmarks/clone.py [--games 5] [--repeat 200]

`Game.clone()` must be at least 100 times faster than `Game.from_log` at turn 40, and no slower
at turn 40 than at turn 5 (within noise): its cost follows the size of the table, not the length
of the game. At turn 40 it also times what an agent pays for a world (issue 31): `determinize` (the
whole copy, dealt), `Observation.world()` read for nothing (goal: under 10 µs), and the same world
read for the table (every Level, the seat's hand, the decision), which deals nothing.
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


def worlds(gs: list[Game], repeat: int) -> None:
    """Print the medians over `gs` of a determinized copy and of an Observation's world, unread and read."""
    import random

    from munchkin.agents.observation import observe

    def unread(g: Game) -> object:
        obs = observe(g, g.to_act[0])
        return lambda: (obs.world(), obs._worlds.clear())

    def read(g: Game) -> object:
        seat = g.to_act[0]
        obs = observe(g, seat)

        def run() -> None:
            w = obs.world()
            _ = [q.level for q in w.players], list(w.players[seat].hand), w.prompt.kind
            assert not w.is_dealt  # type: ignore[attr-defined]
            obs._worlds.clear()

        return run

    rng = random.Random(1)
    det = statistics.median(per_call(lambda g=g: g.determinize(g.to_act[0], rng), repeat) for g in gs)
    bare = statistics.median(per_call(unread(g), repeat) for g in gs)
    table = statistics.median(per_call(read(g), repeat) for g in gs)
    print(
        f"turn {TURNS[-1]}: determinize {det * 1e6:6.1f} µs   Observation.world() {bare * 1e6:5.1f} µs "
        f"(goal < 10)   read for the table {table * 1e6:5.1f} µs"
    )


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
    worlds(games_at(TURNS[-1], seeds)[: args.games], args.repeat)
    at5, at40 = rows[0][1], rows[-1][1]
    ratio40 = rows[-1][2] / rows[-1][1]
    print(f"clone at turn 40 / at turn 5: {at40 / at5:.2f}; replay/clone at turn 40: {ratio40:.0f}x (goal >= 100x)")
    return 0 if ratio40 >= 100 else 1


if __name__ == "__main__":
    sys.exit(main())
