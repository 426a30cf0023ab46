"""A long soak of the seeded suites, every batch N times larger, on every core.

`MUNCHKIN_SOAK=N` (tests/soak.py) scales the batches; CI runs them at their normal size to stay
within its time limit.

    python benchmarks/game_soak.py --times 5
    python benchmarks/game_soak.py --times 2 test_games.py     # one suite only
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

# the suites whose seeded batches MUNCHKIN_SOAK scales
SUITES = ["test_games.py", "test_view.py", "test_replay.py"]


def main() -> int:
    """Run the seeded suites with every batch multiplied; returns pytest's exit code."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--times", type=int, default=5, help="how many times larger every batch is (default 5)")
    ap.add_argument("--workers", default="auto", help="pytest-xdist workers (default: one per core)")
    ap.add_argument("suites", nargs="*", default=SUITES, help=f"test files in tests/ (default: {' '.join(SUITES)})")
    args = ap.parse_args()
    if args.times < 1:
        ap.error("--times must be 1 or more")
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "MUNCHKIN_SOAK": str(args.times)}
    files = [str(root / "tests" / name) for name in args.suites]
    cmd = [sys.executable, "-m", "pytest", "-q", "-n", args.workers, *files]
    return subprocess.call(cmd, cwd=root, env=env)


if __name__ == "__main__":
    raise SystemExit(main())
