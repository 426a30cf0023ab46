"""The bot's arithmetic of fights and harms: how far a fight is from won, what a kill brings, the
chance to escape, and how much Bad Stuff or a Curse would hurt.

- `slack` is the fight's margin: 0 or more when the fighters win as things stand, and then how much
  they may lose and still win (a tie wins only for a side that wins ties). `slack_with_helper` and
  `slack_as_fighter` ask the same with another helper, or another player fighting alone.
- `kill_levels` and `treasures` are what a kill brings; `p_escape` is the share of the die's faces
  that reach the escape roll (1 against a monster that does not pursue or lets all go, 0 against one
  nobody escapes); `run_loss` is the Bad Stuff expected from running from everything now.
- Harms are in the points of `values`: a Level lost costs `LEVEL`, death everything on the table and
  most of the hand, a lost Item its worth on the table; Bad Stuff and Curses that cards describe
  only by their code have a fixed worth (`BAD_HOOK`, `CURSE_HOOK`). Another seat's hand counts by
  its size alone (1.8 a card): the bot may not see it.
- `leader` is the threat: the highest-Level living opponent, the one to curse and to stop.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from munchkin.agents.heuristic.names import _hook
from munchkin.agents.heuristic.values import LEVEL, Values
from munchkin.engine import changes, characters, combat, rewards, run_away
from munchkin.engine.game import Game
from munchkin.engine.rules import ESCAPE_ROLL
from munchkin.engine.state import Combat, MonsterIn, Player

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


class Reckoning(Values):
    """Threats, harms and the fight's numbers, for every part of play that decides (the second part
    of `HeuristicAgent`)."""

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
        """How much `effects` would hurt `p`, in points, a conditional effect read for `p` (its `otherwise`
        where the condition fails, or where the effect costs nothing); `me` is the judging seat."""
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
        """A hand's worth: its cards' values for the judging seat's own hand, 1.8 a card for another's (only its
        size is known)."""
        if p.seat == me:
            return sum(self.card_value(g, p, c) for c in p.hand)
        return 1.8 * len(p.hand)  # another's hand: only its size is known

    def _effect_severity(self, g: Game, p: Player, e: Any, me: int) -> float:
        """One effect's harm to `p`, in points (0 for what the agent does not count)."""
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
        """How much a monster's Bad Stuff would hurt `p`, in points (what strikes even on an escape, half)."""
        d = g.cdef[monster]
        return self.effects_severity(g, p, d.bad_stuff, me) + 0.5 * self.effects_severity(g, p, d.even_if_escaped, me)

    def curse_severity(self, g: Game, q: Player, card: int, me: int) -> float:
        """How much a Curse would hurt `q`, in points."""
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
        """The fight's `slack` with `helper` helping instead."""
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
        """The Levels the kill of every monster in the fight brings."""
        return sum(g.cdef[m.base].levels for m in c.monsters) + c.extra_levels

    @staticmethod
    def treasures(g: Game, c: Combat) -> int:
        """The Treasures the monsters of the fight give up."""
        return sum(rewards.monster_treasures(g, c, m) for m in c.monsters)

    @staticmethod
    def p_escape(g: Game, c: Combat, p: Player, m: MonsterIn, flight: int = 0) -> float:
        """The chance `p` gets away from `m` (its Run Away bonus plus `flight` on the die)."""
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
        """A monster card's strength if it joined this fight (as `mate_of`'s Mate, when given)."""
        return combat.monster_strength(g, c, MonsterIn(card, mate_of))

    def group_strength(self, g: Game, c: Combat, card: int) -> int:
        """A monster and its Mates."""
        m = next((x for x in c.monsters if x.card == card), None)
        if m is None:
            return 0
        return sum(combat.monster_strength(g, c, x) for x in c.monsters if x is m or x.mate_of is m)
