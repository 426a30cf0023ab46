"""Hooks for the Star Munchkin cards whose effects the vocabulary cannot say.

Most Star cards that need a hook work like a Deluxe card: they register a Deluxe hook
class (a new instance, or the shared object where the class keeps no per-card state)
under the Star card's id. Only Annihilate and Antimatter need a new class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from munchkin.cards.hooks import CardHook
from munchkin.cards.loader import hook
from munchkin.engine import actions as A
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.sets.deluxe.hooks import (
    Baby,
    Cheat,
    Doppleganger,
    FriendshipPotion,
    Hoard,
    Illusion,
    InstantWall,
    LevelCard,
    Mate,
    OutToLunch,
    RemoveOne,
    RollCard,
    WanderingMonster,
    WandOfDowsing,
    WishingRing,
    _Attachment,
    _in_combat_window,
    _own_turn_free,
    _uniq,
    change_class,
    change_race,
    income_tax,
)

if TYPE_CHECKING:
    from munchkin.engine.game import Game


# ------------------------------------------------------------------ character cards
hook("star.half_breed")(_Attachment("race"))
hook("star.super_munchkin")(_Attachment("class"))
hook("star.cheat")(Cheat())

# ------------------------------------------------------------------ combat specials
hook("star.wandering_monster")(WanderingMonster())
hook("star.and_its_clone")(Mate(word="Clone", run_penalty=0))
hook("star.hologram")(Illusion())
hook("star.shift_change")(OutToLunch())

# ------------------------------------------------------------------ enhancers
hook("star.larval")(Baby())

# ------------------------------------------------------------------ Traps (curses)
hook("star.genetic_accident")(change_race)
hook("star.reassigned_to_waste_disposal")(change_class)
hook("star.docking_fee")(income_tax)


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
            if c is None or not _in_combat_window(g):
                return []
            seats = list(c.fighters())
        else:
            if not _own_turn_free(g, seat):
                return []
            seats = [q.seat for q in g.players]
        out = []
        for s in seats:
            q = g.players[s]
            if q.dead:
                continue
            items = _uniq(g, [k for k in q.items if g.cdef[k].is_item])
            out += [Action(A.PLAY, seat, card, q.seat, cards=(k,), flag="destroy") for k in items]
        return out

    def apply(self, g: Game, act: Action) -> None:
        g.spend(g.players[act.seat], act.card)
        q = g.players[act.target]
        item = act.cards[0]
        if item in q.items:
            g.lose_card(q, item, g.cdef[act.card].name)
        g.events.append(E.Destroy(act.seat, act.target, item, act.card))


hook("star.annihilate")(DestroyItem(in_combat=False))
hook("star.antimatter")(DestroyItem(in_combat=True))

hook("star.emergency_teleporter")(RollCard("invisibility"))
hook("star.smoke_screen")(InstantWall())
hook("star.tractor_beam")(RollCard("glue"))
hook("star.improbability_die")(RollCard("loaded"))
hook("star.freeze_ray")(RemoveOne(own_turn=False, always_treasure=True))
hook("star.peace_treaty")(FriendshipPotion())
hook("star.replicator")(Doppleganger())
hook("star.reset_button")(WishingRing())
hook("star.salvage_scanner")(WandOfDowsing())

# ------------------------------------------------------------------ other Treasures
hook("star.blame_the_sidekick")(LevelCard("kill_hireling"))
hook("star.borrow_some_experience")(LevelCard("steal"))
hook("star.cargo_hold")(Hoard())
