"""`Game.clone()`: an independent copy at any moment, flow included. Play on a copy never touches
the original (fingerprint, every seat's view, legal actions, log), and a copy plays on exactly as
the original would, chance included."""

from __future__ import annotations

import random
from typing import Any

import pytest

from munchkin.agents.base import decide
from munchkin.agents.random_agent import RandomAgent
from munchkin.engine.game import CLONE_COPIED, CLONE_REBUILT, CLONE_SHARED, Game, Options, Setup
from munchkin.engine.state import CHARITY, LOSING, MAIN, ROLLED, RUN, WINDOW

SETS = [["deluxe"], ["star"], ["good-bad"], ["harry-potter"], ["star", "deluxe"], ["harry-potter", "deluxe"]]
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
GAMES = 6  # per set list; each game is probed at dozens of moments
MOMENTS = {  # prompt kinds a batch must have probed, with the rule each stands for
    MAIN: "character creation and the main turn",
    WINDOW: "a combat response window",
    LOSING: "losing a fight",
    RUN: "mid-Run-Away",
    ROLLED: "a Run Away roll waiting for answers",
    CHARITY: "Charity",
}


def snapshot(g: Game) -> tuple[Any, ...]:
    """Everything observable of a game: its state digest, every view, the legal actions, the log."""
    seats = range(len(g.players))
    return (
        g.state_digest(history=False),  # the whole state; the log and the events compared below
        list(g.events),
        [g.view(s) for s in [*seats, None]],
        {s: list(g.legal_actions(s)) for s in g.to_act},
        list(g.log),
        g.version,
        g.prompt.kind,
    )


def random_play(g: Game, rng: random.Random, moves: int) -> list[Any]:
    """Up to `moves` random legal actions, each by a random seat among those waited on."""
    taken = []
    for _ in range(moves):
        if g.over:
            break
        seat = rng.choice(g.to_act)
        a = rng.choice(g.legal_actions(seat))
        g.apply(a)
        taken.append(a)
    return taken


@pytest.mark.parametrize("sets", SETS, ids=["+".join(s) for s in SETS])
def test_play_on_a_clone_never_touches_the_original(sets: list[str]) -> None:
    probed: set[str] = set()
    for seed in range(1, 3 * GAMES + 1):  # GAMES games, and more until every moment was met
        if seed > GAMES and set(MOMENTS) <= probed:
            break
        players = 3 + seed % 4
        opts = Options(listen_at_the_door=seed % 2 == 0, turn_cap=5000)
        g = Game(Setup(sets, NAMES[:players], seed, opts))
        bot = RandomAgent(seed)
        rng = random.Random(seed)
        seen: set[str] = set()
        while not g.over:
            kind = g.prompt.kind
            if kind not in seen or rng.random() < 0.03:
                seen.add(kind)
                probed.add(kind)
                before = snapshot(g)
                twin = g.clone()
                assert snapshot(twin) == before, f"seed {seed}: a fresh clone differs at a {kind} prompt"
                random_play(twin, random.Random(rng.random()), 40)
                assert snapshot(g) == before, f"seed {seed}: play on a clone changed the original ({kind})"
            seat = g.to_act[0]
            g.apply(decide(bot, g, seat, g.legal_actions(seat)))
    missing = {k: why for k, why in MOMENTS.items() if k not in probed}
    assert not missing, f"no clone was taken at: {missing}"


@pytest.mark.parametrize("sets", SETS[:4], ids=["+".join(s) for s in SETS[:4]])
def test_a_clone_plays_on_exactly_as_the_original(sets: list[str]) -> None:
    """The same actions on the original and on its copy give the same game, die rolls and
    reshuffles included (a plain clone keeps the game's chance); a clone of a clone too."""
    for seed in range(1, 3):
        g = Game(Setup(sets, NAMES[:4], seed, Options(turn_cap=60)))  # random play is long: stop at turn 60
        rng = random.Random(seed)
        copies: list[Game] = []
        while not g.over:
            if rng.random() < 0.02 and len(copies) < 6:
                copies.append(g.clone() if not copies or rng.random() < 0.5 else copies[-1].clone())
            seat = rng.choice(g.to_act)
            a = rng.choice(g.legal_actions(seat))
            for c in [g, *copies]:
                c.apply(a)
        assert copies
        for c in copies:
            assert c.state_digest() == g.state_digest() and c.log == g.log and c.winners == g.winners
        saved = Game.from_json(copies[0].to_json())  # a copy's log replays to its state
        assert saved.fingerprint() == g.fingerprint()


def test_clone_names_every_attribute_of_a_game() -> None:
    """Each attribute a game has is either shared (fixed or a plain value), copied, or rebuilt by
    `clone`: a new attribute must be placed there, or copies would share it by accident."""
    g = Game(Setup(["harry-potter", "star", "deluxe", "good-bad"], NAMES[:4], 3))
    random_play(g, random.Random(3), 3000)
    named = CLONE_SHARED | set(CLONE_COPIED) | CLONE_REBUILT
    assert set(vars(g)) == named, f"not named: {set(vars(g)) - named}; named but absent: {named - set(vars(g))}"


def test_a_record_copy_has_every_field_and_shares_no_container() -> None:
    """`Player.copy` and `Combat.copy` are written out field by field (they run at every world of a
    fight): each copies every slot, and each list, set and dict is a new one, equal to the old."""
    from munchkin.engine.state import Combat, MonsterIn, Player

    p = Player(0, "Ann", "female")
    c = Combat(0, True)
    c.monsters.append(MonsterIn(5))
    for old, new in ((p, p.copy()), (c, c.copy({}))):
        for name in type(old).__slots__:
            assert hasattr(new, name), f"{type(old).__name__}.copy leaves out {name}"
            was, now = getattr(old, name), getattr(new, name)
            assert now == was or name == "monsters", f"{type(old).__name__}.{name} copied wrong"
            if isinstance(was, list | set | dict):
                assert now is not was, f"{type(old).__name__}.copy shares {name}"
    assert c.copy({}).monsters[0].card == 5
