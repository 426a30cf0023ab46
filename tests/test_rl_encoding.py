"""The RL observation (`munchkin.rl.encoding.Encoder`, issue 36): a vector of one size for given sets
and player count, finite and bounded at every decision; what it says matches the game (read here, by
the test, as the oracle); and it holds no card the seat cannot see: a game and its determinized twin
(every card the seat cannot know dealt anew) give that seat the same vector at every decision, while
another seat, whose own hand the twin changed, gets a different one. A deliberate leak is caught."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator

import numpy as np
import pytest

from munchkin.agents.base import decide
from munchkin.agents.random_agent import RandomAgent
from munchkin.engine import decisions as D
from munchkin.engine.actions import MunchkinError
from munchkin.engine.game import Game, Options, Setup
from munchkin.engine.world import world
from munchkin.rl import encoding
from munchkin.rl.encoding import PHASES, PROMPT_KINDS, SEAT_CARD_ZONES, SEAT_SCALARS, Encoder

SETS = [["deluxe"], ["star"], ["good-bad"], ["harry-potter"], ["star", "deluxe"]]
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
IDS = ["+".join(s) for s in SETS]


def play(sets: list[str], players: int, seed: int, turns: int = 25) -> Iterator[Game]:
    """A seeded game between random bots, yielded at every decision (before the move is made)."""
    g = Game(Setup(sets, NAMES[:players], seed, Options(turn_cap=turns)))
    bot = RandomAgent(seed)
    while not g.over:
        yield g
        s = g.to_act[0]
        g.apply(decide(bot, g, s, g.legal_actions(s)))
    yield g


def block(enc: Encoder, v: np.ndarray, name: str) -> np.ndarray:
    for b, start, n in enc.layout():
        if b == name:
            return v[start : start + n]
    raise AssertionError(f"no block {name}")


def by_definition(enc: Encoder, g: Game, cards: list[int]) -> np.ndarray:
    """The oracle: counts per definition, in the encoder's feature order, of some physical cards."""
    order = {d: i for i, d in enumerate(enc.definitions)}
    out = np.zeros(len(enc.definitions), np.float32)
    for c in cards:
        out[order[g.defs[g.cdef[c].idx].id]] += 1
    return out


# ------------------------------------------------------------------ shape and layout
@pytest.mark.parametrize("sets", SETS, ids=IDS)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_size_is_fixed_and_every_vector_finite_and_bounded(sets: list[str], players: int) -> None:
    """The blocks tile the vector; every seat's vector, at every decision of two seeded games, has
    the encoder's size and float32 values in [0, high], with one phase and one decision kind."""
    enc = Encoder(sets, players)
    layout = enc.layout()
    assert [s for _, s, _ in layout] == list(np.cumsum([0] + [n for _, _, n in layout])[:-1]), "blocks do not tile"
    assert sum(n for _, _, n in layout) == enc.size and len({b for b, _, _ in layout}) == len(layout)
    nd = len(enc.definitions)
    assert len(set(enc.definitions)) == nd
    card_blocks = [b for b, _, n in layout if n == nd]
    assert len(card_blocks) == 1 + len(SEAT_CARD_ZONES) * players + 7, card_blocks
    decisions = 0
    for seed in (1, 2):
        for g in play(sets, players, seed + 10 * players):
            decisions += 1
            for seat in range(players):
                v = enc.encode(g, seat)
                assert v.shape == (enc.size,) and v.dtype == np.float32
                assert np.isfinite(v).all() and v.min() >= 0 and v.max() <= enc.high, (v.min(), v.max(), enc.high)
                assert block(enc, v, "phase").sum() == 1 and block(enc, v, "prompt").sum() == 1
    assert decisions > 100


def test_the_size_grows_with_definitions_and_seats() -> None:
    """size = D x (8 + 6 players) + scalars: D definitions in 8 shared card blocks and 6 per seat."""
    for sets in SETS:
        for players in (3, 6):
            enc = Encoder(sets, players)
            d, h = len(enc.definitions), len(enc.houses)
            scalars = players * (len(SEAT_SCALARS) + h) + 7 + len(PHASES) + len(PROMPT_KINDS) + 4 + 8
            scalars += 2 * players + 5 + 4 * players + 4
            assert enc.size == d * (8 + 6 * players) + scalars
    assert Encoder(["star", "deluxe"], 4).size > Encoder(["deluxe"], 4).size
    assert len(Encoder(["star", "deluxe"], 4).definitions) < 147 + 148  # shared cards are one definition


