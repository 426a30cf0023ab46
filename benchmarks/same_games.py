"""Do seeded bot games play exactly as they did at another commit? Proof that a speed change changed
no game: every edition and mix, 3 to 6 players, random, heuristic and mixed agents (as the golden
games seat them), played under today's rules by this tree and by commit REF, each game compared by the
legal actions offered at every decision (a running digest) and its final whole-state digest
(`Game.state_digest`: the log, the events, the flow, the chance, every player).

    .venv/bin/python benchmarks/same_games.py --base HEAD [--games 10] [--sets deluxe,star+deluxe]

The base commit's sources are exported with `git archive` into a temporary folder (nothing in the
repository changes); each tree plays in its own process. Exit status 1 when any game differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from compare_speed import export  # the sources of a commit, unpacked

ROOT = Path(__file__).resolve().parent.parent
BATCHES = ["deluxe", "star", "good-bad", "harry-potter", "star+deluxe", "good-bad+deluxe", "harry-potter+deluxe"]
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def play(batch: str, seed: int) -> dict[str, Any]:
    """One seeded game of `batch` as the golden games seat it (players, agents and Faster Play options
    varied by seed), played to its end: its decisions, the digest of every list offered, the final digest."""
    from munchkin.agents.base import decide, interjection, make_agent
    from munchkin.engine.game import Game, Options, Setup

    players = 3 + seed % 4
    agents = [["random"], ["heuristic"], ["random", "heuristic"], ["heuristic", "random"]][seed // 4 % 4]
    opts = Options(listen_at_the_door=seed % 2 == 0, shared_victories=seed % 3 == 0, turn_cap=5000)
    g = Game(Setup(batch.split("+"), NAMES[:players], seed, opts))
    bots = [make_agent(agents[i % len(agents)], seed * 7919 + i) for i in range(players)]
    by_seat = {i: b for i, b in enumerate(bots) if hasattr(b, "interject")}
    offered = hashlib.sha256()
    decisions = 0
    while not g.over:
        a = interjection(g, by_seat) if by_seat else None  # as `simulate` plays: any-time moves first
        if a is None:
            seat = g.to_act[0]
            a = decide(bots[seat], g, seat, g.legal_actions(seat))
        offered.update(repr(g.legal_actions(a.seat)).encode())
        g.apply(a)
        decisions += 1
    return {
        "batch": batch,
        "seed": seed,
        "decisions": decisions,
        "offered": offered.hexdigest()[:16],
        "state": g.state_digest(),
    }


def run_tree(src: Path, batches: list[str], games: int) -> list[dict[str, Any]]:
    """Every game of `batches` (seeds 1..games) played by the engine in `src`, in a process of its own."""
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    args = [sys.executable, __file__, "--play", ",".join(batches), "--games", str(games)]
    out = subprocess.run(args, env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"the games failed in {src}:\n{out.stderr[-2000:]}")
    return [json.loads(line) for line in out.stdout.splitlines()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="HEAD", help="the commit to compare with (default: HEAD, the last commit)")
    ap.add_argument("--games", type=int, default=10, help="seeds 1..N of each edition and mix")
    ap.add_argument("--sets", default=",".join(BATCHES), help="editions and mixes, comma-separated")
    ap.add_argument("--play", help=argparse.SUPPRESS)  # internal: play these batches here and print each game
    args = ap.parse_args()
    if args.play:
        for batch in args.play.split(","):
            for seed in range(1, args.games + 1):
                print(json.dumps(play(batch, seed)), flush=True)
        return 0
    batches = args.sets.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        base = run_tree(export(args.base, Path(tmp)), batches, args.games)
    here = run_tree(ROOT / "src", batches, args.games)
    differ = [(b, h) for b, h in zip(base, here) if b != h]
    for batch in batches:
        mine = [h for h in here if h["batch"] == batch]
        print(f"{batch:20} {len(mine):3} games {sum(h['decisions'] for h in mine):7,} decisions", end="  ")
        print("same" if not [d for d in differ if d[0]["batch"] == batch] else "DIFFER")
    for b, h in differ[:10]:
        print(f"differs: {b} != {h}")
    total = sum(h["decisions"] for h in here)
    print(f"{len(here)} games, {total:,} decisions: {len(differ)} differ from {args.base}")
    return 1 if differ or len(base) != len(here) else 0


if __name__ == "__main__":
    sys.exit(main())
