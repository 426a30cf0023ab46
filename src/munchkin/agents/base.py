"""The agent interface, the registry of agents by name, and `decide`, which asks an agent for its
seat's action through an observation (never the game itself)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from munchkin.agents.observation import Observation, observe
from munchkin.engine.actions import Action

if TYPE_CHECKING:
    from munchkin.engine.game import Game


class Agent(Protocol):
    """Chooses one of `obs.legal` for `obs.seat`, knowing only what the observation gives.

    An agent may also take actions "at any time" while the game waits on someone else: it then has
    `interject(obs)` (an action of `obs.legal`, else None) and `INTERJECT_AT`, the moments
    (decision kind, stage) at which it wants to be asked; see `interjection`."""

    def act(self, obs: Observation) -> Action: ...


def interjection(game: Game, agents: Mapping[int, Agent]) -> Action | None:
    """An any-time action that one of `agents` (by seat), not waited on, takes now; else None.
    Asked only at the moments each agent names, so that runners can ask before every move."""
    prompt = game.prompt
    moment = (prompt.kind, getattr(prompt, "stage", ""))
    waited = game.to_act
    for seat, agent in agents.items():
        if seat in waited or moment not in getattr(agent, "INTERJECT_AT", ()):
            continue
        extra = game.any_time(seat)
        if not extra:
            continue
        obs = observe(game, seat, extra)
        try:
            a = agent.interject(obs)  # type: ignore[attr-defined]
        finally:
            obs.close()
        if a is not None and a in extra:
            return a
    return None


def decide(agent: Agent, game: Game, seat: int, legal: list[Action] | None = None) -> Action:
    """`agent`'s action for `seat` (among `legal`, else every legal action), chosen from an observation
    that is closed once the agent has answered."""
    obs = observe(game, seat, legal)
    try:
        return agent.act(obs)
    finally:
        obs.close()


def make_agent(name: str, seed: int) -> Agent:
    """An agent by its spec ('random', 'heuristic', 'search:fast', 'pkg.module:Class'; see
    `munchkin.agents.registry`)."""
    from munchkin.agents.registry import make_agent as make

    return make(name, seed)
