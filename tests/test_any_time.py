"""Any time: a seat the game does not wait on may take its any-time actions at every moment of a
turn, and then the game goes on where it was. Over seeded games of every edition and mix, each
any-time action listed for a seat not waited on is applied on a copy: the table stays whole, the
game comes back to the decision it was waiting on, and it plays on legally to the end."""

from __future__ import annotations

import random
import zlib

import pytest
from tests.editions import EDITIONS

from munchkin.agents.base import decide, make_agent
from munchkin.engine import actions as A
from munchkin.engine.actions import Action, IllegalAction
from munchkin.engine.game import Game, Setup
from munchkin.invariants import violations

ALL_SETS = [("deluxe",), *(tuple(v) for v in EDITIONS.values())]
NAMES = ["Ann", "Ben", "Cy", "Dee"]


def _answer_until(g: Game, kind: str, rng: random.Random) -> None:
    """Answer what an any-time action opened (an offer, a Curse's cancel window, a choice) with
    random legal actions of the seats waited on, until the game waits on `kind` again."""
    for _ in range(60):
        if g.over or g.prompt.kind == kind:
            return
        seat = g.to_act[0]
        legal = [a for a in g.legal_actions(seat) if seat in g.to_act]
        g.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("sets", ALL_SETS, ids=lambda s: "+".join(s))
def test_any_time_actions_then_the_game_goes_on_where_it_was(sets: tuple[str, ...]) -> None:
    rng = random.Random(zlib.crc32("+".join(sets).encode()))  # the same games in every process
    tried = 0
    seen_kinds: set[str] = set()
    for seed in range(3):
        per_game = 0
        g = Game(Setup(sets=list(sets), players=NAMES, seed=seed))
        agents = [make_agent("random", seed * 10 + s) for s in range(4)]
        while not g.over and g.decisions < 1500:
            others = [s for s in range(4) if s not in g.to_act and g.legal_actions(s)]
            if others and per_game < 8 and rng.random() < 0.05:
                per_game += 1
                seat = rng.choice(others)
                act = rng.choice(g.legal_actions(seat))
                before_kind, before_seats = g.prompt.kind, g.to_act
                h = g.clone()
                h.apply(act)
                seen_kinds.add(before_kind)
                tried += 1
                assert h.log[-1] == ("act", act) or ("act", act) in h.log[-3:]
                # a window waits on every seat with something to do, so an action may change who that is
                if not h.over and h.prompt.kind == before_kind and before_kind not in ("window", "end_window"):
                    assert h.to_act == before_seats, f"{g.text(act)} at {before_kind}: waits on {h.to_act}"
                _answer_until(h, before_kind, rng)
                assert not violations(h), violations(h)
                if per_game <= 2:  # and the copy plays on to the end
                    bots = [make_agent("random", seed + s) for s in range(4)]
                    while not h.over and h.decisions < g.decisions + 3000:
                        s = h.to_act[0]
                        h.apply(decide(bots[s], h, s))
                    assert not violations(h)
            s = g.to_act[0]
            g.apply(decide(agents[s], g, s))
    assert tried >= 10, f"only {tried} any-time actions tried"
    assert {"main", "window"} & seen_kinds, seen_kinds


def test_no_any_time_action_at_character_creation_or_inside_a_rule() -> None:
    """Before the first turn, and while a choice, a roll's answers or an offer are pending, a seat
    the game does not wait on has nothing to do and is told why."""
    g = Game(Setup(sets=["deluxe"], players=NAMES, seed=3))
    bots = [make_agent("random", 5 + s) for s in range(4)]
    while not g.over and g.prompt.kind not in ("choose", "offer", "rolled", "loot_body", "pick", "curse_window"):
        s = g.to_act[0]
        g.apply(decide(bots[s], g, s))
    assert not g.over
    others = [s for s in range(4) if s not in g.to_act]
    assert others and all(g.legal_actions(s) == [] for s in others)
    with pytest.raises(IllegalAction, match="may not act now"):
        g.apply(Action(A.PASS, others[0]))


def test_a_turn_step_by_a_seat_not_waited_on_is_refused_by_name() -> None:
    g = Game(Setup(sets=["deluxe"], players=NAMES, seed=1))
    bots = [make_agent("random", 1 + s) for s in range(4)]
    while g.prompt.kind != "main" or g.prompt.stage != "start":  # type: ignore[attr-defined]
        s = g.to_act[0]
        g.apply(decide(bots[s], g, s))
    other = next(s for s in range(4) if s not in g.to_act)
    fp = g.state_digest()
    with pytest.raises(IllegalAction, match="own turn|may not act now"):
        g.apply(Action(A.KICK, other))
    assert g.state_digest() == fp


@pytest.mark.parametrize("sets", ALL_SETS, ids=lambda s: "+".join(s))
def test_a_game_full_of_any_time_actions_replays_exactly(sets: tuple[str, ...]) -> None:
    """Seats waited on and seats not waited on take any-time actions often; the saved game, its
    log replayed without listing (as a save's texts are read) and its JSON all give the same game.
    (A waited seat's action is an answer or an any-time extra: a replay must tell them apart.)"""
    extras = interjections = 0
    for seed in range(1, 7):
        g = Game(Setup(list(sets), NAMES, seed))
        rng = random.Random(seed)
        while not g.over and g.turn < 80:
            others = [s for s in range(len(NAMES)) if s not in g.to_act and g.any_time(s)]
            if others and rng.random() < 0.05:
                s = rng.choice(others)
                g.apply(rng.choice(g.any_time(s)))
                interjections += 1
                continue
            seat = g.to_act[0]
            extra = g.any_time(seat)
            if extra and rng.random() < 0.3:
                g.apply(rng.choice(extra))
                extras += 1
            else:
                answers = [a for a in g.legal_actions(seat) if a not in set(extra)]
                g.apply(rng.choice(answers))
        again = Game.from_log(g.setup, g.log)
        assert again.fingerprint() == g.fingerprint()
        loaded = Game.from_json(g.to_json())
        assert loaded.fingerprint() == g.fingerprint()
    assert extras > 0 and interjections > 0
