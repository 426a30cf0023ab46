"""A card's face as plain JSON: everything its data says, in words a player reads.

`card_face` is what the browser's card popover and the terminal's `card NAME` show; `glance` is the
one or two figures a hand tile carries; `catalog` is every card definition of a game by name (public
knowledge: it says nothing about where any card is). Every phrase here is our own wording.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

from munchkin.cards.loader import available_sets, designer_card, load_set, when_sets_change
from munchkin.cards.schema import Condition, ConditionalValue, Effect, LoseItems, Reward

if TYPE_CHECKING:
    from munchkin.engine.cards import CardDef
    from munchkin.engine.game import Game

KIND_WORDS = {
    "monster": "Monster",
    "curse": "Curse",
    "race": "Race",
    "class": "Class",
    "enhancer": "Monster Enhancer",
    "special": "Special",
    "item": "Item",
    "one_shot": "One-shot",
    "go_up_a_level": "Go Up a Level",
    "hireling": "Hireling",
    "sidekick": "Sidekick",
    "item_enhancer": "Item Enhancer",
    "role": "Role",
    "proficiency": "Proficiency",
    "house": "House",
}
SLOT_WORDS = {"headgear": "Headgear", "armor": "Armor", "footgear": "Footgear"}
SLOT_SHORT = {"headgear": "Head", "armor": "Armor", "footgear": "Feet"}
TAG_WORDS = {
    "undead": "Undead",
    "death_eater": "Death Eater",
    "dragon": "Dragon",
    "fire": "Fire/flame",
    "below_waist": "Worn below the waist",
    "weapon": "Weapon",
    "wand_pole_staff": "Wand, pole or staff",
}
WHEN_WORDS = {
    "combat": "in a combat",
    "any": "at any time",
    "run_away": "when someone Runs Away",
    "after_roll": "after a die roll",
    "curse": "when a Curse strikes",
    "own_turn": "on your own turn",
    "immediately": "as soon as it is drawn",
}
DURATION_WORDS = {
    "once": "Strikes once, then is discarded",
    "next_combat": "Kept until the victim's next combat",
    "persistent": "Stays on the victim until something removes it",
}
PROVENANCE_WORDS = {
    "rulebook": "named in the edition's rulebook",
    "published": "a card of the published box",
    "original": "designed for this game to complete the deck",
}
# a card loaded from a designer's folder (`--set-dir`), by how it stands against the built-in card of its id
# (docs/cards.md, "Your own set folder"): a changed or new card is the designer's, an unchanged copy keeps
# its provenance and says where it was loaded from
FOLDER_WORDS = {
    "changed": "from the designer folder {folder}, changed from the built-in card",
    "new": "from the designer folder {folder}, a new card",
    "same": "{published}, loaded unchanged from the designer folder {folder}",
}
ABILITY_WORDS = {
    "wins_ties": "wins combats that end in a tie",
    "berserk": "Berserking: discard cards for +1 each in combat",
    "backstab": "Backstab: discard a card for -2 to another player in combat",
    "theft": "Theft: discard a card and roll to steal a Small item",
    "flight_spell": "Flight Spell: discard cards for +1 each to Run Away",
    "charm_spell": "Charm Spell: discard the whole hand to charm a monster away",
    "resurrection": "Resurrection: take the top discard instead of drawing face-up",
    "turning": "Turning: discard cards for +3 each against the Undead",
    "hand_limit_6": "hand limit of 6 cards",
    "carry_any_big": "may carry any number of Big items",
    "levels_for_helping": "goes up a level for each monster killed while helping",
    "double_sale": "sells one Item a turn at double price",
    "retry_run_away": "may discard a card to roll again after a failed Run Away",
    "equip_any_complex": "may equip any number of Complex items",
    "two_sidekicks": "may have two Sidekicks",
    "bounty": "collects bounties",
    "complex_bonus": "+1 for each equipped Complex item",
    "extra_headgear": "may wear an extra Headgear",
    "headgear_bonus": "+1 for each equipped Headgear",
    "bow_bonus": "+2 for each Item named Bow",
    "levels_for_helping_without_treasure": "goes up a level for helping and taking no Treasure",
    "monster_discard_bonus": "discard monsters from the hand for a combat bonus",
    "turning_death_eater": "Turning against Death Eaters",
    "turning_dragon": "Turning against Dragons",
}
ITEM_FILTER_WORDS = {
    "headgear": "Headgear",
    "armor": "Armor",
    "footgear": "Footgear",
    "hands": "Item used in the Hands",
    "big": "Big item",
    "small": "Small item",
    "below_waist": "Item worn below the waist",
    "any": "Item",
    "biggest_bonus": "Item with the biggest bonus",
    "complex": "Complex item",
    "simple": "non-Complex item",
    "laser": "laser weapon",
    "steed": "Steed",
}


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _signed(n: int) -> str:
    return f"{n:+d}"


@cache
def _printed_names() -> dict[str, str]:
    """Every Race, Class, Role and House name of every set, by its lower-case form."""
    out: dict[str, str] = {}
    for name in available_sets():
        cs = load_set(name)
        out.update({c.name.lower(): c.name for c in cs.cards if c.kind in ("race", "class", "role")})
        out.update({h.name.lower(): h.name for h in cs.houses})
    return out


when_sets_change(_printed_names.cache_clear)  # a designer's set folder may add names


def _title(value: str) -> str:
    """A lower-case Race, Class, Role or House name as printed ("bounty hunter" -> "Bounty Hunter")."""
    printed = _printed_names().get(value.lower())
    return printed or " ".join(w[:1].upper() + w[1:] for w in value.split(" "))


def _a(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def condition_phrase(c: Condition) -> str:
    """A condition on a character as a noun phrase: "a female Elf", "a character of Level 3 or less"."""
    if c.race == "human":
        nouns = ["Human"]
    else:
        nouns = [_title(v) for v in (c.race, c.class_, c.role) if v]
    adjective = {"female": "female ", "male": "male "}.get(c.sex or "", "")
    noun = " ".join(nouns) or "character"
    phrase = f"a member of the {noun}" if noun.endswith("Squad") else _a(adjective + noun)
    if c.house:
        phrase += f" of House {_title(c.house)}" if nouns else ""
        if not nouns:
            phrase = _a(adjective + "member of House " + _title(c.house)) if adjective else f"a {_title(c.house)}"
    extra: list[str] = []
    if c.level_at_most is not None:
        extra.append(f"of Level {c.level_at_most} or less")
    if c.level_at_least is not None:
        extra.append(f"of Level {c.level_at_least} or more")
    if c.no_race is not None:
        extra.append("with no Race" if c.no_race else "with a Race")
    if c.no_class is not None:
        extra.append("with no Class" if c.no_class else "with a Class")
    if c.changed_sex is not None:
        extra.append("who has changed sex during the game" if c.changed_sex else "who has never changed sex")
    nots = [_a(_title(v)) for v in (c.not_race, c.not_class, c.not_role) if v]
    nots += [f"of House {_title(c.not_house)}"] if c.not_house else []
    if nots:
        extra.append("who is not " + " nor ".join(nots))
    return " ".join([phrase, *extra])


def _items_phrase(li: LoseItems) -> str:
    which = li.which if isinstance(li.which, list) else [li.which]
    words = " or ".join(ITEM_FILTER_WORDS.get(w, w.replace("_", " ")) for w in which)
    if li.count == "all":
        return f"lose every {words}" + ("" if "below the waist" in words else " you have")
    if li.count == 1 and li.chosen_by != "self":
        return f"lose {_a(words)} chosen by the player on your {li.chosen_by}"
    if li.count == 1:
        if which == ["biggest_bonus"]:
            return f"lose the {words}"
        if len(which) == 1 and which[0] in SLOT_WORDS:
            return f"lose the {words} you wear"
        return f"lose {_a(words)} (your choice)"
    return f"lose {li.count} of your {words}s"


HOOK_WORDS = "see the card's text"  # a step only a hook can do, when the card's text cannot be quoted


def effect_phrase(e: Effect, hook_words: str = HOOK_WORDS) -> str:
    """One step of Bad Stuff or of a Curse in words ("lose 2 levels"; "if a Dwarf: die"); a step a
    hook does is `hook_words` (the card's own words for it)."""
    if e.lose_levels is not None:
        s = f"lose {_plural(e.lose_levels, 'level')}"
    elif e.gain_levels is not None:
        s = f"go up {_plural(e.gain_levels, 'level')}"
    elif e.die:
        s = "you are dead (lose everything but your Level, Race, Class and Curses)"
    elif e.lose_items is not None:
        s = _items_phrase(e.lose_items)
    elif e.discard_hand:
        s = "discard your whole hand"
    elif e.lose_race is not None:
        s = "lose every Race" if e.lose_race == "all" else "lose a Race"
    elif e.lose_class is not None:
        s = "lose every Class" if e.lose_class == "all" else "lose a Class"
    elif e.lose_role is not None:
        s = "lose every Role" if e.lose_role == "all" else "lose a Role"
    elif e.lose_proficiency is not None:
        s = "lose every Proficiency" if e.lose_proficiency == "all" else "lose a Proficiency"
    elif e.level_becomes is not None:
        s = (
            "drop to the Level of the lowest player"
            if e.level_becomes == "lowest"
            else f"your Level drops to {e.level_becomes}"
        )
    elif e.lose_gold is not None:
        s = f"lose Items worth at least {e.lose_gold} gold (your choice; all of them if they are worth less)"
    elif e.change_sex:
        s = "change sex"
    elif e.next_combat_bonus is not None:
        s = f"{_signed(e.next_combat_bonus)} in your next combat"
    elif e.draw_treasures is not None:
        s = f"draw {_plural(e.draw_treasures, 'Treasure')}"
    elif e.draw_doors is not None:
        s = f"draw {_plural(e.draw_doors, 'Door')}"
    elif e.lose_sidekick is not None:
        s = "lose every Sidekick" if e.lose_sidekick == "all" else "lose a Sidekick"
    elif e.discard_cards is not None:
        s = f"discard {_plural(e.discard_cards, 'card')} from your hand (your choice)"
    elif e.bar is not None:
        doing = "help anyone" if e.bar == "help" else "sell an Item at double price"
        s = f"you may not {doing} until the end of your next turn"
    else:
        s = hook_words
    if e.if_ is not None:
        s = f"if you are {condition_phrase(e.if_)}: {s}"
    if e.otherwise:
        s += "; otherwise " + ", then ".join(effect_phrase(o, hook_words) for o in e.otherwise)
    return s


def effects_phrase(effects: Iterable[Effect], hook_words: str = HOOK_WORDS) -> str:
    """A list of effect steps as one sentence, capitalised."""
    s = ", then ".join(effect_phrase(e, hook_words) for e in effects)
    return (s[:1].upper() + s[1:] + ".") if s else ""


def _values(values: Iterable[ConditionalValue], what: str) -> list[str]:
    return [f"{_signed(v.value)} {what} {condition_phrase(v.if_)}" for v in values]


def _reward_phrase(v: Reward) -> str:
    """An extra Treasure for a kill: "+1 Treasure for a Gadgeteer (fighter or helper)"."""
    if v.who == "each":
        return f"{_signed(v.value)} Treasure for each fighter who is {condition_phrase(v.if_)}"
    tail = " (fighter or helper)" if v.who == "either" else ""
    return f"{_signed(v.value)} Treasure for {condition_phrase(v.if_)}{tail}"


def _lower(sentence: str) -> str:
    """An effects sentence run into another: no capital, no full stop."""
    return sentence[:1].lower() + sentence[1:].rstrip(".")


def _before_fight_phrases(d: CardDef) -> list[str]:
    """What a monster does before the fight: flees, may be passed by or bribed, takes a toll."""
    out = []
    if d.flees_from is not None:
        out.append(f"it flees from {condition_phrase(d.flees_from)}, leaving its Treasure")
    if d.may_pass is not None:
        who = condition_phrase(d.may_pass.if_) if d.may_pass.if_ is not None else "anyone"
        if d.may_pass.unless is not None:
            who += f" who is not {condition_phrase(d.may_pass.unless)}"
        then = effects_phrase(d.may_pass.then)
        out.append(f"{who} may decline to fight it" + (f", and then {_lower(then)}" if then else ""))
    if d.bribe is not None:
        which = d.bribe.which if isinstance(d.bribe.which, list) else [d.bribe.which]
        words = " or ".join(ITEM_FILTER_WORDS.get(w, w.replace("_", " ")) for w in which)
        gold = f" worth {d.bribe.min_gold} gold or more" if d.bribe.min_gold else ""
        then = effects_phrase(d.bribe.then)
        out.append(
            f"you may give it {_a(words)}{gold} instead of fighting" + (f", then {_lower(then)}" if then else "")
        )
    if d.before_fight:
        out.append(_lower(effects_phrase(d.before_fight)))
    return out


def slot_word(d: CardDef) -> str:
    """Where an Item goes: "Headgear", "2 Hands", "Steed", "" (no slot)."""
    if d.steed:
        return "Steed"
    if d.slot == "hands":
        return _plural(d.hands, "Hand")
    return SLOT_WORDS.get(d.slot, "")


def kind_word(d: CardDef) -> str:
    """The card's kind in its own set's words: Monster, Item, Curse, Trap, Ally, Steed, ..."""
    if d.steed:
        return "Steed"
    if d.kind in ("curse", "hireling", "sidekick") and d.word:
        return _title(d.word)
    return KIND_WORDS.get(d.kind, d.word or d.kind.replace("_", " ").title())


def icon_key(d: CardDef) -> str:
    """Which small icon stands for the card's kind (the page draws it, with a text alternative)."""
    if d.steed:
        return "steed"
    if d.kind == "hireling":
        return "sidekick"
    return d.kind


def glance(d: CardDef) -> list[str]:
    """The one or two short figures a hand tile shows: "Lv 8"; "+3", "2 Hands"; "+5"."""
    out: list[str] = []
    if d.is_monster:
        out.append(f"Lv {d.level}")
        if d.levels > 1:
            out.append(f"{d.levels} levels")
    elif d.is_item:
        if d.bonus:
            out.append(_signed(d.bonus))
        elif d.run_away:
            out.append(f"Run Away {_signed(d.run_away)}")
        slot = {"headgear": "Head", "armor": "Armor", "footgear": "Feet"}.get(d.slot) or slot_word(d)
        if slot:
            out.append(slot)
        elif d.big:
            out.append("Big")
        if not out and d.gold:
            out.append(f"{d.gold} gold")
    elif d.is_one_shot:
        if d.bonus:
            out.append(_signed(d.bonus))
        elif d.gold:
            out.append(f"{d.gold} gold")
    elif d.is_enhancer:
        out.append(_signed(d.strength))
    elif d.is_item_enhancer or (d.is_sidekick and d.bonus):
        if d.bonus:
            out.append(_signed(d.bonus))
    elif d.is_proficiency:
        out.append(f"Rank {d.rank}")
    elif d.is_gual:
        out.append("+1 Level")
    return out[:2]


def _run_away(d: CardDef) -> str:
    if d.is_monster and d.escape == "automatic":
        return "Everyone escapes it automatically"
    if d.is_monster and d.escape == "impossible":
        return "Nobody can Run Away from it"
    if not d.run_away:
        return ""
    if d.is_monster:
        return f"{_signed(d.run_away)} to the roll of anyone Running Away from it"
    return f"{_signed(d.run_away)} to your Run Away rolls"


def _edition(set_name: str) -> str:
    try:
        return load_set(set_name).title
    except Exception:  # a set that cannot load has no title to show; its id stands in
        return set_name


BAD_STUFF = "Bad Stuff:"  # where a monster's text states its Bad Stuff
TRAP = "Trap!"  # how Star's Curses (Traps) open their text


def _hook_words(text: str, marker: str) -> str:
    """What a hook does, in the card's own words: its text from just after `marker` (all of it when
    the marker is not there), to stand as a step of a sentence."""
    head, found, rest = text.partition(marker)
    words = (rest if found else head).strip().rstrip(".")
    return (words[:1].lower() + words[1:]) if words else HOOK_WORDS


def card_face(d: CardDef) -> dict[str, Any]:
    """Everything the card's data knows, as plain JSON, with `lines` in display order for any reader."""
    face: dict[str, Any] = {
        "id": d.id,
        "name": d.name,
        "set": d.set,
        "edition": _edition(d.set),
        "deck": d.deck,
        "deck_word": {"door": "Door", "treasure": "Treasure"}.get(d.deck, "Chosen at setup"),
        "kind": d.kind,
        "kind_word": kind_word(d),
        "icon": icon_key(d),
        "glance": glance(d),
        "text": d.text,
        "provenance": d.provenance,
        "provenance_word": PROVENANCE_WORDS.get(d.provenance, d.provenance),
    }
    designed = designer_card(d.set, d.id)
    if designed is not None:  # loaded from a designer's --set-dir folder: the face says so
        folder, how = designed
        face["folder"] = {"name": folder, "card": how}
        face["provenance_word"] = FOLDER_WORDS[how].format(folder=folder, published=face["provenance_word"])
    note = getattr(d.model, "note", None)
    if note:
        face["note"] = note
    lines: list[tuple[str, str]] = []

    def line(label: str, text: str) -> None:
        if text:
            lines.append((label, text))

    if d.is_monster:
        face.update(level=d.level, treasures=d.treasures, levels=d.levels)
        line("Level", str(d.level))
        won = [_plural(d.treasures, "Treasure"), _plural(d.levels, "level")]
        if d.bonus_doors:
            won.append(f"{_plural(d.bonus_doors, 'Door')} face-down")
        face["wins"] = "Killing it wins " + " and ".join(won)
        line("Killing it wins", " and ".join(won))
        extra = [_reward_phrase(v) for v in d.bonus_treasures]
        if extra:
            face["bonus_treasures"] = extra
            line("Extra Treasures", "; ".join(extra))
        more = [f"{_signed(v.value)} level for {condition_phrase(v.if_)} (fighter or helper)" for v in d.bonus_levels]
        if more:
            face["bonus_levels"] = more
            line("Extra levels", "; ".join(more))
        mods = _values(d.modifiers, "against")
        if mods:
            face["modifiers"] = mods
            line("Stronger or weaker", "; ".join(mods))
        if d.wnp_level >= 0:
            wnp = f"anyone of Level {d.wnp_level} or less"
            if d.wnp_unless is not None:
                wnp += f", unless they are {condition_phrase(d.wnp_unless)}"
            face["will_not_pursue"] = wnp
            line("Will not pursue", wnp)
        if d.wna_if is not None:
            wna = condition_phrase(d.wna_if)
            if d.wna_treasures:
                wna += f" (who draws {_plural(d.wna_treasures, 'Treasure')} instead)"
            face["will_not_attack"] = wna
            line("Will not attack", wna)
        before = _before_fight_phrases(d)
        if before:
            face["before_the_fight"] = before
            line("Before the fight", "; ".join(before))
        rules = []
        if d.defeated_by is not None:
            rules.append(f"it loses at once to {condition_phrase(d.defeated_by)}")
        if d.no_bonus_from:
            rules.append(" and ".join(sorted(d.no_bonus_from)) + " Items give no bonus against it")
        if d.no_sidekicks:
            rules.append("Sidekicks add nothing and cannot be sacrificed to escape it")
        if d.level_only:
            rules.append("only Levels count in this fight: no Items or bonuses")
        if d.ignore_level:
            rules.append("the fighters' Levels do not count")
        if d.no_help:
            rules.append("nobody may help against it")
        if rules:
            face["rules"] = rules
            line("In this fight", "; ".join(rules))
        bad = effects_phrase(d.bad_stuff, _hook_words(d.text, BAD_STUFF))
        face["bad_stuff"] = bad or ("As the card's text says." if d.hook else "None.")
        line("Bad Stuff", face["bad_stuff"])
        if d.escape_if is not None:
            face["escape_if"] = condition_phrase(d.escape_if)
            line("Escapes it without rolling", face["escape_if"])
        if d.even_if_escaped:
            face["even_if_escaped"] = effects_phrase(d.even_if_escaped)
            line("Even if you escape", face["even_if_escaped"])
    if d.is_item:
        face.update(bonus=d.bonus, gold=d.gold, slot=d.slot, hands=d.hands, big=d.big)
        if d.steed:
            face["steed"] = True
        line("Bonus", _signed(d.bonus) if d.bonus else "")
        face["slot_word"] = slot_word(d)
        line("Slot", "none: a Steed (one per player)" if d.steed else face["slot_word"] or "none")
        size = "Big" if d.big else ("" if d.steed else "Small")
        face["size"] = size
        line("Size", size)
        traits = [w for w, on in (("Complex", d.complex), ("laser barrel", d.laser)) if on]
        traits += ["counts only while you have a Steed"] if d.needs_steed else []
        traits += [f"you may carry {_plural(d.extra_big, 'more Big item')}"] if d.extra_big else []
        line("Also", "; ".join(traits))
        if d.steed:
            line(
                "Drawn face-up",
                f"you may fight it as a Level {d.level} monster "
                "(kill it for 1 Treasure and 1 level; Bad Stuff: lose a level)",
            )
    if d.is_one_shot or d.is_item_enhancer or d.is_sidekick:
        face.update(bonus=d.bonus, gold=d.gold)
        line("Bonus", _signed(d.bonus) if d.bonus else "")
    if d.is_one_shot:
        face["when"] = WHEN_WORDS.get(d.when, d.when)
        line("Play it", face["when"] + ", then discard it")
    if d.is_special:
        face["when"] = WHEN_WORDS.get(d.when, d.when)
        line("Play it", face["when"])
    if d.is_item or d.is_one_shot or d.is_item_enhancer:
        line("Value", f"{d.gold} gold" if d.gold else "no gold value")
    if d.usable_if is not None:
        face["usable_by"] = condition_phrase(d.usable_if)
        line("Usable only by", face["usable_by"])
    if d.not_usable_if is not None:
        face["not_usable_by"] = condition_phrase(d.not_usable_if)
        line("Not usable by", face["not_usable_by"])
    if d.conditional_bonus:
        face["conditional_bonus"] = _values(d.conditional_bonus, "more for")
        line("Bonus for some", "; ".join(face["conditional_bonus"]))
    if d.is_enhancer:
        face.update(strength=d.strength, treasures=d.treasures)
        line("Monster's strength", _signed(d.strength))
        line(
            "Treasures",
            f"{_signed(d.treasures)} {'Treasure' if abs(d.treasures) == 1 else 'Treasures'}" if d.treasures else "",
        )
    if d.is_curse:
        if all(effect_phrase(e) == HOOK_WORDS for e in d.effects):
            # what it does is only a hook's: the card's own text, shown below, says it all
            face["effects"] = d.text.removeprefix(TRAP).strip()
        else:
            face["effects"] = effects_phrase(d.effects, _hook_words(d.text, TRAP))
            line("What it does", face["effects"])
        face["duration"] = DURATION_WORDS.get(d.duration, d.duration)
        line("How long", face["duration"])
    if d.is_sidekick:
        line("Sex", d.sex)
        bits = []
        if d.carries:
            bits.append("carries one Item beyond your usual limits")
        if d.extra_hands:
            bits.append(f"gives you {_plural(d.extra_hands, 'more Hand')}")
        if d.extra_big:
            bits.append(f"lets you carry {_plural(d.extra_big, 'more Big item')}")
        line("Also", "; ".join(bits))
    if d.is_proficiency:
        face["rank"] = d.rank
        line("Rank", f"{d.rank} (your Proficiencies' Ranks add up to at most your Level)")
    if d.is_gual:
        line("Effect", "go up 1 level (never to the winning Level)")
    tags = sorted(TAG_WORDS.get(t, t) for t in (d.kin | d.tags))
    if tags:
        face["tags"] = tags
        line("Tags", ", ".join(tags))
    if d.abilities:
        face["abilities"] = [ABILITY_WORDS.get(a, a.replace("_", " ")) for a in sorted(d.abilities)]
        line("Grants" if d.is_item or d.is_sidekick else "Abilities", "; ".join(face["abilities"]))
    if d.alone_bonus:
        line("Fighting alone", _signed(d.alone_bonus))
    run = _run_away(d)
    if run:
        face["run_away"] = run
        line("Run Away", run)
    face["lines"] = [{"label": label, "text": text} for label, text in lines]
    return face


def face_text(face: dict[str, Any]) -> list[str]:
    """A face as plain lines for a terminal: heading, figures, text, edition."""
    if face["deck"] in ("door", "treasure"):
        head = f"{face['name']} ({face['deck_word']} card: {face['kind_word']})"
    else:
        head = f"{face['name']} ({face['kind_word']}, {face['deck_word'].lower()})"
    out = [head] + [f"  {ln['label']}: {ln['text']}" for ln in face["lines"]]
    out.append(f"  {face['text']}")
    out.append(f"  {face['edition']}; {face['provenance_word']}.")
    return out


def catalog(g: Game) -> dict[str, dict[str, Any]]:
    """Every card definition of the game by lower-case name, as the game itself names them: the first
    physical card of a name (same-named cards of combined sets are one card in play), then the Houses."""
    return _catalog(g.cdef, g.houses.values())


def sets_catalog(sets: list[str], versions: dict[str, int] | None = None) -> dict[str, dict[str, Any]]:
    """The catalog of any game of these sets (of the cards' `versions`, today's where not given), built
    without a game (the same as `catalog` of one)."""
    from munchkin.engine.cards import build_houses, build_table

    defs, physical = build_table(sets, versions)
    return _catalog([defs[i] for i in physical], build_houses(sets).values())


def _catalog(cdefs: Iterable[CardDef], houses: Iterable[CardDef]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    editions: dict[str, list[str]] = {}
    for d in cdefs:
        key = d.name.lower()
        if key not in out:
            out[key] = card_face(d)
        eds = editions.setdefault(key, [])
        if _edition(d.set) not in eds:
            eds.append(_edition(d.set))
    for key, eds in editions.items():
        if len(eds) > 1:  # the same card in two boxes: one card in play, shown with the first box's face
            out[key]["editions"] = eds
    for h in houses:
        out.setdefault(h.name.lower(), card_face(h))
    return out
