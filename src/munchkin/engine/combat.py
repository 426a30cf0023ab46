"""Combat: strengths, the response window, asking for help, Rewards, Running Away."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from munchkin.cards.hooks import HOOKS, CardHook
from munchkin.engine import changes, characters, legal
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.core import GameCore
from munchkin.engine.fight import AskForHelp, CombatRounds, CombatWindow, Fight, SidekickSexCheck
from munchkin.engine.flow import Frame
from munchkin.engine.rewards import CollectTreasures, WinCombat
from munchkin.engine.rules import WINNING_LEVEL
from munchkin.engine.run_away import BadStuff, FleeFrom, RunAway, RunAwayAll, RunRoll
from munchkin.engine.state import Combat, MonsterIn, Player

if TYPE_CHECKING:
    from munchkin.engine.game import Game


def card_hook(g: GameCore, card: int) -> CardHook | None:
    h = g.cdef[card].hook
    if h is None:
        return None
    obj = HOOKS.get(h)
    return obj if isinstance(obj, CardHook) else None


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
    if any(characters.matches(g, f, mod.if_, monster_bonus=mod.value > 0) for f in fighters):
        return True
    return bool(c.sex_bonus) and mod.value > 0 and (m.card, mod.if_.sex) in c.sex_bonus


def sidekick_sex_check(g: Game, c: Combat) -> Frame | None:
    """A monster with a bonus against a sex faces a fighter's Sidekick of that sex: its owner
    discards the Sidekick at once, or the bonus counts for the rest of the fight."""
    if not g.sidekick_sexes:
        return None
    return SidekickSexCheck()


def monsters_strength(g: Game, c: Combat) -> int:
    return sum(monster_strength(g, c, m) for m in c.monsters)


def level_only(g: Game, c: Combat) -> bool:
    cdef = g.cdef  # type: ignore[attr-defined]
    return any(cdef[m.base].level_only for m in c.monsters)


def char_strength(g: Game, c: Combat, p: Player) -> int:
    """One fighter's combat strength: Level plus every modifier that counts."""
    cdef = g.cdef
    ignore_level = any(cdef[m.base].ignore_level for m in c.monsters)
    s = 0 if ignore_level else p.level
    if not level_only(g, c):
        only_armor = any((h := card_hook(g, k)) is not None and h.only_armor(g, p) for k in p.curses)
        s += characters.equipped_bonus(g, p, only_armor)
        s += c.berserk.get(p.seat, 0) + c.turning.get(p.seat, 0)
        if c.house_bonus:
            s += c.house_bonus.get(p.seat, 0)
        if not only_armor:
            s += character_bonus(g, c, p)
    s += changes.curse_bonus(g, p)
    s -= 2 * sum(1 for (_, v) in c.backstabs if v == p.seat)
    if c.doppleganger == p.seat:
        s *= 2
    return s


def character_bonus(g: Game, c: Combat, p: Player) -> int:
    """Bonuses from Sidekicks, fighting alone (Psychic) and Complex gear (Cyborg)."""
    return sum(v for _, v in character_bonus_parts(g, c, p))


def character_bonus_parts(g: Game, c: Combat, p: Player) -> list[tuple[str, int]]:
    cdef = g.cdef
    parts: list[tuple[str, int]] = []
    for k in p.sidekicks:
        if cdef[k].bonus:
            parts.append((cdef[k].name, cdef[k].bonus))
    if p.seat == c.fighter and c.helper < 0:  # a Sidekick is no helper
        alone = max((cdef[k].alone_bonus for k in p.character_cards()), default=0)
        if alone:
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
    s = sum(char_strength(g, c, g.players[f]) for f in c.fighters())
    if not level_only(g, c):
        s += sum(b for (_, _, b) in c.side)
    return s


def wins_ties(g: Game, c: Combat) -> bool:
    return any(characters.has_ability(g, g.players[f], "wins_ties") for f in c.fighters())


def fighters_win(g: Game, c: Combat) -> bool:
    """Are the fighters winning now? Cached per applied action (state only changes then)."""
    if g._win_cache[0] == g.version and g._win_cache[1] is c:
        return g._win_cache[2]
    won = fighters_win_now(g, c)
    g._win_cache = (g.version, c, won)
    return won


def fighters_win_now(g: Game, c: Combat) -> bool:
    """Uncached, for hooks that try a hypothetical table."""
    side, mon = side_strength(g, c), monsters_strength(g, c)
    return side > mon or (side == mon and wins_ties(g, c))


def monster_treasures(g: Game, c: Combat, m: MonsterIn) -> int:
    cdef = g.cdef
    d = cdef[m.base]
    n = d.treasures + sum(cdef[e].treasures for e in m.enhancers)
    if any((h := card_hook(g, e)) is not None and h.enhancer_floor() for e in m.enhancers):
        n = max(1, n)
    p = g.players[c.fighter]
    for bt in d.bonus_treasures:
        if characters.matches(g, p, bt.if_):
            n += bt.value
    return max(0, n)


