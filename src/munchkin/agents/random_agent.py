"""The random agent: uniform over the answers to the decision it faces, and now and then (one time in
`ANY_TIME_ODDS`) one of the actions it may take at any time instead. Uniform over everything would
spend most moves equipping, unequipping and offering trades, and games would hardly end."""

from __future__ import annotations

import random

from munchkin.agents.observation import Observation
from munchkin.engine.actions import Action

ANY_TIME_ODDS = 20  # one move in this many, when the seat has any-time actions, is one of them


def pick(rng: random.Random, legal: list[Action], any_time: list[Action]) -> Action:
    """A random move: an answer to the decision, or (one time in ANY_TIME_ODDS, or when there is
    no answer) an any-time action."""
    if any_time and len(any_time) < len(legal) and rng.randrange(ANY_TIME_ODDS):
        extra = set(any_time)
        answers = [a for a in legal if a not in extra]
        return answers[rng.randrange(len(answers))]
    if any_time:
        return any_time[rng.randrange(len(any_time))]
    return legal[rng.randrange(len(legal))]


class RandomAgent:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        return pick(self.rng, obs.legal, obs.any_time)
