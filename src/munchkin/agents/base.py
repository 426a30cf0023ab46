"""The agent interface, the registry of agents by name, and `decide`, which asks an agent for its
seat's action through an observation (never the game itself)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from munchkin.agents.observation import Observation, observe
from munchkin.engine.actions import Action

if TYPE_CHECKING:
    from munchkin.engine.game import Game


class Agent(Protocol):
    """Chooses one of `obs.legal` for `obs.seat`, knowing only what the observation gives."""

    def act(self, obs: Observation) -> Action: ...


def decide(agent: Agent, game: Game, seat: int, legal: list[Action] | None = None) -> Action:
    """`agent`'s action for `seat` (among `legal`, else every legal action), chosen from an observation
    that is closed once the agent has answered."""
    obs = observe(game, seat, legal)
    try:
        return agent.act(obs)
    finally:
        obs.close()


def make_agent(name: str, seed: int) -> Agent:
    """An agent by name: 'random' or 'heuristic'."""
    from munchkin.agents.random_agent import RandomAgent

    if name == "random":
        return RandomAgent(seed)
    if name == "heuristic":
        from munchkin.agents.heuristic import HeuristicAgent

        return HeuristicAgent(seed)
    raise ValueError(f"unknown agent {name!r}; choose random or heuristic")
