"""The worked example of docs/rl.md (issue 36): sb3-contrib's MaskablePPO learns one seat of Munchkin.

One learner seat (drawn per episode) of a 4-player Deluxe game, first against three `random` bots,
then, continuing the same policy, against three `heuristic` bots. Every --eval-every timesteps the
current policy plays --eval-games seeded evaluation games against each kind of bot (the same seeds at
every evaluation, the learner's seat cycling over the four); its wins go to a CSV of the learning
curve with Wilson 95% intervals, and a PNG plots the win rate against par (1/4).

Not run in CI. Needs the `rl-train` extra (sb3-contrib, torch); see docs/rl.md, "Worked example".

    python examples/train_maskable_ppo.py --minutes 40 --eval-every 100000 --eval-games 80 --final-games 200 \
        --seed 0 --out runs/ppo
"""

from __future__ import annotations

import argparse
import csv
import math
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import DummyVecEnv

from munchkin.rl.single import MunchkinSingle

PLAYERS = 4
PAR = 1 / PLAYERS
OPPONENTS = ("random", "heuristic")
EVAL_SEED = 1_000_000  # evaluation games are dealt from seeds EVAL_SEED + i, never seen in training


class Flat(gym.ObservationWrapper[np.ndarray, np.int64, dict[str, np.ndarray]]):
    """The vector alone as the observation (the mask goes to MaskablePPO through `action_masks`), and
    a cap on the learner's steps in one game (truncated), so a policy that stalls cannot stall a run."""

    def __init__(self, env: MunchkinSingle, max_steps: int) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]  # type: ignore[index]
        self.max_steps = max_steps
        self.steps = 0
        self.mask = np.zeros(env.action_space.n, dtype=bool)  # type: ignore[attr-defined]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        self.mask = observation["action_mask"].astype(bool)  # kept: MunchkinSingle.action_masks encodes anew
        return observation["observation"]

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        self.steps = 0
        return super().reset(**kwargs)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = super().step(action)
        self.steps += 1
        if not (terminated or truncated) and self.steps >= self.max_steps:
            truncated = True
            info = {**info, "step_cap": True}
        return obs, float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The mask of the last observation: the same as MunchkinSingle.action_masks(), without
        building the whole observation again."""
        return self.mask


class Shared(BaseFeaturesExtractor):
    """One layer shared by the policy and the value heads: the observation is some 5,000 mostly-zero
    features, and its first layer is most of the network's cost, so it is computed once."""

    def __init__(self, observation_space: gym.spaces.Box, features_dim: int = 128) -> None:
        super().__init__(observation_space, features_dim)
        self.net = torch.nn.Sequential(torch.nn.Linear(observation_space.shape[0], features_dim), torch.nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.net(observations)


def make_env(opponent: str, seat: int | None, args: argparse.Namespace) -> Flat:
    """One learner seat (None: drawn each episode) against three bots of one kind."""
    single = MunchkinSingle(
        sets=args.sets,
        players=PLAYERS,
        opponents=opponent,
        seat=seat,
        options={"turn_cap": args.turn_cap},
        reward=args.reward,
    )
    return Flat(single, args.max_steps)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(model: MaskablePPO, opponent: str, games: int, args: argparse.Namespace) -> dict[str, Any]:
    """The policy plays `games` seeded games against three `opponent` bots, its seat cycling; it
    samples its moves from the masked policy (deterministic=False) with a fixed torch seed, so an
    evaluation is repeatable. Returns the wins and how many games hit the caps."""
    envs = [make_env(opponent, seat, args) for seat in range(PLAYERS)]
    wins = capped = 0
    torch.manual_seed(args.seed)
    for i in range(games):
        env = envs[i % PLAYERS]
        obs, _ = env.reset(seed=EVAL_SEED + i)
        while True:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=args.deterministic)
            obs, reward, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                game = env.unwrapped.env.game  # type: ignore[attr-defined]
                wins += int(env.unwrapped.seat in game.winners) if game.over else 0  # type: ignore[attr-defined]
                capped += int(truncated)
                break
    for env in envs:
        env.close()
    return {"wins": wins, "capped": capped}


class Curve(BaseCallback):
    """Evaluates every --eval-every timesteps, and stops the phase in time for its closing evaluation
    (--final-games) to end by the phase's deadline."""

    def __init__(self, args: argparse.Namespace, rows: list[dict[str, Any]], t0: float) -> None:
        super().__init__()
        self.args = args
        self.rows = rows
        self.t0 = t0
        self.deadline = 0.0
        self.phase = ""
        self.next_eval = 0
        self.per_game: dict[str, float] = {}

    def run_eval(self, games: int | None = None) -> None:
        games = games or self.args.eval_games
        for opponent in OPPONENTS:
            t = time.time()
            r = evaluate(self.model, opponent, games, self.args)  # type: ignore[arg-type]
            self.per_game[opponent] = (time.time() - t) / games
            lo, hi = wilson(r["wins"], games)
            row = {
                "timesteps": self.num_timesteps,
                "phase": self.phase,
                "minutes": round((time.time() - self.t0) / 60, 2),
                "opponent": opponent,
                "games": games,
                "wins": r["wins"],
                "win_rate": round(r["wins"] / games, 4),
                "wilson_low": round(lo, 4),
                "wilson_high": round(hi, 4),
                "capped": r["capped"],
            }
            self.rows.append(row)
            print(
                f"[{row['minutes']:6.2f} min] t={self.num_timesteps:>8} phase={self.phase:<9} vs {opponent:<9} "
                f"{r['wins']:>3}/{games} = {row['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] "
                f"capped {r['capped']} ({time.time() - t:.0f} s)",
                flush=True,
            )
        write_csv(self.rows, self.args.out / "learning-curve.csv")

    def reserve(self) -> float:
        """Seconds the phase's closing evaluation should take, from the last evaluation's pace."""
        return sum(self.per_game.values()) * self.args.final_games * 1.1

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_eval:
            self.run_eval()
            self.next_eval = self.num_timesteps + self.args.eval_every
        return time.time() + self.reserve() < self.deadline


