"""How fast `munchkin balance` plays: games per hour per core for heuristic and random bots, the
speed-up from 1 to 2 local workers, Ray's overhead against local workers, and from those the
games per hour a 64-core Ray cluster would reach.

    .venv/bin/python benchmarks/balance_speed.py [--set deluxe] [--games 120] [--random-games 40] [--no-ray]

Every timing is wall-clock time of a whole balance run (games played, recorded and tallied), so
it includes starting the worker processes (and, for Ray, the tasks, not the runtime's own start,
which is timed apart). Run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import time

from munchkin.balance.runner import Plan, Runner, Version

CLUSTER_CORES = 64


def timed(runner: Runner, v: Version, plan: Plan, sizes: list[int] | None = None) -> float:
    """Seconds for a whole run; with `sizes`, the pickled size of the tally it sent back is added."""
    t0 = time.perf_counter()
    tally = runner.run(v, plan)
    seconds = time.perf_counter() - t0
    if sizes is not None:
        sizes.append(len(pickle.dumps(tally)))
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="deluxe", help="card set(s), comma-separated (default deluxe)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=120, help="heuristic games per timing (default 120)")
    ap.add_argument("--random-games", type=int, default=40, help="random-bot games per timing (default 40)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-ray", action="store_true", help="skip the Ray timings")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    sets = tuple(s.strip() for s in args.set.split(",") if s.strip())
    out: dict[str, object] = {"sets": list(sets), "players": args.players, "cores": os.cpu_count()}

    for agent, games in (("heuristic", args.games), ("random", args.random_games)):
        v = Version(sets, args.players, (agent,))
        sizes: list[int] = []
        one = timed(Runner(workers=1), v, Plan(args.seed, games), sizes)
        if agent == "heuristic":  # what a worker sends back does not grow with its games
            timed(Runner(workers=1), v, Plan(args.seed, max(1, games // 10)), sizes)
            out["tally_bytes_after_games"] = {games: sizes[0], max(1, games // 10): sizes[1]}
        out[f"{agent}_games_per_hour_per_core"] = round(games / one * 3600)
        out[f"{agent}_one_worker_seconds"] = round(one, 2)
        if agent == "heuristic":
            two = timed(Runner(workers=2), v, Plan(args.seed, games))
            out["heuristic_two_workers_seconds"] = round(two, 2)
            out["speedup_1_to_2_workers"] = round(one / two, 3)
            if not args.no_ray:
                import ray

                t0 = time.perf_counter()
                ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
                out["ray_start_seconds"] = round(time.perf_counter() - t0, 2)
                try:
                    timed(Runner(ray="auto"), v, Plan(args.seed + 10_000, 4))  # warm the workers
                    on_ray = timed(Runner(ray="auto"), v, Plan(args.seed, games))
                finally:
                    ray.shutdown()
                out["heuristic_ray_2_cpus_seconds"] = round(on_ray, 2)
                out["ray_overhead_vs_2_local_workers"] = round(on_ray / two - 1, 3)
                per_core = games / on_ray / 2 * 3600
                out[f"ray_{CLUSTER_CORES}_core_cluster_games_per_hour"] = round(per_core * CLUSTER_CORES)

    if args.json:
        print(json.dumps(out))
        return
    for k, val in out.items():
        print(f"{k:42} {val}")


if __name__ == "__main__":
    main()
