"""The card vocabulary: pydantic models that validate every set file.

A set file is YAML with a `set` name and a list of `cards`. Each card has one
kind-specific block (monster, item, one_shot, curse, ...) written in the words
below; effects too unique for the vocabulary name a Python hook by card id.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Provenance = Literal["rulebook", "published", "original"]
Deck = Literal["door", "treasure"]
Kind = Literal[
    "monster",
    "curse",
    "race",
    "class",
    "enhancer",
    "special",
    "item",
    "one_shot",
    "go_up_a_level",
    "hireling",
    "sidekick",
    "item_enhancer",
    "role",
    "proficiency",
]
Sex = Literal["male", "female"]
Slot = Literal["headgear", "armor", "footgear", "hands", "none"]
# Numbers the rules cannot have below a bound (docs/cards.md, "Numbers"): a Level is at least 1, a
# count of Treasures, gold or cards is never negative, and an effect's amount is at least 1.
AtLeast1 = Annotated[int, Field(ge=1)]
AtLeast0 = Annotated[int, Field(ge=0)]


Ability = Literal[
    "wins_ties",
    "berserk",
    "backstab",
    "theft",
    "flight_spell",
    "charm_spell",
    "resurrection",
    "turning",
    "hand_limit_6",
    "carry_any_big",
    "levels_for_helping",
    "double_sale",
    "retry_run_away",
    "equip_any_complex",
    "two_sidekicks",
    "bounty",
    "complex_bonus",
    "extra_headgear",
    "headgear_bonus",
    "bow_bonus",
    "levels_for_helping_without_treasure",
    "monster_discard_bonus",
    "turning_death_eater",
    "turning_dragon",
]
MonsterTag = Literal["undead", "death_eater", "dragon"]


class Strict(BaseModel):
    """Base for every block: unknown keys are errors, so typos never pass."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Condition(Strict):
    """A test on a character; every field given must hold."""

    race: str | None = None
    not_race: str | None = None
    class_: str | None = Field(default=None, alias="class")
    not_class: str | None = None
    sex: Sex | None = None
    level_at_most: AtLeast1 | None = None
    level_at_least: AtLeast1 | None = None
    no_race: bool | None = None
    no_class: bool | None = None
    role: str | None = None
    not_role: str | None = None
    house: str | None = None
    not_house: str | None = None
    changed_sex: bool | None = None  # has (not) changed sex during the game


ItemFilter = Literal[
    "headgear",
    "armor",
    "footgear",
    "footgear_in_play",
    "hands",
    "big",
    "small",
    "below_waist",
    "any",
    "biggest_bonus",
    "complex",
    "simple",
    "laser",
    "steed",
]


class LoseItems(Strict):
    """Lose Items in play matching `which`: one (victim's choice) or all."""

    which: ItemFilter | list[ItemFilter] = "any"
    count: AtLeast1 | Literal["all"] = 1
    chosen_by: Literal["self", "left", "right"] = "self"  # who picks: the victim, or the player on their left / right


