"""Combat: strengths, the response window, asking for help, Rewards, Running Away."""

from __future__ import annotations

from typing import Any

from munchkin.cards.hooks import HOOKS, CardHook
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.core import GameCore
from munchkin.engine.effects import EffectsMixin
from munchkin.engine.fight import AskForHelp, CombatRounds, CombatWindow, Fight, SidekickSexCheck
from munchkin.engine.flow import Frame
from munchkin.engine.rewards import CollectTreasures, WinCombat
from munchkin.engine.rules import WINNING_LEVEL
from munchkin.engine.run_away import BadStuff, FleeFrom, RunAway, RunAwayAll, RunRoll
from munchkin.engine.state import Combat, MonsterIn, Player


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


class CombatMixin(EffectsMixin):
    """Mixed into Game."""

    # -------------------------------------------------------------- strength
    def monster_strength(self, c: Combat, m: MonsterIn) -> int:
        cdef = self.cdef
        d = cdef[m.base]
        s = d.level
        floor = False
        for e in m.enhancers:
            s += cdef[e].strength
            h = card_hook(self, e)
            if h is not None and h.enhancer_floor():
                floor = True
        if floor and s < 1:
            s = 1
        if d.modifiers:
            fighters = [self.players[f] for f in c.fighters()]
            for mod in d.modifiers:
                if self.modifier_applies(c, m, mod, fighters):
                    s += mod.value
        for _, b in m.oneshots:
            s += b
        return s

    def modifier_applies(self, c: Combat, m: MonsterIn, mod: Any, fighters: list[Player]) -> bool:
        """A monster's bonus or penalty against some characters: does it count in this fight?
        A bonus against a sex also counts when a fighter kept a Sidekick of that sex."""
        if any(self.matches(f, mod.if_, monster_bonus=mod.value > 0) for f in fighters):
            return True
        return bool(c.sex_bonus) and mod.value > 0 and (m.card, mod.if_.sex) in c.sex_bonus

    def sidekick_sex_check(self, c: Combat) -> Frame | None:
        """A monster with a bonus against a sex faces a fighter's Sidekick of that sex: its owner
        discards the Sidekick at once, or the bonus counts for the rest of the fight."""
        if not self.sidekick_sexes:
            return None
        return SidekickSexCheck()

    def monsters_strength(self, c: Combat) -> int:
        return sum(self.monster_strength(c, m) for m in c.monsters)

    def level_only(self, c: Combat) -> bool:
        cdef = self.cdef  # type: ignore[attr-defined]
        return any(cdef[m.base].level_only for m in c.monsters)

    def char_strength(self, c: Combat, p: Player) -> int:
        """One fighter's combat strength: Level plus every modifier that counts."""
        cdef = self.cdef
        ignore_level = any(cdef[m.base].ignore_level for m in c.monsters)
        s = 0 if ignore_level else p.level
        if not self.level_only(c):
            only_armor = any((h := card_hook(self, k)) is not None and h.only_armor(self, p) for k in p.curses)
            s += self.equipped_bonus(p, only_armor)
            s += c.berserk.get(p.seat, 0) + c.turning.get(p.seat, 0)
            if c.house_bonus:
                s += c.house_bonus.get(p.seat, 0)
            if not only_armor:
                s += self.character_bonus(c, p)
        s += self.curse_bonus(p)
        s -= 2 * sum(1 for (_, v) in c.backstabs if v == p.seat)
        if c.doppleganger == p.seat:
            s *= 2
        return s

    def character_bonus(self, c: Combat, p: Player) -> int:
        """Bonuses from Sidekicks, fighting alone (Psychic) and Complex gear (Cyborg)."""
        return sum(v for _, v in self.character_bonus_parts(c, p))

    def character_bonus_parts(self, c: Combat, p: Player) -> list[tuple[str, int]]:
        cdef = self.cdef
        parts: list[tuple[str, int]] = []
        for k in p.sidekicks:
            if cdef[k].bonus:
                parts.append((cdef[k].name, cdef[k].bonus))
        if p.seat == c.fighter and c.helper < 0:  # a Sidekick is no helper
            alone = max((cdef[k].alone_bonus for k in p.character_cards()), default=0)
            if alone:
                parts.append(("fighting alone", alone))
        if p.equipped and self.has_ability(p, "complex_bonus"):
            n = sum(1 for k in p.equipped if cdef[k].complex and self.can_use(p, k))
            if n:
                parts.append(("Complex gear", n))
        if p.equipped and self.has_ability(p, "headgear_bonus"):
            n = sum(1 for k in p.equipped if cdef[k].slot == "headgear" and self.can_use(p, k))
            if n:
                parts.append(("Headgear (Dude)", n))
        if p.equipped and self.has_ability(p, "bow_bonus"):
            n = sum(1 for k in p.equipped if "Bow" in cdef[k].name and self.can_use(p, k))
            if n:
                parts.append(("Items named Bow (Indian)", 2 * n))
        return parts

    def side_strength(self, c: Combat) -> int:
        s = sum(self.char_strength(c, self.players[f]) for f in c.fighters())
        if not self.level_only(c):
            s += sum(b for (_, _, b) in c.side)
        return s

    def wins_ties(self, c: Combat) -> bool:
        return any(self.has_ability(self.players[f], "wins_ties") for f in c.fighters())

    def fighters_win(self, c: Combat) -> bool:
        """Are the fighters winning now? Cached per applied action (state only changes then)."""
        if self._win_cache[0] == self.version and self._win_cache[1] is c:
            return self._win_cache[2]
        won = self.fighters_win_now(c)
        self._win_cache = (self.version, c, won)
        return won

    def fighters_win_now(self, c: Combat) -> bool:
        """Uncached, for hooks that try a hypothetical table."""
        side, mon = self.side_strength(c), self.monsters_strength(c)
        return side > mon or (side == mon and self.wins_ties(c))

    def monster_treasures(self, c: Combat, m: MonsterIn) -> int:
        cdef = self.cdef
        d = cdef[m.base]
        n = d.treasures + sum(cdef[e].treasures for e in m.enhancers)
        if any((h := card_hook(self, e)) is not None and h.enhancer_floor() for e in m.enhancers):
            n = max(1, n)
        p = self.players[c.fighter]
        for bt in d.bonus_treasures:
            if self.matches(p, bt.if_):
                n += bt.value
        return max(0, n)

    def combat_breakdown(self) -> dict[str, Any]:
        """Both sides' combat strength and what makes them up (public information)."""
        c = self.combat
        if c is None:
            return {}
        cdef = self.cdef
        fighters = []
        for f in c.fighters():
            p = self.players[f]
            parts: list[tuple[str, int]] = []
            if any(cdef[m.base].ignore_level for m in c.monsters):
                parts.append(("Level does not count", 0))
            else:
                parts.append((f"Level {p.level}", p.level))
            if not self.level_only(c):
                for it in sorted(p.equipped):
                    if self.can_use(p, it) and self.item_bonus(p, it):
                        parts.append((cdef[it].name, self.item_bonus(p, it)))
                if c.berserk.get(f):
                    parts.append(("Berserking", c.berserk[f]))
                if c.turning.get(f):
                    parts.append(("Turning", c.turning[f]))
                if c.house_bonus.get(f):
                    parts.append((f"{p.house.title()} power", c.house_bonus[f]))
                if not any((h := card_hook(self, k)) is not None and h.only_armor(self, p) for k in p.curses):
                    parts += self.character_bonus_parts(c, p)
            if self.curse_bonus(p):
                parts.append(("Curses", self.curse_bonus(p)))
            for t, v in c.backstabs:
                if v == f:
                    parts.append((f"backstab by {self.players[t].name}", -2))
            if c.doppleganger == f:
                parts.append(("Doppleganger (doubled)", sum(v for _, v in parts)))
            fighters.append({"player": p.name, "strength": self.char_strength(c, p), "parts": parts})
        side = [(cdef[k].name, b) for (k, _, b) in c.side]
        monsters = []
        fighters_p = [self.players[f] for f in c.fighters()]
        for m in c.monsters:
            d = cdef[m.base]
            parts = [(f"Level {d.level}", d.level)]
            parts += [(cdef[e].name, cdef[e].strength) for e in m.enhancers]
            for mod in d.modifiers:
                if self.modifier_applies(c, m, mod, fighters_p):
                    parts.append(
                        (f"{'+' if mod.value > 0 else ''}{mod.value} against {_cond_words(mod.if_)}", mod.value)
                    )
            parts += [(cdef[k].name, b) for k, b in m.oneshots]
            shown = sum(v for _, v in parts)
            actual = self.monster_strength(c, m)
            if shown != actual:  # a floor such as Baby's minimum Level 1
                parts.append(("minimum Level 1", actual - shown))
            monsters.append(
                {
                    "monster": cdef[m.base].name + (" (Mate)" if m.mate_of else ""),
                    "strength": self.monster_strength(c, m),
                    "treasures": self.monster_treasures(c, m),
                    "parts": parts,
                }
            )
        return {
            "fighters": fighters,
            "one_shots": side,
            "side_strength": self.side_strength(c),
            "monsters": monsters,
            "monster_strength": self.monsters_strength(c),
            "fighters_winning": self.fighters_win(c),
        }

    # -------------------------------------------------------------- the fight
    def fight(self, seat: int, card: int, kicked: bool) -> Frame:
        """A monster attacks `seat`: combat from the first window to the discards."""
        return Fight(seat, card, kicked)

    def _combat_rounds(self, c: Combat) -> Frame:
        """Rounds of the fight until the fighters win or Run Away."""
        return CombatRounds()

    def combat_window(self, c: Combat) -> Frame:
        """A round of passes: it closes once everyone who could answer the last change has passed."""
        return CombatWindow()

    def legal_actions_in_window(self, seat: int) -> list[Action]:
        """Legal answers of a seat in a combat window (cached like legal_actions)."""
        if self._window_version != self.version:
            self._window_cache.clear()
            self._window_version = self.version
        cached = self._window_cache.get(seat)
        if cached is None:
            cached = self._window_cache[seat] = self.window_actions(seat)
        return cached

    def _end_combat(self, c: Combat) -> None:
        for f in c.fighters():  # "your next combat" Curses are spent
            p = self.players[f]
            for k in list(p.curses):
                if self.cdef[k].duration == "next_combat":
                    self.lose_card(p, k, "spent")
        for k in c.played:
            self.discard(k)
        c.played.clear()
        c.monsters.clear()
        c.ended = True
        self.combat = None

    # -------------------------------------------------------------- help
    def help_candidates(self, c: Combat) -> list[int]:
        if c.helper >= 0 or any(self.cdef[m.base].no_help for m in c.monsters):
            return []
        return [q.seat for q in self.players if q.seat != c.fighter and not q.dead and q.seat not in c.asked]

    def for_the_win(self, c: Combat) -> bool:
        """Would killing these monsters give the fighter the winning level?"""
        p = self.players[c.fighter]
        return p.level + sum(self.cdef[m.base].levels for m in c.monsters) >= WINNING_LEVEL

    def compels_help(self, c: Combat, helper: int) -> int:
        """The Item that compels this player's help (Kneepads of Allure, Sheriff's Badge), or -1:
        the asked player cannot refuse, except in a fight for the win, which compelled help never is."""
        p, q = self.players[c.fighter], self.players[helper]
        if self.for_the_win(c):
            return -1
        for k in p.equipped:
            if (h := card_hook(self, k)) is not None and h.compels_help(self, p, q) and self.can_use(p, k):
                return k
        return -1

    def ask_for_help(self, c: Combat, act: Action) -> Frame:
        """Ask one player; they accept or refuse. Returns True if the fight changed."""
        return AskForHelp(act)

    # -------------------------------------------------------------- rewards
    def win_combat(self, c: Combat) -> Frame:
        """Kill the monsters: levels, then Treasures drawn (face-up if helped) and shared as agreed."""
        return WinCombat()

    def bonus_doors(self, c: Combat, p: Player, killed: tuple[int, ...]) -> None:
        """Door cards drawn face-down after a kill: the monster's own reward (Bottle Bottle),
        then a Bounty Hunter's bounty for helping."""
        doors = sum(self.cdef[k].bonus_doors for k in killed)
        if doors:
            self.draw_to_hand(p, "door", doors)
        if c.helper >= 0 and self.has_ability(self.players[c.helper], "bounty"):
            self.draw_to_hand(self.players[c.helper], "door", 1)

    def collect_treasures(self, c: Combat, n: int) -> Frame:
        """The fighter's `n` Treasures: drawn face-down alone, else face-up and shared as agreed."""
        return CollectTreasures(n)

    def _hand_over(self, drawn: list[int], k: int, seat: int) -> None:
        drawn.remove(k)
        self.limbo.remove(k)
        self.give_card(self.players[seat], k)
        self.events.append(E.Take(seat, k))

    # -------------------------------------------------------------- running away
    def run_away_all(self, c: Combat) -> Frame:
        """The fighters lost: each one Runs Away in turn."""
        return RunAwayAll()

    def run_away(self, c: Combat, p: Player) -> Frame:
        """`p` Runs Away from each monster of the fight."""
        return RunAway(p.seat)

    def run_away_bonus(self, c: Combat, p: Player, m: MonsterIn) -> int:
        """The total modifier to `p`'s Run Away roll from `m` (without the Flight spell)."""
        return sum(v for _, v in self.run_away_parts(c, p, m))

    def run_away_parts(self, c: Combat, p: Player, m: MonsterIn) -> list[tuple[str, int]]:
        """Each modifier to the Run Away roll with the card (or House) it comes from, so the
        log can show how a roll became an escape; zero modifiers are left out."""
        cdef = self.cdef
        d = cdef[m.base]
        parts: list[tuple[str, int]] = []
        own: list[tuple[str, int]] = []
        steed: tuple[str, int] | None = None
        for k in p.character_cards() + p.sidekicks:
            own.append((cdef[k].name, cdef[k].run_away))
        if p.house:
            house = self.houses[p.house]
            own.append((house.name, house.run_away))
        for k in p.equipped:
            if self.can_use(p, k):
                own.append((cdef[k].name, cdef[k].run_away))
                if cdef[k].steed and cdef[k].run_away:
                    steed = (cdef[k].name, cdef[k].run_away)
        parts += own if steed is None else [steed]  # a Steed's modifier replaces the rider's own
        for k in p.curses:
            h = card_hook(self, k)
            if h is not None:
                parts.append((cdef[k].name, h.die_modifier(self, p)))
        if d.is_monster:  # a Steed fought as a monster has no Run Away modifier
            parts.append((d.name, d.run_away))
        if m.mate_of is not None and (h := card_hook(self, m.card)) is not None:
            parts.append((cdef[m.card].name, -h.run_penalty()))
        return [(who, v) for who, v in parts if v]

    def pursued(self, p: Player, m: MonsterIn) -> bool:
        d = self.cdef[m.base]
        if d.wnp_level >= 0 and p.level <= d.wnp_level:
            return d.wnp_unless is not None and self.matches(p, d.wnp_unless)
        return True

    def flee_from(self, c: Combat, p: Player, m: MonsterIn, flight_bonus: int) -> Frame:
        """`p` flees one monster: escaped, or caught and its Bad Stuff."""
        return FleeFrom(p.seat, m.card, flight_bonus)

    def bad_stuff(self, c: Combat, p: Player, m: MonsterIn) -> Frame:
        """The monster's Bad Stuff happens to `p`."""
        return BadStuff(p.seat, m.card, m.base)

    def run_roll(self, c: Combat, p: Player, m: MonsterIn, flight_bonus: int) -> Frame:
        """Roll to Run Away (5 or more escapes), with the answers a roll allows."""
        return RunRoll(p.seat, m.card, flight_bonus)

    def roll_answers(self, seat: int, rolled: D.Rolled) -> bool:
        """Whether `seat` has a card (or power) that answers the roll `rolled`."""
        return len(self.rolled_actions(seat, rolled)) > 1

    def spend(self, p: Player, card: int) -> None:
        """Discard a card from hand or play to pay for an ability or to use it."""
        self.remove_from_play(p, card)
        self.discard(card)
