"""`Game.determinize(observer, rng)`: a copy in which everything the observer cannot know is dealt
anew. The observer's view is the same; every card is still in exactly one place and every count
is kept; what the observer saw stays where it is; the unknown cards land in each place they could
be with the right frequency; chance is reseeded; and the copy plays on legally to the end."""

from __future__ import annotations

import copy
import itertools
import math
import pickle
import random
from collections import Counter

import pytest

from munchkin.agents.base import decide
from munchkin.agents.observation import Observation
from munchkin.agents.random_agent import RandomAgent
from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.determinize import knows, unknown_slots
from munchkin.engine.game import Game, Options, Setup
from munchkin.invariants import Checker, card_places

SETS = [["deluxe"], ["star"], ["good-bad"], ["harry-potter"], ["star", "deluxe"], ["good-bad", "deluxe"]]
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def hand_shape(g: Game, seat: int) -> tuple[int, int]:
    """How many Door and Treasure cards a hand holds (what card backs show)."""
    decks = Counter(g.cdef[c].deck for c in g.players[seat].hand)
    return decks["door"], decks["treasure"]


def check_copy(g: Game, d: Game, observer: int | None) -> None:
    """What a determinized copy must keep of the game it was made from."""
    assert d.view(observer) == g.view(observer), "the observer's view changed"
    assert all(n == 1 for n in card_places(d).values()) and len(card_places(d)) == d.ncards
    assert (len(d.door_deck), len(d.treasure_deck)) == (len(g.door_deck), len(g.treasure_deck))
    for q in g.players:
        assert hand_shape(d, q.seat) == hand_shape(g, q.seat), f"{q.name}'s hand changed its shape"
        for i, c in enumerate(q.hand):
            if q.seat == observer or knows(g, observer, c):
                assert d.players[q.seat].hand[i] == c, f"{g.name(c)}, known to the observer, moved"
        assert d.players[q.seat].in_play() == q.in_play()
    assert (d.door_discard, d.treasure_discard, d.limbo) == (g.door_discard, g.treasure_discard, g.limbo)


@pytest.mark.parametrize("sets", SETS, ids=["+".join(s) for s in SETS])
def test_determinized_copies_keep_what_the_observer_knows(sets: list[str]) -> None:
    moments = 0
    for seed in range(1, 5):
        players = 3 + seed % 4
        setup = Setup(sets, NAMES[:players], seed, Options(listen_at_the_door=seed % 2 == 0, turn_cap=5000))
        g, twin = Game(setup), Game(setup)  # the twin plays the same moves and is never determinized
        bot = RandomAgent(seed)
        rng = random.Random(seed)
        played_to_end = False
        while not g.over:
            if rng.random() < 0.04:
                moments += 1
                for observer in [*range(players), None]:
                    d = g.determinize(observer, random.Random(rng.random()))
                    check_copy(g, d, observer)
                    if not played_to_end:  # one copy a game is played to its end, every invariant checked
                        played_to_end = True
                        checker, other = Checker(), RandomAgent(seed + 1)
                        while not d.over:
                            s = d.to_act[0]
                            d.apply(decide(other, d, s, d.legal_actions(s)))
                            assert not checker.check(d), checker.check(d)
            s = g.to_act[0]
            a = decide(bot, g, s, g.legal_actions(s))
            g.apply(a)
            twin.apply(a)
        # the whole state, flow, chance and log included: no copy ever changed the game it came from
        assert g.state_digest() == twin.state_digest(), "determinizing (or playing a copy) changed the game itself"
    assert moments >= 20


def chi_square_limit(dof: int, z: float = 3.09) -> float:
    """The chi-square value a correct sampler exceeds with probability about 0.001 (Wilson-Hilferty)."""
    k = 2 / (9 * dof)
    return float(dof * (1 - k + z * math.sqrt(k)) ** 3)


