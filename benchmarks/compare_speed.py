"""Decisions per second of this tree against another commit, interleaved in one run on one core:
random-agent (and heuristic-agent) 4-player Deluxe games, each engine in its own process pinned
to CPU 0, slices taken in turn so that machine drift falls on both alike.

    .venv/bin/python benchmarks/compare_speed.py [--base b5539a9] [--rounds 6] [--seconds 4] [--games N]

The base commit's sources are exported with `git archive` into a temporary folder (nothing in the
repository changes). Agents before issue 14 took the game (`act(game, seat, legal)`), agents after
it an observation (`decide(agent, game, seat)`): the slice script uses whichever the tree has.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SLICE = r"""
import json, os, sys, time
os.sched_setaffinity(0, {0})
from munchkin.engine.game import Game, Options, Setup
from munchkin.agents.base import make_agent
try:
    from munchkin.agents.base import decide
except ImportError:
    decide = lambda agent, g, seat: agent.act(g, seat, g.legal_actions(seat))
agent, seconds, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
fixed = int(sys.argv[4]) if len(sys.argv) > 4 else 0  # play exactly these many games, however long
names = ["Ann", "Bob", "Cid", "Dee"]
decisions = games = turns = 0
t0 = time.process_time()
while (games < fixed) if fixed else (time.process_time() - t0 < seconds):
    s = seed + games
    g = Game(Setup(["deluxe"], names, s, Options(turn_cap=5000)))
    bots = [make_agent(agent, s * 7919 + i) for i in range(4)]
    while not g.over and (fixed or time.process_time() - t0 < seconds):
        seat = g.to_act[0]
        g.apply(decide(bots[seat], g, seat))
        decisions += 1
    games += 1
    turns += g.turn
print(json.dumps({"decisions": decisions, "turns": turns, "seconds": time.process_time() - t0}))
"""


def export(ref: str, into: Path) -> Path:
    """The sources of commit `ref`, unpacked under `into`."""
    tar = into / "src.tar"
    with open(tar, "wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", ref, "src"], stdout=out, check=True)
    with tarfile.open(tar) as t:
        t.extractall(into, filter="data")
    return into / "src"


def one_slice(src: Path, agent: str, seconds: float, seed: int, games: int = 0) -> tuple[float, float]:
    """Decisions and turns per CPU second of the engine in `src` over one slice (of `games` whole games, if
    given). Turns too, since a rule change can change what a decision is: since rules 6 the window before the
    next turn no longer asks a seat with only whims, so a turn holds fewer (and costlier) decisions."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, "-c", SLICE, agent, str(seconds), str(seed), str(games)],
        env=env,
        capture_output=True,
        text=True,
    )
    if out.returncode:
        raise SystemExit(f"the slice failed in {src}:\n{out.stderr[-2000:]}")
    r = json.loads(out.stdout)
    return float(r["decisions"] / r["seconds"]), float(r["turns"] / r["seconds"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="b5539a9", help="the commit to compare with (default: before issue 14)")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=4.0, help="CPU seconds per slice")
    ap.add_argument("--agents", default="random,heuristic")
    ap.add_argument(
        "--games",
        type=int,
        default=0,
        help="instead of timed slices, play the same N seeded games in every round and keep each engine's "
        "best round (steadier on a busy machine: the best round is the one least disturbed)",
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = export(args.base, Path(tmp))
        here = ROOT / "src"
        for agent in args.agents.split(","):
            rates: dict[str, list[float]] = {"base": [], "here": []}
            turns: dict[str, list[float]] = {"base": [], "here": []}
            for r in range(args.rounds):
                order = [("base", base), ("here", here)] if r % 2 == 0 else [("here", here), ("base", base)]
                for name, src in order:
                    seed = 1 if args.games else 1 + 100 * r
                    d, t = one_slice(src, agent, args.seconds, seed, args.games)
                    rates[name].append(d)
                    turns[name].append(t)
            pick = max if args.games else statistics.median
            for unit, got in (("decisions/s", rates), ("turns/s", turns)):
                b, h = pick(got["base"]), pick(got["here"])
                each = " | ".join(", ".join(f"{x:,.0f}" for x in got[k]) for k in ("base", "here"))
                print(f"{agent:9} {unit:11}  {args.base}: {b:8,.0f}  this tree: {h:8,.0f}  ratio {h / b:.3f}  ({each})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