def test_the_prompt_kinds_are_the_engines() -> None:
    kinds = {cls.kind for cls in vars(D).values() if isinstance(cls, type) and issubclass(cls, D.Decision)}
    assert set(PROMPT_KINDS) == kinds - {""} and len(PROMPT_KINDS) == len(set(PROMPT_KINDS)) == 17


def test_bad_input_is_named() -> None:
    with pytest.raises(MunchkinError, match="3 to 6 players"):
        Encoder(["deluxe"], 7)
    with pytest.raises(MunchkinError, match="list of card set names"):
        Encoder("deluxe", 4)
    g = next(play(["star"], 4, 1))
    with pytest.raises(MunchkinError, match="sets"):
        Encoder(["deluxe"], 4).encode(g, 0)
    with pytest.raises(MunchkinError, match="seat 4"):
        Encoder(["star"], 4).encode(g, 4)
    with pytest.raises(MunchkinError, match="of 4 players, not 3"):
        Encoder(["star"], 4).encode_view(Game(Setup(["star"], NAMES[:3], 1)).view(0))
    with pytest.raises(MunchkinError, match="not a scalar block"):
        Encoder(["star"], 4).scalar_names("hand")


# ------------------------------------------------------------------ what it says
@pytest.mark.parametrize("sets", [["deluxe"], ["harry-potter"], ["good-bad"], ["star", "deluxe"]], ids=str)
def test_the_vector_says_what_the_game_holds(sets: list[str]) -> None:
    """Read back against the game itself: the own hand, each relative seat's table, Level and turn,
    the fight's monsters and fighters, the decision kind."""
    players = 4
    enc = Encoder(sets, players)
    level = SEAT_SCALARS.index("level")
    fights = cards_played = houses_seen = allies = 0
    for k, g in enumerate(play(sets, players, 5, turns=40)):
        me = k % players  # every seat in turn, acting or not
        v = enc.encode(g, me)
        assert (block(enc, v, "hand") == by_definition(enc, g, g.players[me].hand)).all()
        for r in range(players):
            p = g.players[(me + r) % players]
            eq = [c for c in p.items if c in p.equipped]
            assert (block(enc, v, f"seat{r}.equipped") == by_definition(enc, g, eq)).all()
            carried = [c for c in p.items if c not in p.equipped]
            assert (block(enc, v, f"seat{r}.carried") == by_definition(enc, g, carried)).all()
            character = p.races + p.classes + p.roles + p.proficiencies
            assert (block(enc, v, f"seat{r}.character") == by_definition(enc, g, character)).all()
            assert (block(enc, v, f"seat{r}.curses") == by_definition(enc, g, p.curses)).all()
            assert (block(enc, v, f"seat{r}.sidekicks") == by_definition(enc, g, p.sidekicks)).all()
            enhancers = list(p.enhancers)
            assert (block(enc, v, f"seat{r}.item_enhancers") == by_definition(enc, g, enhancers)).all()
            seat = block(enc, v, f"seat{r}")
            assert seat[level] == np.float32(p.level / 10)
            assert seat[SEAT_SCALARS.index("hand_size")] == np.float32(len(p.hand) / 10)
            assert seat[SEAT_SCALARS.index("active")] == (p.seat == g.active)
            assert seat[SEAT_SCALARS.index("to_act")] == (p.seat in g.to_act)
            houses = seat[len(SEAT_SCALARS) :]
            assert list(houses) == [float(h == p.house) for h in enc.houses]
            houses_seen += bool(p.house)
            allies += bool(p.sidekicks) + bool(p.enhancers)  # (Deluxe has but one Hireling)
        discards = by_definition(enc, g, g.door_discard + g.treasure_discard)
        assert (block(enc, v, "discards") == discards).all()
        assert block(enc, v, "prompt")[PROMPT_KINDS.index(g.prompt.kind)] == 1
        c = g.combat
        if c is not None:
            fights += 1
            assert (block(enc, v, "fight.monsters") == by_definition(enc, g, [m.base for m in c.monsters])).all()
            own = {g.cdef[m.base].idx for m in c.monsters}  # a monster's own bonuses are no card played
            played = [e for m in c.monsters for e in m.enhancers] + [k for m in c.monsters for k, _ in m.oneshots]
            played = [k for k in played if g.cdef[k].idx not in own]
            side = [k for k, _, _ in c.side if g.cdef[k].idx not in own]
            assert (block(enc, v, "fight.monster_cards") == by_definition(enc, g, played)).all()
            assert (block(enc, v, "fight.side_cards") == by_definition(enc, g, side)).all()
            cards_played += bool(played) + bool(side)
            who = block(enc, v, "fight.fighters")
            assert who[(c.fighter - me) % players] == 1
            if c.helper >= 0:
                assert who[players + (c.helper - me) % players] == 1
        else:
            assert not block(enc, v, "combat").any() and not block(enc, v, "fight.monsters").any()
    assert fights > 10 and cards_played > 0, (fights, cards_played)
    assert bool(houses_seen) == (sets == ["harry-potter"])
    assert allies or sets == ["deluxe"], "Sidekicks, Allies or Item Enhancers never in play"