def write_csv(rows: list[dict[str, Any]], path: Path) -> None:
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def plot(rows: list[dict[str, Any]], switch: int | None, path: Path, title: str) -> None:
    """Win rate with its Wilson band against timesteps, one line per opponent kind, par drawn."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    for opponent, colour in zip(OPPONENTS, ("tab:blue", "tab:red")):
        rs = [r for r in rows if r["opponent"] == opponent]
        x = [r["timesteps"] for r in rs]
        ax.plot(x, [r["win_rate"] for r in rs], marker="o", ms=3, color=colour, label=f"vs 3 {opponent} bots")
        ax.fill_between(x, [r["wilson_low"] for r in rs], [r["wilson_high"] for r in rs], color=colour, alpha=0.2)
    ax.axhline(PAR, color="grey", ls="--", lw=1, label="par (1/4)")
    if switch is not None:
        ax.axvline(switch, color="black", ls=":", lw=1, label="training switches to heuristic bots")
    ax.set_xlabel("learner timesteps (sub-choices)")
    ax.set_ylabel("evaluation win rate (Wilson 95%)")
    ax.set_ylim(0, max(0.6, max(r["wilson_high"] for r in rows) + 0.05))
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8, loc="upper left")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=40.0, help="wall budget of the run, evaluations included")
    p.add_argument("--random-share", type=float, default=0.5, help="share of the budget spent against random bots")
    p.add_argument("--eval-every", type=int, default=20_000, help="timesteps between evaluations")
    p.add_argument("--eval-games", type=int, default=100, help="evaluation games per opponent kind")
    p.add_argument("--final-games", type=int, default=200, help="evaluation games per kind at each phase's end")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("runs/maskable-ppo"))
    p.add_argument("--sets", default="deluxe")
    p.add_argument("--n-envs", type=int, default=8, help="games played side by side (in one process)")
    p.add_argument("--turn-cap", type=int, default=300, help="game turns before a game is truncated")
    p.add_argument("--max-steps", type=int, default=3000, help="learner steps before a game is truncated")
    p.add_argument("--reward", default="rank", choices=("win", "rank"), help="training reward (see docs/rl.md)")
    p.add_argument("--deterministic", action="store_true", help="evaluate the policy's argmax, not samples")
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    torch.set_num_threads(1)
    t0 = time.time()
    rows: list[dict[str, Any]] = []
    curve = Curve(args, rows, t0)
    budget = args.minutes * 60
    model: MaskablePPO | None = None
    switch: int | None = None
    for k, opponent in enumerate(OPPONENTS):
        vec = DummyVecEnv(
            [
                (lambda opponent=opponent: Monitor(make_env(opponent, None, args)))  # type: ignore[misc]
                for _ in range(args.n_envs)
            ]
        )
        vec.seed(args.seed + 1000 * k)
        if model is None:
            model = MaskablePPO(
                "MlpPolicy",
                vec,
                n_steps=2048 // args.n_envs,
                batch_size=256,
                n_epochs=4,
                learning_rate=3e-4,
                gamma=0.999,
                gae_lambda=0.95,
                ent_coef=0.01,
                policy_kwargs={"features_extractor_class": Shared, "net_arch": {"pi": [64], "vf": [64]}},
                seed=args.seed,
                device="cpu",
                verbose=0,
            )
        else:
            switch = model.num_timesteps
            model.set_env(vec)
        curve.phase = opponent
        share = args.random_share if k == 0 else 1.0
        curve.deadline = t0 + budget * share
        model.learn(total_timesteps=10**9, callback=curve, reset_num_timesteps=False)
        print(f"phase vs {opponent} ended at {model.num_timesteps} timesteps, {(time.time() - t0) / 60:.1f} min")
        curve.run_eval(args.final_games)  # the phase's last point, on more games
        curve.next_eval = model.num_timesteps + args.eval_every
    assert model is not None
    model.save(args.out / "model.zip")
    write_csv(rows, args.out / "learning-curve.csv")
    how = "argmax" if args.deterministic else "sampled"
    title = (
        f"MaskablePPO, one seat of {args.sets} 4 players, {args.minutes:g} min on 2 shared cores\n"
        f"{args.eval_games} eval games per point, {args.final_games} at phase ends ({how} moves)"
    )
    plot(rows, switch, args.out / "learning-curve.png", title)
    print(f"done in {(time.time() - t0) / 60:.1f} min; wrote {args.out}")


if __name__ == "__main__":
    main()
