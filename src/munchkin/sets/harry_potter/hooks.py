"""Hooks for the Munchkin Harry Potter Deluxe cards whose effects the vocabulary cannot say.

All the cards' hooks register a Deluxe hook class (a new instance, or the Deluxe function) under
the harry_potter card's id. Only Potions has a class of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from munchkin.cards.hooks import CardHook
from munchkin.cards.loader import hook
from munchkin.engine import actions as A
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.sets.deluxe.hooks import (
    Baby,
    Cheat,
    Doppleganger,
    FriendshipPotion,
    Hoard,
    InstantWall,
    LevelCard,
    RemoveOne,
    RollCard,
    SandalsOfProtection,
    TransferralPotion,
    WanderingMonster,
    WandOfDowsing,
    WishingRing,
    _Attachment,
    lose_two_cards,
)

if TYPE_CHECKING:
    from munchkin.engine.game import Game


# ------------------------------------------------------------------ Roles and Proficiencies
hook("harry_potter.dual_role")(_Attachment("role"))  # Super Munchkin for Roles
hook("harry_potter.occlumency")(SandalsOfProtection())  # drawn Curses do not affect its owner


class Potions(CardHook):
    """Potions (Proficiency, Rank 3): once per turn, on your own turn outside combat, discard two
    cards from your hand to draw one face-down Treasure (asked of the card in play)."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        p = g.players[seat]
        if card not in p.proficiencies or g.combat is not None or seat != g.active or g.listing is not D.FREE:
            return []
        if len(p.hand) < 2 or self._used_this_turn(g, seat, card):
            return []
        out: list[Action] = []
        seen: set[tuple[int, int]] = set()
        cdef = g.cdef
        for i, x in enumerate(p.hand):
            for y in p.hand[i + 1 :]:
                key = (min(cdef[x].idx, cdef[y].idx), max(cdef[x].idx, cdef[y].idx))
                if key not in seen:  # identical copies make the same action
                    seen.add(key)
                    flag = f"discarding {cdef[x].name}, {cdef[y].name}"  # the notation shows the pair
                    out.append(Action(A.USE, seat, card, cards=(x, y), flag=flag))
        return out

    def apply(self, g: Game, act: Action) -> None:
        p = g.players[act.seat]
        g.events.append(E.Brew(act.seat, act.card))  # silent in narration; marks the use this turn
        for x in act.cards:
            g.spend(p, x)
            g.events.append(E.Discard(act.seat, x))
        g.draw_to_hand(p, "treasure", 1)

    @staticmethod
    def _used_this_turn(g: Game, seat: int, card: int) -> bool:
        for ev in reversed(g.events):
            if ev[0] == "turn":
                return False
            if ev[0] == "brew" and ev[1] == seat and ev[2] == card:
                return True
        return False


hook("harry_potter.potions")(Potions())

# ------------------------------------------------------------------ other Door cards
hook("harry_potter.cheat")(Cheat())  # Items only: this set never puts Cheat! on an Ally
hook("harry_potter.wandering_monster")(WanderingMonster())
hook("harry_potter.reducio")(Baby())  # never below Level 1 or 1 Treasure

# ------------------------------------------------------------------ Curses and Bad Stuff
hook("harry_potter.imperio")(lose_two_cards)
hook("harry_potter.peeves")(lose_two_cards)

# ------------------------------------------------------------------ one-shots
hook("harry_potter.polyjuice_potion")(TransferralPotion())
hook("harry_potter.amortentia")(FriendshipPotion())
hook("harry_potter.evanesco")(RemoveOne(own_turn=True, always_treasure=False))
hook("harry_potter.vera_verto")(RemoveOne(own_turn=False, always_treasure=True))
hook("harry_potter.portkey")(InstantWall())
hook("harry_potter.peruvian_instant_darkness_powder")(RollCard("invisibility"))
hook("harry_potter.incarcerous")(RollCard("glue"))
hook("harry_potter.time_turner")(RollCard("loaded"))
hook("harry_potter.accio")(WandOfDowsing())
hook("harry_potter.finite_incantatem")(WishingRing())
hook("harry_potter.bezoar")(WishingRing())
hook("harry_potter.expecto_patronum")(Doppleganger())

# ------------------------------------------------------------------ other Treasures
hook("harry_potter.points_deducted")(LevelCard("steal"))
hook("harry_potter.complain_to_mcgonagall")(LevelCard("whine"))
hook("harry_potter.gringotts_vault")(Hoard())
