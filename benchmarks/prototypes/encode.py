"""The prototypes' shared input: a game's card table as flat tuples of ints (made once per game) and a
position as tuples of ints (cards as their numbers, membership sets as int bitmasks), read from an
engine `Game`. Every route (pure Python, compiled, C) takes exactly these, so they are compared on the
same data; what they cover is said by `main_outside` and `fight_outside` (None: covered)."""

from __future__ import annotations

from typing import Any

from munchkin.cards.hooks import HOOKS, CardHook
from munchkin.engine.game import Game
from munchkin.engine.state import Combat, Player

# card flags (Table.flags[c])
F_ITEM, F_BIG, F_STEED, F_ONE_SHOT, F_NEEDS_STEED, F_RACE, F_CLASS = 1, 2, 4, 8, 16, 32, 64
F_ONLY_ARMOR, F_FLOOR, F_IGNORE_LEVEL, F_LEVEL_ONLY, F_NO_SIDEKICKS = 128, 256, 512, 1024, 2048
SLOTS = {"none": 0, "headgear": 1, "armor": 2, "footgear": 3, "hands": 4}
# abilities the prototypes read (Table.abil[c] bits)
A_CARRY_ANY_BIG, A_DOUBLE_SALE, A_THEFT, A_WINS_TIES = 1, 2, 4, 8
ABILITY_BITS = {
    "carry_any_big": A_CARRY_ANY_BIG,
    "double_sale": A_DOUBLE_SALE,
    "theft": A_THEFT,
    "wins_ties": A_WINS_TIES,
}
HUMAN = 1000  # a condition's race "human" (no race card has this number)
# engine abilities whose effects the prototypes do not implement: a game whose sets grant one is outside
UNSUPPORTED_ABILITIES = frozenset(
    {"complex_bonus", "headgear_bonus", "bow_bonus", "extra_headgear", "equip_any_complex", "two_sidekicks"}
)
ONLY_ARMOR_HOOKS = frozenset({"deluxe.malign_mirror"})  # a Curse whose hook says only armor counts, always

Cond = tuple[int, int, int, int, int, int, int, int, int, int]


