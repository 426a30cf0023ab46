"""Speed of the engine on one core: 4-player games (Deluxe, or --set star, good-bad, star,deluxe, ...) and
decisions per second, random and heuristic agents, with RLCard's bare UNO engine measured in
the same run."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from munchkin.agents.base import decide, make_agent  # noqa: E402
from munchkin.engine.game import Game, Options, Setup  # noqa: E402

NAMES = ["Ann", "Bob", "Cid", "Dee"]


class MunchkinRunner:
    """Plays whole games back to back; `run(seconds)` resumes where the last slice stopped.
    A decision is one agent call that applies an action (forced moves are not counted)."""

    def __init__(self, agent: str, seed: int = 0, sets: tuple[str, ...] = ("deluxe",)) -> None:
        self.agent, self.seed, self.sets = agent, seed, sets
        self.games = self.decisions = 0
        self.seconds = 0.0
        self._new_game()

    def _new_game(self) -> None:
        s = self.seed + self.games
        self.g = Game(Setup(list(self.sets), NAMES, s, Options(turn_cap=5000)))
        self.bots = [make_agent(self.agent, s * 7919 + i) for i in range(4)]

    def run(self, seconds: float) -> None:
        t0 = time.process_time()
        deadline = t0 + seconds
        while time.process_time() < deadline:
            g = self.g
            for _ in range(200):
                if g.over:
                    break
                seat = g.to_act[0]
                g.apply(decide(self.bots[seat], g, seat, g.legal_actions(seat)))
                self.decisions += 1
            if g.over:
                self.games += 1
                self._new_game()
        self.seconds += time.process_time() - t0

    def summary(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "games": self.games,
            "decisions": self.decisions,
            "seconds": self.seconds,
            "games_per_second": self.games / self.seconds,
            "decisions_per_second": self.decisions / self.seconds,
        }


EVERY_SET = ("deluxe", "star", "good-bad", "harry-potter", "star,deluxe", "good-bad,deluxe", "harry-potter,deluxe")


def table(seconds: float) -> None:
    """A Markdown table: for each edition and mix, random and heuristic agents' decisions and games
    per second (`seconds` of CPU each), then where the time of random Deluxe play goes."""
    print("| sets | random decisions/s | random games/s | heuristic decisions/s | heuristic games/s |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for spec in EVERY_SET:
        sets = tuple(spec.split(","))
        rnd, heu = MunchkinRunner("random", sets=sets), MunchkinRunner("heuristic", sets=sets)
        for _ in range(4):  # interleaved slices
            rnd.run(seconds / 4)
            heu.run(seconds / 4)
        r, h = rnd.summary(), heu.summary()
        print(
            f"| {spec.replace(',', ' + ')} | {r['decisions_per_second']:,.0f} | {r['games_per_second']:.1f} "
            f"| {h['decisions_per_second']:,.0f} | {h['games_per_second']:.1f} |"
        )
    import cProfile
    import pstats

    runner = MunchkinRunner("random")
    prof = cProfile.Profile()
    prof.runcall(runner.run, seconds)
    print(f"\nwhere the time goes: random agents, Deluxe, {runner.decisions:,} decisions under cProfile")
    pstats.Stats(prof).sort_stats("tottime").print_stats(15)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per engine, in all")
    ap.add_argument("--rounds", type=int, default=10, help="interleaved slices (cancels machine drift)")
    ap.add_argument("--set", default="deluxe", help="card set(s), comma-separated")
    ap.add_argument(
        "--table", action="store_true", help="every edition and mix, --seconds each: a Markdown table, then a profile"
    )
    args = ap.parse_args()
    if args.table:
        table(args.seconds)
        return
    slice_s = args.seconds / args.rounds
    sets = tuple(x.strip() for x in args.set.split(",") if x.strip())
    rnd, heu = MunchkinRunner("random", sets=sets), MunchkinRunner("heuristic", sets=sets)
    out: dict[str, Any] = {"sets": list(sets)}
    try:
        from rlcard_uno import uno_steps_per_second
    except ImportError:  # pragma: no cover - the file sits beside this one
        uno_steps_per_second = None
    uno_steps = 0
    uno_seconds = 0.0
    ratios: list[float] = []
    for r in range(args.rounds):
        d0, s0 = rnd.decisions, rnd.seconds
        rnd.run(slice_s)
        mine = (rnd.decisions - d0) / (rnd.seconds - s0)
        heu.run(slice_s)
        if uno_steps_per_second is not None:
            try:
                u = uno_steps_per_second(slice_s, seed=r)
            except RuntimeError as exc:
                out["rlcard_uno"] = {"error": str(exc)}
                uno_steps_per_second = None
                continue
            uno_steps += u["steps"]
            uno_seconds += u["seconds"]
            ratios.append(mine / u["steps_per_second"])
    out["random"] = rnd.summary()
    out["heuristic"] = heu.summary()
    if uno_seconds:
        out["rlcard_uno"] = {"steps": uno_steps, "seconds": uno_seconds, "steps_per_second": uno_steps / uno_seconds}
        out["ratio_random_vs_uno"] = out["random"]["decisions_per_second"] / out["rlcard_uno"]["steps_per_second"]
        out["ratio_per_round"] = {"median": statistics.median(ratios), "min": min(ratios), "max": max(ratios)}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
