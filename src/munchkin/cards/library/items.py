"""Items with a standing rule while carried: the engine asks them at the moment the rule applies."""

from __future__ import annotations

from typing import TYPE_CHECKING

from munchkin.cards.hooks import CardHook, hook

if TYPE_CHECKING:
    from munchkin.engine.game import Game
    from munchkin.engine.state import Player


class SandalsOfProtection(CardHook):
    """Sandals of Protection: Curses their wearer draws face-up from the Door deck do not affect them."""

    def stops_drawn_curses(self, g: Game, p: Player) -> bool:
        return True


class KneepadsOfAllure(CardHook):
    """Kneepads of Allure: a lower-Level player cannot refuse to help their wearer."""

    def compels_help(self, g: Game, p: Player, helper: Player) -> bool:
        return helper.level < p.level  # a lower-Level player


class TubaOfCharm(CardHook):
    """Tuba of Charm: getting away from a combat by Running Away draws a face-down Treasure (once a
    combat, whatever the number of monsters)."""

    def on_escape(self, g: Game, p: Player) -> None:
        g.draw_to_hand(p, "treasure", 1)


hook("library.ignore_drawn_curses")(SandalsOfProtection())
hook("library.compel_lower_level_help")(KneepadsOfAllure())
hook("library.treasure_on_escape")(TubaOfCharm())