def test_unknown_cards_land_in_each_place_they_could_be_with_the_right_frequency() -> None:
    """For one mid-game moment: each unknown Door card is in each other hand or in the deck as
    often as that place's share of the unknown Door places says, and on top of the deck as often
    as any other (Pearson chi-square tests that fail for a biased deal)."""
    g = Game(Setup(["deluxe"], NAMES[:4], 11, Options(turn_cap=5000)))
    bot = RandomAgent(11)
    while g.turn < 6 or g.prompt.kind != "main":
        s = g.to_act[0]
        g.apply(decide(bot, g, s, g.legal_actions(s)))
    observer = g.active
    slots = unknown_slots(g, observer, "door")
    pool = [g.players[s].hand[i] for s, i in slots] + g.door_deck
    capacity = Counter(f"hand {s}" for s, _ in slots) + Counter({"deck": len(g.door_deck)})
    assert len(capacity) >= 3 and len(pool) > 20
    rng = random.Random(5)
    runs = 3000
    where: Counter[tuple[int, str]] = Counter()
    top: Counter[int] = Counter()
    for _ in range(runs):
        d = g.determinize(observer, rng)
        for s, i in slots:
            where[(d.players[s].hand[i], f"hand {s}")] += 1
        for c in d.door_deck:
            where[(c, "deck")] += 1
        top[d.door_deck[-1]] += 1
    stat = sum(
        (where[(c, place)] - runs * cap / len(pool)) ** 2 / (runs * cap / len(pool))
        for c in pool
        for place, cap in capacity.items()
    )
    dof = (len(pool) - 1) * (len(capacity) - 1)
    assert stat < chi_square_limit(dof), f"unknown cards are not dealt evenly: chi-square {stat:.0f} on {dof} dof"
    expected = runs / len(pool)
    stat_top = sum((top[c] - expected) ** 2 / expected for c in pool)
    assert stat_top < chi_square_limit(len(pool) - 1), f"the deck's top card is biased: {stat_top:.0f}"


def test_chance_is_reseeded_but_a_plain_clone_keeps_it() -> None:
    g = Game(Setup(["deluxe"], NAMES[:4], 3))
    rolls = lambda x: [x.chance.roll() for _ in range(20)]  # noqa: E731
    same = rolls(g.clone())
    assert rolls(g.clone()) == same
    imagined = {tuple(rolls(g.determinize(0, random.Random(n)))) for n in range(5)}
    assert len(imagined) == 5 and tuple(same) not in imagined


def test_a_determinized_copy_has_no_save() -> None:
    g = Game(Setup(["deluxe"], NAMES[:3], 3))
    with pytest.raises(MunchkinError, match="hypothesis"):
        g.determinize(0, random.Random(1)).to_json()
    assert Game.from_json(g.clone().to_json()).fingerprint() == g.fingerprint()


CARD_NAMES = {"card", "cards", "monster", "monsters", "source", "base", "bases", "corpse", "drawn", "remaining", "kept"}


def test_every_step_names_the_fields_that_hold_cards() -> None:
    """A determinized copy points the rules in progress at the cards dealt anew through each step's
    CARDS: a step holding an action, or a card number by any of the usual names, must list it."""
    import dataclasses
    import importlib

    from munchkin.cards.loader import available_sets
    from munchkin.engine.flow import Step

    for name in available_sets():
        importlib.import_module(f"munchkin.sets.{name.replace('-', '_')}.hooks")

    def every(cls: type) -> list[type]:
        return [s for c in cls.__subclasses__() for s in (c, *every(c))]

    steps = every(Step)
    assert len(steps) > 40
    missing = []
    for s in steps:
        for f in dataclasses.fields(s):
            holds = "Action" in str(f.type) or (f.name in CARD_NAMES and "str" not in str(f.type))
            if holds and f.name not in s.CARDS:  # type: ignore[attr-defined]
                missing.append(f"{s.__module__}.{s.__name__}.{f.name}")
    assert not missing, f"steps holding cards without naming them in CARDS: {missing}"


