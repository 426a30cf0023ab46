"""Actions: small immutable tuples, with a canonical text in the rulebook's words."""

from __future__ import annotations

from typing import NamedTuple

from munchkin.errors import IllegalAction, MunchkinError, ParseError

__all__ = ["Action", "IllegalAction", "MunchkinError", "ParseError"]


class Action(NamedTuple):
    """One choice by one seat. `card`/`target`/`monster` are ids or -1; `cards` lists extra cards."""

    kind: str
    seat: int
    card: int = -1
    target: int = -1
    monster: int = -1
    cards: tuple[int, ...] = ()
    n: int = 0
    flag: str = ""


# Action kinds (interned strings keep comparisons cheap).
KICK = "kick"
TROUBLE = "trouble"
LOOT = "loot"
END = "end"
PASS = "pass"
PLAY = "play"
KEEP = "keep"
EQUIP = "equip"
UNEQUIP = "unequip"
DISCARD = "discard"
GIVE = "give"
SELL = "sell"
TRADE = "trade"
ACCEPT = "accept"
REFUSE = "refuse"
ASK = "ask"
BERSERK = "berserk"
TURNING = "turning"
FLIGHT = "flight"
CHARM = "charm"
BACKSTAB = "backstab"
STEAL = "steal"
RUN = "run"
FLEE_FROM = "flee_from"
SACRIFICE = "sacrifice"
CHOOSE = "choose"
TAKE = "take"
RESURRECT = "resurrect"
USE = "use"
DECLINE = "decline"
VOLUNTEER = "volunteer"
BACK_OUT = "back_out"
READY = "ready"
HOUSE = "house"  # a House power (Slytherin: discard a monster from the hand for +2)

KINDS = frozenset(v for k, v in dict(globals()).items() if k.isupper() and isinstance(v, str) and k not in ("KINDS",))

# Not a player's action: what an any-time action hands down, in place of an answer, to the step it
# interrupted when it changed a fight that step had already weighed (`Step.reweighs`, rules 4): the
# fight is weighed again. Its kind is no action kind, so no player can send it.
WEIGH_AGAIN = Action("weigh_again", -1)