class Effect(Strict):
    """One step of an effect (Bad Stuff, a Curse, ...).

    Exactly one operation key; `if` restricts it to characters who match,
    `otherwise` runs when the operation found nothing to act on (or `if` failed).
    """

    if_: Condition | None = Field(default=None, alias="if")
    otherwise: list[Effect] | None = None
    lose_levels: AtLeast1 | None = None
    gain_levels: AtLeast1 | None = None
    die: bool | None = None
    lose_items: LoseItems | None = None
    discard_hand: bool | None = None
    lose_race: Literal["all", "one"] | None = None
    lose_class: Literal["all", "one"] | None = None
    level_becomes: AtLeast1 | Literal["lowest"] | None = None
    lose_gold: AtLeast1 | None = None
    change_sex: bool | None = None
    next_combat_bonus: int | None = None
    draw_treasures: AtLeast1 | None = None
    draw_doors: AtLeast1 | None = None
    lose_sidekick: Literal["one", "all"] | None = None
    lose_role: Literal["all", "one"] | None = None
    lose_proficiency: Literal["all", "one"] | None = None
    discard_cards: AtLeast1 | None = None  # discard this many cards from the hand (the victim's choice)
    bar: Literal["help", "double_sale"] | None = None  # may not help / sell double until their next turn ends
    hook: str | None = None

    @model_validator(mode="after")
    def _one_operation(self) -> Effect:
        ops = [
            k
            for k in (
                "lose_levels",
                "gain_levels",
                "die",
                "lose_items",
                "discard_hand",
                "lose_race",
                "lose_class",
                "level_becomes",
                "lose_gold",
                "change_sex",
                "next_combat_bonus",
                "draw_treasures",
                "draw_doors",
                "lose_sidekick",
                "lose_role",
                "lose_proficiency",
                "discard_cards",
                "bar",
                "hook",
            )
            if getattr(self, k) is not None
        ]
        if len(ops) != 1:
            raise ValueError(f"an effect needs exactly one operation, found {ops or 'none'}")
        return self


class ConditionalValue(Strict):
    """A number that applies only when `if` holds for the character concerned."""

    value: int
    if_: Condition = Field(alias="if")


class Reward(ConditionalValue):
    """An extra reward for killing a monster: for the fighter if they match (`fighter`), once if
    the fighter or the helper matches (`either`), or once for each of them who matches (`each`)."""

    who: Literal["fighter", "either", "each"] = "fighter"


class MayPass(Strict):
    """A character matching `if` (anyone, when absent) and not `unless` may decline to fight it;
    the monster is discarded and `then` happens to them."""

    if_: Condition | None = Field(default=None, alias="if")
    unless: Condition | None = None
    then: list[Effect] = []


class Bribe(Strict):
    """Before the fight the fighter may give it one Item in play of `which`, worth `min_gold` or
    more: the monster leaves (no kill) and `then` happens to them."""

    which: ItemFilter | list[ItemFilter] = "any"
    min_gold: AtLeast0 = 0
    then: list[Effect] = []


class WillNotPursue(Strict):
    """Characters at or below this Level escape automatically, unless `unless` holds."""

    level_at_most: AtLeast1
    unless: Condition | None = None


class WillNotAttack(Strict):
    """No combat against a character matching `if`; they draw `treasures` instead."""

    if_: Condition = Field(alias="if")
    treasures: AtLeast0 = 0


class Monster(Strict):
    level: AtLeast1
    treasures: AtLeast0
    levels: AtLeast0 = 1
    tags: list[MonsterTag] = []  # a monster joins a fight against one of its own tag from the hand
    modifiers: list[ConditionalValue] = []
    run_away: int = 0
    escape: Literal["roll", "automatic", "impossible"] = "roll"
    will_not_pursue: WillNotPursue | None = None
    will_not_attack: WillNotAttack | None = None
    even_if_escaped: list[Effect] = []
    level_only: bool = False
    ignore_level: bool = False
    no_help: bool = False
    bonus_treasures: list[Reward] = []
    bonus_levels: list[ConditionalValue] = []  # each fighter (helper too) who matches goes up this many more
    bonus_doors: AtLeast0 = 0  # its killer also draws this many face-down Doors
    escape_if: Condition | None = None  # runners who match escape it without rolling
    defeated_by: Condition | None = None  # the fighters win at once if one of them matches
    flees_from: Condition | None = None  # leaves the fight (its Treasure stays) when a fighter matches
    # equipped Items (and one-shots played for the fighters) with these tags add nothing against it
    no_bonus_from: list[Literal["fire", "below_waist", "weapon", "wand_pole_staff"]] = []
    no_sidekicks: bool = False  # Sidekicks add nothing and cannot be sacrificed to escape it
    before_fight: list[Effect] = []  # happens to the fighter before the fight (Treasure-free tolls)
    may_pass: MayPass | None = None
    bribe: Bribe | None = None
    bad_stuff: list[Effect]
    hook: str | None = None


