"""The RL environment's speed (issue 36) beside the raw engine's, on one core (CPU time), same seeds.

- engine: `Game` driven with uniformly random legal actions of `to_act[0]` (`legal_actions`, `apply`);
  decisions per second (every action applied by the loop; moves the engine takes alone not counted).
- env: `munchkin.rl.env.raw_env` driven with uniformly random masked indices through `agent_iter` and
  `last()` (so each step builds its observation, as a learner's loop does); steps per second (each
  sub-choice index is a step), and the engine decisions per second those steps made. The index is
  drawn by Python's `random` among the mask's nonzero ones, as the engine loop draws its action
  (`--numpy-choice`: by numpy's `Generator.choice`, which costs some 10 µs more a step).
- env, mask only: the same with `last(observe=False)` and `action_mask(agent)`: the environment's own
  cost (the catalogue, the trie, the mask) without the encoder's.
- engine on the env's games: the env's games (random over indices, not over actions, so they differ from
  the engine's random games) replayed action by action on the bare engine, listing each seat's legal
  actions as the engine loop does: what the engine alone spends on the very decisions the env made.

The four loops take turns game by game, each on the same seed, until each has had `--seconds` of CPU
time: a machine whose speed drifts (a shared one does, by a tenth or more within a minute) slows
them alike, and the ratios hold where rates measured one after another would not.

    .venv/bin/python benchmarks/rl_speed.py --seconds 10 --sets deluxe
    .venv/bin/python benchmarks/rl_speed.py --sets star+deluxe --json
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np

from munchkin.engine.game import Game, Setup
from munchkin.rl.env import raw_env


def engine_game(sets: list[str], players: int, seed: int) -> int:
    """One game of random legal actions on the bare engine; its decisions."""
    g = Game(Setup(list(sets), [f"player_{i}" for i in range(players)], seed))
    rng = random.Random(seed)
    while not g.over:
        seat = g.to_act[0]
        acts = g.legal_actions(seat)
        g.apply(acts[rng.randrange(len(acts))])
    return g.decisions


def env_game(e: raw_env, seed: int, observe: bool = True, numpy_choice: bool = False) -> tuple[int, Game]:
    """One game of random masked indices through the AEC environment (`observe`: the observation
    built at every step, else the mask alone); its steps and the game."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    steps = 0
    for agent in e.agent_iter():
        if observe:
            obs, _, term, trunc, _ = e.last()
            mask = obs["action_mask"] if not (term or trunc) else None
        else:
            _, _, term, trunc, _ = e.last(observe=False)
            mask = e.action_mask(agent)
        if term or trunc:
            e.step(None)
            continue
        offered = mask.nonzero()[0]
        e.step(int(rng.choice(offered)) if numpy_choice else int(offered[pick.randrange(len(offered))]))
        steps += 1
    assert e.game is not None
    return steps, e.game


def replay_game(setup: Setup, acts: list[Any]) -> int:
    """A game replayed on the bare engine (each seat's legal actions listed, then the action); its decisions."""
    g = Game(setup)
    for a in acts:
        g.legal_actions(a.seat)
        g.apply(a)
    return g.decisions


def measure(sets: list[str], players: int, seconds: float, seed: int, numpy_choice: bool = False) -> dict[str, Any]:
    """The four loops interleaved game by game (seed after seed, each loop on the same seed), so that a
    machine whose speed drifts slows them alike; CPU time of each, until each has had `seconds`."""
    clock = time.process_time
    obs_env = raw_env(sets=sets, players=players)
    bare_env = raw_env(sets=sets, players=players)
    t = dict.fromkeys(("engine", "env", "mask", "replay"), 0.0)
    n = dict.fromkeys(("engine", "env_steps", "env_decisions", "mask_steps", "mask_decisions", "replay"), 0)
    games = 0
    s = seed
    while min(t.values()) < seconds:
        t0 = clock()
        n["engine"] += engine_game(sets, players, s)
        t1 = clock()
        steps, g = env_game(obs_env, s, True, numpy_choice)
        t2 = clock()
        n["env_steps"] += steps
        n["env_decisions"] += g.decisions
        steps, g = env_game(bare_env, s, False, numpy_choice)
        t3 = clock()
        n["mask_steps"] += steps
        n["mask_decisions"] += g.decisions
        setup, acts = g.setup, [x[1] for x in g.log if x[0] == "act"]
        t4 = clock()
        n["replay"] += replay_game(setup, acts)
        t5 = clock()
        t["engine"] += t1 - t0
        t["env"] += t2 - t1
        t["mask"] += t3 - t2
        t["replay"] += t5 - t4
        games += 1
        s += 1

    def rate(key: str, clock_key: str) -> float:
        return n[key] / t[clock_key]

    return {
        "games": games,
        "catalogue": obs_env.catalogue.size,
        "seconds": t,
        "counts": n,
        "engine_decisions_per_second": rate("engine", "engine"),
        "env_steps_per_second": rate("env_steps", "env"),
        "env_decisions_per_second": rate("env_decisions", "env"),
        "mask_steps_per_second": rate("mask_steps", "mask"),
        "mask_decisions_per_second": rate("mask_decisions", "mask"),
        "replay_decisions_per_second": rate("replay", "replay"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="deluxe", help="an edition or a mix joined by + (default deluxe)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=8.0, help="CPU seconds for each of the four loops (default 8)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="one JSON object on stdout")
    ap.add_argument("--numpy-choice", action="store_true", help="draw the env's index by numpy's Generator.choice")
    a = ap.parse_args()
    sets = a.sets.split("+")
    m = measure(sets, a.players, a.seconds, a.seed, a.numpy_choice)
    eng, replay = m["engine_decisions_per_second"], m["replay_decisions_per_second"]
    out = {
        "sets": a.sets,
        "players": a.players,
        **m,
        "ratio_steps": m["env_steps_per_second"] / eng,
        "ratio_decisions": m["env_decisions_per_second"] / eng,
        "ratio_steps_mask_only": m["mask_steps_per_second"] / eng,
        "ratio_steps_same_games": m["env_steps_per_second"] / replay,
        "ratio_same_games": m["mask_decisions_per_second"] / replay,
    }
    if a.json:
        print(json.dumps(out))
        return
    n = m["counts"]
    print(
        f"{a.sets}, {a.players} players, N = {m['catalogue']}, {m['games']} games of each loop, interleaved\n"
        f"  engine: {eng:,.0f} decisions/s\n"
        f"  env:    {m['env_steps_per_second']:,.0f} steps/s, {m['env_decisions_per_second']:,.0f} decisions/s "
        f"({n['env_steps'] / max(n['env_decisions'], 1):.2f} steps a decision)\n"
        f"  env, mask only: {m['mask_steps_per_second']:,.0f} steps/s, "
        f"{m['mask_decisions_per_second']:,.0f} decisions/s\n"
        f"  engine replaying the env's games: {replay:,.0f} decisions/s\n"
        f"  ratio env steps/s to engine decisions/s: {out['ratio_steps']:.2f} (mask only "
        f"{out['ratio_steps_mask_only']:.2f}); to the engine on the env's games: {out['ratio_steps_same_games']:.2f}; "
        f"env decisions/s to engine decisions/s: {out['ratio_decisions']:.2f}; "
        f"on the same games (mask only): {out['ratio_same_games']:.2f}"
    )


if __name__ == "__main__":
    main()
