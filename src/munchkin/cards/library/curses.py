"""Curses (and Traps) that more than one edition prints, and the cards that cancel a Curse.

A Curse's effect is a plain function: it returns a step to run, or at once whether it did anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from munchkin.cards.hooks import CardHook, hook
from munchkin.cards.library.common import neighbour
from munchkin.engine import actions as A
from munchkin.engine import changes, resolve
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.flow import Done, Frame, Out, Step

if TYPE_CHECKING:
    from munchkin.engine.game import Game
    from munchkin.engine.state import Player


def _change_kind(g: Game, p: Player, card: int, kind: str) -> bool:
    """Change Race / Change Class: lose every card of the kind; take the last one discarded, if any."""
    zone = p.races if kind == "race" else p.classes
    if not zone:
        return False
    found = -1
    for k in reversed(g.door_discard):
        d = g.cdef[k]
        if d.is_race if kind == "race" else d.is_class:
            found = k
            break
    for k in list(zone):
        changes.lose_card(g, p, k, g.cdef[card].name)
    if found >= 0:
        g.door_discard.remove(found)
        zone.append(found)
        g.events.append(E.Play(p.seat, found))
    return True


def change_race(g: Game, p: Player, card: int) -> bool:
    """Change Race: lose your Races and take the last Race discarded."""
    return _change_kind(g, p, card, "race")


def change_class(g: Game, p: Player, card: int) -> bool:
    """Change Class: lose your Classes and take the last Class discarded."""
    return _change_kind(g, p, card, "class")


class Chicken(CardHook):
    """Chicken On Your Head: -1 on the die, until the victim loses their Headgear."""

    def die_modifier(self, g: Game, p: Player) -> int:
        return -1

    def leaves_with(self, g: Game, p: Player, lost: int) -> bool:
        return g.cdef[lost].slot == "headgear"  # any Curse or Bad Stuff that takes the Headgear


def income_tax(g: Game, p: Player, card: int) -> Frame | bool:
    """Income Tax, when the victim has an Item to pay with (the rest is the step `IncomeTax`)."""
    if not p.items:
        return False
    return IncomeTax(p.seat)


@dataclass(slots=True)
class IncomeTax(Step):
    """Income Tax: the victim discards an Item; every other player pays as much in Items, or loses
    them all and a Level if they cannot."""

    seat: int
    tax: int = 0
    i: int = 0  # the next player to pay
    payer: int = -1
    paid: int = 0

    def start(self, g: Game, _: Any) -> Out:
        p = g.players[self.seat]
        return self.then("taxed", resolve.choose_card(g, p.seat, p.items, "pay Income Tax"))

    def taxed(self, g: Game, c: int) -> Out:
        self.tax = g.cdef[c].gold
        changes.lose_card(g, g.players[self.seat], c, "Income Tax")
        return self.next_payer(g, None)

    def next_payer(self, g: Game, _: Any) -> Out:
        tax = self.tax
        while self.i < len(g.players):
            q = g.players[self.i]
            self.i += 1
            if q.seat == self.seat or q.dead:
                continue
            total = sum(g.cdef[k].gold for k in q.items)
            if total < tax or tax == 0 and not q.items:
                for k in list(q.items):
                    changes.lose_card(g, q, k, "Income Tax")
                if total < tax:
                    changes.lose_levels(g, q, 1, "Income Tax")
                continue
            self.payer, self.paid = q.seat, 0
            return self.pay(g, None)
        return Done(True)

    def pay(self, g: Game, _: Any) -> Out:
        if self.paid >= self.tax:
            return self.next_payer(g, None)
        q = g.players[self.payer]
        return self.then(
            "one_paid", resolve.choose_card(g, q.seat, q.items, f"pay {self.tax - self.paid} gold of Income Tax")
        )

    def one_paid(self, g: Game, k: int) -> Out:
        self.paid += g.cdef[k].gold
        changes.lose_card(g, g.players[self.payer], k, "Income Tax")
        return self.pay(g, None)


def lose_two_cards(g: Game, p: Player, card: int) -> bool:
    """Lose Two Cards: each neighbour, left then right, picks a card from the victim's hand and takes it."""
    if not p.hand:
        return False
    for step in (1, -1):
        s = neighbour(g, p.seat, step)
        if s == p.seat or not p.hand:
            continue
        k = g.pick_card(s, p.hand)
        p.hand.remove(k)
        g.give_card(g.players[s], k)
        g.events.append(E.TakesFromHand(s, p.seat))
    return True


class WishingRing(CardHook):
    """Wishing Ring: remove a Curse kept by any player (a Curse being played is answered in its own window)."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if isinstance(g.listing, D.CurseWindow):
            return []
        out = []
        for q in g.players:
            for k in q.curses:
                out.append(Action(A.PLAY, seat, card, monster=k))
        return out

    def apply(self, g: Game, act: Action) -> None:
        changes.spend(g, g.players[act.seat], act.card)
        for q in g.players:
            if act.monster in q.curses:
                changes.lose_card(g, q, act.monster, g.cdef[act.card].name)


hook("library.change_race")(change_race)
hook("library.change_class")(change_class)
hook("library.minus_one_to_rolls")(Chicken())
hook("library.tax_items")(income_tax)
hook("library.neighbours_take_cards")(lose_two_cards)
hook("library.cancel_curse")(WishingRing())
