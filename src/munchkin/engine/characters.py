"""Character stats: Race, Class, sex, Level, Items carried and equipped, hand limit."""

from __future__ import annotations

from munchkin.cards.schema import Condition
from munchkin.engine.core import GameCore
from munchkin.engine.rules import DWARF_HAND_LIMIT, HAND_LIMIT
from munchkin.engine.state import Player

SLOT_LIMITS = {"headgear": 1, "armor": 1, "footgear": 1}


class CharacterMixin(GameCore):
    """Queries on one character."""

    # -------------------------------------------------------------- identity
    def race_names(self, p: Player) -> list[str]:
        return [self.cdef[c].name.lower() for c in p.races]

    def class_names(self, p: Player) -> list[str]:
        return [self.cdef[c].name.lower() for c in p.classes]

    def role_names(self, p: Player) -> list[str]:
        return [self.cdef[c].name.lower() for c in p.roles]

    def rank_total(self, p: Player) -> int:
        """The total Rank of a character's Proficiencies (at most their Level)."""
        return sum(self.cdef[c].rank for c in p.proficiencies)

    def has_ability(self, p: Player, ability: str) -> bool:
        cdef = self.cdef
        if p.house and ability in self.houses[p.house].abilities:
            return True
        if p.roles or p.proficiencies:
            for c in p.roles + p.proficiencies:
                if ability in cdef[c].abilities:
                    return True
        for c in p.classes:
            if ability in cdef[c].abilities:
                return True
        for c in p.races:
            if ability in cdef[c].abilities:
                return True
        for c in p.sidekicks:  # abilities a Sidekick grants its owner
            if ability in cdef[c].abilities:
                return True
        if self.item_grants:  # abilities an equipped Item grants (Saddle Bags)
            for c in p.equipped:
                if ability in cdef[c].abilities and self.can_use(p, c):
                    return True
        return False

    def sidekick_limit(self, p: Player) -> int:
        """One Sidekick (or Hireling) in play; two for a Trader."""
        return 2 if self.has_ability(p, "two_sidekicks") else 1

    def sidekick_count(self, p: Player) -> int:
        """Sidekicks counted against the limit: one under Cheat! is not."""
        return len(p.sidekicks) - (p.cheat_item in p.sidekicks)

    def sidekick_sex(self, p: Player, k: int) -> str:
        """A Sidekick's sex as printed, or switched by a card."""
        sex = self.cdef[k].sex
        if k in p.swapped:
            return "female" if sex == "male" else "male"
        return sex

    # -------------------------------------------------------------- Steeds
    def steeds(self, p: Player) -> list[int]:
        return [c for c in p.items if self.cdef[c].steed]

    def steed_room(self, p: Player) -> bool:
        """One Steed per player; a Steed under Cheat! does not count."""
        return not any(self.cdef[c].steed and c != p.cheat_item for c in p.items)

    def super_single(self, p: Player) -> bool:
        """Super Munchkin with one Class: its advantages, none of its disadvantages."""
        return p.super_munchkin >= 0 and len(p.classes) == 1

    def half_single(self, p: Player) -> bool:
        return p.half_breed >= 0 and len(p.races) == 1

    def dual_single(self, p: Player) -> bool:
        """Dual Role with one Role: its advantages, none of its disadvantages."""
        return p.dual_role >= 0 and len(p.roles) == 1

    def matches(self, p: Player, cond: Condition | None, monster_bonus: bool = False) -> bool:
        """Does the character meet the condition? With `monster_bonus`, a monster's bonus
        against a Class or Race is ignored for a Super Munchkin / Half-Breed of one."""
        if cond is None:
            return True
        if cond.race is not None:
            if cond.race == "human":
                if p.races and not self.half_single(p):
                    return False
            elif cond.race not in self.race_names(p):
                return False
            elif monster_bonus and self.half_single(p):
                return False
        if cond.not_race is not None and cond.not_race in self.race_names(p):
            return False
        if cond.class_ is not None:
            if cond.class_ not in self.class_names(p):
                return False
            if monster_bonus and self.super_single(p):
                return False
        if cond.not_class is not None and cond.not_class in self.class_names(p):
            return False
        if cond.sex is not None and p.sex != cond.sex:
            return False
        if cond.level_at_most is not None and p.level > cond.level_at_most:
            return False
        if cond.level_at_least is not None and p.level < cond.level_at_least:
            return False
        if cond.no_race is not None and bool(p.races and not self.half_single(p)) == cond.no_race:
            return False
        if cond.no_class is not None and bool(p.classes) == cond.no_class:
            return False
        if cond.role is not None:
            if cond.role not in self.role_names(p):
                return False
            if monster_bonus and self.dual_single(p):
                return False
        if cond.not_role is not None and cond.not_role in self.role_names(p):
            return False
        if cond.house is not None and p.house != cond.house:
            return False
        if cond.not_house is not None and p.house == cond.not_house:
            return False
        return True

    # -------------------------------------------------------------- items
    def can_use(self, p: Player, item: int) -> bool:
        """May this character get the Item's benefit (its restrictions, Super Munchkin aside)?"""
        d = self.cdef[item]
        if d.needs_steed and not any(self.cdef[c].steed for c in p.items):
            return False  # an Item for Steeds counts only while its owner has one
        if p.cheat_item == item:
            return True
        if d.usable_if is not None and not self.matches(p, d.usable_if):
            return False
        nu = d.not_usable_if
        if nu is not None and self.matches(p, nu):
            # Super Munchkin / Half-Breed of one may use Items forbidden to that Class / Race
            if nu.class_ is not None and self.super_single(p) and nu.race is None and nu.sex is None:
                return True
            if nu.race is not None and self.half_single(p) and nu.class_ is None and nu.sex is None:
                return True
            if nu.role is not None and self.dual_single(p) and nu.class_ is None and nu.race is None:
                return True
            return False
        return True

    def big_count(self, p: Player) -> int:
        cdef = self.cdef
        exempt = p.exempt()
        n = 0
        for c in p.items:
            if cdef[c].big and c not in exempt:
                n += 1
        return n

    def big_allowance(self, p: Player) -> int:
        """How many Big items this character may carry: one, plus what a Steed or Sidekick adds."""
        cdef = self.cdef
        n = 1
        if self.extra_big_cards:
            for c in p.items + p.sidekicks:
                n += cdef[c].extra_big
        return n

    def may_carry_big(self, p: Player) -> bool:
        return self.has_ability(p, "carry_any_big") or self.big_count(p) < self.big_allowance(p)

    def hands_limit(self, p: Player) -> int:
        """Two Hands, plus any a Sidekick lends."""
        n = 2
        for k in p.sidekicks:
            n += self.cdef[k].extra_hands
        return n

    def slot_limit(self, p: Player, slot: str) -> int:
        if slot == "headgear" and self.has_ability(p, "extra_headgear"):
            return 2  # a Mutant's spare head
        return SLOT_LIMITS[slot]

    def complex_count(self, p: Player, items: set[int] | list[int]) -> int:
        """Equipped Complex Items as the limit counts them: Complex barrels snapped together are one."""
        cdef = self.cdef
        n = 0
        laser = False
        for c in items:
            d = cdef[c]
            if d.complex:
                if d.laser:
                    laser = True
                else:
                    n += 1
        return n + laser

    def equip_problem(self, p: Player, item: int) -> str | None:
        """Why this carried Item cannot be equipped now, or None if it can."""
        cdef = self.cdef
        d = cdef[item]
        if not self.can_use(p, item):
            return f"{p.name} may not use {d.name}"
        exempt = p.exempt() if p.carried or p.cheat_item >= 0 else ()
        if item in exempt:
            return None
        slot = d.slot
        if slot in SLOT_LIMITS:
            same = [c for c in p.equipped if cdef[c].slot == slot and c not in exempt]
            if same and len(same) >= self.slot_limit(p, slot):
                return f"{p.name} already wears {cdef[same[0]].name} ({slot})"
        elif slot == "hands":
            used = 0
            laser = False
            for c in p.equipped:
                k = cdef[c]
                if k.slot == "hands" and c not in exempt:
                    if k.laser:
                        laser = True
                    else:
                        used += k.hands
            if d.laser:  # a barrel snaps onto those already equipped
                need = 0 if laser else 2
            else:
                need = d.hands
            if used + 2 * laser + need > self.hands_limit(p):
                return f"{p.name} has no free hand for {d.name}"
        if d.complex and not self.has_ability(p, "equip_any_complex"):
            worn = [c for c in p.equipped if c not in exempt]
            if self.complex_count(p, [*worn, item]) > 1:
                return f"{p.name} may equip only one Complex Item"
        return None

    def equipment_overflow(self, p: Player) -> list[int]:
        """Equipped Items of which one must be unequipped because a limit no longer holds
        (a Mutant's second Headgear, a Gadgeteer's extra Complex Items); empty if all is well."""
        if len(p.equipped) < 2:
            return []
        cdef = self.cdef
        exempt = p.exempt() if p.carried or p.cheat_item >= 0 else ()
        count = {"headgear": 0, "armor": 0, "footgear": 0}
        hands = complex_units = 0
        laser = complex_laser = False
        for c in p.equipped:
            if c in exempt:
                continue
            d = cdef[c]
            if d.slot in count:
                count[d.slot] += 1
            elif d.slot == "hands":
                if d.laser:
                    laser = True
                else:
                    hands += d.hands
            if d.complex:
                if d.laser:
                    complex_laser = True
                else:
                    complex_units += 1
        worn = [c for c in p.equipped if c not in exempt]
        for slot, n in count.items():
            if n > 1 and n > self.slot_limit(p, slot):
                return [c for c in worn if cdef[c].slot == slot]
        if hands + 2 * laser > self.hands_limit(p):
            return [c for c in worn if cdef[c].slot == "hands"]
        if complex_units + complex_laser > 1 and not self.has_ability(p, "equip_any_complex"):
            return [c for c in worn if cdef[c].complex]
        return []

    def item_bonus(self, p: Player, item: int) -> int:
        d = self.cdef[item]
        b = d.bonus
        for cb in d.conditional_bonus:
            if self.matches(p, cb.if_):
                b += cb.value
        if p.enhancers:
            for e, it in p.enhancers.items():
                if it == item and self.matches(p, self.cdef[e].usable_if):
                    b += self.cdef[e].bonus
        return b

    def hand_limit(self, p: Player) -> int:
        return DWARF_HAND_LIMIT if self.has_ability(p, "hand_limit_6") else HAND_LIMIT

    def equipped_bonus(self, p: Player, only_armor: bool = False) -> int:
        """Bonuses of the equipped Items this character may use."""
        total = 0
        cdef = self.cdef
        for c in p.equipped:
            if only_armor and cdef[c].slot != "armor":
                continue
            if self.can_use(p, c):
                total += self.item_bonus(p, c)
        return total

    def sale_value(self, p: Player, c: int) -> int:
        """What an Item sells for: its own value plus its Item Enhancers'."""
        v = self.cdef[c].gold
        if p.enhancers:
            v += sum(self.cdef[e].gold for e, it in p.enhancers.items() if it == c)
        return v

    def sellable(self, p: Player) -> list[int]:
        """Items that may be sold: carried ones and Items (and valued one-shots) in hand."""
        cdef = self.cdef
        out = [c for c in p.items if c != p.cheat_item]
        out += [c for c in p.hand if cdef[c].is_item or cdef[c].is_one_shot]
        return out
