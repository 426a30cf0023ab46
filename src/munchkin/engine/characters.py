"""A character read from the table, as functions of the game: Race, Class, abilities, Items carried and
equipped and their limits, the hand limit, what an Item sells for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from munchkin.cards.schema import Condition
from munchkin.engine import vocabulary
from munchkin.engine.rules import DWARF_HAND_LIMIT, HAND_LIMIT, as_written
from munchkin.engine.state import Player

if TYPE_CHECKING:
    from munchkin.engine.game import Game

SLOT_LIMITS = {"headgear": 1, "armor": 1, "footgear": 1}


# -------------------------------------------------------------- identity
def race_names(g: Game, p: Player) -> list[str]:
    return [g.cdef[c].name.lower() for c in p.races]


def class_names(g: Game, p: Player) -> list[str]:
    return [g.cdef[c].name.lower() for c in p.classes]


def role_names(g: Game, p: Player) -> list[str]:
    return [g.cdef[c].name.lower() for c in p.roles]


def rank_total(g: Game, p: Player) -> int:
    """The total Rank of a character's Proficiencies (at most their Level)."""
    return sum(g.cdef[c].rank for c in p.proficiencies)


def has_ability(g: Game, p: Player, ability: str) -> bool:
    """Whether a card `p` has (or their House) gives them `ability`."""
    if ability not in g.abilities_granted:  # no card of these sets gives it
        return False
    if _has_ability(g, p, ability):
        vocabulary.used("ability", ability)
        return True
    return False


def _has_ability(g: Game, p: Player, ability: str) -> bool:
    cdef = g.cdef
    if p.house and ability in g.houses[p.house].abilities:
        vocabulary.used("character_card.abilities")
        return True
    if p.roles or p.proficiencies:
        for c in p.roles + p.proficiencies:
            if ability in cdef[c].abilities:
                vocabulary.used("proficiency.abilities" if cdef[c].is_proficiency else "card.role")
                vocabulary.used("character_card.abilities")
                return True
    for c in p.classes:
        if ability in cdef[c].abilities:
            vocabulary.used("card.class")
            vocabulary.used("character_card.abilities")
            return True
    for c in p.races:
        if ability in cdef[c].abilities:
            vocabulary.used("card.race")
            vocabulary.used("character_card.abilities")
            return True
    for c in p.sidekicks:  # abilities a Sidekick grants its owner
        if ability in cdef[c].abilities:
            vocabulary.used("sidekick.grants")
            return True
    if g.item_grants:  # abilities an equipped Item grants (Saddle Bags)
        for c in p.equipped:
            if ability in cdef[c].abilities and can_use(g, p, c):
                vocabulary.used("item.grants")
                return True
    return False


def sidekick_limit(g: Game, p: Player) -> int:
    """One Sidekick (or Hireling) in play; two for a Trader."""
    return 2 if has_ability(g, p, "two_sidekicks") else 1


def sidekick_count(g: Game, p: Player) -> int:
    """Sidekicks counted against the limit: one under Cheat! is not."""
    return len([k for k in p.sidekicks if k not in p.cheats])


def sidekick_sex(g: Game, p: Player, k: int) -> str:
    """A Sidekick's sex as printed, or switched by a card."""
    sex = g.cdef[k].sex
    if k in p.swapped:
        return "female" if sex == "male" else "male"
    return sex


# -------------------------------------------------------------- Steeds
def steeds(g: Game, p: Player) -> list[int]:
    return [c for c in p.items if g.cdef[c].steed]


def steed_room(g: Game, p: Player) -> bool:
    """One Steed per player; a Steed under Cheat! does not count."""
    return not any(g.cdef[c].steed and c not in p.cheats for c in p.items)


def super_single(g: Game, p: Player) -> bool:
    """Super Munchkin with one Class: its advantages, none of its disadvantages."""
    return p.super_munchkin >= 0 and len(p.classes) == 1


def half_single(g: Game, p: Player) -> bool:
    return p.half_breed >= 0 and len(p.races) == 1


def dual_single(g: Game, p: Player) -> bool:
    """Dual Role with one Role: its advantages, none of its disadvantages."""
    return p.dual_role >= 0 and len(p.roles) == 1


def matches(g: Game, p: Player, cond: Condition | None, monster_bonus: bool = False, path: str = "") -> bool:
    """Does the character meet the condition? With `monster_bonus`, a monster's bonus
    against a Class or Race is ignored for a Super Munchkin / Half-Breed of one. `path` names
    the vocabulary key the condition stands under (`item.usable_if`), for the coverage recorder."""
    if cond is None:
        return True
    held = _matches(g, p, cond, monster_bonus)
    if vocabulary.seen is not None:
        _record(g, p, cond, monster_bonus, path, held)
    return held


