"""Hooks for the Good, the Bad, and the Munchkin cards whose effects neither the vocabulary nor
the shared hook library (`munchkin.cards.library`) can say.

Most cards that need a hook name a `library.` hook in their YAML. Here are only variants of a
library class this edition alone prints (Cheat! on a Sidekick, ...And His Twin Brother, Bushwhack
the Sidekick) and the Sheriff's Badge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from munchkin.cards.hooks import CardHook
from munchkin.cards.library import Cheat, LevelCard, Mate
from munchkin.cards.loader import hook

if TYPE_CHECKING:
    from munchkin.engine.game import Game
    from munchkin.engine.state import Player

# ------------------------------------------------------------------ character cards
hook("good_bad.cheat")(Cheat(sidekicks=True))  # an Item, or (any time) a Sidekick

# ------------------------------------------------------------------ combat specials
hook("good_bad.and_his_twin_brother")(Mate(word="Twin Brother", run_penalty=0))


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

# ------------------------------------------------------------------ other Treasures
hook("good_bad.bushwhack_the_sidekick")(LevelCard("kill_sidekick"))
