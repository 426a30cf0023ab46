"""Hooks for the Star Munchkin cards whose effects neither the vocabulary nor the shared hook
library (`munchkin.cards.library`) can say.

Most Star cards that need a hook name a `library.` hook in their YAML. Here are ...And Its Clone
(a Mate that is no harder to Run Away from), Annihilate and Antimatter, and the specials and Bad
Stuff of the published monsters that no other edition shares (the Eep's die, the Space Cowboy's
and Space Vampire's discards, the Grays' and Great Cthulhu's levels for the others, ...).
A hook that waits on a decision returns a step (a small record of plain data defined beside it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from munchkin.cards.hooks import CardHook
from munchkin.cards.library import Mate, in_combat_window, own_turn_free, uniq
from munchkin.cards.library.common import choose_option, neighbour
from munchkin.cards.loader import hook
from munchkin.engine import actions as A
from munchkin.engine import changes, characters, combat, death, play, resolve
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.flow import Done, Frame, Out, Step
from munchkin.engine.rules import as_written

if TYPE_CHECKING:
    from munchkin.engine.game import Game
    from munchkin.engine.state import Combat, MonsterIn, Player

DISCARD_BONUS = 2  # the Space Cowboy's and the Space Vampire's +2 for each card discarded
VAMPIRE_MOST = 5  # the Space Vampire takes at most this many levels
AMAZON_GOLD = 2000  # what the Space Amazon must be given


# ------------------------------------------------------------------ combat specials
hook("star.and_its_clone")(Mate(word="Clone", run_penalty=0))


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
            if c is None or not in_combat_window(g):
                return []
            seats = list(c.fighters())
        else:
            if not own_turn_free(g, seat):
                return []
            seats = [q.seat for q in g.players]
        out = []
        for s in seats:
            q = g.players[s]
            if q.dead:
                continue
            items = uniq(g, [k for k in q.items if g.cdef[k].is_item])
            out += [Action(A.PLAY, seat, card, q.seat, cards=(k,), flag="destroy") for k in items]
        return out

    def apply(self, g: Game, act: Action) -> None:
        changes.spend(g, g.players[act.seat], act.card)
        q = g.players[act.target]
        item = act.cards[0]
        if item in q.items:
            changes.lose_card(g, q, item, g.cdef[act.card].name)
        g.events.append(E.Destroy(act.seat, act.target, item, act.card))


hook("star.annihilate")(DestroyItem(in_combat=False))
hook("star.antimatter")(DestroyItem(in_combat=True))


# ------------------------------------------------------------------ monsters' specials
class Eep(CardHook):
    """The player on the fighter's left rolls the die and adds it to the Eep's strength."""

    def before_combat(self, g: Game, c: Combat, m: MonsterIn) -> Frame | None:
        left = neighbour(g, c.fighter, 1)
        if left == c.fighter:
            return None
        return EepRoll(left, m.card)


@dataclass(slots=True)
class EepRoll(Step):
    """The roll for the Eep, by the fighter's left-hand neighbour (a card may set it)."""

    CARDS = ("monster",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    monster: int

    def start(self, g: Game, _: Any) -> Out:
        return self.then("rolled", resolve.die_roll(g, g.players[self.seat], g.cdef[self.monster].name, best=6))

    def rolled(self, g: Game, die: int) -> Out:
        c = g.combat
        m = next((x for x in c.monsters if x.card == self.monster), None) if c is not None else None
        if m is not None:
            m.oneshots.append((self.monster, die))
        return Done()


hook("star.eep")(Eep())


class DiscardForBonus(CardHook):
    """Discard cards from the hand in the fight for +2 each: to the fighters' side (Space Cowboy,
    `for_monster=False`, the fighters only) or to the monster's (Space Vampire, anyone else)."""

    def __init__(self, for_monster: bool) -> None:
        self.for_monster = for_monster

    def monster_actions(self, g: Game, seat: int, c: Combat, m: MonsterIn) -> list[Action]:
        if (seat in c.fighters()) == self.for_monster or not in_combat_window(g):
            return []
        p = g.players[seat]
        return [Action(A.USE, seat, m.card, cards=(k,), flag=f"discarding {g.name(k)}") for k in uniq(g, list(p.hand))]

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        p = g.players[act.seat]
        k = act.cards[0]
        changes.spend(g, p, k)
        g.events.append(E.Discard(act.seat, k))
        if self.for_monster:
            m = next((x for x in c.monsters if x.card == act.card), None)
            if m is not None:
                m.oneshots.append((act.card, DISCARD_BONUS))
        else:
            c.side.append((act.card, act.seat, DISCARD_BONUS))


hook("star.space_cowboy")(DiscardForBonus(for_monster=False))
hook("star.space_vampire")(DiscardForBonus(for_monster=True))


# ------------------------------------------------------------------ monsters' Bad Stuff
@hook("star.astro_muskrat_space_pirate_bad_stuff")
def astro_muskrat(g: Game, p: Player, card: int) -> bool:
    """The player on the victim's right takes two cards from their hand, unseen, and discards them."""
    right = neighbour(g, p.seat, -1)
    if right == p.seat or not p.hand:
        return False
    for _ in range(2):
        if p.hand:
            k = g.pick_card(right, p.hand)
            changes.lose_card(g, p, k, g.cdef[card].name)
    return True


@hook("star.grays_bad_stuff")
def grays(g: Game, p: Player, card: int) -> bool:
    """Lose 2 levels; the players on each side of the victim go up a level each (never to win)."""
    why = g.cdef[card].name
    changes.lose_levels(g, p, 2, why)
    for s in dict.fromkeys((neighbour(g, p.seat, 1), neighbour(g, p.seat, -1))):
        if s != p.seat:
            changes.gain_levels(g, g.players[s], 1, why)
    return True


@hook("star.great_cthulhu_bad_stuff")
def great_cthulhu(g: Game, p: Player, card: int) -> Frame | bool:
    """Death; every player who was not in the fight goes up a level (never to win), once a fight
    even if it catches both the fighter and the helper."""
    c = g.combat
    fighters = c.fighters() if c is not None else (p.seat,)
    first = True
    for ev in reversed(g.events) if as_written(g) else ():  # did it already catch someone in this Run Away?
        if ev[0] == "lost":
            break
        if ev[0] == "bad_stuff" and ev[1] != p.seat and ev[2] == card:
            first = False
    for q in g.players if first else ():
        if q.seat not in fighters and not q.dead:
            changes.gain_levels(g, q, 1, g.cdef[card].name)
    dying = death.kill_player(g, p, g.cdef[card].name)
    return dying if dying is not None else True


@hook("star.slaughterbot_bad_stuff")
def slaughterbot(g: Game, p: Player, card: int) -> Frame:
    return RollLevels(p.seat, card)


@dataclass(slots=True)
class RollLevels(Step):
    """The victim rolls the die and loses that many levels (Slaughterbot)."""

    CARDS = ("card",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    card: int

    def start(self, g: Game, _: Any) -> Out:
        return self.then("rolled", resolve.die_roll(g, g.players[self.seat], g.cdef[self.card].name, best=1))

    def rolled(self, g: Game, die: int) -> Out:
        p = g.players[self.seat]
        changes.lose_levels(g, p, max(0, die + play.die_modifier(g, p)), g.cdef[self.card].name)
        return Done(True)


@hook("star.space_amazon_bad_stuff")
def space_amazon(g: Game, p: Player, card: int) -> Frame | bool:
    """Give her Items worth 2,000 gold or more (your choice which); short of that, lose 3 levels."""
    if sum(characters.sale_value(g, p, k) for k in p.items) >= AMAZON_GOLD:
        return resolve.lose_gold(g, p, AMAZON_GOLD, g.cdef[card].name)
    changes.lose_levels(g, p, 3, g.cdef[card].name)
    return True


@hook("star.captain_quirk_bad_stuff")
def captain_quirk(g: Game, p: Player, card: int) -> bool:
    """Lose 1 level if you wear Armor, else 3."""
    armored = any(g.cdef[k].slot == "armor" for k in p.equipped)
    changes.lose_levels(g, p, 1 if armored else 3, g.cdef[card].name)
    return True


@hook("star.worminator_bad_stuff")
def worminator(g: Game, p: Player, card: int) -> Frame | bool:
    """A Trader may discard any one card instead; anyone else loses 2 levels."""
    cards = p.hand + [k for k in p.in_play() if k not in p.curses]
    if "trader" in characters.class_names(g, p) and cards:
        return TraderPays(p.seat, card)
    changes.lose_levels(g, p, 2, g.cdef[card].name)
    return True


@dataclass(slots=True)
class TraderPays(Step):
    """The Worminator's Trader: discard one card (hand or table), or lose 2 levels."""

    CARDS = ("card",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    card: int

    def start(self, g: Game, _: Any) -> Out:
        return self.then("chosen", choose_option(g, self.seat, self.card, ["to discard a card", "to lose 2 levels"]))

    def chosen(self, g: Game, i: int) -> Out:
        p = g.players[self.seat]
        if i == 1:
            changes.lose_levels(g, p, 2, g.cdef[self.card].name)
            return Done(True)
        cards = p.hand + [k for k in p.in_play() if k not in p.curses]
        return self.then("paid", resolve.choose_card(g, p.seat, cards, f"discard a card to {g.cdef[self.card].name}"))

    def paid(self, g: Game, k: int) -> Out:
        if k >= 0:
            changes.lose_card(g, g.players[self.seat], k, g.cdef[self.card].name)
        return Done(True)


@hook("star.thing_man_was_not_meant_to_know_bad_stuff")
def thing(g: Game, p: Player, card: int) -> Frame | bool:
    """Lose a Race or a Class (your choice); with neither, drop to Level 1."""
    why = g.cdef[card].name
    cards = p.races + p.classes
    if not cards:
        return changes.lose_levels(g, p, p.level - 1, why) > 0
    return resolve.lose_some(g, p, cards, "one", "a Race or a Class", why)


@hook("star.space_vampire_bad_stuff")
def space_vampire(g: Game, p: Player, card: int) -> bool:
    """Lose as many levels as the fight was lost by, 5 at most."""
    c = g.combat
    if c is None:
        return False
    margin = combat.monsters_strength(g, c) - combat.side_strength(g, c)
    changes.lose_levels(g, p, max(0, min(VAMPIRE_MOST, margin)), g.cdef[card].name)
    return margin > 0
