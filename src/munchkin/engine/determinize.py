"""A copy of the game as one seat might imagine it: what that seat cannot know is dealt anew.

A seat knows its own hand, every card on the table, the discards, and the cards it saw go into
another hand (a face-up draw, a card it gave or was shown: `Game.hand_seen`). It does not know
the other cards in the other hands nor the order of either deck. `determinize` deals those
unknown cards again at random among the places they could be: a Door card into a Door slot (an
unknown Door card of some other hand, or the Door deck), a Treasure into a Treasure slot, since
card backs show which deck a card in a hand comes from. Every count stays: each hand keeps its
size and its number of Door and Treasure cards, each deck its size. The copy's chance is
reseeded too, so its future die rolls and shuffles are unknown as well; a plain `clone()` keeps
them, for exact branching.

The copy is a hypothesis: its log is the real game's, so it cannot be saved or replayed.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

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
    return [
        (q.seat, i)
        for q in g.players
        if q.seat != observer
        for i, c in enumerate(q.hand)
        if cdef[c].deck == deck and not knows(g, observer, c)
    ]


def determinize(g: Game, observer: int | None, rng: random.Random) -> Game:
    """A copy of `g` in which every card `observer` cannot know is dealt again at random among the
    places it could be, and whose chance is reseeded from `rng`. `observer`'s view of the copy is
    its view of `g`."""
    # never saved, so no log; chance unknown; cards will move, so no cached action lists
    d = g._copy(history=False, reseed=rng.getrandbits(63), caches=False)
    moved: dict[int, int] = {}  # old card -> the card now in its place
    for deck in DECKS:
        slots = unknown_slots(d, observer, deck)
        pile = d.door_deck if deck == "door" else d.treasure_deck
        old = [d.players[s].hand[i] for s, i in slots]
        seen = [d.hand_seen.pop(c, 0) for c in old]  # who knew each place's card (its holder at least)
        received = [c in d.players[s].received for (s, _), c in zip(slots, old, strict=True)]
        for (s, _), c in zip(slots, old, strict=True):
            d.players[s].received.discard(c)
        pool = old + pile
        random_ = rng.random
        new = sorted(pool, key=lambda _: random_())  # a uniform order (ties have no chance to matter)
        for (s, i), was, now, mask, fresh in zip(slots, old, new, seen, received, strict=False):
            q = d.players[s]
            q.hand[i] = now
            d.hand_seen[now] = mask | (1 << s)  # known to whoever knew which card was in that place
            if fresh:  # received this turn, as the card it stands for was
                q.received.add(now)
            if was != now:
                moved[was] = now  # only hand cards can be held by a rule in progress
        pile[:] = new[len(slots) :]
    if moved:
        _remap_flow(d, moved)
    d.seeded = False
    d.hypothetical = True
    return d


def _remap_flow(d: Game, moved: dict[int, int]) -> None:
    """Point the rules in progress at the cards now in the places of those that moved: the cards
    a step holds (its CARDS fields) and those the decision waited on holds (its CARDS fields)."""
    for f in d._stack:
        if isinstance(f, Step):
            for name in type(f).CARDS:
                setattr(f, name, moved_cards(getattr(f, name), moved))
    d._prompt = d._prompt.with_cards(moved)


__all__ = ["determinize", "knows", "unknown_slots"]
