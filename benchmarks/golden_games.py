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

from golden import BATCHES, check_game, games, rerun_agents  # noqa: E402


def check_batch(batch: str, agents: bool = False) -> tuple[str, int, int, list[str]]:
    played, moves, problems = 0, 0, []
    for rec in games(lambda b, seed: b == batch):
        played += 1
        moves += len(rec["moves"])
        problems += rerun_agents(rec) if agents else check_game(rec)
    return batch, played, moves, problems


def rerun_batch(batch: str) -> tuple[str, int, int, list[str]]:
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
    with ProcessPoolExecutor() as pool:
        for batch, played, moves, problems in pool.map(rerun_batch if args.agents else check_batch, batches):
            bad += len(problems)
            print(f"{batch:22} {played:4} games {moves:9,} moves  {'ok' if not problems else 'DIFFERS'}")
            for p in problems[:10]:
                print("   ", p)
    print(f"{time.perf_counter() - t0:.0f} s; {'every game plays as recorded' if not bad else f'{bad} differences'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
