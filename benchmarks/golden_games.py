"""Play back every recorded golden game (2,100 of them, every edition and mix) on every core and
report any that no longer plays exactly as recorded. CI plays one in ten (tests/test_golden.py).

    .venv/bin/python benchmarks/golden_games.py [--batch NAME]
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from golden import BATCHES, check_game, games  # noqa: E402


def check_batch(batch: str) -> tuple[str, int, int, list[str]]:
    played, moves, problems = 0, 0, []
    for rec in games(lambda b, seed: b == batch):
        played += 1
        moves += len(rec["moves"])
        problems += check_game(rec)
    return batch, played, moves, problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", choices=list(BATCHES), action="append", help="only these batches")
    args = ap.parse_args()
    batches = args.batch or list(BATCHES)
    t0 = time.perf_counter()
    bad = 0
    with ProcessPoolExecutor() as pool:
        for batch, played, moves, problems in pool.map(check_batch, batches):
            bad += len(problems)
            print(f"{batch:22} {played:4} games {moves:9,} moves  {'ok' if not problems else 'DIFFERS'}")
            for p in problems[:10]:
                print("   ", p)
    print(f"{time.perf_counter() - t0:.0f} s; {'every game plays as recorded' if not bad else f'{bad} differences'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