EVERY_SET = [*SETS, ["harry-potter", "deluxe"]]


def random_moves(seed: int, moves: int) -> Game:
    """A 4-player Deluxe game of `seed` after `moves` moves of a random agent (of the same seed)."""
    g = Game(Setup(["deluxe"], NAMES[:4], seed, Options(turn_cap=5000)))
    bot = RandomAgent(seed)
    for _ in range(moves):
        seat = g.to_act[0]
        g.apply(decide(bot, g, seat, g.legal_actions(seat)))
    return g


def hidden_twin(g: Game, observer: int | None, rng: random.Random) -> Game:
    """A game that differs from `g` only in the cards `observer` cannot see: those cards (the other
    hands' unknown cards and both decks) dealt again among their places by the test's own shuffle,
    and every record of them the observer could not see (the flow, hidden-card events, who-has-seen-
    what) pointed at the cards now in their places, as if the game had been dealt that way from the
    start. An event it saw (a card it looted, say, that has since gone back into a hidden hand) stays."""
    from munchkin.engine.determinize import _mask, _remap_flow

    t = g.clone()
    moved: dict[int, int] = {}
    for deck in ("door", "treasure"):
        slots = unknown_slots(t, observer, deck)
        pile = t.door_deck if deck == "door" else t.treasure_deck
        old = [t.players[s].hand[i] for s, i in slots] + pile
        new = old.copy()
        rng.shuffle(new)
        for (s, i), was, now in zip(slots, old, new, strict=False):
            moved[was] = now
            t.players[s].hand[i] = now
        for was, now in zip(old[len(slots) :], new[len(slots) :], strict=True):
            moved[was] = now
        pile[:] = new[len(slots) :]
    t.hand_seen = {moved.get(c, c): m for c, m in t.hand_seen.items()}
    for q in t.players:
        q.received = {moved.get(c, c) for c in q.received}
    t.events = [  # only where the observer could not see the card (what it saw, it saw in both games)
        ev
        if _mask(ev, observer) == ev
        else ev[:3] + (tuple(moved.get(c, c) for c in ev[3]),) + ev[4:]
        if ev[0] == "draw"
        else ev[:3] + (moved.get(ev[3], ev[3]),)
        for ev in t.events
    ]
    _remap_flow(t, {a: b for a, b in moved.items() if a != b})
    return t


@pytest.mark.parametrize("sets", EVERY_SET, ids=["+".join(s) for s in EVERY_SET])
def test_a_world_tells_nothing_of_the_cards_its_seat_cannot_see(sets: list[str]) -> None:
    """The attack of issue 31: a seat that knows the generator of its world replays the shuffle and
    undoes it to the true decks and hands. Now two games that differ only in the cards a seat cannot
    see give the very same world (the whole state, flow and events included) from the same
    generator, for every seat and a spectator, at many moments of every edition and mix: a world is
    a function of what its seat knows and of the generator, and knowing the generator tells nothing."""
    compared = differing = 0
    for seed in (1, 2):
        players = 3 + seed % 4
        g = Game(Setup(sets, NAMES[:players], seed, Options(turn_cap=5000)))
        bot, rng = RandomAgent(seed), random.Random(seed)
        while not g.over and compared < 60 * seed:
            if rng.random() < 0.05:
                for observer in [*range(players), None]:
                    twin = hidden_twin(g, observer, random.Random(rng.random()))
                    assert twin.view(observer) == g.view(observer), "the twin is not the same game to this seat"
                    truth = [q.hand for q in g.players] + [g.door_deck, g.treasure_deck]
                    differing += truth != [q.hand for q in twin.players] + [twin.door_deck, twin.treasure_deck]
                    k = rng.getrandbits(32)
                    mine, theirs = (
                        g.determinize(observer, random.Random(k)),
                        twin.determinize(observer, random.Random(k)),
                    )
                    assert mine.state_digest() == theirs.state_digest(), (
                        f"seed {seed}, version {g.version}: seat {observer}'s world depends on cards it cannot see"
                    )
                    assert mine.setup.seed is None and mine.log == []
                    compared += 1
            s = g.to_act[0]
            g.apply(decide(bot, g, s, g.legal_actions(s)))
    assert compared >= 40 and differing >= compared * 0.9, (compared, differing)


