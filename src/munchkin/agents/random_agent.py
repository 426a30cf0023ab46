"""The random agent: uniform over the legal actions."""

from __future__ import annotations

import random

from munchkin.agents.observation import Observation
from munchkin.engine.actions import Action


class RandomAgent:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        return legal[self.rng.randrange(len(legal))]
