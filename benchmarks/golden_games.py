"""Play back every recorded golden game (2,100 of them, every edition and mix) on every core and
report any that no longer plays exactly as recorded. CI plays one in ten (tests/test_golden.py).
With --agents, play each game again with today's agents instead, and report any move they now
choose differently (so that the agents play exactly as they did, win rates included).

    .venv/bin/python benchmarks/golden_games.py [--batch NAME] [--agents]
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from golden import BATCHES, check_game, games, rerun_agents, seat_agents  # noqa: E402
from munchkin.balance.stats import wilson  # noqa: E402

Tally = dict[str, list[int]]  # "recorded heuristic" etc.: [seats that played, seats that won]


def check_batch(batch: str, agents: bool = False) -> tuple[str, int, int, list[str], Tally]:
    played, moves, problems = 0, 0, []
    tally: Tally = {}
    for rec in games(lambda b, seed: b == batch):
        played += 1
        moves += len(rec["moves"])
        if not agents:
            problems += check_game(rec)
            continue
        differs, winners = rerun_agents(rec)
        problems += differs
        kinds = seat_agents(rec["seed"])
        if len(set(kinds)) < 2:
            continue  # win rates compare the agents in games where both kinds sit
        for when, won in (("recorded", rec["winners"]), ("today", winners)):
            for seat, kind in enumerate(kinds):
                t = tally.setdefault(f"{when} {kind}", [0, 0])
                t[0] += 1
                t[1] += seat in won
    return batch, played, moves, problems, tally


def rerun_batch(batch: str) -> tuple[str, int, int, list[str], Tally]:
    return check_batch(batch, agents=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", choices=list(BATCHES), action="append", help="only these batches")
    ap.add_argument(
        "--agents",
        action="store_true",
        help="instead, play each game again with today's agents and check they choose every recorded move",
    )
    args = ap.parse_args()
    batches = args.batch or list(BATCHES)
    t0 = time.perf_counter()
    bad = 0
    total: Tally = {}
    with ProcessPoolExecutor() as pool:
        for batch, played, moves, problems, tally in pool.map(rerun_batch if args.agents else check_batch, batches):
            bad += len(problems)
            print(f"{batch:22} {played:4} games {moves:9,} moves  {'ok' if not problems else 'DIFFERS'}")
            for p in problems[:10]:
                print("   ", p)
            for k, (n, w) in tally.items():
                t = total.setdefault(k, [0, 0])
                t[0] += n
                t[1] += w
    if total:
        print("win rate per seat, in the games where random and heuristic agents sit together:")
        for k in sorted(total):
            n, w = total[k]
            lo, hi = wilson(w, n)
            print(f"  {k:20} {w:5} wins / {n:5} seats = {w / n:.3f}  (95% {lo:.3f}-{hi:.3f})")
    print(f"{time.perf_counter() - t0:.0f} s; {'every game plays as recorded' if not bad else f'{bad} differences'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
