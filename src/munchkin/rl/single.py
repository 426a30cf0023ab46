"""A Gymnasium single-agent wrapper (issue 36): one learner seat plays through the action catalogue
against bots (`random`, `heuristic`, or any agent spec of `munchkin.agents.registry`), who act on the
engine directly between the learner's moves. See docs/rl.md."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from munchkin.agents.base import Agent, decide
from munchkin.agents.registry import check_spec, make_agent
from munchkin.engine.game import Options
from munchkin.rl.env import raw_env

ILLEGAL = ("end", "raise")


class MunchkinSingle(gym.Env[dict[str, np.ndarray], np.int64]):
    """The learner is `seat` (None: a seat drawn at each reset, from the episode's seed); the other
    seats are played by `opponents` (one spec, or a list cycled over the other seats in order). An
    index the mask does not offer: with `illegal="end"` the episode ends with `illegal_reward` (info
    "illegal": True), with `illegal="raise"` a ValueError. Rewards as the AEC environment's
    (`reward`: "win" or "rank"), given when the game ends."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        sets: str | Sequence[str] = "deluxe",
        players: int = 4,
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        options: Options | dict[str, Any] | None = None,
        reward: str = "win",
        any_time: bool = True,
        illegal: str = "end",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        specs = [opponents] if isinstance(opponents, str) else list(opponents)
        if not specs:
            raise ValueError("opponents is empty: name an agent (random, heuristic, ...) for the other seats")
        for s in specs:
            why = check_spec(s)
            if why is not None:
                raise ValueError(f"opponents: {why}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        self.env = raw_env(
            sets=sets,
            players=players,
            options=options,
            reward=reward,
            any_time=any_time,
            render_mode="ansi" if render_mode == "ansi" else None,
        )
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < players):
            raise ValueError(f"seat must be 0 to {players - 1} or None (drawn each game), not {seat!r}")
        self.fixed_seat = seat
        self.seat = seat or 0
        self.agent = self.env.possible_agents[self.seat]
        self.specs = specs
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = self.env.observation_space(self.agent)  # type: ignore[assignment]
        self.action_space = self.env.action_space(self.agent)  # type: ignore[assignment]
        self.bots: dict[int, Agent] = {}
        self._ended = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**31))
        if self.fixed_seat is None:  # every seat has the same spaces: only which one plays changes
            self.seat = int(self.np_random.integers(self.env.n_players))
            self.agent = self.env.possible_agents[self.seat]
        for _ in range(100):  # a game the bots end before the learner has a choice is dealt again, seed + 1
            self.env.reset(seed=game_seed)
            others = [s for s in range(self.env.n_players) if s != self.seat]
            self.bots = {
                s: make_agent(self.specs[k % len(self.specs)], game_seed * 7919 + s) for k, s in enumerate(others)
            }
            self._play_bots()
            assert self.env.game is not None
            if not self.env.game.over:
                break
            game_seed += 1
        self._ended = False
        return self.env.observe(self.agent), {"seed": game_seed, "seat": self.seat}

    def _play_bots(self) -> None:
        """The bots move until the game waits on the learner with a choice, or ends."""
        env = self.env
        g = env.game
        assert g is not None
        while not g.over and env.seat != self.seat:
            seat = env.seat
            env.apply_action(decide(self.bots[seat], g, seat, env.legal(seat)))

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        env = self.env
        if self._ended or env.game is None:
            raise RuntimeError("the episode has ended: call reset() first")
        i = int(action)
        chooser = env.chooser
        assert chooser is not None
        if not 0 <= i < env.catalogue.size or i not in chooser.offered():
            if self.illegal == "raise":
                chooser.choose(i)  # raises, naming what is offered
            self._ended = True
            return env.observe(self.agent), self.illegal_reward, True, False, {"illegal": True}
        env.step(i)
        self._play_bots()
        g = env.game
        if g.over:
            self._ended = True
            r = env.final_rewards()[self.seat]
            return env.observe(self.agent), r, not g.capped, g.capped, {"winners": list(g.winners)}
        return env.observe(self.agent), 0.0, False, False, {}

    def action_masks(self) -> np.ndarray:
        """The mask of the indices offered now (as sb3-contrib's MaskablePPO asks for it)."""
        return self.env.action_mask(self.agent).astype(bool)  # the mask alone: no observation built again

    def render(self) -> str | None:  # type: ignore[override]
        if self.render_mode != "ansi":
            return None
        return self.env.render()

    def close(self) -> None:
        self.env.close()


__all__ = ["MunchkinSingle"]
