"""The heuristic agent: plays sensibly from what its seat may know.

It looks only at its own hand, the table (Levels, Races, Classes, Items, Curses, hand sizes),
the combat in progress and the discards. Every decision scores the legal actions with a few
rules of thumb: a Level is worth about 4.5 points, a Treasure 1.5, an equipped +N Item about N.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Iterable, Sequence
from itertools import groupby
from operator import itemgetter
from typing import Any, NamedTuple

from munchkin.agents.observation import Observation
from munchkin.engine import actions as A
from munchkin.engine import changes, characters, combat, rewards, run_away
from munchkin.engine import decisions as D
from munchkin.engine.actions import Action
from munchkin.engine.game import Game
from munchkin.engine.rules import ABILITY_DISCARDS, ESCAPE_ROLL, GOLD_PER_LEVEL, TURNING_BONUS, WINNING_LEVEL
from munchkin.engine.state import Combat, MonsterIn, Player

LEVEL = 4.5  # the worth of one Level, in the agent's points
TREASURE = 1.5  # the worth of one Treasure drawn
MAX_FREE = 12  # free actions per decision point before the agent moves the turn on
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
BAD_HOOK = {
    "snails_on_speed_bad_stuff": 6.0,
    "leperchaun_bad_stuff": 5.0,
    "platycore_bad_stuff": 6.0,
    "lawyers_bad_stuff": 6.0,
    "3872_orcs_bad_stuff": 20.0,
    "net_troll_bad_stuff": 4.0,
    "unspeakably_awful_indescribable_horror_bad_stuff": 3.0,
    "hippogriff_bad_stuff": 8.0,
}
CURSE_HOOK = {
    "change_race": 2.5,
    "change_class": 3.0,
    "income_tax": 2.5,
    "lose_two_cards": 3.0,
    "chicken_on_your_head": 1.5,
}
STOPPERS = ("friendship_potion", "out_to_lunch", "transferral_potion")
REMOVERS = ("pollymorph_potion", "magic_lamp")


# Cards of other sets with a hook of their own that works like a Deluxe card's: the agent plays them alike.
SAME_AS = {
    "and_its_clone": "mate",
    "and_his_twin_brother": "mate",
    "bushwhack_the_sidekick": "kill_the_hireling",
}


# Library hooks (`munchkin.cards.library`) by the Deluxe card that names them: the agent plays
# every card of a library hook as it plays that Deluxe card.
LIBRARY_AS = {
    "add_monster": "wandering_monster",
    "attach_class": "super_munchkin",
    "attach_race": "half_breed",
    "cancel_curse": "wishing_ring",
    "change_class": "change_class",
    "change_race": "change_race",
    "compel_lower_level_help": "kneepads_of_allure",
    "copy_monster": "mate",
    "discard_all_monsters": "friendship_potion",
    "double_combat_strength": "doppleganger",
    "draw_three_treasures": "hoard",
    "escape_after_failed_roll": "invisibility_potion",
    "escape_automatically": "instant_wall",
    "escape_weak_monster": "rat_on_a_stick",
    "force_help": "help_me_out_here",
    "ignore_drawn_curses": "sandals_of_protection",
    "level_for_killing_hireling": "kill_the_hireling",
    "level_for_whining": "whine_at_the_gm",
    "minus_one_to_rolls": "chicken_on_your_head",
    "monster_level_floor": "baby",
    "monsters_leave_with_treasure": "out_to_lunch",
    "neighbours_take_cards": "lose_two_cards",
    "pass_the_fight": "transferral_potion",
    "remove_monster_keep_treasure": "pollymorph_potion",
    "remove_monster_own_turn": "magic_lamp",
    "replace_monster": "illusion",
    "reroll_escape": "flask_of_glue",
    "set_the_die": "loaded_die",
    "steal_a_level": "steal_a_level",
    "take_from_discards": "wand_of_dowsing",
    "tax_items": "income_tax",
    "treasure_on_escape": "tuba_of_charm",
    "use_any_item": "cheat",
}


def _hook(g: Game, card: int) -> str:
    """The name the agent plays a card's hook by (a Deluxe card's, for hooks that work alike)."""
    h = g.cdef[card].hook
    name = _HOOK_NAMES.get(h)
    if name is None:
        if h is not None and h.startswith("library."):
            name = LIBRARY_AS[h.split(".", 1)[1]]
        else:
            name = h.split(".", 1)[-1] if h else ""
            name = SAME_AS.get(name, name)
        _HOOK_NAMES[h] = name
    return name


_HOOK_NAMES: dict[str | None, str] = {}  # by the card's hook: worked out once


class _Unit(NamedTuple):
    """One step towards a combat goal: how much it changes the gap, what it costs."""

    delta: float
    cost: float
    action: Action
    card: int = -1


def _by_kind(legal: list[Action]) -> dict[str, list[Action]]:
    """The actions of each kind, in the order listed (one pass, where several looks for a kind
    would each read the whole list)."""
    out: dict[str, list[Action]] = {}
    for kind, run in groupby(legal, _KIND):  # the lists come in runs of one kind: each run taken whole
        same = out.get(kind)
        if same is None:
            out[kind] = list(run)
        else:
            same.extend(run)
    return out


_KIND = itemgetter(0)  # an Action's kind
_HANDLERS: dict[str, str] = {}  # a decision's kind -> the name of its handler


def _plan(units: Sequence[_Unit], need: float) -> list[_Unit] | None:
    """A cheap set of units whose deltas reach `need` (greedy, then pruned); None if impossible."""
    if need <= 0:
        return []
    if sum(u.delta for u in units) < need:
        return None
    chosen: list[_Unit] = []
    used: set[int] = set()
    total = 0.0
    for u in sorted(units, key=lambda u: (-u.delta, u.cost)):
        if u.card >= 0 and u.card in used:
            continue
        chosen.append(u)
        if u.card >= 0:
            used.add(u.card)
        total += u.delta
        if total >= need:
            break
    if total < need:
        return None
    singles = [u for u in units if u.delta >= need]
    if singles:
        best = min(singles, key=lambda u: u.cost)
        if best.cost <= sum(u.cost for u in chosen):
            return [best]
    pruned = True
    while pruned:
        pruned = False
        for u in sorted(chosen, key=lambda u: -u.cost):
            if total - u.delta >= need:
                chosen.remove(u)
                total -= u.delta
                pruned = True
                break
    return chosen


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


class HeuristicAgent:
    """Plays Munchkin by rules of thumb; see the module docstring."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)  # the agent is deterministic; kept for the common interface
        self._free: dict[tuple[int, int, str], int] = {}
        self._turn = -1
        self._equip: dict[tuple[Any, ...], set[int]] = {}  # best_equip's answers, by `_equip_key`
        self._equip_cdef: list[Any] | None = None  # the game (its cards' list) they are for

    # ================================================================== entry point
    def act(self, obs: Observation) -> Action:
        """The action rules of thumb pick, judged on a world the seat cannot tell from the real
        game (hidden cards dealt anew): the rules of thumb look only at what the seat may know."""
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        return self.choose(obs.world(), obs.seat, legal)

    INTERJECT_AT = frozenset({("main", "start"), ("main", "door")})  # another's turn, around its door

    def interject(self, obs: Observation) -> Action | None:
        """Off its own turn: a Curse on the player whose turn it is, before or right after their door,
        when that player leads the table (Level 4 or more, and not below this seat) and it hurts enough."""
        curses = [a for a in obs.any_time if a.kind == A.PLAY and a.target >= 0 and a.flag != "sidekick"]
        if not curses:
            return None
        g = obs.world()
        p, lead = g.players[obs.seat], self.leader(g, obs.seat)
        if lead is None or lead.seat != g.active or lead.level < max(4, p.level):
            return None
        return self._curse_on(g, p, [a for a in curses if a.target == lead.seat], lead)

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        """The action for `seat` among `legal` in `game` (a world of the seat's observation)."""
        if len(legal) == 1:
            return legal[0]
        if game.turn != self._turn:
            self._free.clear()
            self._turn = game.turn
        kind = game.prompt.kind
        name = _HANDLERS.get(kind)
        if name is None:  # an interned name: the method is then found from the type's cache
            name = _HANDLERS[kind] = sys.intern("_on_" + kind)
        handler = getattr(self, name, None)
        choice = handler(game, seat, legal) if handler is not None else None
        if choice is None or choice not in legal:
            choice = self._default(legal)
        return choice

    @staticmethod
    def _default(legal: list[Action]) -> Action:
        for kind in (A.PASS, A.DECLINE, A.REFUSE, A.KEEP, A.END, A.KICK, A.LOOT, A.RUN):
            for a in legal:
                if a.kind == kind:
                    return a
        return legal[0]

    def _count(self, g: Game, seat: int, stage: str) -> int:
        key = (g.turn, seat, stage)
        n = self._free.get(key, 0)
        self._free[key] = n + 1
        return n

    # ================================================================== valuations
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
        return name in characters.class_names(g, p)

    def race_score(self, g: Game, p: Player, c: int) -> float:
        name = g.cdef[c].name.lower()
        return RACE_BASE.get(name, 2.0) + 0.8 * self._synergy(g, p, name, "race")

    def class_score(self, g: Game, p: Player, c: int) -> float:
        name = g.cdef[c].name.lower()
        return CLASS_BASE.get(name, 2.0) + 0.8 * self._synergy(g, p, name, "class_")

    @staticmethod
    def _synergy(g: Game, p: Player, name: str, field: str) -> float:
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

    # ------------------------------------------------------------------ threats
    @staticmethod
    def leader(g: Game, seat: int) -> Player | None:
        """The highest-Level living opponent (most equipped Items on ties)."""
        best, level, equipped = None, 0, 0
        for q in g.players:  # the first of the highest, as max() would give
            if q.seat == seat or q.dead:
                continue
            if best is None or q.level > level or (q.level == level and len(q.equipped) > equipped):
                best, level, equipped = q, q.level, len(q.equipped)
        return best

    def effects_severity(self, g: Game, p: Player, effects: Iterable[Any], me: int) -> float:
        total = 0.0
        for e in effects:
            if e.if_ is not None and not characters.matches(g, p, e.if_):
                if e.otherwise:
                    total += self.effects_severity(g, p, e.otherwise, me)
                continue
            s = self._effect_severity(g, p, e, me)
            if s <= 0 and e.otherwise:
                s = self.effects_severity(g, p, e.otherwise, me)
            total += s
        return total

    def _hand_worth(self, g: Game, p: Player, me: int) -> float:
        if p.seat == me:
            return sum(self.card_value(g, p, c) for c in p.hand)
        return 1.8 * len(p.hand)  # another's hand: only its size is known

    def _effect_severity(self, g: Game, p: Player, e: Any, me: int) -> float:
        if e.lose_levels is not None:
            return LEVEL * min(e.lose_levels, p.level - 1)
        if e.die:
            items = sum(self.table_value(g, p, c) for c in p.items)
            return 12.0 + items + 0.7 * self._hand_worth(g, p, me)
        if e.lose_items is not None:
            li = e.lose_items
            found = changes.items_matching(g, p, li.which)
            if not found:
                return 0.0
            target = self.best_equip(g, p)
            vals = sorted(self.table_value(g, p, c, target) for c in found)
            if li.count == "all":
                return sum(vals)
            return sum(vals[: int(li.count)])
        if e.discard_hand:
            return 0.6 * self._hand_worth(g, p, me)
        if e.lose_race is not None:
            return 2.5 * (len(p.races) if e.lose_race == "all" else min(1, len(p.races)))
        if e.lose_class is not None:
            return 3.0 * (len(p.classes) if e.lose_class == "all" else min(1, len(p.classes)))
        if e.level_becomes is not None:
            lv = min(q.level for q in g.players) if e.level_becomes == "lowest" else int(e.level_becomes)
            return LEVEL * max(0, p.level - lv)
        if e.lose_gold is not None:
            return min(4.0, sum(self.table_value(g, p, c) for c in p.items))
        if e.change_sex:
            return 1.0
        if e.discard_cards is not None:
            return 0.6 * self._hand_worth(g, p, me) * min(1.0, e.discard_cards / max(1, len(p.hand)))
        if e.bar is not None:
            return 0.5
        if e.next_combat_bonus is not None:
            return max(0.0, -0.8 * e.next_combat_bonus)
        if e.hook is not None:
            return BAD_HOOK.get(e.hook.split(".", 1)[-1], 4.0)
        return 0.0

    def bad_severity(self, g: Game, p: Player, monster: int, me: int) -> float:
        d = g.cdef[monster]
        return self.effects_severity(g, p, d.bad_stuff, me) + 0.5 * self.effects_severity(g, p, d.even_if_escaped, me)

    def curse_severity(self, g: Game, q: Player, card: int, me: int) -> float:
        d = g.cdef[card]
        h = _hook(g, card)
        if h == "malign_mirror":
            armor = sum(
                characters.item_bonus(g, q, c)
                for c in q.equipped
                if g.cdef[c].slot == "armor" and characters.can_use(g, q, c)
            )
            return max(0.5, 0.8 * (characters.equipped_bonus(g, q) - armor))
        if h in CURSE_HOOK:
            return CURSE_HOOK[h]
        return self.effects_severity(g, q, d.effects, me)

    def curse_combat_delta(self, g: Game, c: Combat, q: Player, card: int) -> float:
        """How much a Curse lowers a fighter's combat strength now."""
        d = g.cdef[card]
        h = _hook(g, card)
        level_only = combat.level_only(g, c)
        if h == "malign_mirror":
            if level_only:
                return 0.0
            armor = sum(
                characters.item_bonus(g, q, k)
                for k in q.equipped
                if g.cdef[k].slot == "armor" and characters.can_use(g, q, k)
            )
            return float(characters.equipped_bonus(g, q) - armor)
        total = 0.0
        for e in d.effects:
            if e.if_ is not None and not characters.matches(g, q, e.if_):
                continue
            if e.next_combat_bonus is not None:
                total -= e.next_combat_bonus
            elif e.lose_levels is not None:
                total += min(e.lose_levels, q.level - 1)
            elif e.lose_items is not None and not level_only:
                found = changes.items_matching(g, q, e.lose_items.which)
                if found:
                    vals = sorted(
                        characters.item_bonus(g, q, k) if k in q.equipped and characters.can_use(g, q, k) else 0
                        for k in found
                    )
                    total += sum(vals) if e.lose_items.count == "all" else vals[0]
        return total

    # ------------------------------------------------------------------ combat maths
    @staticmethod
    def slack(g: Game, c: Combat) -> int:
        """>= 0 when the fighters win now; how much they may lose and still win."""
        side, mon = combat.side_strength(g, c), combat.monsters_strength(g, c)
        return side - mon - (0 if combat.wins_ties(g, c) else 1)

    @staticmethod
    def slack_with_helper(g: Game, c: Combat, helper: int) -> int:
        old = c.helper
        c.helper = helper
        try:
            side, mon, ties = combat.side_strength(g, c), combat.monsters_strength(g, c), combat.wins_ties(g, c)
        finally:
            c.helper = old
        return side - mon - (0 if ties else 1)

    @staticmethod
    def slack_as_fighter(g: Game, c: Combat, seat: int) -> int:
        """The slack if `seat` fought these monsters alone (as after a Transferral Potion)."""
        old = (c.fighter, c.helper)
        c.fighter, c.helper = seat, -1
        try:
            side, mon, ties = combat.side_strength(g, c), combat.monsters_strength(g, c), combat.wins_ties(g, c)
        finally:
            c.fighter, c.helper = old
        return side - mon - (0 if ties else 1)

    @staticmethod
    def kill_levels(g: Game, c: Combat) -> int:
        return sum(g.cdef[m.base].levels for m in c.monsters) + c.extra_levels

    @staticmethod
    def treasures(g: Game, c: Combat) -> int:
        return sum(rewards.monster_treasures(g, c, m) for m in c.monsters)

    @staticmethod
    def p_escape(g: Game, c: Combat, p: Player, m: MonsterIn, flight: int = 0) -> float:
        d = g.cdef[m.base]
        if not run_away.pursued(g, p, m):
            return 1.0
        if d.escape == "automatic":
            return 1.0
        if d.escape == "impossible":
            return 0.0
        b = run_away.run_away_bonus(g, c, p, m) + flight
        return min(6, max(0, 7 - ESCAPE_ROLL + b)) / 6  # the die's faces that reach ESCAPE_ROLL

    def run_loss(self, g: Game, c: Combat, p: Player, me: int) -> float:
        """Expected loss of p if p had to run from every monster now."""
        total = 0.0
        for m in c.monsters:
            total += self.bad_severity(g, p, m.base, me) * (1 - self.p_escape(g, c, p, m))
        if p.sidekicks:
            total = min(total, 4.0)
        return total

    def mon_strength(self, g: Game, c: Combat, card: int, mate_of: MonsterIn | None = None) -> int:
        return combat.monster_strength(g, c, MonsterIn(card, mate_of))

    def group_strength(self, g: Game, c: Combat, card: int) -> int:
        """A monster and its Mates."""
        m = next((x for x in c.monsters if x.card == card), None)
        if m is None:
            return 0
        return sum(combat.monster_strength(g, c, x) for x in c.monsters if x is m or x.mate_of is m)

    # ================================================================== main: own turn
    def _on_main(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        pr = g.prompt
        assert isinstance(pr, D.Main)
        stage = pr.stage
        if self._count(g, seat, stage) < MAX_FREE:
            a = self.plan_free(g, seat, legal, stage)
            if a is not None:
                return a
        return self._advance(g, seat, legal, stage)

    def _advance(self, g: Game, seat: int, legal: list[Action], stage: str) -> Action | None:
        if stage == "door":
            return self.choose_trouble(g, seat, legal) or next((a for a in legal if a.kind == A.LOOT), None)
        for kind in (A.KICK, A.END):
            for a in legal:
                if a.kind == kind:
                    return a
        return None

    def choose_trouble(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        p = g.players[seat]
        cdef = g.cdef
        bonus_in_hand = sum(cdef[k].bonus for k in p.hand if cdef[k].is_one_shot and cdef[k].when == "combat")
        best: tuple[float, Action] | None = None
        for a in legal:
            if a.kind != A.TROUBLE:
                continue
            d = cdef[a.card]
            c = Combat(seat, False)
            m = MonsterIn(a.card)
            c.monsters.append(m)
            if d.wna_if is not None and characters.matches(g, p, d.wna_if):
                score = TREASURE * d.wna_treasures
                if score > 0 and (best is None or score > best[0]):
                    best = (score, a)
                continue
            if _hook(g, a.card) in ("tongue_demon", "floating_nose", "stoned_golem"):
                continue
            slack = self.slack(g, c)
            wins_game = p.level + d.levels >= WINNING_LEVEL
            need = 4 if wins_game else 2
            if slack < 0 or slack + min(bonus_in_hand, 4) < need + 1 and slack < need:
                continue
            score = LEVEL * d.levels + TREASURE * d.treasures - 0.1 * d.level
            if best is None or score > best[0]:
                best = (score, a)
        return best[1] if best else None

    def plan_free(self, g: Game, seat: int, legal: list[Action], stage: str) -> Action | None:
        """The most useful free action (not a turn step), or None."""
        p = g.players[seat]
        cdef = g.cdef
        kinds = _by_kind(legal)
        plays = kinds.get(A.PLAY, [])
        # Levels first: Go Up a Level on itself, level-gaining specials
        for a in plays:
            if cdef[a.card].is_gual and a.target == seat:
                return a
        lead = self.leader(g, seat)
        for a in plays:
            h = _hook(g, a.card)
            if h == "whine_at_the_gm" and a.target == seat:
                return a
            if h == "steal_a_level" and lead is not None and a.target == lead.seat and lead.level > 1:
                return a
            if h == "kill_the_hireling" and a.target != seat:
                return a
            if h == "hoard":
                return a
            if h == "annihilate" and lead is not None and a.target == lead.seat:
                item = a.cards[0]
                if (
                    item in lead.equipped
                    and characters.can_use(g, lead, item)
                    and characters.item_bonus(g, lead, item) >= 3
                ):
                    return a
            if h == "divine_intervention" and self._is_class(g, p, "cleric"):
                if not any(
                    q.level >= WINNING_LEVEL - 1 and self._is_class(g, q, "cleric") for q in g.players if q is not p
                ):
                    return a
        # Race and Class
        rc = self._race_class(g, p, plays)
        if rc is not None:
            return rc
        for a in plays:
            d = cdef[a.card]
            if d.is_sidekick:
                if characters.sidekick_count(g, p) < characters.sidekick_limit(g, p):
                    return a
                weakest = min((cdef[k].bonus for k in p.sidekicks), default=0)
                if d.bonus > weakest + 1:  # an Ally that replaces a weaker one
                    return a
        # Item Enhancers on the best Item that counts
        best_e: tuple[float, Action] | None = None
        for a in plays:
            if cdef[a.card].is_item_enhancer and a.cards:
                it = a.cards[0]
                v = self.item_value(g, p, it) + (2.0 if it in p.equipped and characters.can_use(g, p, it) else 0.0)
                if best_e is None or v > best_e[0]:
                    best_e = (v, a)
        if best_e is not None:
            return best_e[1]
        # Items from hand: usable ones, and small ones to carry (sold or traded later)
        for a in plays:
            d = cdef[a.card]
            if d.is_item and a.card in p.hand:
                if characters.can_use(g, p, a.card) and self.item_value(g, p, a.card) > 0:
                    return a
                if not d.big:
                    return a
        target = self.best_equip(g, p)
        exempt = p.exempt()
        for a in kinds.get(A.UNEQUIP, ()):
            if a.card not in target and a.card not in exempt:
                return a
        for a in kinds.get(A.EQUIP, ()):
            if a.card in target:
                return a
        # Cheat! on the best Item it cannot otherwise use
        best_cheat: tuple[float, Action] | None = None
        for a in plays:
            if _hook(g, a.card) == "cheat" and a.cards:
                it = a.cards[0]
                if it in target:
                    continue
                if cdef[it].is_sidekick and (
                    it in p.sidekicks or characters.sidekick_count(g, p) < characters.sidekick_limit(g, p)
                ):
                    continue  # Cheat! for a Sidekick only when it makes room for one more
                gain = float(characters.item_bonus(g, p, it))
                if gain >= 2 and (best_cheat is None or gain > best_cheat[0]):
                    best_cheat = (gain, a)
        if best_cheat is not None:
            return best_cheat[1]
        # give the Hireling a usable Item left over
        best_h: tuple[float, Action] | None = None
        for a in kinds.get(A.GIVE, ()):
            if a.flag == "hireling" and a.card not in target and characters.can_use(g, p, a.card):
                v = self.item_value(g, p, a.card)
                if v >= 1 and (best_h is None or v > best_h[0]):
                    best_h = (v, a)
        if best_h is not None:
            return best_h[1]
        sale = self._best_sale(g, p, kinds.get(A.SELL, []), target)
        if sale is not None:
            return sale
        # Wishing Ring on a Curse that hurts it
        for a in plays:
            if _hook(g, a.card) == "wishing_ring" and a.monster in p.curses:
                if self.curse_severity(g, p, a.monster, seat) >= 2.5:
                    return a
        # Theft at Level 1 costs nothing when caught
        if p.level == 1:
            theft = self._theft(g, p, kinds.get(A.STEAL, []))
            if theft is not None:
                return theft
        # Curses on the leader when it is dangerous or the hand is full
        if stage in ("after", "end", "charity") and lead is not None:
            full = len(p.hand) > characters.hand_limit(g, p)
            if full or lead.level >= max(5, p.level):
                curse = self._curse_on(g, p, plays, lead)
                if curse is not None:
                    return curse
        return None

    def _race_class(self, g: Game, p: Player, plays: list[Action]) -> Action | None:
        cdef = g.cdef
        best: tuple[float, Action] | None = None
        for a in plays:
            d = cdef[a.card]
            h = _hook(g, a.card)
            if d.is_race:
                new = self.race_score(g, p, a.card)
                if not p.races:
                    gain = new
                elif p.half_breed >= 0 and len(p.races) == 1:
                    gain = new - 1.0
                else:
                    old = self.race_score(g, p, p.races[0])
                    gain = new - old - 1.5
            elif d.is_class:
                new = self.class_score(g, p, a.card)
                if not p.classes:
                    gain = new
                elif p.super_munchkin >= 0 and len(p.classes) == 1:
                    gain = new - 1.0
                else:
                    old = self.class_score(g, p, p.classes[0])
                    gain = new - old - 1.5
            elif d.is_role:
                new = 2.0 + len(d.abilities) + d.run_away
                if not p.roles:
                    gain = new
                elif p.dual_role >= 0 and len(p.roles) == 1:
                    gain = new - 1.0
                else:
                    gain = new - (2.0 + len(cdef[p.roles[0]].abilities) + cdef[p.roles[0]].run_away) - 1.5
            elif d.is_proficiency:
                gain = 1.0 + d.rank  # no replacement: the Rank limit was checked when listing it
            elif h in ("half_breed", "super_munchkin", "dual_role"):
                gain = 1.0
            else:
                continue
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, a)
        return best[1] if best else None

    def _best_sale(self, g: Game, p: Player, sales: list[Action], target: set[int]) -> Action | None:
        """The sale that gains most (a Level's worth against the cards' worth), among `sales`."""
        cdef = g.cdef
        best: tuple[float, Action] | None = None
        worth: dict[int, float] = {}
        for a in sales:
            total = sum(cdef[c].gold * (2 if c == a.card else 1) for c in a.cards)
            levels = min(total // GOLD_PER_LEVEL, WINNING_LEVEL - 1 - p.level)
            if levels <= 0:
                continue
            cost = 0.0
            for c in a.cards:
                v = worth.get(c)
                if v is None:  # a card is in many of the sales: valued once
                    v = worth[c] = self.table_value(g, p, c, target) if c in p.items else 0.9 * self.card_value(g, p, c)
                cost += v
            gain = LEVEL * levels - cost - 0.5 * (total - GOLD_PER_LEVEL * levels) / GOLD_PER_LEVEL
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, a)
        return best[1] if best else None

    def _theft(self, g: Game, p: Player, thefts: list[Action]) -> Action | None:
        """A theft worth its risk among `thefts`, paid with a cheap card from the hand."""
        best: tuple[float, Action] | None = None
        for a in thefts:
            if not a.cards:
                continue
            pay = a.cards[0]
            if pay in p.items:
                continue
            pay_v = self.card_value(g, p, pay)
            if pay_v > 2.0:
                continue
            gain = 0.5 * self.card_value(g, p, a.card) - pay_v
            if gain > 0.5 and (best is None or gain > best[0]):
                best = (gain, a)
        return best[1] if best else None

    def _curse_on(self, g: Game, p: Player, plays: list[Action], q: Player) -> Action | None:
        best: tuple[float, Action] | None = None
        for a in plays:
            if g.cdef[a.card].is_curse and a.target == q.seat and a.flag != "sidekick":
                s = self.curse_severity(g, q, a.card, p.seat)
                if s > 0.5 and (best is None or s > best[0]):
                    best = (s, a)
        return best[1] if best else None

    # ================================================================== other prompts out of combat
    def _on_drawn(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        fight = next((x for x in legal if x.kind == A.PLAY and x.flag == "fight"), None)
        if fight is not None:  # a Steed: fight it when a kill looks safe, or when no room to ride it
            p = g.players[seat]
            mine = p.level + characters.equipped_bonus(g, p)
            if mine > g.cdef[fight.card].level + 2 or (
                mine > g.cdef[fight.card].level and not characters.steed_room(g, p)
            ):
                return fight
        a = self.plan_free(g, seat, legal, "drawn")
        if a is not None and a.kind == A.PLAY:
            return a
        return next((x for x in legal if x.kind == A.KEEP), None)

    def _on_end_window(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        if self._count(g, seat, "end") >= MAX_FREE:
            return None
        a = self.plan_free(g, seat, legal, "end")
        return a

    def _on_charity(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        p = g.players[seat]
        if self._count(g, seat, "charity") < MAX_FREE:
            a = self.plan_free(g, seat, legal, "charity")
            if a is not None:
                return a
            plays = [x for x in legal if x.kind == A.PLAY]
            others = sorted((q for q in g.players if q is not p and not q.dead), key=lambda q: -q.level)
            for q in others:  # a Curse hurts an opponent better than it helps the lowest player
                a = self._curse_on(g, p, plays, q)
                if a is not None:
                    return a
        best: tuple[float, Action] | None = None
        for a in legal:  # Charity itself: a card from the hand given or discarded (not an Item offered)
            if a.kind in (A.GIVE, A.DISCARD) and a.card in p.hand:
                v = self.card_value(g, p, a.card)
                if best is None or v < best[0]:
                    best = (v, a)
        return best[1] if best else None

    def _on_offer(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        """Accept gifts; accept a trade when what it gets is worth more to it than what it gives."""
        accept = next((a for a in legal if a.kind == A.ACCEPT), None)
        refuse = next((a for a in legal if a.kind == A.REFUSE), None)
        pr = g.prompt
        act = pr.offer if isinstance(pr, D.Offer) else None
        if act is None or act.kind != A.TRADE or not act.cards:
            return accept
        p = g.players[seat]
        mine = act.cards[0]
        if mine not in p.items:
            return refuse
        give = self.table_value(g, p, mine)
        get = self.card_value(g, p, act.card)
        return accept if get > give + 0.3 else refuse

    def _on_choose(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        p = g.players[seat]
        pr = g.prompt
        why = pr.why if isinstance(pr, D.Choose) else ""
        mine = set(p.hand) | set(p.items) | set(p.races) | set(p.classes)
        cards = [a for a in legal if a.kind == A.CHOOSE and a.card >= 0]
        if not cards:
            return None
        if all(a.card in mine for a in cards):
            target = self.best_equip(g, p)
            m = re.search(r"pay (\d+)", why)
            if m is not None:  # paying gold: cover the debt at the least cost
                owed = int(m.group(1))
                paying = [a for a in cards if g.cdef[a.card].gold > 0] or cards
                enough = [a for a in paying if g.cdef[a.card].gold >= owed]
                if enough:
                    return min(enough, key=lambda a: self.table_value(g, p, a.card, target))
                return min(
                    paying,
                    key=lambda a: self.table_value(g, p, a.card, target) / max(1, g.cdef[a.card].gold),
                )
            return min(cards, key=lambda a: self.table_value(g, p, a.card, target))
        owner = next((q for q in g.players if q is not p and cards[0].card in q.items), None)
        if owner is not None and "loses" in why:
            tq = self.best_equip(g, owner)
            return max(cards, key=lambda a: self.table_value(g, owner, a.card, tq))
        return max(cards, key=lambda a: self.card_value(g, p, a.card))

    def _take_best(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        p = g.players[seat]
        takes = [a for a in legal if a.kind == A.TAKE]
        if not takes:
            return None
        return max(takes, key=lambda a: self.card_value(g, p, a.card))

    _on_loot_body = _take_best
    _on_pick = _take_best

    def _on_curse_window(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        pr = g.prompt
        assert isinstance(pr, D.CurseWindow)
        card, victim = pr.card, pr.victim
        if victim != seat:
            return None
        p = g.players[seat]
        sev = self.curse_severity(g, p, card, seat)
        for a in legal:
            if a.kind == A.PLAY and sev >= self.card_value(g, p, a.card):
                return a
        return None

    def _on_before(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        p = g.players[seat]
        pr = g.prompt
        assert isinstance(pr, D.Before)
        source = pr.source
        if source < 0:  # putting a lost limit right: correct it with a card, else give up the least
            plays = [a for a in legal if a.kind == A.PLAY]
            if plays:
                return plays[0]
            target = self.best_equip(g, p)
            return min(legal, key=lambda a: self.table_value(g, p, a.card, target) if a.card >= 0 else 99.0)
        h = _hook(g, source)
        if h == "loaded_die" and isinstance(pr, D.DieFace):  # a roll of ours: set the die where it matters
            if pr.why != "loot order" and abs(pr.value - pr.best) >= 2:
                return next((a for a in legal if a.kind == A.PLAY and a.n == pr.best), None)
            return next((a for a in legal if a.kind == A.PASS), None)
        if isinstance(pr, D.SidekickSex) and g.combat is not None:
            # keep the Sidekick unless the monster's bonus would turn the fight
            bonus = pr.bonus
            keep = next((a for a in legal if a.kind == A.KEEP), None)
            drop = next((a for a in legal if a.kind == A.DISCARD), None)
            return keep if self.slack(g, g.combat) - bonus >= 0 else drop
        flags = {a.flag: a for a in legal if a.kind == A.CHOOSE}
        if "to discard your hand" in flags and "to lose 2 levels" in flags:
            hand = sum(self.card_value(g, p, c) for c in p.hand)
            lv = LEVEL * min(2, p.level - 1)
            return flags["to discard your hand"] if hand < lv else flags["to lose 2 levels"]
        decline = next((a for a in legal if a.kind == A.DECLINE), None)
        uses = [a for a in legal if a.kind == A.USE]
        c = g.combat
        if h == "lawyers" and uses:
            best = min(uses, key=lambda a: sum(self.card_value(g, p, k) for k in a.cards))
            if sum(self.card_value(g, p, k) for k in best.cards) < 2 * 2.0:
                return best
            return decline
        if h == "floating_nose" and uses and c is not None:
            if self.slack(g, c) >= 1:
                return decline
            target = self.best_equip(g, p)
            best = min(uses, key=lambda a: self.table_value(g, p, a.card, target))
            loss = LEVEL * min(3, p.level - 1)
            return best if self.table_value(g, p, best.card, target) < loss else decline
        if h == "stoned_golem" and c is not None:
            fight = next((a for a in legal if a.kind == A.PASS), None)
            return fight if self.slack(g, c) >= 3 else decline
        d = g.cdef[source]
        if d.is_monster and c is not None and d.may_pass is not None:
            fight = next((a for a in legal if a.kind == A.PASS), None)
            return fight if fight is not None and self.slack(g, c) >= 3 else decline
        if d.is_monster and c is not None and d.bribe is not None and uses:
            reward = TREASURE * sum(e.draw_treasures or 0 for e in d.bribe.then)
            if self.slack(g, c) >= 1 and not reward:
                return decline
            target = self.best_equip(g, p)
            best = min(uses, key=lambda a: self.table_value(g, p, a.card, target))
            gain = reward + (0.0 if self.slack(g, c) >= 1 else self.bad_severity(g, p, source, seat))
            return best if self.table_value(g, p, best.card, target) < gain else decline
        return decline

    # ================================================================== combat
    def _on_window(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        c = g.combat
        if c is None:
            return None
        if seat in c.fighters():
            return self._window_fighting(g, c, seat, legal)
        return self._window_watching(g, c, seat, legal)

    def _discard_units(
        self, g: Game, p: Player, legal: list[Action], kind: str, delta: float, room: int, skip: set[int]
    ) -> list[_Unit]:
        """Berserking / Turning units: cheap cards from the hand or spare Items, cheapest first."""
        out: list[_Unit] = []
        for a in legal:
            if a.kind != kind or not a.cards:
                continue
            k = a.cards[0]
            if k in p.equipped or k in skip:
                continue
            v = self.card_value(g, p, k) if k in p.hand else self.table_value(g, p, k)
            if v <= 3.0:
                out.append(_Unit(delta, v, a, k))
        out.sort(key=lambda u: u.cost)
        return out[: max(0, room)]

    def _window_fighting(self, g: Game, c: Combat, seat: int, legal: list[Action]) -> Action | None:
        p = g.players[seat]
        cdef = g.cdef
        back_out = next((a for a in legal if a.kind == A.BACK_OUT), None)
        if back_out is not None:
            return back_out  # compelled to help in a fight for the win: never help someone win
        slack = self.slack(g, c)
        fighter = g.players[c.fighter]
        if slack >= 0:
            if seat == c.fighter:
                return self._enhance_own(g, c, p, legal, slack)
            return None
        need = float(-slack)
        gain_now = self.kill_levels(g, c)
        level_only = combat.level_only(g, c)
        units: list[_Unit] = []
        removals: list[tuple[float, Action]] = []  # (cost, action) that end the fight without Bad Stuff
        spent: set[int] = set()
        for a in legal:
            if a.kind == A.PLAY:
                d = cdef[a.card]
                h = _hook(g, a.card)
                cost = self.card_value(g, p, a.card)
                if h == "potion_of_halitosis" and a.monster >= 0 and _hook(g, a.monster) == "floating_nose":
                    return a  # slays the Floating Nose outright
                if h == "doppleganger" and a.monster < 0 and seat == c.fighter and not level_only:
                    # played for no one (it doubles its player's own strength): worth that strength again
                    units.append(_Unit(float(combat.char_strength(g, c, fighter)), cost, a, a.card))
                elif d.is_one_shot and a.monster < 0 and a.target == c.fighter and not level_only:
                    if h == "yuppie_water":
                        elves = sum(1 for f in c.fighters() if "elf" in characters.race_names(g, g.players[f]))
                        units.append(_Unit(2.0 * elves, cost, a, a.card))
                    elif d.bonus > 0:
                        units.append(_Unit(float(d.bonus), cost, a, a.card))
                        spent.add(a.card)
                elif d.is_enhancer and d.strength < 0 and a.monster >= 0:
                    ms = self.group_strength(g, c, a.monster)
                    units.append(_Unit(float(min(-d.strength, max(0, ms - 1))), cost, a, a.card))
                elif h == "help_me_out_here":
                    units.append(_Unit(need, cost + 1.0, a, a.card))
                elif h == "illusion" and a.cards and a.monster >= 0:
                    delta = self.group_strength(g, c, a.monster) - self.mon_strength(g, c, a.cards[0])
                    if delta > 0:
                        units.append(_Unit(float(delta), cost + 1.5, a, a.card))
                elif h in REMOVERS and a.monster >= 0:
                    if len([m for m in c.monsters if m.mate_of is None]) > 1:
                        units.append(_Unit(float(self.group_strength(g, c, a.monster)), cost, a, a.card))
                    else:
                        gain = TREASURE * self.treasures(g, c)
                        removals.append((cost - gain, a))
                elif h in STOPPERS and seat == c.fighter:
                    if h == "transferral_potion":
                        q = g.players[a.target]
                        ts = self.slack_as_fighter(g, c, a.target)
                        if ts >= 0 and q.level + gain_now >= WINNING_LEVEL:
                            continue  # never hand someone the winning kill
                        lead_bonus = 1.0 if ts < 0 else -2.0
                        removals.append((cost - lead_bonus - 0.2 * q.level, a))
                    elif h == "out_to_lunch":
                        removals.append((cost - 2 * TREASURE, a))
                    else:
                        removals.append((cost, a))
            elif a.kind == A.USE and a.flag == "monster":
                removals.append((-TREASURE * self.treasures(g, c), a))  # chase it off: free
            elif a.kind == A.USE and a.cards and a.flag.startswith("discarding") and not level_only:
                # a monster that lets the fighters discard for strength (Space Cowboy): +2 a card
                if any(m.card == a.card for m in c.monsters):
                    k = a.cards[0]
                    units.append(_Unit(2.0, self.card_value(g, p, k), a, k))
            elif a.kind == A.CHARM and len([m for m in c.monsters if m.mate_of is None]) == 1:
                hand = sum(self.card_value(g, p, k) for k in p.hand)
                removals.append((hand - TREASURE * self.treasures(g, c), a))
        if not level_only:
            units += self._discard_units(g, p, legal, A.BERSERK, 1.0, 3 - c.berserk.get(seat, 0), spent)
            house = [a for a in legal if a.kind == A.HOUSE]  # Slytherin: the cheapest monster, once
            if house:
                a = min(house, key=lambda a: self.card_value(g, p, a.card))
                units.append(_Unit(2.0, self.card_value(g, p, a.card), a, a.card))
        units += self._discard_units(
            g,
            p,
            legal,
            A.TURNING,
            3.0,
            (ABILITY_DISCARDS * TURNING_BONUS - c.turning.get(seat, 0)) // TURNING_BONUS,
            spent,
        )

        gain_levels = self.kill_levels(g, c)
        my_loss = self.run_loss(g, c, p, seat)
        if seat == c.fighter:
            wins_game = fighter.level + gain_levels >= WINNING_LEVEL
            mine = self.treasures(g, c) - c.deal_treasures
            budget = LEVEL * gain_levels + TREASURE * mine + my_loss
            if wins_game:
                budget = 100.0
        else:
            elf = characters.has_ability(g, p, "levels_for_helping")
            budget = TREASURE * c.deal_treasures + my_loss + (LEVEL * len(c.monsters) if elf else 0.0)
        plan = _plan(units, need)
        cost = sum(u.cost for u in plan) if plan is not None else 1e9
        free_removal = [x for x in removals if x[0] <= 0 and x[1].kind == A.USE]
        if free_removal and (plan is None or cost > 0.5 * budget):
            return free_removal[0][1]
        if plan and cost <= 0.5 * budget:
            return max(plan, key=lambda u: u.delta).action
        if seat == c.fighter:
            ask = self.choose_ask(g, c, seat, legal, sum(u.delta for u in units))
            if ask is not None:
                return ask
        if plan and cost <= budget:
            return max(plan, key=lambda u: u.delta).action
        if removals and seat == c.fighter:
            cost_r, a = min(removals, key=lambda x: x[0])
            if cost_r <= my_loss or cost_r <= 0:
                return a
        return None

    def _enhance_own(self, g: Game, c: Combat, p: Player, legal: list[Action], slack: int) -> Action | None:
        """With a wide margin, make its own monster bigger for more Treasure."""
        cdef = g.cdef
        best: tuple[int, Action] | None = None
        for a in legal:
            if a.kind == A.PLAY and a.monster >= 0 and cdef[a.card].is_enhancer:
                d = cdef[a.card]
                if d.treasures > 0 and slack - d.strength >= 4:
                    if best is None or d.treasures > best[0]:
                        best = (d.treasures, a)
        return best[1] if best else None

    def choose_ask(self, g: Game, c: Combat, seat: int, legal: list[Action], extra: float) -> Action | None:
        """Ask the candidate most likely to turn the fight, with a fair bribe; None if nobody would."""
        asks = [a for a in legal if a.kind == A.ASK]
        if not asks:
            return None
        p = g.players[seat]
        base = self.slack(g, c)
        best: tuple[float, int, int] | None = None
        for q in sorted({a.target for a in asks}):
            qp = g.players[q]
            s = self.slack_with_helper(g, c, q)
            if s + 0.5 * extra < 0:
                continue
            score = float(s)
            if characters.has_ability(g, qp, "levels_for_helping"):
                score += 1.0
                if qp.level >= WINNING_LEVEL - 1:
                    score -= 0.5
            if qp.level >= p.level + 2:
                score -= 1.0
            if best is None or score > best[0]:
                best = (score, q, s)
        if best is None:
            return None
        _, q, s = best
        total = self.treasures(g, c)
        if total <= 0:
            return next((a for a in asks if a.target == q and a.n == 0), None)
        qp = g.players[q]
        elf = characters.has_ability(g, qp, "levels_for_helping")
        n = total // 2 if elf else max(1, (total + 1) // 2)
        big_need = -base >= 5 or s <= 1
        flag = "you" if big_need else "me"
        if n >= total:
            n, flag = total, "all"
        want = Action(A.ASK, seat, target=q, n=n, flag=flag if n > 0 else "")
        if want in legal:
            return want
        return next((a for a in asks if a.target == q and a.n == 0), None)

    def _window_watching(self, g: Game, c: Combat, seat: int, legal: list[Action]) -> Action | None:
        p = g.players[seat]
        cdef = g.cdef
        f = g.players[c.fighter]
        gain = self.kill_levels(g, c)
        wins_game = f.level + gain >= WINNING_LEVEL and not f.dead
        top = max(q.level for q in g.players if q.seat != f.seat)
        is_leader = f.level >= top and f.level >= 4
        slack = self.slack(g, c)
        if slack < 0:
            return self._maybe_volunteer(g, c, p, legal, wins_game or is_leader)
        if not (wins_game or is_leader):
            return None
        need = float(slack + 1)
        units: list[_Unit] = []
        stoppers: list[tuple[float, Action]] = []
        for a in legal:
            if a.kind == A.PLAY:
                d = cdef[a.card]
                h = _hook(g, a.card)
                cost = self.card_value(g, p, a.card)
                if d.is_enhancer and a.monster >= 0 and d.strength > 0:
                    units.append(_Unit(float(d.strength), cost, a, a.card))
                elif d.is_one_shot and a.monster >= 0 and d.bonus > 0 and h not in REMOVERS:
                    if h == "potion_of_halitosis" and _hook(g, a.monster) == "floating_nose":
                        continue
                    units.append(_Unit(float(d.bonus), cost, a, a.card))
                elif h == "antimatter" and a.cards and a.target in c.fighters():
                    q = g.players[a.target]
                    if (
                        a.cards[0] in q.equipped
                        and characters.can_use(g, q, a.cards[0])
                        and characters.item_bonus(g, q, a.cards[0]) > 0
                    ):
                        units.append(_Unit(float(characters.item_bonus(g, q, a.cards[0])), cost, a, a.card))
                elif h == "wandering_monster" and a.cards:
                    s = self.mon_strength(g, c, a.cards[0])
                    units.append(_Unit(float(s), cost + 1.5, a, a.card))
                elif h == "mate" and a.monster >= 0:
                    orig = next((m for m in c.monsters if m.card == a.monster), None)
                    if orig is not None:
                        units.append(_Unit(float(self.mon_strength(g, c, a.card, orig)), cost, a, a.card))
                elif d.is_monster and a.card in p.hand:
                    units.append(_Unit(float(self.mon_strength(g, c, a.card)), cost, a, a.card))
                elif h == "illusion" and a.cards and a.monster >= 0:
                    delta = self.mon_strength(g, c, a.cards[0]) - self.group_strength(g, c, a.monster)
                    if delta > 0:
                        units.append(_Unit(float(delta), cost + 1.5, a, a.card))
                elif d.is_curse and a.target in c.fighters():
                    cd = self.curse_combat_delta(g, c, g.players[a.target], a.card)
                    if cd > 0:
                        units.append(_Unit(cd, cost, a, a.card))
                elif wins_game and (h in ("friendship_potion", "out_to_lunch") or h in REMOVERS):
                    if h in REMOVERS and len([m for m in c.monsters if m.mate_of is None]) > 1:
                        continue
                    stoppers.append((cost, a))
                elif wins_game and h == "transferral_potion":
                    q = g.players[a.target]
                    ts = self.slack_as_fighter(g, c, a.target)
                    if a.target == seat:
                        if ts >= 1:
                            stoppers.append((cost - 3.0, a))
                    elif q.level + gain < WINNING_LEVEL or ts < 0:
                        stoppers.append((cost + 0.3 * q.level, a))
            elif a.kind == A.BACKSTAB and a.card in p.hand:
                v = self.card_value(g, p, a.card)
                if v <= 2.5:
                    units.append(_Unit(2.0, v + 0.5, a, a.card))
            elif a.kind == A.USE and a.cards and a.flag.startswith("discarding"):
                # a monster fed by onlookers' discards (Space Vampire): +2 to it a card
                if any(m.card == a.card for m in c.monsters):
                    k = a.cards[0]
                    units.append(_Unit(2.0, self.card_value(g, p, k), a, k))
        # one backstab per fighter is listed once per discard: keep the cheapest per victim
        stabs: dict[int, _Unit] = {}
        rest: list[_Unit] = []
        for u in units:
            if u.action.kind == A.BACKSTAB:
                cur = stabs.get(u.action.target)
                if cur is None or u.cost < cur.cost:
                    stabs[u.action.target] = u
            else:
                rest.append(u)
        units = rest + list(stabs.values())
        if wins_game:
            budget = 100.0
        else:
            budget = 4.0 + max(0, f.level - p.level) + (2.0 if f.level >= 7 else 0.0)
        plan = _plan(units, need)
        if plan:
            cost = sum(u.cost for u in plan)
            if cost <= budget:
                return max(plan, key=lambda u: u.delta).action
        if wins_game:
            if stoppers:
                return min(stoppers, key=lambda x: x[0])[1]
            if units:
                return max(units, key=lambda u: u.delta).action
        return None

    def _maybe_volunteer(self, g: Game, c: Combat, p: Player, legal: list[Action], threat: bool) -> Action | None:
        vol = next((a for a in legal if a.kind == A.VOLUNTEER), None)
        if vol is None or threat:
            return None
        if not characters.has_ability(g, p, "levels_for_helping") or p.level >= WINNING_LEVEL - 1:
            return None
        if self.slack_with_helper(g, c, p.seat) < 1:
            return None
        return vol

    def _on_losing(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        c = g.combat
        if c is None:
            return None
        ask = self.choose_ask(g, c, seat, legal, 0.0)
        return ask if ask is not None else next((a for a in legal if a.kind == A.RUN), None)

    def _on_help(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        c = g.combat
        pr = g.prompt
        act = pr.ask if isinstance(pr, D.Help) else None
        accept = next((a for a in legal if a.kind == A.ACCEPT), None)
        refuse = next((a for a in legal if a.kind == A.REFUSE), None)
        if c is None or act is None:
            return refuse
        if act.kind == A.VOLUNTEER:  # it is the fighter; someone offers to help
            return accept if self.slack_with_helper(g, c, act.seat) >= 0 else refuse
        p = g.players[seat]
        f = g.players[c.fighter]
        gain = self.kill_levels(g, c)
        if f.level + gain >= WINNING_LEVEL:
            return refuse
        if f.level + gain >= WINNING_LEVEL - 1 and f.level > p.level:
            return refuse
        elf = characters.has_ability(g, p, "levels_for_helping") and p.level < WINNING_LEVEL - 1
        if act.n <= 0 and not act.cards and not elf:
            return refuse
        s = self.slack_with_helper(g, c, seat)
        worst = max((self.bad_severity(g, p, m.base, seat) for m in c.monsters), default=0.0)
        margin = 1 if worst >= 10 else 0
        return accept if s >= margin else refuse

    # ------------------------------------------------------------------ running away
    def _on_run(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        pr, c = g.prompt, g.combat
        assert isinstance(pr, D.Run) and c is not None
        remaining = [m for m in c.monsters if m.card in pr.monsters]
        p = g.players[seat]
        fb = pr.flight_bonus
        risks: dict[int, float] = {}
        sev: dict[int, float] = {}
        for m in remaining:
            s = self.bad_severity(g, p, m.base, seat)
            sev[m.card] = s
            risks[m.card] = s * (1 - self.p_escape(g, c, p, m, fb))
        expected = sum(risks.values())
        for a in legal:
            if a.kind == A.PLAY and _hook(g, a.card) == "instant_wall":
                if expected >= max(6.0, self.card_value(g, p, a.card)):
                    return a
        drop = next((a for a in legal if a.kind == A.DISCARD), None)
        if drop is not None and expected >= 4.0:  # let a slow Steed go before rolling
            return drop
        sac = [a for a in legal if a.kind == A.SACRIFICE]
        if sac and expected >= 8.0:
            return next((a for a in sac if a.flag == "both"), sac[0])
        for a in legal:
            if a.kind == A.USE and a.monster in risks and risks[a.monster] >= 2.0:
                if a.card in p.items and a.card not in p.exempt():
                    if self.table_value(g, p, a.card) < risks[a.monster]:
                        return a
        flights = [a for a in legal if a.kind == A.FLIGHT and a.cards and a.cards[0] not in p.equipped]
        if flights:
            gain = sum(sev[m.card] / 6 for m in remaining if 0 < self.p_escape(g, c, p, m, fb) < 1)
            cheapest = min(
                flights,
                key=lambda a: self.card_value(g, p, a.cards[0]) if a.cards[0] in p.hand else 9.0,
            )
            k = cheapest.cards[0]
            if k in p.hand and self.card_value(g, p, k) < gain:
                return cheapest
        flees = [a for a in legal if a.kind == A.FLEE_FROM]
        if flees:
            return max(flees, key=lambda a: sev.get(a.monster, 0.0))
        return None

    def _on_rolled(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        pr = g.prompt
        assert isinstance(pr, D.Rolled)
        runner, monster, die, total, ok = pr.runner, pr.monster, pr.die, pr.total, pr.ok
        p = g.players[seat]
        if seat == runner and not ok:
            sev = self.bad_severity(g, p, monster, seat)
            retry = [a for a in legal if a.kind == A.USE and a.flag == "retry" and a.card in p.hand]
            if retry and sev >= 2.0:
                cheap = min(retry, key=lambda a: self.card_value(g, p, a.card))
                if self.card_value(g, p, cheap.card) < 0.5 * sev:
                    return cheap
            for a in legal:
                if a.kind == A.PLAY:
                    h = _hook(g, a.card)
                    if h == "loaded_die" and (a.n != 6 or 6 + (total - die) < ESCAPE_ROLL):
                        continue
                    if h in ("invisibility_potion", "loaded_die") and sev >= self.card_value(g, p, a.card):
                        return a
            return None
        if seat != runner and ok:
            q = g.players[runner]
            lead = self.leader(g, seat)
            if lead is not None and lead.seat == runner and lead.level >= max(5, p.level):
                sev = self.bad_severity(g, q, monster, seat)
                for a in legal:
                    if a.kind == A.PLAY and _hook(g, a.card) == "flask_of_glue" and sev >= 6.0:
                        return a
        return None

    def _on_caught(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        """Caught: a card that makes the monster vanish is played when its Bad Stuff hurts more
        than the card is worth."""
        pr = g.prompt
        assert isinstance(pr, D.Caught)
        p = g.players[seat]
        c = g.combat
        base = next((m.base for m in c.monsters if m.card == pr.monster), pr.monster) if c else pr.monster
        sev = self.bad_severity(g, p, base, seat)  # a Mate's Bad Stuff is its monster's
        plays = [a for a in legal if a.kind == A.PLAY]
        best = min(plays, key=lambda a: self.card_value(g, p, a.card), default=None)
        if best is not None and sev >= self.card_value(g, p, best.card):
            return best
        return None
