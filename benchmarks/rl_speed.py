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


def engine_rate(sets: list[str], players: int, seconds: float, seed: int) -> dict[str, Any]:
    """Random legal actions on the bare engine, game after game from `seed` on."""
    clock = time.process_time
    start = clock()
    decisions = games = 0
    s = seed
    while clock() - start < seconds:
        g = Game(Setup(list(sets), [f"player_{i}" for i in range(players)], s))
        rng = random.Random(s)
        while not g.over:
            seat = g.to_act[0]
            acts = g.legal_actions(seat)
            g.apply(acts[rng.randrange(len(acts))])
        decisions += g.decisions
        games += 1
        s += 1
    el = clock() - start
    return {"decisions": decisions, "games": games, "seconds": el, "decisions_per_second": decisions / el}


def env_rate(
    sets: list[str],
    players: int,
    seconds: float,
    seed: int,
    observe: bool = True,
    logs: list[Any] | None = None,
    numpy_choice: bool = False,
) -> dict[str, Any]:
    """Random masked indices through the AEC environment, game after game from `seed` on (`observe`:
    the observation built at every step, else the mask alone); each game's setup and actions are
    added to `logs` when given."""
    e = raw_env(sets=sets, players=players)
    clock = time.process_time
    start = clock()
    steps = decisions = games = 0
    s = seed
    while clock() - start < seconds:
        e.reset(seed=s)
        rng = np.random.default_rng(s)
        pick = random.Random(s)
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
            offered = np.flatnonzero(mask)
            e.step(int(rng.choice(offered)) if numpy_choice else int(offered[pick.randrange(len(offered))]))
            steps += 1
        g = e.game
        assert g is not None
        decisions += g.decisions
        games += 1
        s += 1
        if logs is not None:
            logs.append((g.setup, [x[1] for x in g.log if x[0] == "act"]))
    el = clock() - start
    return {
        "steps": steps,
        "decisions": decisions,
        "games": games,
        "seconds": el,
        "steps_per_second": steps / el,
        "decisions_per_second": decisions / el,
        "catalogue": e.catalogue.size,
    }


def replay_rate(logs: list[Any]) -> dict[str, Any]:
    """The env's games replayed on the bare engine (each seat's legal actions listed, then the action)."""
    clock = time.process_time
    start = clock()
    decisions = 0
    for setup, acts in logs:
        g = Game(setup)
        for a in acts:
            g.legal_actions(a.seat)
            g.apply(a)
        decisions += g.decisions
    el = clock() - start
    return {"decisions": decisions, "games": len(logs), "seconds": el, "decisions_per_second": decisions / el}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="deluxe", help="an edition or a mix joined by + (default deluxe)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=8.0, help="CPU seconds for each of the two (default 8)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="one JSON object on stdout")
    ap.add_argument("--numpy-choice", action="store_true", help="draw the env's index by numpy's Generator.choice")
    a = ap.parse_args()
    sets = a.sets.split("+")
    eng = engine_rate(sets, a.players, a.seconds, a.seed)
    env = env_rate(sets, a.players, a.seconds, a.seed, numpy_choice=a.numpy_choice)
    logs: list[Any] = []
    bare = env_rate(sets, a.players, a.seconds, a.seed, observe=False, logs=logs, numpy_choice=a.numpy_choice)
    rep = replay_rate(logs)
    out = {
        "sets": a.sets,
        "players": a.players,
        "engine": eng,
        "env": env,
        "env_mask_only": bare,
        "engine_on_env_games": rep,
        "ratio_steps": env["steps_per_second"] / eng["decisions_per_second"],
        "ratio_decisions": env["decisions_per_second"] / eng["decisions_per_second"],
        "ratio_steps_mask_only": bare["steps_per_second"] / eng["decisions_per_second"],
        "ratio_same_games": bare["decisions_per_second"] / rep["decisions_per_second"],
    }
    if a.json:
        print(json.dumps(out))
        return
    print(
        f"{a.sets}, {a.players} players, N = {env['catalogue']}\n"
        f"  engine: {eng['decisions_per_second']:,.0f} decisions/s ({eng['games']} games)\n"
        f"  env:    {env['steps_per_second']:,.0f} steps/s, {env['decisions_per_second']:,.0f} decisions/s "
        f"({env['games']} games, {env['steps'] / max(env['decisions'], 1):.2f} steps a decision)\n"
        f"  env, mask only: {bare['steps_per_second']:,.0f} steps/s, {bare['decisions_per_second']:,.0f} decisions/s\n"
        f"  engine replaying those games: {rep['decisions_per_second']:,.0f} decisions/s\n"
        f"  ratio env steps/s to engine decisions/s: {out['ratio_steps']:.2f} (mask only "
        f"{out['ratio_steps_mask_only']:.2f}); env decisions/s to engine decisions/s: {out['ratio_decisions']:.2f}; "
        f"on the same games (mask only): {out['ratio_same_games']:.2f}"
    )


if __name__ == "__main__":
    main()