class Item(Strict):
    bonus: int = 0
    gold: AtLeast0 = 0
    slot: Slot = "none"
    hands: Literal[0, 1, 2] = 0
    big: bool = False
    usable_if: Condition | None = None
    not_usable_if: Condition | None = None
    tags: list[Literal["fire", "below_waist", "weapon", "wand_pole_staff"]] = []
    conditional_bonus: list[ConditionalValue] = []
    run_away: int = 0
    complex: bool = False  # Star Munchkin: equip only one Complex Item (Gadgeteers any number)
    laser: bool = False  # a laser barrel: 2 Hands, fire, snaps onto other barrels
    steed: bool = False  # a Steed: no slot, one per player, "big" for Traps and thieves only
    needs_steed: bool = False  # counts only while its owner has a Steed in play
    extra_big: AtLeast0 = 0  # this many more Big items may be carried while it is in play
    grants: list[Ability] = []  # abilities its owner has while it is equipped
    hook: str | None = None

    @model_validator(mode="after")
    def _hands_match_slot(self) -> Item:
        if self.steed and (self.slot != "none" or self.big):
            raise ValueError("a Steed takes no slot and is not a Big item (slot none, big false)")
        if (self.slot == "hands") != (self.hands > 0):
            raise ValueError("slot 'hands' needs hands: 1 or 2, and only it")
        if self.laser and (self.slot != "hands" or self.hands != 2):
            raise ValueError("a laser weapon is a 2-Hand weapon: slot hands, hands 2")
        return self


class OneShot(Strict):
    """A Usable-once-only Treasure; `bonus` goes to either side of a combat."""

    gold: AtLeast0 = 0
    bonus: int = 0
    when: Literal["combat", "any", "run_away", "after_roll", "curse"] = "combat"
    usable_if: Condition | None = None
    hook: str | None = None
    tags: list[Literal["fire", "wand_pole_staff"]] = []  # what it is (a wand for the Pit Bull)


class ItemEnhancer(Strict):
    """Attached to an Item of its owner (never a Steed): adds to that Item while it counts."""

    bonus: int = 0
    gold: AtLeast0 = 0
    usable_if: Condition | None = None  # its bonus counts only for a character who matches


class Curse(Strict):
    """Applies `effects` to its victim at once, or on its next combat."""

    effects: list[Effect] = []
    duration: Literal["once", "next_combat", "persistent"] = "once"
    hook: str | None = None


class Enhancer(Strict):
    strength: int
    treasures: int = 0
    hook: str | None = None


class CharacterCard(Strict):
    """A Race, Class, Role or House: its abilities, named from the engine's list, and run-away bonus."""

    abilities: list[Ability] = []
    run_away: int = 0
    alone_bonus: int = 0  # combat strength when fighting with no helping player
    hook: str | None = None


class Proficiency(CharacterCard):
    """A course of study (Harry Potter): a character card with a Rank; total Rank <= Level."""

    rank: Literal[1, 2, 3, 4]


class Sidekick(Strict):
    """A Sidekick (or Hireling): not an Item; in play it adds what its card says."""

    bonus: int = 0
    run_away: int = 0
    carries: Literal[0, 1] = 0  # carries one Item beyond the usual equipment limits
    grants: list[Ability] = []  # abilities its owner has while it is in play
    sex: Sex | None = None  # a monster's bonus against this sex counts against its owner
    hands: AtLeast0 = 0  # this many more Hands while it is in play
    extra_big: AtLeast0 = 0  # this many more Big items while it is in play
    hook: str | None = None


class Special(Strict):
    """Cards whose rules are too particular for the vocabulary: all by hook."""

    when: Literal["combat", "any", "own_turn", "immediately"] = "any"
    hook: str