def _record(g: Game, p: Player, cond: Condition, monster_bonus: bool, path: str, held: bool) -> None:
    """Note the branch `path` took and the condition's fields that decided it: all of them when it
    held, else each that fails on its own (evaluated alone, which changes nothing)."""
    if path:
        vocabulary.decided(path, held)
    for key, value in cond.model_dump(exclude_none=True).items():
        if held or not _matches(g, p, Condition.model_validate({key: value}), monster_bonus):
            vocabulary.used(f"condition.{'class' if key == 'class_' else key}")
            if key == "sex":
                vocabulary.used("sex", value)


def _matches(g: Game, p: Player, cond: Condition, monster_bonus: bool) -> bool:
    if cond.race is not None:
        if cond.race == "human":
            if p.races and not half_single(g, p):
                return False
        elif cond.race not in race_names(g, p):
            return False
        elif monster_bonus and half_single(g, p):
            return False
    if cond.not_race is not None and cond.not_race in race_names(g, p):
        return False
    if cond.class_ is not None:
        if cond.class_ not in class_names(g, p):
            return False
        if monster_bonus and super_single(g, p):
            return False
    if cond.not_class is not None and cond.not_class in class_names(g, p):
        return False
    if cond.sex is not None and p.sex != cond.sex:
        return False
    if cond.level_at_most is not None and p.level > cond.level_at_most:
        return False
    if cond.level_at_least is not None and p.level < cond.level_at_least:
        return False
    if cond.no_race is not None and bool(p.races and not half_single(g, p)) == cond.no_race:
        return False
    if cond.no_class is not None and bool(p.classes) == cond.no_class:
        return False
    if cond.role is not None:
        if cond.role not in role_names(g, p):
            return False
        if monster_bonus and dual_single(g, p):
            return False
    if cond.not_role is not None and cond.not_role in role_names(g, p):
        return False
    if cond.house is not None and p.house != cond.house:
        return False
    if cond.not_house is not None and p.house == cond.not_house:
        return False
    if cond.changed_sex is not None and p.sex_changed != cond.changed_sex:
        return False
    return True


# -------------------------------------------------------------- items
def can_use(g: Game, p: Player, item: int) -> bool:
    """May this character get the Item's benefit (its restrictions, Super Munchkin aside)?"""
    d = g.cdef[item]
    if item in p.cheats and as_written(g):  # "use it even where the rules would forbid it"
        return True
    if d.needs_steed and not any(g.cdef[c].steed for c in p.items):
        vocabulary.used("item.needs_steed")
        return False  # an Item for Steeds counts only while its owner has one
    if item in p.cheats:
        return True
    if d.usable_if is not None and not matches(g, p, d.usable_if, path=f"{d.kind}.usable_if"):
        return False
    nu = d.not_usable_if
    if nu is not None and matches(g, p, nu, path="item.not_usable_if"):
        # Super Munchkin / Half-Breed of one may use Items forbidden to that Class / Race
        if nu.class_ is not None and super_single(g, p) and nu.race is None and nu.sex is None:
            return True
        if nu.race is not None and half_single(g, p) and nu.class_ is None and nu.sex is None:
            return True
        if nu.role is not None and dual_single(g, p) and nu.class_ is None and nu.race is None:
            return True
        return False
    return True


def big_count(g: Game, p: Player) -> int:
    cdef = g.cdef
    exempt = p.exempt()
    n = 0
    for c in p.items:
        if cdef[c].big and c not in exempt:
            n += 1
    return n


def big_allowance(g: Game, p: Player) -> int:
    """How many Big items this character may carry: one, plus what a Steed or Sidekick adds."""
    cdef = g.cdef
    n = 1
    if g.extra_big_cards:
        for c in p.items + p.sidekicks:
            if cdef[c].extra_big:
                vocabulary.used("sidekick.extra_big" if cdef[c].is_sidekick else "item.extra_big")
            n += cdef[c].extra_big
    return n


def may_carry_big(g: Game, p: Player) -> bool:
    return has_ability(g, p, "carry_any_big") or big_count(g, p) < big_allowance(g, p)


