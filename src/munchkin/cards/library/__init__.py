"""The shared card hook library: rules more than one edition's cards follow, registered once.

Each module covers a part of the rulebook and registers its hooks under `library.` ids, which the
cards' YAML names directly (`hook: library.cancel_curse`). An edition's own `hooks.py` keeps only
the hooks no other edition shares, and may register a parameterised variant of a class here.
"""

from munchkin.cards.library import any_time, attachments, combat, common, curses, items, levels, run_away
from munchkin.cards.library.any_time import Dowse, WandOfDowsing
from munchkin.cards.library.attachments import Attachment, Cheat
from munchkin.cards.library.combat import (
    Baby,
    CombatCard,
    Doppleganger,
    FriendshipPotion,
    HelpMeOutHere,
    Illusion,
    Mate,
    OutToLunch,
    RemoveOne,
    TransferralPotion,
    WanderingMonster,
)
from munchkin.cards.library.common import (
    ChooseOption,
    choose_option,
    in_combat_window,
    neighbour,
    own_turn_free,
    spend,
    uniq,
)
from munchkin.cards.library.curses import (
    Chicken,
    IncomeTax,
    WishingRing,
    change_class,
    change_race,
    income_tax,
    lose_two_cards,
)
from munchkin.cards.library.items import KneepadsOfAllure, SandalsOfProtection, TubaOfCharm
from munchkin.cards.library.levels import Hoard, LevelCard
from munchkin.cards.library.run_away import InstantWall, RatOnAStick, RollCard

__all__ = [
    "Attachment",
    "Baby",
    "Cheat",
    "Chicken",
    "ChooseOption",
    "CombatCard",
    "Doppleganger",
    "Dowse",
    "FriendshipPotion",
    "HelpMeOutHere",
    "Hoard",
    "Illusion",
    "IncomeTax",
    "InstantWall",
    "KneepadsOfAllure",
    "LevelCard",
    "Mate",
    "OutToLunch",
    "RatOnAStick",
    "RemoveOne",
    "RollCard",
    "SandalsOfProtection",
    "TransferralPotion",
    "TubaOfCharm",
    "WanderingMonster",
    "WandOfDowsing",
    "WishingRing",
    "any_time",
    "attachments",
    "change_class",
    "change_race",
    "choose_option",
    "combat",
    "common",
    "curses",
    "in_combat_window",
    "income_tax",
    "items",
    "levels",
    "lose_two_cards",
    "neighbour",
    "own_turn_free",
    "run_away",
    "spend",
    "uniq",
]
