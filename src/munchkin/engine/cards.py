"""Runtime card table: one flat, slotted record per card definition, built once per set mix."""

from __future__ import annotations

import gc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from munchkin.cards.schema import (
    Bribe,
    Card,
    CharacterCard,
    Condition,
    ConditionalValue,
    Effect,
    House,
    HouseCard,
    MayPass,
    Reward,
)
from munchkin.errors import MunchkinError


class SetDefinitions(Protocol):
    """What the engine reads of one set: its validated card definitions, as data.

    The engine reads no files. Whoever knows where sets live hands the engine a function from a
    set's name to its definitions (`provide_sets`); the package does so on import with the YAML
    loader (`munchkin/__init__.py`, `munchkin.cards.loader.load_set`), so `Game(Setup(["deluxe"], ...))`
    works for every caller, and a test may hand in sets built in memory."""

    @property
    def cards(self) -> Sequence[Card]: ...
    @property
    def terms(self) -> Mapping[str, str]: ...  # the set's own words (Trap for Curse, Unlock the Door)
    @property
    def houses(self) -> Sequence[House]: ...
    @property
    def house_cards(self) -> Sequence[HouseCard]: ...


_source: list[Callable[..., SetDefinitions]] = []


def provide_sets(source: Callable[..., SetDefinitions]) -> None:
    """Tell the engine where a set's definitions come from: a function of the set's name (and,
    for a save made with older cards, of their `version`)."""
    _source[:] = [source]


def load_set(name: str, version: int | None = None) -> SetDefinitions:
    """The definitions of the set named `name` (today's, or those of `version`), from the source
    given to `provide_sets`."""
    if not _source:
        raise MunchkinError("no card sets provided: import munchkin, or call provide_sets first")
    return _source[0](name) if version is None else _source[0](name, version)


def card_version(name: str) -> int:
    """The version of a set's cards today (1 for a source that does not say)."""
    return int(getattr(load_set(name), "version", 1))


SLOT_NONE, SLOT_HEAD, SLOT_ARMOR, SLOT_FEET, SLOT_HANDS = "none", "headgear", "armor", "footgear", "hands"


@dataclass(slots=True, eq=False)
class CardDef:
    """Everything the engine reads about one card, flattened from its set file."""

    idx: int  # the card's identity: copies share it, and so do same-named cards of combined sets
    id: str
    name: str
    set: str
    deck: str
    kind: str
    text: str
    provenance: str
    model: Card | House
    # monster
    level: int = 0
    treasures: int = 0
    levels: int = 1
    undead: bool = False
    kin: frozenset[str] = frozenset()  # tags by which monsters join each other's fights (Undead, Dragon, ...)
    modifiers: tuple[ConditionalValue, ...] = ()
    run_away: int = 0
    escape: str = "roll"
    wnp_level: int = -1
    wnp_unless: Condition | None = None
    wna_if: Condition | None = None
    wna_treasures: int = 0
    even_if_escaped: tuple[Effect, ...] = ()
    level_only: bool = False
    ignore_level: bool = False
    no_help: bool = False
    bonus_treasures: tuple[Reward, ...] = ()
    bonus_levels: tuple[ConditionalValue, ...] = ()
    bonus_doors: int = 0
    escape_if: Condition | None = None
    defeated_by: Condition | None = None
    flees_from: Condition | None = None
    no_bonus_from: frozenset[str] = frozenset()
    no_sidekicks: bool = False
    before_fight: tuple[Effect, ...] = ()
    may_pass: MayPass | None = None
    bribe: Bribe | None = None
    bad_stuff: tuple[Effect, ...] = ()
    # items and one-shots
    bonus: int = 0
    gold: int = 0
    slot: str = SLOT_NONE
    hands: int = 0
    big: bool = False
    complex: bool = False
    laser: bool = False
    steed: bool = False
    needs_steed: bool = False
    extra_big: int = 0  # more Big items its owner may carry (an Item or a Sidekick)
    extra_hands: int = 0  # more Hands its owner has (a Sidekick)
    usable_if: Condition | None = None
    not_usable_if: Condition | None = None
    tags: frozenset[str] = frozenset()
    conditional_bonus: tuple[ConditionalValue, ...] = ()
    when: str = "any"
    # curses and enhancers
    effects: tuple[Effect, ...] = ()
    duration: str = "once"
    strength: int = 0
    changes_sex: bool = False  # a Curse that changes sex (may be played on a Sidekick instead)
    # race / class
    abilities: frozenset[str] = frozenset()
    alone_bonus: int = 0
    rank: int = 0  # a Proficiency's Rank
    # sidekicks and hirelings
    carries: int = 0
    sex: str = ""  # a Sidekick's sex, as printed (the game may change it)
    hook: str | None = None
    # derived flags
    is_monster: bool = False
    is_item: bool = False
    is_one_shot: bool = False
    is_curse: bool = False
    is_race: bool = False
    is_class: bool = False
    is_role: bool = False
    is_proficiency: bool = False
    is_enhancer: bool = False
    is_special: bool = False
    is_gual: bool = False
    is_sidekick: bool = False  # a Sidekick, or a Hireling: the same thing in a combined game
    is_item_enhancer: bool = False
    word: str = ""  # what the card's own set calls its kind in narration (Curse, Trap, ...)
    extra: dict[str, object] = field(default_factory=dict)


