"""Agents are given an observation of their seat, never the game: through it no other seat's hand
and no deck order reaches them, and it is closed once they have answered."""

from __future__ import annotations

import gc
import json
import random

import pytest

from munchkin.agents.base import decide, make_agent
from munchkin.agents.observation import Observation
from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.game import Game, Options, Setup

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def card_ids(view: object) -> set[int]:
    """Every card number a view shows."""
    found: set[int] = set()

    def walk(x: object) -> None:
        if isinstance(x, dict):
            if isinstance(x.get("id"), int) and "name" in x:
                found.add(x["id"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(view)
    return found


class Spy:
    """An agent that tries all it is given to learn the other hands and the deck order."""

    def __init__(self) -> None:
        self.kept: list[Observation] = []
        self.guesses: list[tuple[int, list[list[int]], list[int]]] = []
        self.views: list[dict[str, object]] = []

    def act(self, obs: Observation) -> Action:
        self.kept.append(obs)
        self.views.append(obs.view)
        w = obs.world(random.Random(len(self.kept)))
        assert w.view(obs.seat) == obs.view, "a world must look to the seat exactly like the game"
        self.guesses.append((obs.seat, [list(p.hand) for p in w.players], list(w.door_deck)))
        return obs.legal[0]


def test_an_agent_learns_no_hidden_card_through_its_observation() -> None:
    spy = Spy()
    real: list[tuple[list[list[int]], list[int], dict[int, int]]] = []
    for seed in range(1, 4):
        g = Game(Setup(["deluxe"], NAMES, seed, Options(turn_cap=5000)))
        bot = make_agent("random", seed)
        while not g.over and g.turn < 30:
            s = g.to_act[0]
            if s == 0:
                real.append(([list(p.hand) for p in g.players], list(g.door_deck), dict(g.hand_seen)))
                g.apply(decide(spy, g, s))
            else:
                g.apply(decide(bot, g, s))
    assert len(spy.guesses) > 100
    hidden = same = same_deck = 0
    for (seat, hands, deck), view, (true_hands, true_deck, seen) in zip(spy.guesses, spy.views, real, strict=True):
        shown = card_ids(view)
        for q, hand in enumerate(true_hands):
            if q == seat:
                continue
            assert not {c for c in hand if not knows_card(seen, seat, c)} & shown, "a view showed a hidden card"
            for c, guess in zip(hand, hands[q], strict=True):
                if not knows_card(seen, seat, c):
                    hidden += 1
                    same += c == guess
        assert len(deck) == len(true_deck)
        same_deck += deck == true_deck
    assert hidden > 200 and same / hidden < 0.2, f"worlds guessed {same} of {hidden} hidden cards right"
    assert same_deck == 0, f"{same_deck} worlds had the real Door deck order"
    for obs in spy.kept:  # once answered, an observation leads to no game at all
        with pytest.raises(MunchkinError, match="closed"):
            obs.world()
        assert not any(isinstance(x, Game) for x in gc.get_referents(obs))


def knows_card(seen: dict[int, int], seat: int, card: int) -> bool:
    mask = seen.get(card, 0)
    return mask == -1 or (mask >> seat) & 1 == 1


class Look:
    """An agent that checks what it is given against the game (the test holds the game, not the agent)."""

    def __init__(self, g: Game) -> None:
        self.g = g
        self.seen = 0

    def act(self, obs: Observation) -> Action:
        g, s = self.g, obs.seat
        self.seen += 1
        assert s in g.to_act and obs.legal == g.legal_actions(s) and obs.prompt == g.prompt.kind
        assert json.dumps(obs.view) == json.dumps(g.view(s))
        assert obs.text(obs.legal[-1]) == g.text(g.legal_actions(s)[-1])
        return obs.legal[-1]


def test_the_observation_offers_the_seat_its_legal_actions_and_view() -> None:
    g = Game(Setup(["star", "deluxe"], NAMES, 7))
    look = Look(g)
    for _ in range(50):
        g.apply(decide(look, g, g.to_act[0]))
    assert look.seen == 50
