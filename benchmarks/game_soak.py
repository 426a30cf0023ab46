"""A long soak of the CI game suite: every seeded batch of tests/test_games.py N times larger,
on every core. CI runs the batches at their normal size to stay within its time limit.

    python benchmarks/game_soak.py --times 5
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path


def main() -> int:
    """Run the game suite with every batch multiplied; returns pytest's exit code."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--times", type=int, default=5, help="how many times larger every batch is (default 5)")
    ap.add_argument("--workers", default="auto", help="pytest-xdist workers (default: one per core)")
    args = ap.parse_args()
    if args.times < 1:
        ap.error("--times must be 1 or more")
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "MUNCHKIN_SOAK": str(args.times)}
    cmd = [sys.executable, "-m", "pytest", "-q", "-n", args.workers, str(root / "tests" / "test_games.py")]
    return subprocess.call(cmd, cwd=root, env=env)


if __name__ == "__main__":
    raise SystemExit(main())