def _character(d: CardDef, block: CharacterCard) -> None:
    d.abilities = frozenset(block.abilities)
    d.run_away = block.run_away
    d.alone_bonus = block.alone_bonus
    d.hook = block.hook


KIND_WORDS = {
    "curse": "Curse",
    "hireling": "Hireling",
    "sidekick": "Sidekick",
    "item_enhancer": "Item Enhancer",
    "role": "Role",
    "proficiency": "Proficiency",
}


def build_def(idx: int, set_name: str, c: Card, terms: Mapping[str, str] | None = None) -> CardDef:
    d = CardDef(idx, c.id, c.name, set_name, c.deck, c.kind, c.text, c.provenance, c)
    d.word = (terms or {}).get(c.kind, KIND_WORDS.get(c.kind, c.kind.replace("_", " ")))
    if c.monster:
        m = c.monster
        d.is_monster = True
        d.level, d.treasures, d.levels = m.level, m.treasures, m.levels
        d.undead = "undead" in m.tags
        d.kin = frozenset(m.tags)
        d.modifiers = tuple(m.modifiers)
        d.run_away = m.run_away
        d.escape = m.escape
        if m.will_not_pursue:
            d.wnp_level = m.will_not_pursue.level_at_most
            d.wnp_unless = m.will_not_pursue.unless
        if m.will_not_attack:
            d.wna_if = m.will_not_attack.if_
            d.wna_treasures = m.will_not_attack.treasures
        d.even_if_escaped = tuple(m.even_if_escaped)
        d.level_only, d.ignore_level, d.no_help = m.level_only, m.ignore_level, m.no_help
        d.bonus_treasures = tuple(m.bonus_treasures)
        d.bonus_levels = tuple(m.bonus_levels)
        d.bonus_doors = m.bonus_doors
        d.escape_if, d.defeated_by, d.flees_from = m.escape_if, m.defeated_by, m.flees_from
        d.no_bonus_from, d.no_sidekicks = frozenset(m.no_bonus_from), m.no_sidekicks
        d.before_fight, d.may_pass, d.bribe = tuple(m.before_fight), m.may_pass, m.bribe
        d.bad_stuff = tuple(m.bad_stuff)
        d.hook = m.hook
    elif c.item:
        i = c.item
        d.is_item = True
        d.bonus, d.gold, d.slot, d.hands, d.big = i.bonus, i.gold, i.slot, i.hands, i.big
        d.usable_if, d.not_usable_if = i.usable_if, i.not_usable_if
        d.complex, d.laser = i.complex, i.laser
        d.tags = frozenset(i.tags) | ({"fire"} if i.laser else set())  # every laser is a fire/flame weapon
        d.conditional_bonus = tuple(i.conditional_bonus)
        d.run_away = i.run_away
        d.hook = i.hook
        d.steed, d.needs_steed, d.extra_big = i.steed, i.needs_steed, i.extra_big
        d.abilities = frozenset(i.grants)
        if i.steed:  # fought as a monster when drawn face-up: Level twice its bonus, 1 Treasure, 1 level
            d.level, d.treasures, d.levels = max(1, 2 * i.bonus), 1, 1
            d.bad_stuff = (Effect(lose_levels=1),)
    elif c.one_shot:
        o = c.one_shot
        d.is_one_shot = True
        d.gold, d.bonus, d.when, d.usable_if, d.hook = o.gold, o.bonus, o.when, o.usable_if, o.hook
        d.tags = frozenset(o.tags)
        if "fire" in c.text.lower() or "flam" in c.name.lower():
            d.tags |= {"fire"}
    elif c.curse:
        d.is_curse = True
        d.effects, d.duration, d.hook = tuple(c.curse.effects), c.curse.duration, c.curse.hook
        d.changes_sex = any(e.change_sex for e in c.curse.effects)
    elif c.enhancer:
        d.is_enhancer = True
        d.strength, d.treasures, d.hook = c.enhancer.strength, c.enhancer.treasures, c.enhancer.hook
    elif c.race:
        d.is_race = True
        _character(d, c.race)
    elif c.class_:
        d.is_class = True
        _character(d, c.class_)
    elif c.role:
        d.is_role = True
        _character(d, c.role)
    elif c.proficiency:
        d.is_proficiency = True
        _character(d, c.proficiency)
        d.rank = c.proficiency.rank
    elif c.special:
        d.is_special = True
        d.when, d.hook = c.special.when, c.special.hook
    elif c.go_up_a_level:
        d.is_gual = True
    elif c.hireling:
        d.is_sidekick = True
        d.carries = 1  # a Hireling carries one Item
    elif c.sidekick:
        k = c.sidekick
        d.is_sidekick = True
        d.bonus, d.run_away, d.carries, d.hook = k.bonus, k.run_away, k.carries, k.hook
        d.abilities = frozenset(k.grants)
        d.sex, d.extra_hands, d.extra_big = k.sex or "", k.hands, k.extra_big
    elif c.item_enhancer:
        e = c.item_enhancer
        d.is_item_enhancer = True
        d.bonus, d.gold, d.usable_if = e.bonus, e.gold, e.usable_if
    return d


