"""The heuristic agent keeps what it works out between decisions only where nothing it depends on
changed: what it keeps is what it would work out afresh."""

from __future__ import annotations

import pytest

from munchkin.agents.base import decide, make_agent
from munchkin.agents.heuristic import HeuristicAgent
from munchkin.engine.game import Game, Options, Setup

SETS = [["deluxe"], ["star"], ["good-bad"], ["harry-potter"], ["star", "deluxe"], ["harry-potter", "deluxe"]]
NAMES = ["Ann", "Bob", "Cid", "Dee"]


@pytest.mark.parametrize("sets", SETS, ids="+".join)
def test_the_kept_best_items_to_equip_are_those_worked_out_afresh(sets: list[str]) -> None:
    """One agent's kept answers serve every moment of several seeded games (so that a key missing a
    change meets a player who differs only there); at every moment, for every player, the kept best
    set of Items to equip is the set worked out afresh."""
    agent = HeuristicAgent(0)
    compared = kept = 0
    for seed in range(3):
        g = Game(Setup(sets, NAMES, seed, Options(turn_cap=60)))
        bots = [make_agent("heuristic", seed * 31 + i) for i in range(4)]
        while not g.over:
            for p in g.players:
                before = len(agent._equip)
                assert agent.best_equip(g, p) == agent._best_equip(g, p), (seed, g.version, p.seat)
                compared += bool(p.items)
                kept += len(agent._equip) == before
            seat = g.to_act[0]
            g.apply(decide(bots[seat], g, seat))
    assert compared > 500 and kept > compared // 2, (compared, kept)