def combat_breakdown(g: Game) -> dict[str, Any]:
    """Both sides' combat strength and what makes them up (public information)."""
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
            for it in sorted(p.equipped):
                if characters.can_use(g, p, it) and characters.item_bonus(g, p, it):
                    parts.append((cdef[it].name, characters.item_bonus(g, p, it)))
            if c.berserk.get(f):
                parts.append(("Berserking", c.berserk[f]))
            if c.turning.get(f):
                parts.append(("Turning", c.turning[f]))
            if c.house_bonus.get(f):
                parts.append((f"{p.house.title()} power", c.house_bonus[f]))
            if not any((h := card_hook(g, k)) is not None and h.only_armor(g, p) for k in p.curses):
                parts += character_bonus_parts(g, c, p)
        if changes.curse_bonus(g, p):
            parts.append(("Curses", changes.curse_bonus(g, p)))
        for t, v in c.backstabs:
            if v == f:
                parts.append((f"backstab by {g.players[t].name}", -2))
        if c.doppleganger == f:
            parts.append(("Doppleganger (doubled)", sum(v for _, v in parts)))
        fighters.append({"player": p.name, "strength": char_strength(g, c, p), "parts": parts})
    side = [(cdef[k].name, b) for (k, _, b) in c.side]
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
        shown = sum(v for _, v in parts)
        actual = monster_strength(g, c, m)
        if shown != actual:  # a floor such as Baby's minimum Level 1
            parts.append(("minimum Level 1", actual - shown))
        monsters.append(
            {
                "monster": cdef[m.base].name + (" (Mate)" if m.mate_of else ""),
                "strength": monster_strength(g, c, m),
                "treasures": monster_treasures(g, c, m),
                "parts": parts,
            }
        )
    return {
        "fighters": fighters,
        "one_shots": side,
        "side_strength": side_strength(g, c),
        "monsters": monsters,
        "monster_strength": monsters_strength(g, c),
        "fighters_winning": fighters_win(g, c),
    }


# -------------------------------------------------------------- the fight
def fight(g: Game, seat: int, card: int, kicked: bool) -> Frame:
    """A monster attacks `seat`: combat from the first window to the discards."""
    return Fight(seat, card, kicked)


def _combat_rounds(g: Game, c: Combat) -> Frame:
    """Rounds of the fight until the fighters win or Run Away."""
    return CombatRounds()


def combat_window(g: Game, c: Combat) -> Frame:
    """A round of passes: it closes once everyone who could answer the last change has passed."""
    return CombatWindow()


def legal_actions_in_window(g: Game, seat: int) -> list[Action]:
    """Legal answers of a seat in a combat window (cached like legal_actions)."""
    if g._window_version != g.version:
        g._window_cache.clear()
        g._window_version = g.version
    cached = g._window_cache.get(seat)
    if cached is None:
        cached = g._window_cache[seat] = legal.window_actions(g, seat)
    return cached


def _end_combat(g: Game, c: Combat) -> None:
    for f in c.fighters():  # "your next combat" Curses are spent
        p = g.players[f]
        for k in list(p.curses):
            if g.cdef[k].duration == "next_combat":
                changes.lose_card(g, p, k, "spent")
    for k in c.played:
        g.discard(k)
    c.played.clear()
    c.monsters.clear()
    c.ended = True
    g.combat = None


# -------------------------------------------------------------- help
def help_candidates(g: Game, c: Combat) -> list[int]:
    if c.helper >= 0 or any(g.cdef[m.base].no_help for m in c.monsters):
        return []
    return [q.seat for q in g.players if q.seat != c.fighter and not q.dead and q.seat not in c.asked]


def for_the_win(g: Game, c: Combat) -> bool:
    """Would killing these monsters give the fighter the winning level?"""
    p = g.players[c.fighter]
    return p.level + sum(g.cdef[m.base].levels for m in c.monsters) >= WINNING_LEVEL


def compels_help(g: Game, c: Combat, helper: int) -> int:
    """The Item that compels this player's help (Kneepads of Allure, Sheriff's Badge), or -1:
    the asked player cannot refuse, except in a fight for the win, which compelled help never is."""
    p, q = g.players[c.fighter], g.players[helper]
    if for_the_win(g, c):
        return -1
    for k in p.equipped:
        if (h := card_hook(g, k)) is not None and h.compels_help(g, p, q) and characters.can_use(g, p, k):
            return k
    return -1


def ask_for_help(g: Game, c: Combat, act: Action) -> Frame:
    """Ask one player; they accept or refuse. Returns True if the fight changed."""
    return AskForHelp(act)


