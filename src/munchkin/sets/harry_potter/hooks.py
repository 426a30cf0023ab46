"""Hooks for the Munchkin Harry Potter Deluxe cards whose effects neither the vocabulary nor the
shared hook library (`munchkin.cards.library`) can say.

Most cards that need a hook name a `library.` hook in their YAML. Here are only Dual Role (the
library's attachment, to a Role) and Potions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from munchkin.cards.hooks import CardHook
from munchkin.cards.library import Attachment
from munchkin.cards.loader import hook
from munchkin.engine import actions as A
from munchkin.engine import changes
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action

if TYPE_CHECKING:
    from munchkin.engine.game import Game


# ------------------------------------------------------------------ Roles and Proficiencies
hook("harry_potter.dual_role")(Attachment("role"))  # Super Munchkin for Roles


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
            changes.spend(g, p, x)
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
