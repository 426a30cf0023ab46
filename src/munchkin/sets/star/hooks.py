"""Hooks for the Star Munchkin cards whose effects neither the vocabulary nor the shared hook
library (`munchkin.cards.library`) can say.

Most Star cards that need a hook name a `library.` hook in their YAML. Here are only
...And Its Clone (a Mate that is no harder to Run Away from), and Annihilate and Antimatter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from munchkin.cards.hooks import CardHook
from munchkin.cards.library import Mate, in_combat_window, own_turn_free, uniq
from munchkin.cards.loader import hook
from munchkin.engine import actions as A
from munchkin.engine import changes
from munchkin.engine import events as E
from munchkin.engine.actions import Action

if TYPE_CHECKING:
    from munchkin.engine.game import Game


# ------------------------------------------------------------------ combat specials
hook("star.and_its_clone")(Mate(word="Clone", run_penalty=0))


# ------------------------------------------------------------------ one-shots
class DestroyItem(CardHook):
    """Annihilate and Antimatter: destroy one Item in play (one barrel of a combined laser).

    Annihilate (`in_combat=False`) is played on its owner's own turn outside combat, on any
    player's Items; Antimatter (`in_combat=True`) in a combat window, on the Items of the
    players in the fight.
    """

    def __init__(self, in_combat: bool) -> None:
        self.in_combat = in_combat

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if self.in_combat:
            c = g.combat
            if c is None or not in_combat_window(g):
                return []
            seats = list(c.fighters())
        else:
            if not own_turn_free(g, seat):
                return []
            seats = [q.seat for q in g.players]
        out = []
        for s in seats:
            q = g.players[s]
            if q.dead:
                continue
            items = uniq(g, [k for k in q.items if g.cdef[k].is_item])
            out += [Action(A.PLAY, seat, card, q.seat, cards=(k,), flag="destroy") for k in items]
        return out

    def apply(self, g: Game, act: Action) -> None:
        changes.spend(g, g.players[act.seat], act.card)
        q = g.players[act.target]
        item = act.cards[0]
        if item in q.items:
            changes.lose_card(g, q, item, g.cdef[act.card].name)
        g.events.append(E.Destroy(act.seat, act.target, item, act.card))


hook("star.annihilate")(DestroyItem(in_combat=False))
hook("star.antimatter")(DestroyItem(in_combat=True))