def test_the_world_an_agent_gets_is_the_same_in_both_games() -> None:
    """Through the public `Observation` only, as an attacker would: `obs.world()` with the agent's
    own generator and with the default one is the same in the real game and in its hidden twin."""
    from munchkin.agents.observation import observe

    g = random_moves(7, 150)
    seat = g.to_act[0]
    twin = hidden_twin(g, seat, random.Random(1))
    assert twin.door_deck != g.door_deck
    a, b = observe(g, seat), observe(twin, seat)
    assert a.world().state_digest() == b.world().state_digest()
    assert a.world(random.Random(9)).state_digest() == b.world(random.Random(9)).state_digest()
    assert a.world().door_deck != g.door_deck


class Peeker:
    """An attacker's agent: it picks its move from the hidden cards of the world it is given (the
    deck tops and the other hands), so any trace of the real deal in the world shows in its moves.
    With `own_rng` it hands the world its own generator, else it takes the default world."""

    def __init__(self, own_rng: bool = True) -> None:
        self.own_rng = own_rng

    def act(self, obs: Observation) -> Action:
        w = obs.world(random.Random(5) if self.own_rng else None)
        hidden = [*w.door_deck[:3], *w.treasure_deck[:3]]
        hidden += [c for p in w.players if p.seat != obs.seat for c in p.hand]
        return obs.legal[sum(hidden) % len(obs.legal)]


@pytest.mark.parametrize("sets", EVERY_SET, ids="+".join)
def test_an_agent_plays_the_same_move_in_a_game_and_its_hidden_twin(sets: list[str]) -> None:
    """The heuristic agent, and an attacker's agent that picks its move from the hidden cards of its
    world, choose the same move in two games that differ only in cards their seat cannot see."""
    from munchkin.agents.base import make_agent

    g = Game(Setup(sets, NAMES[:4], 3, Options(turn_cap=5000)))
    bot, rng = RandomAgent(3), random.Random(3)
    asked = 0
    for _ in range(300):
        if g.over:
            break
        seat = g.to_act[0]
        if rng.random() < 0.1:
            twin = hidden_twin(g, seat, random.Random(rng.random()))
            for agent in (lambda: make_agent("heuristic", 11), Peeker, lambda: Peeker(own_rng=False)):
                mine, theirs = decide(agent(), g, seat), decide(agent(), twin, seat)
                assert g.text(mine) == twin.text(theirs), f"{sets} version {g.version}: hidden cards steered it"
            asked += 1
        g.apply(decide(bot, g, seat, g.legal_actions(seat)))
    assert asked >= 10


