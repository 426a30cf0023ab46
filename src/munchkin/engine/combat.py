"""Combat strength, as functions of the game: each monster's and each fighter's, which side wins now, and
the breakdown the players read (the steps of a fight are in fight.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from munchkin.engine import characters, curses, fight, rewards, vocabulary
from munchkin.engine.core import card_hook
from munchkin.engine.flow import Frame
from munchkin.engine.rules import as_written
from munchkin.engine.state import Combat, MonsterIn, Player

if TYPE_CHECKING:
    from munchkin.engine.game import Game


def _cond_words(cond: object) -> str:
    """A condition in a few words, for the combat breakdown ("Elves", "Clerics", "women")."""
    words = []
    for key, value in vars(cond).items():
        if value is None:
            continue
        if key in ("race", "class_"):
            words.append(f"{str(value).capitalize()}s" if not str(value).endswith("f") else "Elves")
        elif key == "sex":
            words.append("women" if value == "female" else "men")
        else:
            words.append(f"{key.replace('_', ' ')} {value}")
    return " ".join(words) or "everyone"


# -------------------------------------------------------------- strength
def monster_strength(g: Game, c: Combat, m: MonsterIn) -> int:
    cdef = g.cdef
    d = cdef[m.base]
    s = d.level
    floor = False
    if vocabulary.seen is not None:
        vocabulary.used("monster.level")
        if m.enhancers:
            vocabulary.used("enhancer.strength")
    for e in m.enhancers:
        s += cdef[e].strength
        h = card_hook(g, e)
        if h is not None and h.enhancer_floor():
            floor = True
    if floor and s < 1:
        s = 1
    if d.modifiers:
        fighters = [g.players[f] for f in c.fighters()]
        for mod in d.modifiers:
            if modifier_applies(g, c, m, mod, fighters):
                s += mod.value
    for _, b in m.oneshots:
        s += b
    return s


def modifier_applies(g: Game, c: Combat, m: MonsterIn, mod: Any, fighters: list[Player]) -> bool:
    """A monster's bonus or penalty against some characters: does it count in this fight?
    A bonus against a sex also counts when a fighter kept a Sidekick of that sex."""
    if any(characters.matches(g, f, mod.if_, mod.value > 0, "conditional_value.if") for f in fighters):
        vocabulary.used("monster.modifiers")
        vocabulary.used("conditional_value.value")
        return True
    if bool(c.sex_bonus) and mod.value > 0 and (m.card, mod.if_.sex) in c.sex_bonus:
        vocabulary.used("sidekick.sex")
        vocabulary.used("sex", mod.if_.sex)
        return True
    return False


def sidekick_sex_check(g: Game, c: Combat) -> Frame | None:
    """A monster with a bonus against a sex faces a fighter's Sidekick of that sex: its owner
    discards the Sidekick at once, or the bonus counts for the rest of the fight."""
    if not g.sidekick_sexes:
        return None
    return fight.SidekickSexCheck()


def monsters_strength(g: Game, c: Combat) -> int:
    s = 0
    for m in c.monsters:  # (loops written out here and below: strengths are summed thousands of times a game)
        s += monster_strength(g, c, m)
    return s


def level_only(g: Game, c: Combat) -> bool:
    cdef = g.cdef  # type: ignore[attr-defined]
    for m in c.monsters:
        if cdef[m.base].level_only:
            return True
    return False


def char_strength(g: Game, c: Combat, p: Player) -> int:
    """One fighter's combat strength: Level plus every modifier that counts."""
    cdef = g.cdef
    ignore_level = lvl_only = False
    for m in c.monsters:
        d = cdef[m.base]
        if d.ignore_level:
            ignore_level = True
            vocabulary.used("monster.ignore_level")
        if d.level_only:
            lvl_only = True
            vocabulary.used("monster.level_only")
    s = 0 if ignore_level else p.level
    if not lvl_only:
        only_armor = False
        for k in p.curses:
            if (h := card_hook(g, k)) is not None and h.only_armor(g, p):
                only_armor = True
                break
        s += characters.equipped_bonus(g, p, only_armor)
        if p.equipped and (muted := muted_tags(g, c)):
            lost = muted_items(g, p, muted, only_armor)
            if vocabulary.seen is not None:
                for k, _ in lost:  # each tag that took an Item's bonus away
                    for tag in g.cdef[k].tags & muted:
                        vocabulary.used("monster.no_bonus_from", tag)
                        vocabulary.used("item.tags", tag)
            s -= sum(bonus for _, bonus in lost)
        s += c.berserk.get(p.seat, 0) + c.turning.get(p.seat, 0)
        if c.house_bonus:
            s += c.house_bonus.get(p.seat, 0)
        if not only_armor:
            s += character_bonus(g, c, p)
    if p.curses:
        s += curses.curse_bonus(g, p)
    for _, v in c.backstabs:
        if v == p.seat:
            s -= 2
    if c.doppleganger == p.seat and not (lvl_only and as_written(g)):  # only the Level: no doubling
        s *= 2
    return s


