"""Chance: a game without a seed draws from the operating system and replays from its log.

- the chance sources: SeededChance draws exactly as `random.Random` with that seed did;
  RecordedChance plays back outcomes, checks each one, then defers to its fallback;
- a game without a seed deals at random, completes its setup with the sexes and Houses it
  drew, stores no seed, and (each edition) reloads from its save to the same state and log;
- saves whose recorded chance was tampered with are refused with a MunchkinError;
- a failed sequence of actions on a game without a seed rewinds to exactly where it was;
- a seeded game still replays from its seed, also from a save written before card numbers.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from munchkin.agents.base import decide, make_agent
from munchkin.engine import actions as A
from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.chance import Chance, RecordedChance, SeededChance, SystemChance
from munchkin.engine.game import Game, Options, Setup
from saves import refused

NAMES = ["Ann", "Bob", "Cid", "Dee"]
EDITIONS = [["deluxe"], ["star"], ["good-bad"], ["harry-potter"], ["harry-potter", "deluxe"]]


def play(g: Game, agent: str = "heuristic", seed: int = 0, until: Any = None) -> Game:
    """Bots play `g` to the end (or until `until(g)`)."""
    bots = [make_agent(agent, seed * 7919 + i) for i in range(len(g.players))]
    while not g.over and not (until is not None and until(g)):
        seat = g.to_act[0]
        g.apply(decide(bots[seat], g, seat, g.legal_actions(seat)))
    return g


# ------------------------------------------------------------------ the sources
def test_seeded_chance_draws_as_random_with_the_seed() -> None:
    for seed in (0, 1, 12345):
        chance, rng = SeededChance(seed), random.Random(seed)
        for _ in range(20):
            mine, theirs = list(range(40)), list(range(40))
            chance.shuffle(mine)
            rng.shuffle(theirs)
            assert mine == theirs
            assert chance.roll() == rng.randint(1, 6)
            hand = [7, 3, 9, 12, 5]
            assert chance.pick(hand) == hand[rng.randrange(len(hand))]
            assert chance.choice(("male", "female")) == rng.choice(("male", "female"))


def test_system_chance_gives_outcomes_in_range() -> None:
    chance = SystemChance()
    assert {chance.roll() for _ in range(300)} == {1, 2, 3, 4, 5, 6}
    cards = list(range(30))
    chance.shuffle(cards)
    assert sorted(cards) == list(range(30))
    assert chance.pick([4, 8]) in (4, 8)
    assert chance.choice("ab") in "ab"


def test_recorded_chance_plays_back_then_falls_back() -> None:
    then = SeededChance(3)
    twin = SeededChance(3)
    rec = RecordedChance([("roll", 0, 4), ["shuffle", "door", [2, 0, 1]], ["pick", 1, 9]], then=then)
    assert rec.remaining == 3
    assert rec.roll() == 4
    cards = [0, 1, 2]
    rec.shuffle(cards)
    assert cards == [2, 0, 1]
    assert rec.pick([5, 9]) == 9
    assert rec.remaining == 0
    assert rec.roll() == twin.roll()  # run out: the fallback answers
    assert rec.choice(("x", "y")) == twin.choice(("x", "y"))


@pytest.mark.parametrize(
    ("outcome", "ask", "words"),
    [
        (("shuffle", "door", [0, 1, 2]), "roll", "asks for a roll"),
        (("roll", 0, 3), "pick", "asks for a pick"),
        (("roll", 0, 7), "roll", "not 1 to 6"),
        (("roll", 0, True), "roll", "not 1 to 6"),
        (("pick", 0, 4), "pick", "not among"),
        (("shuffle", "door", [0, 1, 1]), "shuffle", "not an order"),
        (("shuffle", "door", [0, 1, 2, 3]), "shuffle", "not an order"),
        (("shuffle", "door", ["a", 1, 2]), "shuffle", "card numbers"),
        (("dance", 0, 1), "roll", "malformed"),
        ("roll", "roll", "malformed"),
    ],
)
def test_recorded_chance_refuses_what_does_not_fit(outcome: Any, ask: str, words: str) -> None:
    rec = RecordedChance([("roll", 0, 2), outcome], then=SystemChance())
    assert rec.roll() == 2
    with pytest.raises(MunchkinError) as info:
        if ask == "roll":
            rec.roll()
        elif ask == "pick":
            rec.pick([1, 2, 3])
        else:
            rec.shuffle([2, 1, 0])
    assert "outcome 1" in str(info.value) and words in str(info.value)


# ------------------------------------------------------------------ games without a seed
def test_unseeded_games_deal_differently() -> None:
    a, b = Game(Setup(["deluxe"], NAMES, None)), Game(Setup(["deluxe"], NAMES, None))
    assert isinstance(a.chance, SystemChance)
    assert (a.door_deck, a.treasure_deck) != (b.door_deck, b.treasure_deck)
    assert a.fingerprint() != b.fingerprint()


def test_seed_or_chance_decides_the_source() -> None:
    assert isinstance(Game(Setup(["deluxe"], NAMES, 5)).chance, SeededChance)
    own: Chance = SeededChance(8)
    g = Game(Setup(["deluxe"], NAMES, 5), own)
    assert g.chance is own and g.setup.sexes is not None  # not from the seed: the setup keeps what was drawn


def seeds_in(x: Any) -> list[Any]:
    """Every value stored under a key 'seed', at any depth."""
    if isinstance(x, dict):
        return [v for k, v in x.items() if k == "seed"] + [s for v in x.values() for s in seeds_in(v)]
    if isinstance(x, list):
        return [s for v in x for s in seeds_in(v)]
    return []


def test_unseeded_save_stores_no_seed() -> None:
    g = play(Game(Setup(["deluxe"], NAMES, None)), until=lambda g: g.turn >= 3)
    data = json.loads(g.to_json())
    assert data["setup"]["seed"] is None
    assert seeds_in(data) == [None]


@pytest.mark.parametrize("sets", EDITIONS, ids="+".join)
def test_unseeded_game_saves_and_reloads(sets: list[str]) -> None:
    houses = [None] * 4 if "harry-potter" in sets else None
    g = Game(Setup(list(sets), NAMES, None, Options(), sexes=None, houses=houses))
    assert g.setup.sexes == [p.sex for p in g.players]  # drawn, and kept in the setup
    if "harry-potter" in sets:
        assert g.setup.houses == [p.house for p in g.players] and all(g.setup.houses)
    play(g)
    assert g.over
    assert [e[0] for e in g.chance_log()][:2] == ["shuffle", "shuffle"]  # the deal, at least
    h = Game.from_json(g.to_json())
    assert h.fingerprint() == g.fingerprint()
    assert h.log == g.log and h.events == g.events
    assert h.chance_log() == g.chance_log()
    assert Game.from_log(g.setup, g.log).fingerprint() == g.fingerprint()


def test_chance_log_is_the_logs_chance_in_order() -> None:
    g = play(Game(Setup(["deluxe"], NAMES, None)), until=lambda g: g.turn >= 5)
    assert g.chance_log() == [e for e in g.log if e[0] in ("shuffle", "roll", "pick")]
    again = Game(g.setup, RecordedChance(g.chance_log(), then=SystemChance()))
    for entry in g.log:
        if entry[0] == "act":
            again.apply(entry[1])
    assert again.fingerprint() == g.fingerprint()


def test_unseeded_game_goes_on_after_loading() -> None:
    g = play(Game(Setup(["deluxe"], NAMES, None)), until=lambda g: g.turn >= 4)
    h = Game.from_json(g.to_json())
    assert isinstance(h.chance, SystemChance)
    play(h)
    assert h.over
    assert Game.from_json(h.to_json()).fingerprint() == h.fingerprint()


def test_failed_sequence_rewinds_an_unseeded_game() -> None:
    """At many points of a game, a legal action followed by an illegal one leaves nothing changed,
    also when the legal one rolled the die or shuffled."""
    source = SeededChance(11)  # a game without a seed, its chance made repeatable for the test
    g = Game(Setup(["deluxe"], NAMES, None), source)
    twin = Game(Setup(["deluxe"], NAMES, None), SeededChance(11))  # the same game, which never tries
    bots = [make_agent("random", i) for i in range(4)]
    tried = drew = 0
    while not g.over and tried < 1000 and not (tried >= 30 and drew >= 3):
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        a = decide(bots[seat], g, seat, legal)
        if len(legal) > 1:
            before = (g.state_digest(), list(g.log), {s: g.legal_actions(s) for s in g.to_act}, g.chance_log())
            bad = Action(A.PLAY, seat, card=10**6)
            with pytest.raises(MunchkinError):
                g.apply_sequence([a, bad])
            after = (g.state_digest(), list(g.log), {s: g.legal_actions(s) for s in g.to_act}, g.chance_log())
            assert after == before
            assert not isinstance(g.chance, RecordedChance)  # no recording left over after the rewind
            tried += 1
        n = len(g.chance_log())
        g.apply(a)
        twin.apply(a)
        drew += len(legal) > 1 and len(g.chance_log()) > n
    assert tried >= 30 and drew >= 3
    # the game draws on as if it had never tried: the same chance as its twin that never did
    assert g.chance_log() == twin.chance_log() and g.fingerprint() == twin.fingerprint()


# ------------------------------------------------------------------ tampered saves
@pytest.fixture(scope="module")
def save() -> dict[str, Any]:
    """A save without a seed (its chance seeded here, so the test is the same every run),
    stopped once it has picked a card and reshuffled a deck."""

    def enough(g: Game) -> bool:
        kinds = [e[0] for e in g.chance_log()]
        return "pick" in kinds and kinds.count("shuffle") >= 3

    for k in range(1, 40):
        g = play(Game(Setup(["deluxe"], NAMES, None), SeededChance(k)), agent="random", seed=k, until=enough)
        if enough(g):
            return dict(json.loads(g.to_json()))
    raise AssertionError("no game picked a card and reshuffled")


def entries(data: dict[str, Any], kind: str) -> list[int]:
    return [i for i, e in enumerate(data["log"]) if isinstance(e, dict) and kind in e]


class Spy(RecordedChance):
    """A recording that also notes the cards each pick was offered."""

    def __init__(self, outcomes: list[tuple[Any, ...]]) -> None:
        super().__init__(outcomes, then=SystemChance())
        self.offered: list[list[int]] = []

    def pick(self, cards: Sequence[int]) -> int:
        self.offered.append(list(cards))
        return super().pick(cards)


def a_card_not_offered(save: dict[str, Any]) -> int:
    """A card that was not in the hand the save's first pick was made from."""
    g = Game.from_json(json.dumps(save))
    spy = Spy(g.chance_log())
    h = Game(g.setup, spy)
    for entry in g.log:
        if spy.offered:
            break
        if entry[0] == "act":
            h.apply(entry[1])
    return next(c for c in range(g.ncards) if c not in spy.offered[0])


