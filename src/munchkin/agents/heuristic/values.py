"""What things are worth to the bot, in points: the scale every other part weighs its choices with.

A Level is worth `LEVEL` (4.5 points) and a Treasure drawn `TREASURE` (1.5). An Item in use is worth
its bonus to its owner, plus a little for what else it does (0.7 a point of Run Away, a few named
extras). A card in the hand is worth what playing it may bring: an Item it can use 1.2 times its
value plus its gold, a Go Up a Level 5 (little at the last Level, which it cannot win with), one-shots
and special cards by the tables below. A card on the table is worth what losing it would cost: much
for an Item it wears (`best_equip`), little for one it only carries. Races and Classes score their
base worth plus the bonuses of the Items in hand and in play that want them (less those that refuse
them). `best_equip` picks the Items to wear: the best of each slot, the best use of the hands, one
Complex Item; it is kept by all it depends on, since Items change far less often than the bot is asked.
"""

from __future__ import annotations

from typing import Any

from munchkin.agents.heuristic.names import _hook
from munchkin.engine import characters
from munchkin.engine.game import Game
from munchkin.engine.rules import GOLD_PER_LEVEL, WINNING_LEVEL
from munchkin.engine.state import Player

LEVEL = 4.5  # the worth of one Level, in the agent's points
TREASURE = 1.5  # the worth of one Treasure drawn
SLOTS1 = ("headgear", "armor", "footgear")

RACE_BASE = {"dwarf": 3.0, "elf": 3.0, "halfling": 2.5}
CLASS_BASE = {"warrior": 4.0, "cleric": 3.0, "wizard": 3.0, "thief": 2.5}

# hook names without their set prefix
ONE_SHOT_VALUE = {
    "pollymorph_potion": 5.0,
    "friendship_potion": 3.0,
    "magic_lamp": 4.0,
    "transferral_potion": 3.5,
    "instant_wall": 3.5,
    "invisibility_potion": 3.5,
    "flask_of_glue": 1.5,
    "loaded_die": 3.0,
    "wand_of_dowsing": 4.0,
    "wishing_ring": 3.0,
    "doppleganger": 3.0,
    "yuppie_water": 1.5,
    "potion_of_halitosis": 1.8,
}
SPECIAL_VALUE = {
    "steal_a_level": 5.0,
    "whine_at_the_gm": 4.0,
    "kill_the_hireling": 4.0,
    "hoard": 4.5,
    "out_to_lunch": 3.0,
    "help_me_out_here": 2.5,
    "illusion": 1.5,
    "mate": 1.5,
    "wandering_monster": 1.5,
    "cheat": 3.0,
    "half_breed": 1.5,
    "super_munchkin": 1.5,
    "divine_intervention": 0.5,
}
ITEM_EXTRA = {"sandals_of_protection": 1.5, "tuba_of_charm": 1.0, "kneepads_of_allure": 1.0, "rat_on_a_stick": 1.0}


def _equip_key(g: Game, p: Player) -> tuple[Any, ...]:
    """Everything of `p` that the best Items to equip depend on, within one game (its cards, rules
    and options fixed): what decides whether an Item may be used and what it adds (Level, sex, Race,
    Class, Role, House, Proficiencies), the Items and what is attached to them, the Sidekicks (Hands,
    abilities), and the equipped Items where Items give abilities."""
    return (
        *(p.level, p.sex, p.sex_changed, p.house, p.half_breed, p.super_munchkin, p.dual_role),
        *(tuple(p.items), tuple(p.races), tuple(p.classes), tuple(p.roles), tuple(p.proficiencies)),
        *(tuple(p.sidekicks), tuple(p.cheats.items()), tuple(p.carried.items()), tuple(p.enhancers.items())),
        frozenset(p.equipped) if g.item_grants else None,
    )