def test_an_offer_names_its_cards() -> None:
    """A gift or trade awaiting an answer, and a call for help offering cards: the cards given or
    offered, and those a trade asks for, by definition."""
    enc = Encoder(["deluxe"], 4)
    seen = Counter[str]()
    for seed in range(1, 5):
        for g in play(["deluxe"], 4, seed, turns=40):
            pr = g.prompt
            if not isinstance(pr, D.Offer | D.Help) or not g.to_act:
                continue
            a = pr.offer if isinstance(pr, D.Offer) else pr.ask
            v = enc.encode(g, pr.seats[0])
            offered, asked = block(enc, v, "moment.offered"), block(enc, v, "moment.asked")
            if a.kind == "give":
                assert (offered == by_definition(enc, g, [a.card])).all() and not asked.any()
            elif a.kind == "trade":
                assert (offered == by_definition(enc, g, [a.card])).all()
                assert (asked == by_definition(enc, g, list(a.cards))).all()
            elif a.kind == "ask":
                assert (offered == by_definition(enc, g, list(a.cards))).all()
                treasures = block(enc, v, "moment")[3:5]
                assert treasures[1] == (a.n > 0 and a.flag == "all")
                assert treasures[0] == np.float32(0 if a.flag == "all" else a.n / 5)
            seen[a.kind + (" with cards" if a.kind == "ask" and a.cards else "")] += 1
            action = block(enc, v, "moment.action")
            assert action.sum() == 1 and action[encoding.OFFER_ACTIONS.index(a.kind)] == 1
    assert min(seen["give"], seen["trade"], seen["ask"], seen["ask with cards"]) > 0, seen


# ------------------------------------------------------------------ the fast path
@pytest.mark.parametrize(
    ("sets", "players", "seed"),
    [
        (["deluxe"], 4, 21),
        (["star"], 3, 22),
        (["good-bad"], 5, 23),
        (["harry-potter"], 6, 24),
        (["star", "deluxe"], 4, 25),
        (["deluxe", "star", "good-bad", "harry-potter"], 3, 26),
    ],
    ids=["deluxe-4", "star-3", "good-bad-5", "harry-potter-6", "star+deluxe-4", "all-3"],
)
def test_encode_is_the_encoding_of_the_view(sets: list[str], players: int, seed: int) -> None:
    """`encode(game, seat)`, made from `engine.view.seat_numbers` and kept from the seat's last vector
    where its cards are unchanged, equals `encode_view(game.view(seat))` at every decision, for the
    seat waited on and for others in turn (so a seat's kept blocks are met after other moves), one
    encoder across two games (what it keeps is checked against the cards, not the game)."""
    enc, ref = Encoder(sets, players), Encoder(sets, players)
    rng = random.Random(seed)
    seen = Counter()
    for game_seed in (seed, seed + 100):
        for k, g in enumerate(play(sets, players, game_seed, turns=40)):
            seats = [g.to_act[0] if g.to_act else 0, rng.randrange(players)]
            for seat in seats:
                got, want = enc.encode(g, seat), ref.encode_view(g.view(seat, moves=False))
                bad = np.flatnonzero(got != want)
                assert bad.size == 0, f"game {game_seed}, decision {k}, seat {seat}: {bad[:10]} differ"
                assert got.dtype == np.float32 and got.shape == (enc.size,)
            seen["fight" if g.combat is not None else "no fight"] += 1
            seen[g.prompt.kind] += 1
    assert seen["fight"] > 20 and seen["offer"] + seen["help"] > 0, seen


def test_a_vector_changed_by_its_caller_changes_nothing_kept() -> None:
    """`encode` gives a new array each time: writing into it leaves the next vector as it should be."""
    enc = Encoder(["deluxe"], 4)
    for k, g in enumerate(play(["deluxe"], 4, 5, turns=10)):
        v = enc.encode(g, k % 4)
        assert (v == enc.encode_view(g.view(k % 4, moves=False))).all()
        v[:] = 3.0


