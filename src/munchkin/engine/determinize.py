"""A copy of the game as one seat might imagine it: what that seat cannot know is dealt anew.

A seat knows its own hand, every card on the table, the discards, and the cards it saw go into
another hand (a face-up draw, a card it gave or was shown: `Game.hand_seen`). It does not know
the other cards in the other hands nor the order of either deck. `determinize` deals those
unknown cards again at random among the places they could be: a Door card into a Door slot (an
unknown Door card of some other hand, or the Door deck), a Treasure into a Treasure slot, since
card backs show which deck a card in a hand comes from. Every count stays: each hand keeps its
size and its number of Door and Treasure cards, each deck its size. The copy's chance is
reseeded too, so its future die rolls and shuffles are unknown as well; a plain `clone()` keeps
them, for exact branching. The deal starts from the unknown cards in a canonical order, never from
where they truly lie, so a copy tells nothing about the real deal even to one who knows the generator.

The copy is a hypothesis: its log is the real game's, so it cannot be saved or replayed.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from munchkin.engine import events as E
from munchkin.engine.core import EVERYONE
from munchkin.engine.decisions import moved_cards
from munchkin.engine.flow import Step

if TYPE_CHECKING:
    from munchkin.engine.game import Game

DECKS = ("door", "treasure")


def knows(g: Game, observer: int | None, card: int) -> bool:
    """Whether `observer` (None: a spectator) knows that `card` is in the hand that holds it."""
    seen = g.hand_seen.get(card, 0)
    return seen == EVERYONE or (observer is not None and (seen >> observer) & 1 == 1)


def unknown_slots(g: Game, observer: int | None, deck: str) -> list[tuple[int, int]]:
    """The places in other hands (seat, index) holding a card of `deck` that `observer` does not know."""
    cdef = g.cdef
    return [(s, i) for s, i, c in _unknown(g, observer) if cdef[c].deck == deck]


def _unknown(g: Game, observer: int | None) -> list[tuple[int, int, int]]:
    """Every place in another hand whose card `observer` does not know (as `knows` says): (seat, index, card)."""
    seen = g.hand_seen
    mine = 0 if observer is None else 1 << observer
    return [
        (q.seat, i, c)
        for q in g.players
        if q.seat != observer
        for i, c in enumerate(q.hand)
        if (m := seen.get(c, 0)) != EVERYONE and not m & mine
    ]


def determinize(g: Game, observer: int | None, rng: random.Random) -> Game:
    """A copy of `g` in which every card `observer` cannot know is dealt again at random among the
    places it could be, and whose chance is reseeded from `rng`. `observer`'s view of the copy is
    its view of `g`.

    The copy is a function of what `observer` knows and of `rng` alone: the unknown cards are
    gathered in a canonical order (by card number) before they are shuffled, so the order they lay
    in (the true deck order, the true hands) never reaches the deal; the events name no card the
    observer could not see (`masked_events`), and the setup carries neither the seed nor a
    scenario's table. Two games that differ only in cards the observer cannot see give the same
    copy from the same generator, so knowing the generator tells the observer nothing."""
    reseed, keys, _ = _draw(g, observer, rng)
    return _deal(g, observer, reseed, keys)


def _draw(g: Game, observer: int | None, rng: random.Random) -> tuple[int, list[bytes], set[int]]:
    """What a deal takes from `rng`, taken at once (a world dealt later deals the same): the seed of
    the copy's chance and each deck's shuffle keys; with the cards in the unknown places."""
    reseed = rng.getrandbits(63)
    cdef = g.cdef
    hidden = {c for _, _, c in _unknown(g, observer)}
    doors = sum(cdef[c].deck == "door" for c in hidden)
    keys: list[bytes] = []
    for n in (doors + len(g.door_deck), len(hidden) - doors + len(g.treasure_deck)):
        keys.append(rng.randbytes(4 * n) if n > 1 else b"")
    return reseed, keys, hidden


def _deal(g: Game, observer: int | None, reseed: int, keys: list[bytes]) -> Game:
    """The determinized copy of `g` for `observer`, from the draws `_draw` took."""
    # never saved, so no log; chance unknown; cards will move, so no cached action lists
    d = g._copy(history=False, reseed=reseed, caches=False, events=masked_events(g, observer))
    moved: dict[int, int] = {}  # old card -> the card now in its place
    for deck, key in zip(DECKS, keys, strict=True):
        slots = unknown_slots(d, observer, deck)
        pile = d.door_deck if deck == "door" else d.treasure_deck
        old = [d.players[s].hand[i] for s, i in slots]
        seen = [d.hand_seen.pop(c, 0) for c in old]  # who knew each place's card (its holder at least)
        received = [c in d.players[s].received for (s, _), c in zip(slots, old, strict=True)]
        for (s, _), c in zip(slots, old, strict=True):
            d.players[s].received.discard(c)
        new = _ordered(sorted(old + pile), key)  # canonical first: where the cards lay is not dealt from
        for (s, i), was, now, mask, fresh in zip(slots, old, new, seen, received, strict=False):
            q = d.players[s]
            q.hand[i] = now
            d.hand_seen[now] = mask | (1 << s)  # known to whoever knew which card was in that place
            if fresh:  # received this turn, as the card it stands for was
                q.received.add(now)
            if was != now:
                moved[was] = now  # only hand cards can be held by a rule in progress
        pile[:] = new[len(slots) :]
    for q in d.players:  # a card received this turn that has left the hand since (given, looted from
        if q.seat != observer and q.received:  # a body) may sit in a hidden place now: forget it, as
            q.received.intersection_update(q.hand)  # the rules do (they ask only of cards in hand)
    if moved:
        _remap_flow(d, moved)
    d.setup = _unseeded(g)
    d.seeded = False
    d.hypothetical = True
    return d


_UNSEEDED: dict[int, tuple[Any, Any]] = {}  # id of a setup -> (that setup, its copy without seed nor table)


def _unseeded(g: Game) -> Any:
    """The game's setup without its seed or a scenario's table (what a world may carry), made once
    per setup: every world of a game shares it."""
    kept = _UNSEEDED.get(id(g.setup))
    if kept is None or kept[0] is not g.setup:
        if len(_UNSEEDED) > 256:
            _UNSEEDED.clear()
        s = g.setup
        kept = _UNSEEDED[id(s)] = (s, replace(s, seed=None, scenario=None if s.scenario is None else {}))
    return kept[1]


def shuffled(cards: list[int], rng: random.Random) -> list[int]:
    """`cards` in a uniformly random order drawn from `rng` (see `_ordered`)."""
    return _ordered(cards, rng.randbytes(4 * len(cards)) if len(cards) > 1 else b"")


def _ordered(cards: list[int], key: bytes) -> list[int]:
    """`cards` sorted by random 32-bit keys (`key`, four bytes a card); a tie (about one deal in
    30,000 for a hundred cards) keeps the canonical order between the two."""
    n = len(cards)
    if n < 2:
        return list(cards)
    keys = memoryview(key).cast("I").tolist()
    order = sorted(range(n), key=keys.__getitem__)
    return [cards[i] for i in order]


TAIL = 2  # the last events, which a rule may still rewrite in place (a Run Away roll's modifiers)


def masked_events(g: Game, observer: int | None) -> list[E.Event]:
    """The events as `observer` may know them: where one names a card it could not see, the card
    is -1 (the event keeps its place and shape, so the rules that look back over the events read
    them as before). Kept per observer on the game and extended as events come (the last few read
    again), so a world costs a list copy, not a pass over the whole history."""
    events = g.events
    kept = g._masked_events.get(observer)
    if kept is None or len(kept) > len(events):
        kept = g._masked_events[observer] = []
    del kept[max(0, len(kept) - TAIL) :]
    for ev in events[len(kept) :]:
        kept.append(_mask(ev, observer) if ev[0] in HIDING else ev)
    return kept.copy()


# the kinds of event that may name a card some seats may not see
HIDING = frozenset({"draw", "charity", "looted", "keep"})


def _mask(ev: E.Event, observer: int | None) -> E.Event:
    """`ev` with the cards `observer` may not see (as its narration hides them, `events.py`) as -1."""
    kind = ev[0]
    if kind == "draw" and not ev[4] and ev[1] != observer:  # face-down, and not the drawer's
        return E.Draw(ev[1], ev[2], tuple(-1 for _ in ev[3]), ev[4])
    if kind == "charity" and observer not in (ev[1], ev[2]):  # seen by giver and taker alone
        return E.Charity(ev[1], ev[2], -1)
    if kind == "looted" and ev[1] != observer:  # seen by the looter alone
        return E.Looted(ev[1], ev[2], -1)
    if kind == "keep" and not ev[3] and ev[1] != observer:  # a Door kept unseen: its drawer alone knows it
        return E.Keep(ev[1], -1, ev[3])
    return ev


def _remap_flow(d: Game, moved: dict[int, int]) -> None:
    """Point the rules in progress at the cards now in the places of those that moved: the cards
    a step holds (its CARDS fields) and those the decision waited on holds (its CARDS fields)."""
    for f in d._stack:
        if isinstance(f, Step):
            for name in type(f).CARDS:
                setattr(f, name, moved_cards(getattr(f, name), moved))
    d._prompt = d._prompt.with_cards(moved)


__all__ = ["determinize", "knows", "masked_events", "shuffled", "unknown_slots"]
