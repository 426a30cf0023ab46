"""Speed of the engine on one core: 4-player Deluxe games and decisions per second,
random and heuristic agents, with RLCard's bare UNO engine measured in the same run."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from munchkin.agents.base import make_agent  # noqa: E402
from munchkin.engine.game import Game, Options, Setup  # noqa: E402

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def munchkin_speed(agent: str, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Play whole games until `seconds` pass; a decision is one agent call that applies an action."""
    games = decisions = 0
    t0 = time.process_time()
    deadline = t0 + seconds
    s = seed
    while time.process_time() < deadline:
        g = Game(Setup(["deluxe"], NAMES, s, Options(turn_cap=5000)))
        bots = [make_agent(agent, s * 7919 + i) for i in range(4)]
        while not g.over:
            seat = g.to_act[0]
            g.apply(bots[seat].act(g, seat, g.legal_actions(seat)))
        decisions += g.decisions
        games += 1
        s += 1
    elapsed = time.process_time() - t0
    return {
        "agent": agent,
        "games": games,
        "decisions": decisions,
        "seconds": elapsed,
        "games_per_second": games / elapsed,
        "decisions_per_second": decisions / elapsed,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=10.0)
    args = ap.parse_args()
    out: dict[str, Any] = {"random": munchkin_speed("random", args.seconds)}
    try:
        out["heuristic"] = munchkin_speed("heuristic", args.seconds)
    except ImportError as exc:
        out["heuristic"] = {"error": str(exc)}
    try:
        from rlcard_uno import uno_steps_per_second

        uno = uno_steps_per_second(args.seconds)
        out["rlcard_uno"] = uno
        out["ratio_random_vs_uno"] = out["random"]["decisions_per_second"] / uno["steps_per_second"]
    except RuntimeError as exc:
        out["rlcard_uno"] = {"error": str(exc)}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
