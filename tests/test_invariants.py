"""The invariant checker can fail: a card in two places, or in none, is reported."""

from __future__ import annotations

import random

from munchkin.engine.game import Game, Setup
from munchkin.invariants import card_places, each_card_once, violations

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def played_game(seed: int) -> Game:
    g = Game(Setup(["star", "deluxe"], NAMES, seed))
    r = random.Random(seed)
    for _ in range(400):
        if g.over:
            break
        seat = r.choice(list(g.to_act))
        g.apply(r.choice(g.legal_actions(seat)))
    return g


def test_a_card_in_two_places_or_none_is_reported() -> None:
    g = played_game(3)
    assert each_card_once(g) and violations(g) == []
    assert set(card_places(g).values()) == {1}
    card = g.door_deck[-1]
    g.players[0].hand.append(card)  # the same card in a hand and in the deck
    assert not each_card_once(g)
    assert [v for v in violations(g) if "places" in v] == [f"card {card} ({g.name(card)}) is in 2 places"]
    g.players[0].hand.pop()
    g.door_deck.pop()  # and now in no place at all
    assert not each_card_once(g)
    assert [v for v in violations(g) if "places" in v] == [f"card {card} ({g.name(card)}) is in 0 places"]
