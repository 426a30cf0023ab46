"""How the bot knows a card: by its hook's name, read as the Deluxe card that works alike.

Every rule of thumb in this package is written for Munchkin Deluxe's cards ("mate",
"friendship_potion", ...). A card of another edition whose own hook works like a Deluxe card's
(`SAME_AS`), and every card of a library hook (`LIBRARY_AS`, `munchkin.cards.library`), is played as
that Deluxe card: a new set needs new rules here only if it brings a new kind of card.
"""

from __future__ import annotations

from munchkin.engine.game import Game

# Cards of other sets with a hook of their own that works like a Deluxe card's: the agent plays them alike.
SAME_AS = {
    "and_its_clone": "mate",
    "and_his_twin_brother": "mate",
    "bushwhack_the_sidekick": "kill_the_hireling",
}


# Library hooks (`munchkin.cards.library`) by the Deluxe card that names them: the agent plays


# every card of a library hook as it plays that Deluxe card.
LIBRARY_AS = {
    "add_monster": "wandering_monster",
    "attach_class": "super_munchkin",
    "attach_race": "half_breed",
    "cancel_curse": "wishing_ring",
    "change_class": "change_class",
    "change_race": "change_race",
    "compel_lower_level_help": "kneepads_of_allure",
    "copy_monster": "mate",
    "discard_all_monsters": "friendship_potion",
    "double_combat_strength": "doppleganger",
    "draw_three_treasures": "hoard",
    "escape_after_failed_roll": "invisibility_potion",
    "escape_automatically": "instant_wall",
    "escape_weak_monster": "rat_on_a_stick",
    "force_help": "help_me_out_here",
    "ignore_drawn_curses": "sandals_of_protection",
    "level_for_killing_hireling": "kill_the_hireling",
    "level_for_whining": "whine_at_the_gm",
    "minus_one_to_rolls": "chicken_on_your_head",
    "monster_level_floor": "baby",
    "monsters_leave_with_treasure": "out_to_lunch",
    "neighbours_take_cards": "lose_two_cards",
    "pass_the_fight": "transferral_potion",
    "remove_monster_keep_treasure": "pollymorph_potion",
    "remove_monster_own_turn": "magic_lamp",
    "replace_monster": "illusion",
    "reroll_escape": "flask_of_glue",
    "set_the_die": "loaded_die",
    "steal_a_level": "steal_a_level",
    "take_from_discards": "wand_of_dowsing",
    "tax_items": "income_tax",
    "treasure_on_escape": "tuba_of_charm",
    "use_any_item": "cheat",
}


def _hook(g: Game, card: int) -> str:
    """The name the agent plays a card's hook by (a Deluxe card's, for hooks that work alike)."""
    h = g.cdef[card].hook
    name = _HOOK_NAMES.get(h)
    if name is None:
        if h is not None and h.startswith("library."):
            name = LIBRARY_AS[h.split(".", 1)[1]]
        else:
            name = h.split(".", 1)[-1] if h else ""
            name = SAME_AS.get(name, name)
        _HOOK_NAMES[h] = name
    return name


_HOOK_NAMES: dict[str | None, str] = {}  # by the card's hook: worked out once