def test_intact_unseeded_save_loads(save: dict[str, Any]) -> None:
    assert save["setup"]["seed"] is None
    assert Game.from_json(json.dumps(save)).fingerprint() == save["state"]


def tamper(save: dict[str, Any], how: str) -> dict[str, Any]:
    bad: dict[str, Any] = json.loads(json.dumps(save))
    log = bad["log"]
    if how == "not a permutation":
        cards = log[entries(bad, "shuffle")[-1]]["cards"]
        cards[0] = cards[1]
    elif how == "other deck's card":
        door, treasure = entries(bad, "shuffle")[:2]
        log[door]["cards"][0] = log[treasure]["cards"][0]
    elif how == "another order":
        cards = log[entries(bad, "shuffle")[0]]["cards"]
        cards[0], cards[-1] = cards[-1], cards[0]
    elif how == "cards not a list":
        log[entries(bad, "shuffle")[0]]["cards"] = "all of them"
    elif how == "roll of 7":
        log[entries(bad, "roll")[0]]["roll"] = 7
    elif how == "roll not a number":
        log[entries(bad, "roll")[0]]["roll"] = "six"
    elif how == "pick not in the hand":
        log[entries(bad, "pick")[0]]["card"] = a_card_not_offered(save)
    elif how == "pick not a card":
        log[entries(bad, "pick")[0]]["card"] = [1, 2]
    elif how == "kinds swapped":
        i, j = entries(bad, "shuffle")[-1], entries(bad, "roll")[-1]
        log[i], log[j] = log[j], log[i]
    elif how == "outcome added":
        log.append({"roll": 3, "seat": 0})
    elif how == "outcome removed":
        del log[entries(bad, "roll")[-1]]
    elif how == "no card numbers":
        del log[entries(bad, "shuffle")[0]]["cards"]
    elif how == "no sexes":
        bad["setup"]["sexes"] = None
    return bad


