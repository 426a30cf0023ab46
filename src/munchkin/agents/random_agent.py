"""The random agent: uniform over the legal actions."""

from __future__ import annotations

import random

from munchkin.engine.actions import Action
from munchkin.engine.game import Game


class RandomAgent:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, game: Game, seat: int, legal: list[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]