class Table:
    """One game's cards as tuples indexed by card number, and its conditions as tuples of ints."""

    __slots__ = (
        "n",
        "idx",
        "flags",
        "gold",
        "bonus",
        "slot",
        "hands",
        "usable",
        "not_usable",
        "cond_bonus",
        "extra_hands",
        "carries",
        "abil",
        "name_id",
        "level",
        "strength",
        "next_bonus",
        "mods",
        "tags",
        "no_bonus_from",
        "defeated_by",
        "sk_bonus",
        "alone",
        "conds",
        "granted",
        "outside",
    )

    def __init__(self, g: Game) -> None:
        cdef = g.cdef
        self.n = g.ncards
        names: dict[str, int] = {}  # a Race's or Class's lower-case name -> its number in conditions
        conds: list[Cond] = []
        seen: dict[Any, int] = {}
        outside: list[str] = []

        def name(s: str | None) -> int:
            if s is None:
                return -1
            if s == "human":
                return HUMAN
            return names.setdefault(s, len(names))

        def cond(c: Any) -> int:
            if c is None:
                return -1
            if c.role is not None or c.not_role is not None or c.house is not None or c.not_house is not None:
                outside.append("a condition on a Role or House")
            key = c.model_dump_json()
            if key not in seen:
                tri = {None: -1, False: 0, True: 1}
                conds.append(
                    (
                        name(c.race),
                        name(c.not_race),
                        name(c.class_),
                        name(c.not_class),
                        {None: -1, "male": 0, "female": 1}[c.sex],
                        -1 if c.level_at_most is None else c.level_at_most,
                        -1 if c.level_at_least is None else c.level_at_least,
                        tri[c.no_race],
                        tri[c.no_class],
                        tri[c.changed_sex],
                    )
                )
                seen[key] = len(conds) - 1
            return seen[key]

        for d in cdef:  # Race and Class names first, so that a condition's name finds them
            if d.is_race or d.is_class:
                name(d.name.lower())
        flags, abil, name_id, mods, cond_bonus = [], [], [], [], []
        for d in cdef:
            h = HOOKS.get(d.hook) if d.hook else None
            f = (
                F_ITEM * d.is_item
                | F_BIG * d.big
                | F_STEED * d.steed
                | F_ONE_SHOT * d.is_one_shot
                | F_NEEDS_STEED * d.needs_steed
                | F_RACE * d.is_race
                | F_CLASS * d.is_class
                | F_IGNORE_LEVEL * d.ignore_level
                | F_LEVEL_ONLY * d.level_only
                | F_NO_SIDEKICKS * d.no_sidekicks
            )
            if isinstance(h, CardHook) and h.enhancer_floor():
                f |= F_FLOOR
            if isinstance(h, CardHook) and type(h).only_armor is not CardHook.only_armor:
                if d.hook in ONLY_ARMOR_HOOKS:
                    f |= F_ONLY_ARMOR
                else:
                    outside.append(f"{d.name}: a hook that may weigh only armor")
            if (d.is_race or d.is_class or d.is_sidekick or d.is_role or d.is_proficiency) and d.hook:
                outside.append(f"{d.name}: powers from a hook")
            if d.complex or d.laser or d.extra_big or d.is_role or d.is_proficiency or d.is_item_enhancer:
                outside.append(f"{d.name}: a kind of card the prototypes leave out")
            flags.append(f)
            abil.append(sum(bit for a, bit in ABILITY_BITS.items() if a in d.abilities))
            name_id.append(name(d.name.lower()) if d.is_race or d.is_class else -1)
            mods.append(tuple((cond(m.if_), m.value) for m in d.modifiers))
            cond_bonus.append(tuple((cond(b.if_), b.value) for b in d.conditional_bonus))
        self.idx = tuple(d.idx for d in cdef)
        self.flags = tuple(flags)
        self.gold = tuple(d.gold for d in cdef)
        self.bonus = tuple(d.bonus for d in cdef)
        self.slot = tuple(SLOTS[d.slot] for d in cdef)
        self.hands = tuple(d.hands for d in cdef)
        self.usable = tuple(cond(d.usable_if) if d.is_item else -1 for d in cdef)
        self.not_usable = tuple(cond(d.not_usable_if) if d.is_item else -1 for d in cdef)
        self.cond_bonus = tuple(cond_bonus)
        self.extra_hands = tuple(d.extra_hands for d in cdef)
        self.carries = tuple(d.carries for d in cdef)
        self.abil = tuple(abil)
        self.name_id = tuple(name_id)
        self.level = tuple(d.level for d in cdef)
        self.strength = tuple(d.strength for d in cdef)
        self.next_bonus = tuple(
            sum(e.next_combat_bonus for e in d.effects if e.next_combat_bonus is not None) if d.is_curse else 0
            for d in cdef
        )
        self.mods = tuple(mods)
        tag_bits: dict[str, int] = {}
        for d in cdef:
            for t in sorted(d.tags | d.no_bonus_from):
                tag_bits.setdefault(t, 1 << len(tag_bits))
        self.tags = tuple(sum(tag_bits[t] for t in d.tags) for d in cdef)
        self.no_bonus_from = tuple(sum(tag_bits[t] for t in d.no_bonus_from) for d in cdef)
        self.defeated_by = tuple(cond(d.defeated_by) if d.is_monster else -1 for d in cdef)
        self.sk_bonus = tuple(d.bonus if d.is_sidekick else 0 for d in cdef)
        self.alone = tuple(d.alone_bonus for d in cdef)
        self.conds = tuple(conds)
        self.granted = sum(bit for a, bit in ABILITY_BITS.items() if a in g.abilities_granted)
        if g.abilities_granted & UNSUPPORTED_ABILITIES:
            outside.append(
                "abilities the prototypes leave out: " + ", ".join(g.abilities_granted & UNSUPPORTED_ABILITIES)
            )
        if g.item_grants or g.extra_big_cards or g.sidekicks_discardable or g.sidekick_sexes or g.allies:
            outside.append("a rule of the sets the prototypes leave out")
        if len(g.players) > 6 or g.rules < 7:
            outside.append("not today's rules")
        self.outside = "; ".join(outside) or None