def build_houses(sets: list[str]) -> dict[str, CardDef]:
    """The Houses of a mix of sets, by lower-case name (outside both decks; none for most sets)."""
    out: dict[str, CardDef] = {}
    for name in sets:
        cs = load_set(name)
        for h in cs.houses:
            d = CardDef(-1, h.id, h.name, name, "", "house", h.text, h.provenance, h)
            _character(d, h.house)
            d.word = "House"
            out.setdefault(h.name.lower(), d)
    return out


def house_faces(sets: list[str]) -> list[tuple[str, str]]:
    """The double-sided House cards as pairs of lower-case House names."""
    out: list[tuple[str, str]] = []
    for name in sets:
        cs = load_set(name)
        names = {h.id: h.name.lower() for h in cs.houses}
        out += [(names[hc.faces[0]], names[hc.faces[1]]) for hc in cs.house_cards]
    return out


PHASE_TERMS = ("kick_open_the_door", "look_for_trouble")


def phase_words(sets: list[str]) -> dict[str, str]:
    """The turn phases' names: a set's own (Unlock the Door) when every set of the game uses them."""
    words = [{k: v for k, v in load_set(s).terms.items() if k in PHASE_TERMS} for s in sets]
    if words and all(w == words[0] for w in words):
        return words[0]
    return {}


def build_table(sets: list[str], versions: Mapping[str, int] | None = None) -> tuple[list[CardDef], list[int]]:
    """Card definitions for a mix of sets (of the cards' `versions`, today's where not given), and the
    definition index of every physical card."""
    loaded = []
    for name in sets:
        v = (versions or {}).get(name)
        loaded.append(load_set(name) if v is None or v == card_version(name) else load_set(name, v))
    key = tuple(zip(sets, map(id, loaded), strict=True))  # the loaded sets are held in `_TABLES`: ids not reused
    kept = _TABLES.get(key)
    if kept is not None:
        return list(kept[1]), list(kept[2])  # definitions are never changed once built: games share them
    defs: list[CardDef] = []
    physical: list[int] = []
    first: dict[tuple[str, str], int] = {}
    for name, cs in zip(sets, loaded, strict=True):
        for c in cs.cards:
            pos = len(defs)
            d = build_def(pos, name, c, cs.terms)
            # in a combined game, cards of the same name and kind (each box's Half-Breed, Cheat!, ...)
            # are one card: the same identity for "one of each" rules and for listing actions once
            d.idx = first.setdefault((c.name.lower(), c.kind), pos)
            defs.append(d)
            physical.extend([pos] * c.copies)
    if len(_TABLES) > 64:
        _TABLES.clear()
    _TABLES[key] = (loaded, defs, physical)
    # the definitions (tens of thousands of objects with their sets' data) live as long as the process:
    # kept out of the garbage collector's passes, which would otherwise walk them all again and again
    # (about 3% of a game's instructions); objects are still freed when no longer referenced
    gc.freeze()
    return list(defs), list(physical)


# the tables built, by sets and the very definitions loaded (a set reloaded from its folder is built anew)
_TABLES: dict[tuple[tuple[str, int], ...], tuple[list[SetDefinitions], list[CardDef], list[int]]] = {}
