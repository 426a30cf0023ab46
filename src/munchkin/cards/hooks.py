"""The hook protocol: what a card's Python hook may add to the rules, all optional."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from munchkin.engine.actions import Action
    from munchkin.engine.state import Combat, MonsterIn, Player

Flow = Generator[Any, Any, Any]  # a rule not yet written as a step: yields a Prompt or a frame to call


def no_flow() -> Flow:
    """An empty flow, for hooks that need no decision."""
    return
    yield  # pragma: no cover


class CardHook:
    """Base of class-style hooks. The engine calls only the methods a hook overrides."""

    # cards in a hand (or in play) that offer actions of their own
    def actions(self, g: Any, seat: int, card: int) -> list[Action]:
        return []

    def apply(self, g: Any, act: Action) -> Flow:
        return no_flow()

    # monsters
    def before_combat(self, g: Any, c: Combat, m: MonsterIn) -> Flow:
        return no_flow()

    def monster_actions(self, g: Any, seat: int, c: Combat, m: MonsterIn) -> list[Action]:
        return []

    def extra_levels(self, g: Any, c: Combat, m: MonsterIn) -> int:
        return 0

    def flee_actions(self, g: Any, p: Player, c: Combat, m: MonsterIn) -> list[Action]:
        return []

    def sets_die(self) -> bool:
        """A card that turns the die its holder just rolled to any face (Loaded Die)."""
        return False

    def run_penalty(self) -> int:
        """A Mate-like copy of a monster: how much harder it is to Run Away from."""
        return 0

    # kept Curses and Items: passive rules
    def die_modifier(self, g: Any, p: Player) -> int:
        return 0

    def only_armor(self, g: Any, p: Player) -> bool:
        return False

    def enhancer_floor(self) -> bool:
        return False

    # equipped Items with a standing rule
    def stops_drawn_curses(self, g: Any, p: Player) -> bool:
        """Curses this character draws face-up from the Door deck do not affect them."""
        return False

    def compels_help(self, g: Any, p: Player, helper: Player) -> bool:
        """The player this character asks for help cannot refuse (never in a fight for the win)."""
        return False

    def on_escape(self, g: Any, p: Player) -> None:
        """Something happens when this character escapes a monster by Running Away."""

    # a kept Curse that goes when a card of the victim's goes (Chicken with the Headgear)
    def leaves_with(self, g: Any, p: Player, lost: int) -> bool:
        return False

    # a card that acts the moment anyone draws it (returns True when it is used up)
    def on_draw(self, g: Any, p: Player, card: int) -> bool:
        return False
