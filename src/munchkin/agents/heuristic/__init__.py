"""The heuristic agent: plays sensibly from what its seat may know.

It looks only at its own hand, the table (Levels, Races, Classes, Items, Curses, hand sizes), the
combat in progress and the discards. Every decision scores the legal actions with a few rules of
thumb: a Level is worth about 4.5 points, a Treasure 1.5, an equipped +N Item about N.

`HeuristicAgent` is one class made of parts, a module each. A reading order:

1. `agent` (`HeuristicAgent`): the entry points `act`, `interject` and `choose`, and how each kind of
   decision goes to its handler `_on_<kind>` in one of the parts below. Start here.
2. `names`: how the bot knows a card (by its hook, read as the Deluxe card that works alike).
3. `values` (`Values`): what cards, Items, Races and Classes are worth, and the best Items to wear.
4. `reckoning` (`Reckoning`): the numbers of a fight (its margin, what a kill brings, the chance to
   escape), the harm of Bad Stuff and Curses, and who leads.
5. `own_turn` (`OwnTurn`): the Main decision, free actions first, then the step that moves the turn on.
6. `prompts` (`Prompts`): the other decisions out of a fight (a card drawn, Charity, offers, choices).
7. `fighting` (`Fighting`): combat windows, asking for help and answering a call for it.
8. `running` (`Running`): running away, the roll, being caught.

Each part is a class the later ones build on (`Values` <- `Reckoning` <- `OwnTurn` <- `Prompts`;
`Fighting` and `Running` on `Reckoning`; `HeuristicAgent` on `Prompts`, `Fighting` and `Running`), so
every method is the agent's own: a search bot may call `HeuristicAgent(seed).choose(world, seat,
legal)` and the valuations (`card_value`, `slack`, `bad_severity`, ...) on one instance, and no call
goes through an extra layer.
"""

from munchkin.agents.heuristic.agent import HeuristicAgent
from munchkin.agents.heuristic.fighting import REMOVERS, STOPPERS
from munchkin.agents.heuristic.names import LIBRARY_AS, SAME_AS
from munchkin.agents.heuristic.own_turn import MAX_FREE
from munchkin.agents.heuristic.reckoning import BAD_HOOK, CURSE_HOOK
from munchkin.agents.heuristic.values import (
    CLASS_BASE,
    ITEM_EXTRA,
    LEVEL,
    ONE_SHOT_VALUE,
    RACE_BASE,
    SLOTS1,
    SPECIAL_VALUE,
    TREASURE,
)

__all__ = [
    "BAD_HOOK",
    "CLASS_BASE",
    "CURSE_HOOK",
    "ITEM_EXTRA",
    "LEVEL",
    "LIBRARY_AS",
    "MAX_FREE",
    "ONE_SHOT_VALUE",
    "RACE_BASE",
    "REMOVERS",
    "SAME_AS",
    "SLOTS1",
    "SPECIAL_VALUE",
    "STOPPERS",
    "TREASURE",
    "HeuristicAgent",
]
