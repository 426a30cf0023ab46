"""How good a position is for one seat, in the heuristic's points (a Level is `LEVEL`): what the
search bot scores at the end of a rollout.

A player's worth is its Level, its combat strength out of combat (the Items it has equipped and may
use) and the cards in its hand (the heuristic's `card_value`), each with a weight. A seat's score is
its worth less that of the strongest other player and less a share of the others' mean: Munchkin is
a race, so a Level taken from the leader is worth nearly as much as one gained. A won game is worth
`WIN` points, a lost one `-WIN`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from munchkin.engine import characters
from munchkin.engine.rules import WINNING_LEVEL

if TYPE_CHECKING:
    from munchkin.agents.heuristic import HeuristicAgent
    from munchkin.engine.game import Game
    from munchkin.engine.state import Player

LEVEL = 4.5  # as the heuristic counts a Level
WIN = 100.0  # a game won (lost: -WIN)
STRENGTH = 0.8  # a point of combat strength from equipped Items
HAND = 0.5  # a point of the heuristic's worth of a card in hand
LEADER = 0.6  # the share of the strongest opponent's worth taken off
FIELD = 0.4  # the share of the others' mean worth taken off
NEAR_WIN = 2.0  # points a Level is worth more for each Level the player is past half-way to winning


def worth(g: Game, p: Player, policy: HeuristicAgent) -> float:
    """One player's worth: Level (more near the end), equipped strength, cards in hand."""
    level = p.level
    v = LEVEL * level + NEAR_WIN * max(0, level - WINNING_LEVEL // 2) ** 2 / 2
    v += STRENGTH * characters.equipped_bonus(g, p)
    if p.hand:
        v += HAND * sum(policy.card_value(g, p, c) for c in p.hand)
    return v


def score(g: Game, seat: int, policy: HeuristicAgent) -> float:
    """`seat`'s score of the position `g` (see the module docstring)."""
    if g.over:
        if seat in g.winners:
            return WIN
        if g.winners:
            return -WIN
    worths = [worth(g, p, policy) for p in g.players]
    mine = worths[seat]
    others = [w for i, w in enumerate(worths) if i != seat]
    if not others:
        return mine
    return mine - LEADER * max(others) - FIELD * sum(others) / len(others)


__all__ = ["score", "worth"]