def hands_limit(g: Game, p: Player) -> int:
    """Two Hands, plus any a Sidekick lends."""
    n = 2
    for k in p.sidekicks:
        if g.cdef[k].extra_hands:
            vocabulary.used("sidekick.hands")
        n += g.cdef[k].extra_hands
    return n


def slot_limit(g: Game, p: Player, slot: str) -> int:
    if slot == "headgear" and has_ability(g, p, "extra_headgear"):
        return 2  # a Mutant's spare head
    return SLOT_LIMITS[slot]


def complex_count(g: Game, p: Player, items: set[int] | list[int]) -> int:
    """Equipped Complex Items as the limit counts them: Complex barrels snapped together are one."""
    cdef = g.cdef
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


def equip_problem(g: Game, p: Player, item: int) -> str | None:
    """Why this carried Item cannot be equipped now, or None if it can."""
    cdef = g.cdef
    d = cdef[item]
    if not can_use(g, p, item):
        return f"{p.name} may not use {d.name}"
    exempt = p.exempt() if p.carried or p.cheats else ()
    if item in exempt:
        return None
    slot = d.slot
    if slot in SLOT_LIMITS:
        same = [c for c in p.equipped if cdef[c].slot == slot and c not in exempt]
        if same and len(same) >= slot_limit(g, p, slot):
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
        if used + 2 * laser + need > hands_limit(g, p):
            return f"{p.name} has no free hand for {d.name}"
    if d.complex and not has_ability(g, p, "equip_any_complex"):
        worn = [c for c in p.equipped if c not in exempt]
        if complex_count(g, p, [*worn, item]) > 1:
            return f"{p.name} may equip only one Complex Item"
    return None


def equipment_overflow(g: Game, p: Player) -> list[int]:
    """Equipped Items of which one must be unequipped because a limit no longer holds
    (a Mutant's second Headgear, a Gadgeteer's extra Complex Items); empty if all is well."""
    if len(p.equipped) < 2:
        return []
    cdef = g.cdef
    exempt = p.exempt() if p.carried or p.cheats else ()
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
        if n > 1 and n > slot_limit(g, p, slot):
            return [c for c in worn if cdef[c].slot == slot]
    if hands + 2 * laser > hands_limit(g, p):
        return [c for c in worn if cdef[c].slot == "hands"]
    if complex_units + complex_laser > 1 and not has_ability(g, p, "equip_any_complex"):
        return [c for c in worn if cdef[c].complex]
    return []


def item_bonus(g: Game, p: Player, item: int) -> int:
    d = g.cdef[item]
    b = d.bonus
    if b and vocabulary.seen is not None:
        vocabulary.used("item.bonus")
    for cb in d.conditional_bonus:
        if matches(g, p, cb.if_, path="conditional_value.if"):
            vocabulary.used("item.conditional_bonus")
            vocabulary.used("conditional_value.value")
            b += cb.value
    if p.enhancers:
        for e, it in p.enhancers.items():
            if it == item and matches(g, p, g.cdef[e].usable_if, path="item_enhancer.usable_if"):
                vocabulary.used("item_enhancer.bonus")
                b += g.cdef[e].bonus
    return b


def hand_limit(g: Game, p: Player) -> int:
    return DWARF_HAND_LIMIT if has_ability(g, p, "hand_limit_6") else HAND_LIMIT


def equipped_bonus(g: Game, p: Player, only_armor: bool = False) -> int:
    """Bonuses of the equipped Items this character may use."""
    total = 0
    cdef = g.cdef
    for c in p.equipped:
        if only_armor and cdef[c].slot != "armor":
            continue
        if can_use(g, p, c):
            total += item_bonus(g, p, c)
    return total


def sale_value(g: Game, p: Player, c: int) -> int:
    """What an Item sells for: its own value plus its Item Enhancers'."""
    d = g.cdef[c]
    v = d.gold
    if v and vocabulary.seen is not None:
        vocabulary.used(f"{d.kind}.gold")
    if p.enhancers:
        if vocabulary.seen is not None and c in p.enhancers.values():
            vocabulary.used("item_enhancer.gold")
        v += sum(g.cdef[e].gold for e, it in p.enhancers.items() if it == c)
    return v


def sellable(g: Game, p: Player) -> list[int]:
    """Items that may be sold: carried ones and Items (and valued one-shots) in hand."""
    cdef = g.cdef
    out = list(p.items) if as_written(g) else [c for c in p.items if c not in p.cheats]  # the Cheat! goes with it
    out += [c for c in p.hand if cdef[c].is_item or cdef[c].is_one_shot]
    return out