def mask(cards: Any) -> int:
    """A set of card numbers as an int bitmask."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def player(p: Player) -> tuple[Any, ...]:
    """A player as the prototypes read it: (seat, dead, level, sex, hand, items, equipped mask, races,
    classes, sidekicks, curses, exempt mask, cheats mask, half_breed, super_munchkin, sex_changed,
    double_sale_used, double sale barred, carrying Sidekicks mask)."""
    exempt = mask(p.exempt()) if p.carried or p.cheats else 0
    return (
        p.seat,
        p.dead,
        p.level,
        1 if p.sex == "female" else 0,
        tuple(p.hand),
        tuple(p.items),
        mask(p.equipped),
        tuple(p.races),
        tuple(p.classes),
        tuple(p.sidekicks),
        tuple(p.curses),
        exempt,
        mask(p.cheats),
        p.half_breed >= 0,
        p.super_munchkin >= 0,
        p.sex_changed,
        p.double_sale_used,
        "double_sale" in p.barred,
        mask(p.carried),
    )


def main_outside(t: Table, g: Game, seat: int) -> str | None:
    """Why the prototypes do not list `legal.table_actions(g, p, own_turn=True)` here (None: they do)."""
    pr = g._prompt
    if pr.kind != "main" or getattr(pr, "stage", "") == "create" or seat != g.active:
        return "not a Main decision of one's own turn"
    if t.outside:
        return t.outside
    if any(p.enhancers or p.roles or p.proficiencies or p.house for p in g.players):
        return "Item Enhancers, Roles, Proficiencies or Houses in play"
    return None


def main_position(g: Game, seat: int) -> tuple[int, tuple[tuple[Any, ...], ...]]:
    """The acting seat and every player, as the prototypes read them."""
    return seat, tuple([player(p) for p in g.players])


def fight_outside(t: Table, g: Game) -> str | None:
    """Why the prototypes do not weigh the fight here (None: they do)."""
    c = g.combat
    if c is None or not c.monsters:
        return "no monster in the fight (or no fight)"
    if t.outside:
        return t.outside
    if c.sex_bonus or any(g.players[f].enhancers or g.players[f].roles or g.players[f].house for f in c.fighters()):
        return "a Sidekick's sex, Item Enhancers, Roles or Houses in the fight"
    return None


def fight_position(g: Game) -> tuple[Any, ...]:
    """The fight as the prototypes weigh it: (fighter, helper, monsters as (base, enhancers, one-shots'
    bonus), the side's one-shots as (card, bonus), Berserking, Turning and House bonus by seat, the seats
    backstabbed (once per backstab), the Doppleganger's seat, the fighters as players)."""
    c: Combat = g.combat  # type: ignore[assignment]
    players = g.players
    if c.berserk or c.turning or c.house_bonus:
        by_seat = tuple(
            [c.berserk.get(s, 0) + c.turning.get(s, 0) + c.house_bonus.get(s, 0) for s in range(len(players))]
        )
    else:
        by_seat = (0,) * len(players)
    monsters = tuple(
        [(m.base, tuple(m.enhancers), sum([b for _, b in m.oneshots]) if m.oneshots else 0) for m in c.monsters]
    )
    fighter = player(players[c.fighter])
    return (
        c.fighter,
        c.helper,
        monsters,
        tuple([(k, b) for k, _, b in c.side]) if c.side else (),
        by_seat,
        tuple([v for _, v in c.backstabs]) if c.backstabs else (),
        c.doppleganger,
        (fighter,) if c.helper < 0 else (fighter, player(players[c.helper])),
    )
