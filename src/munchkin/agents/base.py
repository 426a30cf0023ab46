"""The agent interface and the registry of agents by name."""

from __future__ import annotations

from typing import Protocol

from munchkin.engine.actions import Action
from munchkin.engine.game import Game


class Agent(Protocol):
    """Chooses one of `legal` for `seat`; never sees more than the engine lets it."""

    def act(self, game: Game, seat: int, legal: list[Action]) -> Action: ...


def make_agent(name: str, seed: int) -> Agent:
    """An agent by name: 'random' or 'heuristic'."""
    from munchkin.agents.random_agent import RandomAgent

    if name == "random":
        return RandomAgent(seed)
    if name == "heuristic":
        from munchkin.agents.heuristic import HeuristicAgent

        return HeuristicAgent(seed)
    raise ValueError(f"unknown agent {name!r}; choose random or heuristic")
