"""The decisions the game waits on are typed records of plain data that list what they offer and
say why an action is refused (engine/decisions.py)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from munchkin.agents.base import decide, make_agent
from munchkin.engine import actions as A
from munchkin.engine import decisions as D
from munchkin.engine.actions import Action, IllegalAction
from munchkin.engine.game import Game, Options, Setup

EDITIONS = [["deluxe"], ["star"], ["good-bad"], ["harry-potter"], ["star", "deluxe"]]
NAMES = ["Ann", "Ben", "Cy", "Di"]


def _plain(v: object) -> bool:
    """Whether `v` is plain data: numbers, strings, None, Actions and tuples of them."""
    if v is None or type(v) in (int, str, bool):
        return True
    if type(v) is Action:
        return all(_plain(x) for x in v)
    if type(v) is tuple:
        return all(_plain(x) for x in v)
    return False


def _games(sets: list[str], seeds: range) -> list[Game]:
    """Seeded bot games of `sets`, stopped at random moments (every decision kept)."""
    out = []
    for seed in seeds:
        g = Game(Setup(sets, NAMES, seed, Options(turn_cap=60)))
        bots = [make_agent("heuristic" if i % 2 else "random", seed * 31 + i) for i in range(4)]
        while not g.over:
            seat = g.to_act[0]
            g.apply(decide(bots[seat], g, seat))
            out.append(g.clone(history=False))
    return out


@pytest.mark.parametrize("sets", EDITIONS, ids=["+".join(s) for s in EDITIONS])
def test_every_decision_is_a_typed_record_of_plain_data_offering_the_legal_actions(sets: list[str]) -> None:
    kinds: set[str] = set()
    rng = random.Random(7)
    moments = _games(sets, range(3))
    for g in rng.sample(moments, min(400, len(moments))) + moments[-5:]:
        pr = g.prompt
        assert isinstance(pr, D.Decision) and type(pr) is not D.Decision
        assert pr.kind == type(pr).kind and pr.kind
        for f in dataclasses.fields(pr):
            assert _plain(getattr(pr, f.name)), f"{type(pr).__name__}.{f.name} holds {getattr(pr, f.name)!r}"
        for name in type(pr).CARDS:
            assert name in {f.name for f in dataclasses.fields(pr)}
        assert set(pr.own(g)) <= set(pr.seats)
        assert pr.rule()
        for seat in pr.seats:
            listed = g.legal_actions(seat)  # the decision's offers, then the seat's any-time actions
            assert pr.offers(g, seat) + g.any_time(seat) == listed
            for a in g.legal_actions(seat):
                assert pr.verify(g, a) is None
        kinds.add(pr.kind)
    assert {"main", "window", "over"} <= kinds


def test_a_refused_action_names_the_rule_and_changes_nothing() -> None:
    refused = 0
    for g in _games(["deluxe"], range(2))[::7]:
        if g.over:
            continue
        pr = g.prompt
        fp = g.state_digest()
        others = [s for s in range(len(g.players)) if s not in pr.seats]
        for s in others[:1]:  # someone not waited on
            why = pr.verify(g, Action(A.PASS, s))
            assert why is not None and "may not act now; waiting on" in why
        seat = pr.seats[0]
        offered = {a.kind for a in g.legal_actions(seat)}
        for kind in (A.KICK, A.LOOT, A.RUN, A.ACCEPT):
            a = Action(kind, seat)
            if kind in offered:
                continue
            why = pr.verify(g, a)
            assert why, f"{kind} refused without a reason at {pr.kind}"
            with pytest.raises(IllegalAction) as err:
                g.apply(a)
            assert str(err.value) == why
            assert g.state_digest() == fp
            refused += 1
    assert refused > 50


def test_the_refusal_says_what_the_moment_allows() -> None:
    g = Game(Setup(["deluxe"], NAMES, 3))
    while g.phase == "setup":
        g.play("ready")
    assert isinstance(g.prompt, D.Main) and g.prompt.stage == "start"
    with pytest.raises(IllegalAction, match=r"not legal now \(the start of the turn: Kick Open The Door"):
        g.play("loot the room")


def test_every_kind_has_one_record_type() -> None:
    """Each kind the view and notation name is made by exactly one record type (Before's kin share one)."""
    kinds: dict[str, list[str]] = {}
    for name in D.__all__:
        cls = getattr(D, name)
        if isinstance(cls, type) and issubclass(cls, D.Decision) and cls is not D.Decision:
            if not issubclass(cls, D.Before) or cls is D.Before:
                kinds.setdefault(cls.kind, []).append(cls.__name__)
    assert all(len(v) == 1 for v in kinds.values()), kinds
    from munchkin.engine import state

    named = {v for k, v in vars(state).items() if k.isupper() and isinstance(v, str)}
    assert named <= set(kinds), named - set(kinds)


# the legal actions `verify` accepts though no list holds them (each documented in legal.verify_unlisted):
# sales of any Items worth a level, bribes of any Items, thefts paid with any card, several cards at once
UNLISTED_KINDS = {A.SELL, A.ASK, A.STEAL, A.BERSERK, A.TURNING, A.FLIGHT}


def _probes(g: Game, seat: int, listed: list[Action], rng: random.Random) -> list[Action]:
    """The listed actions and near misses of them: another card the seat holds or someone has in
    play, another target, another kind, another seat."""
    cards = [*g.players[seat].hand, *[c for p in g.players for c in p.items], *g.players[seat].character_cards()]
    out = list(listed)
    for a in rng.sample(listed, min(12, len(listed))):
        if cards:
            out.append(a._replace(card=rng.choice(cards)))
        out.append(a._replace(target=rng.randrange(-1, len(g.players))))
        out.append(a._replace(kind=rng.choice([A.PLAY, A.EQUIP, A.UNEQUIP, A.DISCARD, A.KICK, A.END, A.PASS])))
        out.append(a._replace(seat=(a.seat + 1) % len(g.players)))
    return out


@pytest.mark.parametrize("sets", [*EDITIONS, ["good-bad", "deluxe"], ["harry-potter", "deluxe"]], ids="+".join)
def test_verify_and_the_list_agree(sets: list[str]) -> None:
    """Legality without listing: in a copy that has listed nothing, `why_illegal` (the decision's
    `verify`, looking only where the action could be) accepts every listed action, and of the near
    misses it accepts exactly those the full list (or the documented unlisted forms) accepts."""
    rng = random.Random(3)
    moments = _games(sets, range(2))
    checked = unlisted = narrowed = 0
    for g in rng.sample(moments, min(80, len(moments))):
        if g.over:
            continue
        for seat in range(len(g.players)):
            listed = g.legal_actions(seat)
            for a in _probes(g, seat, listed, rng):
                fresh = g._copy(history=False, reseed=None, caches=False)  # nothing listed yet
                verdict = fresh.why_illegal(a)
                if a in g.legal_actions(a.seat):
                    assert verdict is None, f"{g.text(a)} is listed but refused: {verdict}"
                    narrow = type(g.prompt) is D.Main and g.prompt.stage != "create" or type(g.prompt) is D.EndWindow
                    if narrow or a.seat not in g.to_act:
                        assert fresh.listed(a.seat) is None, "the whole list was made to check one action"
                        narrowed += 1
                    continue
                reference = g.why_illegal(a)  # the list at hand, then the unlisted forms
                assert (verdict is None) == (reference is None), f"{a}: {verdict!r} against {reference!r}"
                if verdict is None:
                    assert a.kind in UNLISTED_KINDS, f"{g.text(a)} is accepted but not listed"
                    unlisted += 1
                checked += 1
    assert checked > 500 and narrowed > 200, (checked, narrowed)


@pytest.mark.parametrize("sets", [*EDITIONS, ["good-bad", "deluxe"], ["harry-potter", "deluxe"]], ids="+".join)
def test_the_cached_gifts_trades_and_sales_are_those_listed_afresh(sets: list[str]) -> None:
    """The lists of gifts, trades and sales are cached by a key of what they read: one cache shared
    by every moment of several seeded games (so that a key missing a change meets a table that
    differs only there), and at every moment, for every seat, the cached list is the list made afresh."""
    from munchkin.engine import legal

    exchanges: dict[tuple[object, ...], list[Action]] = {}
    sales: dict[tuple[object, ...], list[Action]] = {}
    compared = 0
    for g in _games(sets, range(4)):
        g._exchange_cache, g._sale_cache = exchanges, sales
        fresh = g._copy(history=False, reseed=None, caches=False)
        for p, q in zip(g.players, fresh.players, strict=True):
            for gifts in (True, False):
                assert legal.exchange_actions(g, p, gifts) == legal.exchange_actions(fresh, q, gifts), (p.seat, gifts)
                fresh._exchange_cache.clear()
            assert legal.sale_actions(g, p) == legal.sale_actions(fresh, q), p.seat
            fresh._sale_cache.clear()
            compared += bool(p.items)
    assert compared > 600, compared


@pytest.mark.parametrize("sets", [["deluxe"], ["star", "deluxe"], ["good-bad"]], ids="+".join)
def test_the_sale_search_stops_only_where_no_sale_can_be_reached(sets: list[str]) -> None:
    """The sales are found by a search that stops adding Items where even all those left could not
    make a Level: it lists the very sales, in the same order, as the search that never stops early,
    for every player with something to sell at every moment of seeded games, with and without a
    double sale."""
    from munchkin.engine import characters, legal
    from munchkin.engine.rules import WINNING_LEVEL

    compared = 0
    for g in _games(sets, range(3)):
        for p in g.players:
            room = WINNING_LEVEL - 1 - p.level
            items = [c for c in characters.sellable(g, p) if g.cdef[c].gold > 0]
            if room <= 0 or not items:
                continue
            gold = {c: characters.sale_value(g, p, c) for c in items}
            for double in (False, True):
                pruned = legal._sales(g, p, list(items), room, double, gold)
                assert pruned == legal._sales(g, p, list(items), room, double, gold, prune=False), (p.seat, items)
                compared += bool(pruned)
    assert compared > 200, compared