def muted_tags(g: Game, c: Combat) -> frozenset[str]:
    """Item tags that give no bonus in this fight (a monster that fire does not hurt)."""
    cdef = g.cdef
    out: frozenset[str] = frozenset()
    for m in c.monsters:
        if cdef[m.base].no_bonus_from:
            out |= cdef[m.base].no_bonus_from
    return out


def muted_items(g: Game, p: Player, muted: frozenset[str], only_armor: bool = False) -> list[tuple[int, int]]:
    """The equipped, usable Items of `p` with a muted tag, and the bonus each would have given."""
    cdef = g.cdef
    out = []
    for k in p.equipped:
        if cdef[k].tags & muted and (not only_armor or cdef[k].slot == "armor") and characters.can_use(g, p, k):
            if bonus := characters.item_bonus(g, p, k):
                out.append((k, bonus))
    return out


def no_sidekicks(g: Game, c: Combat) -> bool:
    """Sidekicks add nothing in this fight and cannot be sacrificed to escape it."""
    return any(g.cdef[m.base].no_sidekicks for m in c.monsters)


def beaten_at_once(g: Game, c: Combat, m: MonsterIn) -> bool:
    """Whether a fighter here defeats this monster at once (a Gadgeteer against the Janibot)."""
    cond = g.cdef[m.base].defeated_by
    return cond is not None and any(
        characters.matches(g, g.players[f], cond, path="monster.defeated_by") for f in c.fighters()
    )


def character_bonus(g: Game, c: Combat, p: Player) -> int:
    """Bonuses from Sidekicks, fighting alone (Psychic) and Complex gear (Cyborg)."""
    total = 0
    for _, v in character_bonus_parts(g, c, p):
        total += v
    return total


def character_bonus_parts(g: Game, c: Combat, p: Player) -> list[tuple[str, int]]:
    cdef = g.cdef
    parts: list[tuple[str, int]] = []
    for k in p.sidekicks:
        if cdef[k].bonus:
            if not no_sidekicks(g, c):
                vocabulary.used("sidekick.bonus")
                parts.append((cdef[k].name, cdef[k].bonus))
            else:
                vocabulary.used("monster.no_sidekicks")
    if p.seat == c.fighter and c.helper < 0:  # a Sidekick is no helper
        alones = [cdef[k].alone_bonus for k in p.character_cards()]
        alone = sum(alones) if as_written(g) else max(alones, default=0)  # each card's own (Astronomy, Potions)
        if alone:
            if vocabulary.seen is not None:
                for k in p.character_cards():
                    if cdef[k].alone_bonus:
                        vocabulary.used(
                            "proficiency.alone_bonus" if cdef[k].is_proficiency else "character_card.alone_bonus"
                        )
            parts.append(("fighting alone", alone))
    if p.equipped and characters.has_ability(g, p, "complex_bonus"):
        n = sum(1 for k in p.equipped if cdef[k].complex and characters.can_use(g, p, k))
        if n:
            parts.append(("Complex gear", n))
    if p.equipped and characters.has_ability(g, p, "headgear_bonus"):
        n = sum(1 for k in p.equipped if cdef[k].slot == "headgear" and characters.can_use(g, p, k))
        if n:
            parts.append(("Headgear (Dude)", n))
    if p.equipped and characters.has_ability(g, p, "bow_bonus"):
        n = sum(1 for k in p.equipped if "Bow" in cdef[k].name and characters.can_use(g, p, k))
        if n:
            parts.append(("Items named Bow (Indian)", 2 * n))
    return parts


def side_strength(g: Game, c: Combat) -> int:
    players = g.players
    s = char_strength(g, c, players[c.fighter])
    if c.helper >= 0:
        s += char_strength(g, c, players[c.helper])
    return _side_total(g, c, s)


def _side_total(g: Game, c: Combat, s: int) -> int:
    """The fighters' side from `s`, the sum of their own combat strengths: with the side's one-shots."""
    if not level_only(g, c):  # a Doppleganger doubles all the lone fighter's bonuses, one-shots too
        if not as_written(g):
            return s + sum(b for (_, _, b) in c.side)
        muted = muted_tags(g, c) if c.side else frozenset()  # a fire one-shot against the Plasmoid
        cdef = g.cdef
        s += sum(b for (k, _, b) in c.side if not cdef[k].tags & muted) * (2 if c.doppleganger >= 0 else 1)
    return s


def wins_ties(g: Game, c: Combat) -> bool:
    if "wins_ties" not in g.abilities_granted:  # no card of these sets gives it (as `has_ability`)
        return False
    return any(characters.has_ability(g, g.players[f], "wins_ties") for f in c.fighters())


def fighters_win(g: Game, c: Combat, side: int | None = None, each: list[int] | None = None) -> bool:
    """Are the fighters winning now? Cached per applied action (state only changes then); `side` and
    `each` as `fighters_win_now` takes them."""
    if g._win_cache[0] == g.version and g._win_cache[1] is c:
        return g._win_cache[2]
    won = fighters_win_now(g, c, side, each)
    g._win_cache = (g.version, c, won)
    return won


