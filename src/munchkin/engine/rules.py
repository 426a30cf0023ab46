"""The numbers the rulebooks name, in one place, each with the rule it comes from.

A card's own numbers (a monster's Level, an Item's bonus) are data in the set files, not here."""

WINNING_LEVEL = 10  # "The first player to reach Level 10 wins ... but you must reach 10th Level by killing a monster"
HAND_LIMIT = 5  # Charity: "If you have more than five cards in your hand ..."
DWARF_HAND_LIMIT = 6  # Dwarf: "You can have 6 cards in your hand"
STARTING_CARDS = 4  # "Deal four cards from each deck to each player"
ESCAPE_ROLL = 5  # Run Away: "Roll the die. You escape on a 5 or more"
THEFT_ROLL = 4  # Thief's Theft: "Roll the die; 4 or more succeeds. Otherwise, you get whacked and lose a Level"
GOLD_PER_LEVEL = 1000  # "You may sell Items ... for a Level for every 1,000 Gold Pieces' worth"
MIN_PLAYERS, MAX_PLAYERS = 3, 6  # "three to six players"
DIE_SIDES = 6  # "Roll the die": one six-sided die
DIE_FACES = tuple(range(1, DIE_SIDES + 1))  # what a die can show (a Loaded Die chooses one of them)
ABILITY_DISCARDS = 3  # Berserking, Turning, the Flight spell: "discard up to 3 cards" for the power
TURNING_BONUS = 3  # Turning: "+3 for each card discarded" against the monsters it works on

# The rules a game is played under (a save records them and replays with them): 2, "at any time"
# (issue 15); 3, the cards do what their texts say (issue 18: a moment before Bad Stuff, a Mate's
# penalty on both, several Cheat! cards, and the card fixes listed in that note). A game
# of older rules keeps them to its end, as it keeps the cards it was dealt; 4, Items given away at any
# time out of combat (a bribe during another's fight, a Hireling handed an Item off one's turn) and a
# fight weighed again when a change turns it before anyone has run (issue 32); 5, a Run Away ends
# when a card has made every monster still to flee vanish (a monster and its Mate at once), where it
# asked the runner to flee from none (stuck, or made to play a card as the only move); 6, a response
# window does not wait on a seat whose only moves besides passing rearrange its own things (a Race,
# Class or other card of its own in play discarded to no effect now, Items equipped, given or traded):
# any later moment allows them too, so they stay any-time moves without stopping the table (issue 34),
# and an effect to lose gold that finds no Items to pay with runs its `otherwise` (issue 35); 7, a
# monster nobody may help against (the Gazebo) that joins a fight under way sends the helper out of it,
# since "any special abilities ... apply to the entire fight"; and two keys of the card vocabulary that
# were accepted but never read are read: a one-shot's `usable_if`, and the `hook` of a Race, Class or
# Sidekick in play, which offers its actions as a Role's does (no built-in card has either; issue 35).
RULES = 7
CARDS_AS_WRITTEN = 3  # the rules from which the card fixes of issue 18 hold
GIFTS_ANY_TIME = 4  # the rules from which the fixes of issue 32 hold
EMPTY_RUN_ENDS = 5  # the rules from which a Run Away with nothing left to flee ends
WHIMS_WAIT_NOT = 6  # the rules from which a window does not wait on a seat with only whims to play
UNPAID_GOLD_OTHERWISE = 6  # the rules from which `lose_gold` with nothing to pay with runs its `otherwise`
NO_HELP_JOINS_WHOLE_FIGHT = 7  # the rules from which a joining no-help monster sends the helper away
VOCABULARY_ALL_READ = 7  # the rules from which a one-shot's `usable_if` and a character card's `hook` are read


def as_written(g: object) -> bool:
    """Whether this game plays the cards as issue 18 fixed them (not a save of older rules)."""
    return getattr(g, "rules", RULES) >= CARDS_AS_WRITTEN


def gifts_any_time(g: object) -> bool:
    """Whether this game gives Items away at any time out of combat and weighs a fight again after a
    change that turns it (issue 32), not a save of older rules."""
    return getattr(g, "rules", RULES) >= GIFTS_ANY_TIME


def empty_run_ends(g: object) -> bool:
    """Whether a Run Away ends when nothing is left to flee (rules 5), not a save of older rules."""
    return getattr(g, "rules", RULES) >= EMPTY_RUN_ENDS


def whims_wait_not(g: object) -> bool:
    """Whether a response window leaves out a seat whose only moves rearrange its own things
    (rules 6, `legal.keeps_table_waiting`), not a save of older rules."""
    return getattr(g, "rules", RULES) >= WHIMS_WAIT_NOT


def unpaid_gold_runs_otherwise(g: object) -> bool:
    """Whether an effect to lose gold that found no Items to pay with runs its `otherwise` (rules 6), not
    a save of older rules, where it counted as done."""
    return getattr(g, "rules", RULES) >= UNPAID_GOLD_OTHERWISE


def no_help_joins_whole_fight(g: object) -> bool:
    """Whether a monster nobody may help against, joining a fight with a helper, sends the helper out of
    it (rules 7: its ability applies to the entire fight), not a save of older rules, where they stayed."""
    return getattr(g, "rules", RULES) >= NO_HELP_JOINS_WHOLE_FIGHT


def vocabulary_all_read(g: object) -> bool:
    """Whether this game reads a one-shot's `usable_if` and the `hook` of a Race, Class or Sidekick (rules
    7), not a save of older rules, where a designer's card with them played as if they were not written."""
    return getattr(g, "rules", RULES) >= VOCABULARY_ALL_READ