class Card(Strict):
    id: Annotated[str, Field(pattern=r"^[a-z0-9_]+\.[a-z0-9_]+$")]
    name: str
    deck: Deck
    kind: Kind
    copies: AtLeast1 = 1
    provenance: Provenance
    text: str
    note: str | None = None  # where the card's facts come from, and what is ours
    monster: Monster | None = None
    item: Item | None = None
    one_shot: OneShot | None = None
    curse: Curse | None = None
    enhancer: Enhancer | None = None
    race: CharacterCard | None = None
    class_: CharacterCard | None = Field(default=None, alias="class")
    special: Special | None = None
    go_up_a_level: Literal[True] | None = None
    hireling: Literal[True] | None = None
    sidekick: Sidekick | None = None
    item_enhancer: ItemEnhancer | None = None
    role: CharacterCard | None = None
    proficiency: Proficiency | None = None

    @model_validator(mode="after")
    def _block_matches_kind(self) -> Card:
        blocks = {
            "monster": self.monster,
            "item": self.item,
            "one_shot": self.one_shot,
            "curse": self.curse,
            "enhancer": self.enhancer,
            "race": self.race,
            "class": self.class_,
            "special": self.special,
            "go_up_a_level": self.go_up_a_level,
            "hireling": self.hireling,
            "sidekick": self.sidekick,
            "item_enhancer": self.item_enhancer,
            "role": self.role,
            "proficiency": self.proficiency,
        }
        given = [k for k, v in blocks.items() if v is not None]
        if given != [self.kind]:
            raise ValueError(f"kind {self.kind!r} needs exactly the block {self.kind!r}, found {given}")
        door_kinds = {"monster", "curse", "race", "class", "enhancer", "special", "role", "proficiency"}
        if self.kind in door_kinds and self.deck != "door" and self.kind != "special":
            raise ValueError(f"a {self.kind} belongs in the door deck")
        treasure_kinds = {"item", "one_shot", "go_up_a_level", "hireling", "item_enhancer"}
        if self.kind == "item" and self.item is not None and self.item.steed:
            pass  # Steeds come from either deck (the Good, the Bad, and the Munchkin: Door)
        elif self.kind in treasure_kinds and self.deck != "treasure":
            raise ValueError(f"a {self.kind} belongs in the treasure deck")
        if self.copies < 1:
            raise ValueError("copies must be at least 1")
        return self


Term = Literal["curse", "curses", "sidekick", "sidekicks", "kick_open_the_door", "look_for_trouble"]


class House(Strict):
    """A House (Harry Potter): chosen at setup, never in a deck; its strengths from Level 1."""

    id: Annotated[str, Field(pattern=r"^[a-z0-9_]+\.[a-z0-9_]+$")]
    name: str
    kind: Literal["house"] = "house"
    provenance: Provenance
    text: str
    note: str | None = None
    house: CharacterCard


class HouseCard(Strict):
    """One double-sided House card: the two Houses printed on its faces."""

    id: Annotated[str, Field(pattern=r"^[a-z0-9_]+\.[a-z0-9_]+$")]
    faces: Annotated[list[str], Field(min_length=2, max_length=2)]


class SetFile(Strict):
    set: str
    title: str
    version: int = Field(default=1, ge=1)  # the cards' version: a save replays with the cards it was played with
    terms: dict[Term, str] = {}  # the set's own words in narration, e.g. {curse: Trap}
    door_cards: AtLeast0
    treasure_cards: AtLeast0
    cards: list[Card]
    houses: list[House] = []
    house_cards: list[HouseCard] = []

    @model_validator(mode="after")
    def _house_cards_show_houses(self) -> SetFile:
        ids = {h.id for h in self.houses}
        for hc in self.house_cards:
            for face in hc.faces:
                if face not in ids:
                    raise ValueError(f"House card {hc.id!r} shows {face!r}, which is not among the set's houses")
        if self.houses and not self.house_cards:
            raise ValueError("a set with houses needs its house_cards (the physical cards players choose from)")
        return self
