"""The committed balance reports in docs/balance/: heuristic bots at 4 players in each edition,
and Deluxe at 3 and 6 players, each a `munchkin balance` run on every core.

    .venv/bin/python benchmarks/balance_reports.py [--games 20000] [--only deluxe-4,star-4] [--out docs/balance]

Each report goes to OUT/NAME (index.html, summary.json, tally.json, CSV tables); the reading of
them is docs/balance/README.md, written by hand. A long report can be played in parts on other
seeds and merged into exactly the report one run would give:

    .venv/bin/python benchmarks/balance_reports.py --games 10000 --only deluxe-6 --out part1
    .venv/bin/python benchmarks/balance_reports.py --games 10000 --seed 10001 --only deluxe-6 --out part2
    .venv/bin/python -m munchkin.cli balance-merge part1/deluxe-6 part2/deluxe-6 --out docs/balance/deluxe-6
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

RUNS = {  # name: (sets, players)
    "deluxe-4": ("deluxe", 4),
    "star-4": ("star", 4),
    "good-bad-4": ("good-bad", 4),
    "harry-potter-4": ("harry-potter", 4),
    "deluxe-3": ("deluxe", 3),
    "deluxe-6": ("deluxe", 6),
}


TITLES = {"deluxe": "Deluxe", "star": "Star", "good-bad": "Good-Bad", "harry-potter": "Harry Potter"}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _pts(x: float) -> str:
    return f"{100 * x:+.1f}".replace("-", "−")


def table(out: Path, names: list[str]) -> str:
    """docs/balance/README.md's table: each report's headline figures, read from its summary.json."""
    rows = [
        "| report | games | first player wins (95%) | first seat against the others | mean turns "
        "| a player left 5+ Levels behind |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name in names:
        path = out / name / "summary.json"
        if not path.exists():
            continue
        s = json.loads(path.read_text(encoding="utf-8"))
        sets, players = RUNS[name]
        fp, d = s["first_player"], s["first_player"]["against_the_others"]
        star = " *" if d["significant"] else ""
        rows.append(
            f"| [{TITLES[sets]}, {players} players]({name}/index.html) | {s['games']:,} "
            f"| {_pct(fp['rate'])} ({_pct(fp['low'])}–{_pct(fp['high'])}; par {_pct(s['par'])}) "
            f"| {_pts(d['diff'])} pts ({_pts(d['low'])} to {_pts(d['high'])}){star} "
            f"| {s['length']['turns']['mean']:.1f} | {_pct(s['far_behind']['games']['rate'])} |"
        )
    return "\n".join(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000, help="games per report (default 20000)")
    ap.add_argument("--only", default="", help="comma-separated report names (default: all)")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "docs" / "balance"))
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    ap.add_argument(
        "--table", action="store_true", help="print the README's table from OUT/NAME/summary.json instead of playing"
    )
    ap.add_argument("--workers", type=int, default=0, help="local workers (default: every core)")
    args = ap.parse_args()
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(RUNS)
    unknown = [n for n in names if n not in RUNS]
    if unknown:
        ap.error(f"unknown report {', '.join(unknown)}; choose from {', '.join(RUNS)}")
    if args.table:
        print(table(Path(args.out), names))
        return 0
    for name in names:
        sets, players = RUNS[name]
        cmd = [sys.executable, "-m", "munchkin.cli", "balance", "--set", sets, "--players", str(players)]
        cmd += [
            "--games",
            str(args.games),
            "--seed",
            str(args.seed),
            "--agents",
            "heuristic",
            "--workers",
            str(args.workers),
        ]
        cmd += ["--out", str(Path(args.out) / name)]
        print(" ".join(cmd[2:]), flush=True)
        code = subprocess.call(cmd)
        if code:
            return code
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