@pytest.mark.parametrize(
    "how",
    [
        "not a permutation",
        "other deck's card",
        "another order",
        "cards not a list",
        "roll of 7",
        "roll not a number",
        "pick not in the hand",
        "pick not a card",
        "kinds swapped",
        "outcome added",
        "outcome removed",
        "no card numbers",
        "no sexes",
    ],
)
def test_tampered_chance_is_refused(save: dict[str, Any], how: str) -> None:
    msg = refused(json.dumps(tamper(save, how)))
    expect = {
        "not a permutation": "not an order",
        "other deck's card": "not an order",
        "cards not a list": "card numbers",
        "roll of 7": "not 1 to 6",
        "roll not a number": "not 1 to 6",
        "pick not in the hand": "not among",
        "pick not a card": "not among",
        "kinds swapped": "asks for a",
        "outcome added": "never used",
        "no card numbers": "lacks",
        "no sexes": "sex",
    }.get(how)
    if expect is not None:
        assert expect in msg, msg
    if how not in ("outcome added", "no sexes"):
        assert "outcome" in msg or "log entry" in msg or "state" in msg, msg


# ------------------------------------------------------------------ seeded games
@pytest.mark.parametrize("sets", EDITIONS, ids="+".join)
def test_seeded_game_replays_from_its_seed(sets: list[str]) -> None:
    g = play(Game(Setup(list(sets), NAMES, 7)), seed=7)
    assert g.setup.sexes is None  # a seeded setup is left as given: the seed draws it again
    data = json.loads(g.to_json())
    assert Game.from_json(json.dumps(data)).fingerprint() == g.fingerprint()
    assert Game(Setup(list(sets), NAMES, 7)).fingerprint() == Game(g.setup).fingerprint()
    for e in data["log"]:  # a save written before card numbers were recorded
        e.pop("cards", None)
        e.pop("card", None)
    assert Game.from_json(json.dumps(data)).fingerprint() == g.fingerprint()


def test_declared_sexes_without_a_seed() -> None:
    from munchkin.engine.game import declared_sexes

    assert declared_sexes(["male", None, "female"], 4) == declared_sexes(["male", None, "female"], 4)
    got = declared_sexes(["male", None, "female"], None)
    assert got is not None and got[0] == "male" and got[2] == "female" and got[1] in ("male", "female")
    assert declared_sexes(None, None) is None