@pytest.mark.parametrize("sets", EVERY_SET, ids="+".join)
def test_a_world_dealt_on_first_need_is_the_world_determinize_deals(sets: list[str]) -> None:
    """`world` deals nothing while only the table and the seat's own cards are read (no copy is made),
    deals when a hidden hand or a deck is read, and is then exactly `determinize` with the same
    generator, for every seat and a spectator; playing it on never touches the real game. A world
    given a generator's seed makes the generator only when dealt, and deals the same world."""
    from munchkin.engine.world import world

    g = Game(Setup(sets, NAMES[:4], 5, Options(turn_cap=5000)))
    bot = RandomAgent(5)
    compared = 0
    for step in range(400):
        if g.over:
            break
        seat = g.to_act[0]
        if step % 40 == 0:
            before = g.state_digest()
            for observer, gen in itertools.product((*range(4), None), ("generator", "seed")):
                w = world(g, observer, random.Random(step) if gen == "generator" else step)
                me = w.players[observer if observer is not None else 0]
                assert (me.level, len(me.items), w.turn, w.prompt.kind) == (
                    g.players[me.seat].level,
                    len(g.players[me.seat].items),
                    g.turn,
                    g.prompt.kind,
                )
                # read once, neither the world nor its player has a `__getattr__`, which would slow every read
                assert not hasattr(type(w), "__getattr__") and not hasattr(type(me), "__getattr__")
                if observer is not None:
                    assert me.hand == g.players[observer].hand
                    w.legal_actions(observer)
                undealt = not w.is_dealt
                other = w.players[(me.seat + 1) % 4]
                assert len(other.hand) == len(g.players[other.seat].hand)
                secret = [c for c in g.players[other.seat].hand if not knows(g, observer, c)]
                assert w.is_dealt or not secret, "a hidden hand was read undealt"
                expected = g.determinize(observer, random.Random(step)).state_digest()
                assert w.state_digest() == expected, f"{sets} step {step} seat {observer} {gen}"
                compared += undealt
                for _ in range(20):  # play the world on: the real game stays as it was
                    if w.over:
                        break
                    s = w.to_act[0]
                    w.apply(decide(bot, w, s, w.legal_actions(s)))
                assert me.level == w.players[me.seat].level  # a player read before the deal reads the dealt one
            assert g.state_digest() == before
        g.apply(decide(bot, g, seat, g.legal_actions(seat)))
    assert compared >= 10


def test_an_observation_deals_the_worlds_still_held_when_it_closes() -> None:
    """A world kept past the agent's answer is dealt while the game is still as it was; one made
    outside an observation and left undealt refuses to deal once its game has moved on."""
    from munchkin.agents.observation import observe
    from munchkin.engine.world import world

    g = Game(Setup(["deluxe"], NAMES[:4], 8, Options(turn_cap=5000)))
    seat = g.to_act[0]
    obs = observe(g, seat)
    kept, by_default = obs.world(random.Random(2)), obs.world()
    assert not kept.is_dealt and not by_default.is_dealt
    obs.close()
    assert kept.is_dealt and by_default.is_dealt
    assert kept.state_digest() == g.determinize(seat, random.Random(2)).state_digest()
    # the default generator is the moment's, made only when the world is dealt
    assert by_default.state_digest() == g.determinize(seat, random.Random(g.version * 7919 + seat)).state_digest()
    inner = world(world(g, seat, random.Random(3)), seat, random.Random(2))  # a world of a world
    assert (
        inner.state_digest() == g.determinize(seat, random.Random(3)).determinize(seat, random.Random(2)).state_digest()
    )
    for kept_whole in (
        pickle.loads(pickle.dumps(world(g, seat, random.Random(2)))),
        copy.deepcopy(world(g, seat, random.Random(2))),
    ):
        assert kept_whole.is_dealt and kept_whole.state_digest() == kept.state_digest()  # dealt before written out
    loose = world(g, seat, random.Random(2))
    g.apply(g.legal_actions(seat)[0])
    with pytest.raises(MunchkinError, match="moved on"):
        loose.deal()


HAND_USES = {
    "len": len,
    "iterate": list,
    "contains": lambda h: h[0] in h,
    "index": lambda h: h[0],
    "slice": lambda h: h[1:],
    "add": lambda h: h + [-1],
    "added to": lambda h: [-1] + h,
    "compare": lambda h: h == [],
    "truth": bool,
    "method": lambda h: h.copy(),
    "count": lambda h: h.count(h[0]),
    "sorted": sorted,
    "repr": repr,
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
}