def standing(g: Game, c: Combat) -> tuple[list[tuple[int, int]], int, int, bool]:
    """The fight as it stands, each strength weighed once: (seat, combat strength) of the fighter
    and the helper, the fighters' side, all the monsters together, and whether the fighters win (as
    `char_strength`, `side_strength`, `monsters_strength` and `fighters_win` give them, for a
    reader that wants all four at a fraction of the cost of asking each)."""
    players = g.players
    fighters = [(f, char_strength(g, c, players[f])) for f in c.fighters()]
    side = _side_total(g, c, sum(s for _, s in fighters))
    each = [monster_strength(g, c, m) for m in c.monsters]
    return fighters, side, sum(each), fighters_win(g, c, side, each)


def fighters_win_now(g: Game, c: Combat, side: int | None = None, each: list[int] | None = None) -> bool:
    """Uncached, for hooks that try a hypothetical table; `side` (the fighters' side) and `each`
    (every monster's strength, in order) when the caller has weighed them already (`standing`)."""
    beaten = [beaten_at_once(g, c, m) for m in c.monsters]  # the others must still be beaten
    if all(beaten) or (any(beaten) and not as_written(g)):
        return True
    if side is None:
        side = side_strength(g, c)
    if each is None:
        mon = sum(monster_strength(g, c, m) for m, b in zip(c.monsters, beaten, strict=True) if not b)
    else:
        mon = sum(s for s, b in zip(each, beaten, strict=True) if not b)
    return side > mon or (side == mon and wins_ties(g, c))


def combat_breakdown(g: Game, fresh: bool = False) -> dict[str, Any]:
    """Both sides' combat strength and what makes them up (public information). `fresh`: weighed
    now, not read from (nor kept in) the cache of this version, for a caller about to change the
    table within the same action."""
    c = g.combat
    if c is None:
        return {}
    cdef = g.cdef
    fighters = []
    for f in c.fighters():
        p = g.players[f]
        parts: list[tuple[str, int]] = []
        if any(cdef[m.base].ignore_level for m in c.monsters):
            parts.append(("Level does not count", 0))
        else:
            parts.append((f"Level {p.level}", p.level))
        if not level_only(g, c):
            muted = {k for k, _ in muted_items(g, p, muted_tags(g, c))}
            for it in sorted(p.equipped):
                if characters.can_use(g, p, it) and characters.item_bonus(g, p, it) and it not in muted:
                    parts.append((cdef[it].name, characters.item_bonus(g, p, it)))
            if c.berserk.get(f):
                parts.append(("Berserking", c.berserk[f]))
            if c.turning.get(f):
                parts.append(("Turning", c.turning[f]))
            if c.house_bonus.get(f):
                parts.append((f"{p.house.title()} power", c.house_bonus[f]))
            if not any((h := card_hook(g, k)) is not None and h.only_armor(g, p) for k in p.curses):
                parts += character_bonus_parts(g, c, p)
        if curses.curse_bonus(g, p):
            parts.append(("Curses", curses.curse_bonus(g, p)))
        for t, v in c.backstabs:
            if v == f:
                parts.append((f"backstab by {g.players[t].name}", -2))
        if c.doppleganger == f and not level_only(g, c):
            parts.append(("Doppleganger (doubled)", sum(v for _, v in parts)))
        fighters.append({"player": p.name, "strength": char_strength(g, c, p), "parts": parts})
    muted_side = muted_tags(g, c)
    side = [(cdef[k].name, 0 if cdef[k].tags & muted_side else b) for (k, _, b) in c.side]
    if c.doppleganger >= 0 and side and not level_only(g, c):
        side.append(("Doppleganger (doubled)", sum(b for _, b in side)))
    monsters = []
    fighters_p = [g.players[f] for f in c.fighters()]
    for m in c.monsters:
        d = cdef[m.base]
        parts = [(f"Level {d.level}", d.level)]
        parts += [(cdef[e].name, cdef[e].strength) for e in m.enhancers]
        for mod in d.modifiers:
            if modifier_applies(g, c, m, mod, fighters_p):
                parts.append((f"{'+' if mod.value > 0 else ''}{mod.value} against {_cond_words(mod.if_)}", mod.value))
        parts += [(cdef[k].name, b) for k, b in m.oneshots]
        if d.defeated_by is not None and any(characters.matches(g, f, d.defeated_by) for f in fighters_p):
            parts.append((f"loses at once to {_cond_words(d.defeated_by)}", 0))
        shown = sum(v for _, v in parts)
        actual = monster_strength(g, c, m)
        if shown != actual:  # a floor such as Baby's minimum Level 1
            parts.append(("minimum Level 1", actual - shown))
        monsters.append(
            {
                "monster": cdef[m.base].name + (" (Mate)" if m.mate_of else ""),
                "strength": monster_strength(g, c, m),
                "treasures": rewards.monster_treasures(g, c, m),
                "parts": parts,
            }
        )
    return {
        "fighters": fighters,
        "one_shots": side,
        "side_strength": side_strength(g, c),
        "monsters": monsters,
        "monster_strength": monsters_strength(g, c),
        "fighters_winning": fighters_win_now(g, c) if fresh else fighters_win(g, c),
    }