# -------------------------------------------------------------- rewards
def win_combat(g: Game, c: Combat) -> Frame:
    """Kill the monsters: levels, then Treasures drawn (face-up if helped) and shared as agreed."""
    return WinCombat()


def bonus_doors(g: Game, c: Combat, p: Player, killed: tuple[int, ...]) -> None:
    """Door cards drawn face-down after a kill: the monster's own reward (Bottle Bottle),
    then a Bounty Hunter's bounty for helping."""
    doors = sum(g.cdef[k].bonus_doors for k in killed)
    if doors:
        g.draw_to_hand(p, "door", doors)
    if c.helper >= 0 and characters.has_ability(g, g.players[c.helper], "bounty"):
        g.draw_to_hand(g.players[c.helper], "door", 1)


def collect_treasures(g: Game, c: Combat, n: int) -> Frame:
    """The fighter's `n` Treasures: drawn face-down alone, else face-up and shared as agreed."""
    return CollectTreasures(n)


def _hand_over(g: Game, drawn: list[int], k: int, seat: int) -> None:
    drawn.remove(k)
    g.limbo.remove(k)
    g.give_card(g.players[seat], k)
    g.events.append(E.Take(seat, k))


# -------------------------------------------------------------- running away
def run_away_all(g: Game, c: Combat) -> Frame:
    """The fighters lost: each one Runs Away in turn."""
    return RunAwayAll()


def run_away(g: Game, c: Combat, p: Player) -> Frame:
    """`p` Runs Away from each monster of the fight."""
    return RunAway(p.seat)


def run_away_bonus(g: Game, c: Combat, p: Player, m: MonsterIn) -> int:
    """The total modifier to `p`'s Run Away roll from `m` (without the Flight spell)."""
    return sum(v for _, v in run_away_parts(g, c, p, m))


def run_away_parts(g: Game, c: Combat, p: Player, m: MonsterIn) -> list[tuple[str, int]]:
    """Each modifier to the Run Away roll with the card (or House) it comes from, so the
    log can show how a roll became an escape; zero modifiers are left out."""
    cdef = g.cdef
    d = cdef[m.base]
    parts: list[tuple[str, int]] = []
    own: list[tuple[str, int]] = []
    steed: tuple[str, int] | None = None
    for k in p.character_cards() + p.sidekicks:
        own.append((cdef[k].name, cdef[k].run_away))
    if p.house:
        house = g.houses[p.house]
        own.append((house.name, house.run_away))
    for k in p.equipped:
        if characters.can_use(g, p, k):
            own.append((cdef[k].name, cdef[k].run_away))
            if cdef[k].steed and cdef[k].run_away:
                steed = (cdef[k].name, cdef[k].run_away)
    parts += own if steed is None else [steed]  # a Steed's modifier replaces the rider's own
    for k in p.curses:
        h = card_hook(g, k)
        if h is not None:
            parts.append((cdef[k].name, h.die_modifier(g, p)))
    if d.is_monster:  # a Steed fought as a monster has no Run Away modifier
        parts.append((d.name, d.run_away))
    if m.mate_of is not None and (h := card_hook(g, m.card)) is not None:
        parts.append((cdef[m.card].name, -h.run_penalty()))
    return [(who, v) for who, v in parts if v]


def pursued(g: Game, p: Player, m: MonsterIn) -> bool:
    d = g.cdef[m.base]
    if d.wnp_level >= 0 and p.level <= d.wnp_level:
        return d.wnp_unless is not None and characters.matches(g, p, d.wnp_unless)
    return True


def flee_from(g: Game, c: Combat, p: Player, m: MonsterIn, flight_bonus: int) -> Frame:
    """`p` flees one monster: escaped, or caught and its Bad Stuff."""
    return FleeFrom(p.seat, m.card, flight_bonus)


def bad_stuff(g: Game, c: Combat, p: Player, m: MonsterIn) -> Frame:
    """The monster's Bad Stuff happens to `p`."""
    return BadStuff(p.seat, m.card, m.base)


def run_roll(g: Game, c: Combat, p: Player, m: MonsterIn, flight_bonus: int) -> Frame:
    """Roll to Run Away (5 or more escapes), with the answers a roll allows."""
    return RunRoll(p.seat, m.card, flight_bonus)


def roll_answers(g: Game, seat: int, rolled: D.Rolled) -> bool:
    """Whether `seat` has a card (or power) that answers the roll `rolled`."""
    return len(legal.rolled_actions(g, seat, rolled)) > 1


def spend(g: Game, p: Player, card: int) -> None:
    """Discard a card from hand or play to pay for an ability or to use it."""
    changes.remove_from_play(g, p, card)
    g.discard(card)
