"""How strong the search bot is: 4-player games, one search bot against three heuristic bots, the
search bot's seat moved round the table game by game (game k: seat k mod 4), on every core.

    .venv/bin/python benchmarks/search_strength.py [--agent search] [--games 2000] [--sets deluxe]
        [--first 0] [--workers N] [--json out.json]
    .venv/bin/python benchmarks/search_strength.py --curve search:2,search:fast,search,search:strong --games 300

Prints, per edition, the search seat's win rate with its Wilson 95% interval (par is a quarter),
the think time per searched decision (median and 95th percentile, on one core: each game runs in one
process), the searched decisions a game and how often the search left the heuristic's choice. With
`--curve`, one line per agent spec: the win rate against the budget. Game seeds are `first` on, so
two runs on the same seeds compare paired deals.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from munchkin.agents.base import Agent, decide, interjection, make_agent
from munchkin.agents.search import SearchAgent
from munchkin.balance.stats import wilson
from munchkin.engine.game import Game, Options, Setup

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def play(job: tuple[str, list[str], int]) -> dict[str, Any]:
    """One game of `spec` in seat `seed % 4` against heuristic bots: who won, its thinking."""
    spec, sets, seed = job
    me = seed % len(NAMES)
    g = Game(Setup(sets, NAMES, seed, Options(turn_cap=400)))
    bots: dict[int, Agent] = {
        s: make_agent(spec if s == me else "heuristic", seed * 7919 + s) for s in range(len(NAMES))
    }
    while not g.over:
        a = interjection(g, bots)
        if a is None:
            s = g.to_act[0]
            a = decide(bots[s], g, s)
        g.apply(a)
    bot = bots[me]
    thoughts = bot.thoughts if isinstance(bot, SearchAgent) else []
    return {
        "seed": seed,
        "won": me in g.winners,
        "capped": not g.winners,
        "turns": g.turn,
        "think": [t.seconds for t in thoughts],
        "moved": sum(t.chosen != t.candidates[0] for t in thoughts),
    }


def run(spec: str, sets: list[str], games: int, first: int, workers: int) -> dict[str, Any]:
    """`games` games of `spec` in `sets`, and what they show."""
    start = time.perf_counter()
    jobs = [(spec, sets, seed) for seed in range(first, first + games)]
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(play, jobs, chunksize=4))
    wins = sum(r["won"] for r in results)
    think = sorted(t for r in results for t in r["think"])
    lo, hi = wilson(wins, games)
    return {
        "agent": spec,
        "sets": sets,
        "games": games,
        "first_seed": first,
        "wins": wins,
        "win_rate": wins / games,
        "wilson95": [lo, hi],
        "capped": sum(r["capped"] for r in results),
        "searched_per_game": len(think) / games,
        "moved_per_game": sum(r["moved"] for r in results) / games,
        "think_median_s": statistics.median(think) if think else 0.0,
        "think_p95_s": think[int(0.95 * (len(think) - 1))] if think else 0.0,
        "think_max_s": think[-1] if think else 0.0,
        "wall_s": time.perf_counter() - start,
        "workers": workers,
    }


def line(r: dict[str, Any]) -> str:
    lo, hi = r["wilson95"]
    return (
        f"{r['agent']:<16} {'+'.join(r['sets']):<14} {r['games']:>5} games  wins {r['wins']:>4} "
        f"= {100 * r['win_rate']:.1f}% (95% {100 * lo:.1f}-{100 * hi:.1f})  "
        f"think median {1000 * r['think_median_s']:.0f} ms, p95 {1000 * r['think_p95_s']:.0f} ms  "
        f"searched {r['searched_per_game']:.0f}/game, moved {r['moved_per_game']:.1f}/game  "
        f"capped {r['capped']}  {r['wall_s']:.0f} s"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", default="search", help="the agent spec in the rotating seat")
    ap.add_argument("--curve", default="", help="comma-separated agent specs: one run each (a budget curve)")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--sets", default="deluxe", help="editions, each alone: deluxe,star,good-bad,harry-potter")
    ap.add_argument("--first", type=int, default=0, help="the first game's seed")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", default="", help="also write the results here")
    args = ap.parse_args()
    specs = [s for s in args.curve.split(",") if s] or [args.agent]
    out = []
    for spec in specs:
        for edition in args.sets.split(","):
            r = run(spec, edition.split("+"), args.games, args.first, args.workers)
            print(line(r), flush=True)
            out.append(r)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    sys.exit(0)


if __name__ == "__main__":
    main()