@pytest.mark.parametrize("use", sorted(HAND_USES))
def test_any_use_of_a_hidden_hand_deals_the_world_and_acts_on_the_dealt_hand(use: str) -> None:
    """Another seat's hand on a world not dealt yet is held back: whatever is done with it (a length,
    a loop, a membership test, a concatenation either way, a comparison, a method) deals the world
    first and acts on the dealt hand, which the player then holds; a player taken before the deal is
    the dealt world's own. The seat's own hand and every other field are the real ones, unread."""
    from munchkin.engine.world import world

    g = random_moves(6, 60)
    observer = g.to_act[0]
    other = (observer + 1) % 4
    assert [c for c in g.players[other].hand if not knows(g, observer, c)], "the other hand must hide a card"
    w = world(g, observer, random.Random(4))
    me, them = w.players[observer], w.players[other]
    assert me.hand == g.players[observer].hand and them.items == g.players[other].items
    assert them.level == g.players[other].level and not w.is_dealt
    got = HAND_USES[use](them.hand)
    assert w.is_dealt
    dealt = g.determinize(observer, random.Random(4))
    assert got == HAND_USES[use](dealt.players[other].hand)
    assert them is w.players[other] and type(them.hand) is list and them.hand == dealt.players[other].hand
    assert w.state_digest() == dealt.state_digest()


def test_a_hidden_hand_outliving_its_world_says_so() -> None:
    """A player kept without its world, whose hand was never dealt: using that hand is refused with
    a clear error rather than answered from the real game."""
    from munchkin.engine.world import world

    g = Game(Setup(["deluxe"], NAMES[:4], 6, Options(turn_cap=5000)))
    seat = g.to_act[0]
    them = world(g, seat, random.Random(1)).players[(seat + 1) % 4]  # the world itself is dropped
    with pytest.raises(MunchkinError, match="world is gone"):
        len(them.hand)


@pytest.mark.parametrize("part", ["door_deck", "events", "setup"])
@pytest.mark.parametrize("how", ["read", "set", "delete"])
def test_a_part_the_deal_decides_deals_the_world_and_never_touches_the_game(part: str, how: str) -> None:
    """A world not dealt yet keeps the game's entries for the parts the deal decides (the decks, the
    events, the setup, ...) behind its class: reading, setting or deleting one deals the world first and
    acts on the dealt world's own, never on the game's (the game's digest is unchanged)."""
    from munchkin.engine.world import world

    g = random_moves(6, 60)
    before = g.state_digest()
    observer = g.to_act[0]
    w = world(g, observer, random.Random(4))
    dealt = g.determinize(observer, random.Random(4))
    assert not w.is_dealt
    if how == "read":
        assert getattr(w, part) == getattr(dealt, part)
    elif how == "set":
        setattr(w, part, "replaced")
        assert getattr(w, part) == "replaced"
    else:
        delattr(w, part)
        assert not hasattr(w, part)
    assert w.is_dealt and g.state_digest() == before
    assert getattr(g, part) is not getattr(w, part, None)


def test_a_card_received_this_turn_that_left_the_hand_is_not_told_by_the_world() -> None:
    """The leak the agents' twin check found: Dee looted a face-down card from a body, died, and Cid
    looted it from hers; Dee's cards received this turn still named it, so Ann's world carried the
    true card. Now the world forgets what left a hand, and the twin's world is the same."""
    from munchkin.agents.observation import observe

    g = Game(Setup(["star"], NAMES[:4], 3, Options(turn_cap=5000)), rules=5)  # the moment found under rules 5
    bot = RandomAgent(3)
    while g.version < 202:
        s = g.to_act[0]
        g.apply(decide(bot, g, s, g.legal_actions(s)))
    hidden = {
        c for s, i in unknown_slots(g, 0, "door") + unknown_slots(g, 0, "treasure") for c in [g.players[s].hand[i]]
    }
    stale = [c for q in g.players for c in q.received if c not in q.hand and c in hidden]
    assert stale, "the moment no longer shows a received card that went into a hidden hand"
    for k in range(8):
        twin = hidden_twin(g, 0, random.Random(k))
        assert g.determinize(0, random.Random(k)).state_digest() == twin.determinize(0, random.Random(k)).state_digest()
    if g.to_act[0] == 0:
        assert observe(g, 0).world().state_digest() == observe(twin, 0).world().state_digest()
