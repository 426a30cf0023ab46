"""Hooks for the Good, the Bad, and the Munchkin cards whose effects the vocabulary cannot say.

Most of them work like a Deluxe card: they register a Deluxe hook class (a new instance, or
the Deluxe function) under the good_bad card's id. Only the Sheriff's Badge needs a new class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from munchkin.cards.hooks import CardHook
from munchkin.cards.loader import hook
from munchkin.sets.deluxe.hooks import (
    Baby,
    Cheat,
    Chicken,
    Doppleganger,
    FriendshipPotion,
    HelpMeOutHere,
    Hoard,
    Illusion,
    InstantWall,
    LevelCard,
    Mate,
    OutToLunch,
    RemoveOne,
    RollCard,
    TransferralPotion,
    WanderingMonster,
    WandOfDowsing,
    WishingRing,
    _Attachment,
    change_class,
    income_tax,
    lose_two_cards,
)

if TYPE_CHECKING:
    from munchkin.engine.game import Game
    from munchkin.engine.state import Player


# ------------------------------------------------------------------ character cards
hook("good_bad.super_munchkin")(_Attachment("class"))
hook("good_bad.cheat")(Cheat(sidekicks=True))  # an Item, or (any time) a Sidekick

# ------------------------------------------------------------------ combat specials
hook("good_bad.wandering_monster")(WanderingMonster())
hook("good_bad.ambush")(WanderingMonster())
hook("good_bad.and_his_twin_brother")(Mate(word="Twin Brother", run_penalty=0))
hook("good_bad.mirage")(Illusion())
hook("good_bad.siesta")(OutToLunch())
hook("good_bad.hold_up")(HelpMeOutHere())

# ------------------------------------------------------------------ monster enhancers
hook("good_bad.hung_over")(Baby())
hook("good_bad.dead_tired")(Baby())

# ------------------------------------------------------------------ Traps (curses)
hook("good_bad.career_change")(change_class)
hook("good_bad.tax_collector")(income_tax)
hook("good_bad.buzzard_on_your_head")(Chicken())
hook("good_bad.sticky_fingers")(lose_two_cards)


# ------------------------------------------------------------------ Items
class SheriffsBadge(CardHook):
    """The Sheriff's Badge: a player wearing a Deputy's Badge cannot refuse to help its wearer.

    The engine keeps the rest of the compelled-help rule: never in a fight for the win, and a
    compelled helper may back out once the fight becomes one.
    """

    def compels_help(self, g: Game, p: Player, helper: Player) -> bool:
        if helper.seat == p.seat:
            return False
        return any(g.cdef[k].name == "Deputy's Badge" for k in helper.equipped)


hook("good_bad.sheriffs_badge")(SheriffsBadge())

# ------------------------------------------------------------------ one-shots
hook("good_bad.snake_oil")(WishingRing())
hook("good_bad.patent_medicine")(WishingRing())
hook("good_bad.skedaddle")(RollCard("invisibility"))
hook("good_bad.dust_cloud")(InstantWall())
hook("good_bad.ride_off_into_the_sunset")(InstantWall())
hook("good_bad.tar_and_feathers")(RollCard("glue"))
hook("good_bad.ace_up_your_sleeve")(RollCard("loaded"))
hook("good_bad.round_of_drinks")(FriendshipPotion())
hook("good_bad.tall_tale")(RemoveOne(own_turn=False, always_treasure=True))
hook("good_bad.lasso_trick")(RemoveOne(own_turn=True, always_treasure=False))
hook("good_bad.mistaken_identity")(TransferralPotion())
hook("good_bad.divining_rod")(WandOfDowsing())
hook("good_bad.double_or_nothing")(Doppleganger())

# ------------------------------------------------------------------ other Treasures
hook("good_bad.jump_the_claim")(LevelCard("steal"))
hook("good_bad.win_at_poker")(LevelCard("steal"))
hook("good_bad.bushwhack_the_sidekick")(LevelCard("kill_sidekick"))
hook("good_bad.complain_to_the_trail_boss")(LevelCard("whine"))
hook("good_bad.cry_uncle")(LevelCard("whine"))
hook("good_bad.strike_it_rich")(Hoard())
hook("good_bad.bank_job")(Hoard())