# ------------------------------------------------------------------ hidden cards
def hidden_card_check(
    enc: Encoder,
    sets: list[str],
    players: int,
    seed: int,
    twin_of: Callable[[Game, int, random.Random], Game] | None = None,
) -> tuple[list[str], int, int]:
    """At every decision, for each seat: its twin (`Game.determinize(seat, rng)`: every card the seat
    cannot know dealt anew) must give the seat the same vector. Returns the moments where it did not,
    how many times another seat's own hand differed between game and twin, and how many of those
    changed that seat's vector (what shows the comparison can tell a change)."""
    rng = random.Random(seed)
    leaks: list[str] = []
    changed = told = 0
    for k, g in enumerate(play(sets, players, seed, turns=40)):
        for seat in range(players):
            r = random.Random(rng.getrandbits(32))
            twin = g.determinize(seat, r) if twin_of is None else twin_of(g, seat, r)
            if not (enc.encode(g, seat) == enc.encode(twin, seat)).all():
                leaks.append(f"decision {k}, seat {seat}")
            other = (seat + 1 + k) % players
            if other == seat:
                continue
            if Counter(g.cdef[c].idx for c in g.players[other].hand) != Counter(
                twin.cdef[c].idx for c in twin.players[other].hand
            ):
                changed += 1
                told += not (enc.encode(g, other) == enc.encode(twin, other)).all()
    return leaks, changed, told


@pytest.mark.parametrize(
    ("sets", "players", "seed"),
    [(["deluxe"], 4, 1), (["harry-potter"], 3, 2), (["good-bad"], 5, 4), (["star", "deluxe"], 6, 3)],
    ids=["deluxe-4", "harry-potter-3", "good-bad-5", "star+deluxe-6"],
)
def test_a_seat_cannot_see_hidden_cards(sets: list[str], players: int, seed: int) -> None:
    leaks, changed, told = hidden_card_check(Encoder(sets, players), sets, players, seed)
    assert leaks == [], f"the vector changed with cards the seat cannot see: {leaks[:5]}"
    assert changed > 50, "the twins never changed another seat's hand: the check would show nothing"
    assert told == changed, "a seat's own hand changed and its vector did not"


def test_a_seat_cannot_see_hidden_cards_in_an_agents_world() -> None:
    """The same with the twin an agent is given (`engine.world.world`, dealt when read)."""
    leaks, changed, told = hidden_card_check(Encoder(["deluxe"], 4), ["deluxe"], 4, 6, world)
    assert leaks == [] and changed > 50 and told == changed, (leaks[:5], changed, told)


def leak_a_hand(enc: Encoder, game: Game, seat: int, v: np.ndarray) -> None:
    """A deliberate leak: the hand of the seat on the left added to the own hand block."""
    start = next(s for b, s, _ in enc.layout() if b == "hand")
    for c in game.players[(seat + 1) % enc.players].hand:
        v[start + enc.definitions.index(game.defs[game.cdef[c].idx].id)] += 1


def leak_the_deck(enc: Encoder, game: Game, seat: int, v: np.ndarray) -> None:
    """A deliberate leak: the top Door card's definition in the moment's card block."""
    start = next(s for b, s, _ in enc.layout() if b == "moment.card")
    if game.door_deck:
        v[start + enc.definitions.index(game.defs[game.cdef[game.door_deck[-1]].idx].id)] += 1


@pytest.mark.parametrize("leak", [leak_a_hand, leak_the_deck], ids=["hand", "deck"])
def test_a_deliberate_leak_is_caught(
    monkeypatch: pytest.MonkeyPatch, leak: Callable[[Encoder, Game, int, np.ndarray], None]
) -> None:
    """The hidden-card check is not vacuous: an encoder that also reads another seat's hand, or the
    Door deck, fails it."""
    honest = Encoder.encode

    def leaky(self: Encoder, game: Game, seat: int) -> np.ndarray:
        v = honest(self, game, seat)
        leak(self, game, seat, v)
        return v

    monkeypatch.setattr(Encoder, "encode", leaky)
    leaks, _, _ = hidden_card_check(Encoder(["deluxe"], 4), ["deluxe"], 4, 1)
    assert len(leaks) > 20, "a leaking encoder passed the hidden-card check"


def test_the_docs_show_the_layout() -> None:
    """docs/rl.md's Observation section carries the Deluxe 4-player table as the encoder lays it out."""
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    assert "## Observation" in doc
    assert encoding.layout_markdown(Encoder(["deluxe"], 4)) in doc
    for players in (3, 6):
        assert f" {Encoder(['star', 'deluxe'], players).size} |" in doc