class Values:
    """The worths of cards, Items, Races and Classes, and the best Items to equip: the first part
    of `HeuristicAgent`, which every other part builds on."""

    _equip: dict[tuple[Any, ...], set[int]]  # best_equip's answers, by `_equip_key` (made by __init__)
    _equip_cdef: list[Any] | None  # the game (its cards' list) they are for

    def item_value(self, g: Game, p: Player, c: int) -> float:
        """Worth of an Item to p when equipped and usable: its bonus plus small extras."""
        d = g.cdef[c]
        v = float(characters.item_bonus(g, p, c)) + ITEM_EXTRA.get(_hook(g, c), 0.0) + 0.7 * max(0, d.run_away)
        return v

    def card_value(self, g: Game, p: Player, c: int) -> float:
        """Worth of a card in p's hand (or one p could take)."""
        d = g.cdef[c]
        h = _hook(g, c)
        if d.is_gual:
            return 5.0 if p.level < WINNING_LEVEL - 1 else 0.5
        if d.is_item:
            if characters.can_use(g, p, c):
                v = 1.2 * self.item_value(g, p, c) + d.gold / GOLD_PER_LEVEL + 0.3
            else:
                v = 1.5 * d.gold / GOLD_PER_LEVEL + 0.3
            if d.big and not characters.may_carry_big(g, p):
                v *= 0.6
            return v
        if d.is_one_shot:
            return 0.8 * d.bonus + d.gold / GOLD_PER_LEVEL + ONE_SHOT_VALUE.get(h, 0.0)
        if d.is_curse:
            return 2.0
        if d.is_enhancer:
            return max(0.5, 1.0 + d.strength / 5)
        if d.is_race:
            if not p.races:
                return 3.5
            cur = max(self.race_score(g, p, r) for r in p.races)
            return 3.0 if self.race_score(g, p, c) > cur + 1.5 else 1.0
        if d.is_class:
            if not p.classes:
                return 3.5
            cur = max(self.class_score(g, p, r) for r in p.classes)
            return 3.0 if self.class_score(g, p, c) > cur + 1.5 else 1.0
        if d.is_role:
            return 3.0 if not p.roles else 1.0
        if d.is_proficiency:
            return 2.5 if characters.rank_total(g, p) + d.rank <= p.level else 1.0
        if d.is_sidekick:
            return 4.0 if len(p.sidekicks) < characters.sidekick_limit(g, p) else 1.0
        if d.is_monster:
            return 1.5
        if h == "divine_intervention" and self._is_class(g, p, "cleric"):
            return 3.0
        return SPECIAL_VALUE.get(h, 1.0)

    def table_value(self, g: Game, p: Player, c: int, target: set[int] | None = None) -> float:
        """Worth of a card p has in play (what p loses by losing it)."""
        d = g.cdef[c]
        if c in p.items:
            if target is None:
                target = self.best_equip(g, p)
            if characters.can_use(g, p, c) and (c in target or c in p.exempt()):
                return 1.3 * self.item_value(g, p, c) + d.gold / GOLD_PER_LEVEL + 0.5
            usable = 0.3 * self.item_value(g, p, c) if characters.can_use(g, p, c) else 0.0
            return 0.3 + usable + d.gold / 2000
        if c in p.races:
            return 2.5
        if c in p.classes or c in p.roles:
            return 3.0
        if c in p.proficiencies:
            return 2.0 + 0.5 * g.cdef[c].rank
        if c in p.sidekicks:
            return 4.0 + 0.3 * g.cdef[c].bonus
        if c in p.curses:
            return -2.0
        if c in p.hand:
            return self.card_value(g, p, c)
        return self.card_value(g, p, c)

    @staticmethod
    def _is_class(g: Game, p: Player, name: str) -> bool:
        """Whether `p` has a Class named `name`."""
        return name in characters.class_names(g, p)

    def race_score(self, g: Game, p: Player, c: int) -> float:
        """A Race's worth to `p`: its base worth plus the bonuses of `p`'s Items that want it."""
        name = g.cdef[c].name.lower()
        return RACE_BASE.get(name, 2.0) + 0.8 * self._synergy(g, p, name, "race")

    def class_score(self, g: Game, p: Player, c: int) -> float:
        """A Class's worth to `p`: its base worth plus the bonuses of `p`'s Items that want it."""
        name = g.cdef[c].name.lower()
        return CLASS_BASE.get(name, 2.0) + 0.8 * self._synergy(g, p, name, "class_")

    @staticmethod
    def _synergy(g: Game, p: Player, name: str, field: str) -> float:
        """The bonuses of `p`'s Items, carried and in hand, that want the Race or Class `name`, less those that
        refuse it."""
        cdef = g.cdef
        s = 0.0
        for k in p.items + p.hand:
            d = cdef[k]
            if not d.is_item:
                continue
            if d.usable_if is not None:
                if getattr(d.usable_if, field) == name:
                    s += d.bonus
                if field == "race" and d.usable_if.no_race:
                    s -= d.bonus
            if d.not_usable_if is not None and getattr(d.not_usable_if, field) == name:
                s -= d.bonus
            for cb in d.conditional_bonus:
                if getattr(cb.if_, field) == name:
                    s += cb.value
        return s

    def best_equip(self, g: Game, p: Player) -> set[int]:
        """The best set of carried Items to equip (Sidekicks' and Cheat!'s Items aside): the best
        of each slot (two Headgear for a Mutant), the best hands (all laser barrels together are
        one 2-Hand weapon), and one Complex Item unless any number may be equipped. Kept by all
        it depends on (a player's Items change far less often than the agent is asked)."""
        if self._equip_cdef is not g.cdef:  # another game (held, so its id is never another's)
            self._equip.clear()
            self._equip_cdef = g.cdef
        key = _equip_key(g, p)
        target = self._equip.get(key)
        if target is None:
            if len(self._equip) > 4096:
                self._equip.clear()
            target = self._equip[key] = self._best_equip(g, p)
        return target

    def _best_equip(self, g: Game, p: Player) -> set[int]:
        """`best_equip` worked out afresh."""
        cdef = g.cdef
        exempt = p.exempt()
        slot_best: dict[str, list[tuple[float, int]]] = {}
        target: set[int] = set()
        one: list[tuple[float, tuple[int, ...]]] = []
        two: list[tuple[float, tuple[int, ...]]] = []
        lasers: list[tuple[float, int]] = []
        value: dict[int, float] = {}
        for c in p.items:
            if c in exempt:
                continue
            d = cdef[c]
            if not d.is_item or not characters.can_use(g, p, c):
                continue
            v = value[c] = self.item_value(g, p, c)
            if v <= 0:
                continue
            if d.slot in SLOTS1:
                slot_best.setdefault(d.slot, []).append((v, c))
            elif d.laser:
                lasers.append((v, c))
            elif d.slot == "hands":
                (one if d.hands <= 1 else two).append((v, (c,)))
            else:
                target.add(c)
        for slot, best in slot_best.items():
            best.sort(reverse=True)
            target.update(c for _, c in best[: characters.slot_limit(g, p, slot)])
        if lasers:
            two.append((sum(v for v, _ in lasers), tuple(c for _, c in lasers)))
        one.sort(reverse=True)
        two.sort(reverse=True)
        hands = characters.hands_limit(g, p)
        v1 = sum(v for v, _ in one[:hands])
        if two and two[0][0] + sum(v for v, _ in one[: hands - 2]) > v1:
            target.update(two[0][1])
            target.update(c for _, cs in one[: hands - 2] for c in cs)
        else:
            target.update(c for _, cs in one[:hands] for c in cs)
        if not characters.has_ability(g, p, "equip_any_complex"):
            units = [c for c in target if cdef[c].complex and not cdef[c].laser]
            complex_lasers = [c for c in target if cdef[c].complex and cdef[c].laser]
            groups: list[tuple[float, tuple[int, ...]]] = [(value[c], (c,)) for c in units]
            if complex_lasers:
                groups.append((sum(value[c] for c in complex_lasers), tuple(complex_lasers)))
            groups.sort(reverse=True)
            for _, cs in groups[1:]:  # keep the best Complex unit only
                target.difference_update(cs)
        return target
