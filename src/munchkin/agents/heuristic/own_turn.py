"""The bot's own turn (the Main decision): free actions first, then the step that moves the turn on.

The free actions, at most `MAX_FREE` a stage of a turn so that the turn always moves on, are tried in
this order (`plan_free`): a Level (Go Up a Level, Whine at the GM, Steal a Level from the leader,
Hoard, ...); a better Race, Class, Role or Proficiency; a Sidekick; an Item Enhancer on the best Item;
Items from the hand; unequipping and equipping towards `best_equip`; Cheat! on the best Item it
cannot otherwise use; a spare Item to the Hireling; the sale that gains most; a Wishing Ring on a
Curse that hurts; a theft at Level 1 (getting caught costs nothing there); a Curse on the leader once
the leader is dangerous or the hand is too full. Then the turn moves on: at the door, Look for Trouble
with a monster from the hand only when the fight is won with room to spare (`choose_trouble`), else
loot the room; later, kick open the door or end the turn.
"""

from __future__ import annotations

from itertools import groupby
from operator import itemgetter

from munchkin.agents.heuristic.names import _hook
from munchkin.agents.heuristic.reckoning import Reckoning
from munchkin.agents.heuristic.values import LEVEL, TREASURE
from munchkin.engine import actions as A
from munchkin.engine import characters
from munchkin.engine import decisions as D
from munchkin.engine.actions import Action
from munchkin.engine.game import Game
from munchkin.engine.rules import GOLD_PER_LEVEL, WINNING_LEVEL
from munchkin.engine.state import Combat, MonsterIn, Player

MAX_FREE = 12  # free actions per decision point before the agent moves the turn on


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


class OwnTurn(Reckoning):
    """The own turn's free actions and turn steps, and the Curses the bot casts (the third part of
    `HeuristicAgent`)."""

    _free: dict[tuple[int, int, str], int]  # free actions taken, by (turn, seat, stage) (made by __init__)

    def _count(self, g: Game, seat: int, stage: str) -> int:
        """How many free actions `seat` took before this one at this stage of this turn, this one counted."""
        key = (g.turn, seat, stage)
        n = self._free.get(key, 0)
        self._free[key] = n + 1
        return n

    def _on_main(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        """The Main decision: a free action while fewer than `MAX_FREE` were taken at this stage, else (or when
        none is worth it) the step that moves the turn on."""
        pr = g.prompt
        assert isinstance(pr, D.Main)
        stage = pr.stage
        if self._count(g, seat, stage) < MAX_FREE:
            a = self.plan_free(g, seat, legal, stage)
            if a is not None:
                return a
        return self._advance(g, seat, legal, stage)

    def _advance(self, g: Game, seat: int, legal: list[Action], stage: str) -> Action | None:
        """The step that moves the turn on: at the door, Look for Trouble or loot the room; otherwise kick open
        the door or end the turn."""
        if stage == "door":
            return self.choose_trouble(g, seat, legal) or next((a for a in legal if a.kind == A.LOOT), None)
        for kind in (A.KICK, A.END):
            for a in legal:
                if a.kind == kind:
                    return a
        return None

    def choose_trouble(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        """The monster from the hand to Look for Trouble with, most Levels and Treasure first: one beaten now
        with a margin of 2 (4 for the winning Level), or nearly so counting combat cards in hand, or one that
        will not attack it and still gives Treasure; None if none."""
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
        """The best Race, Class, Role or Proficiency to play (or Half-Breed, Super Munchkin, Dual Role): its
        score over the one it would replace (less 1.5 for replacing); None if none gains."""
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
        """The Curse among `plays` that hurts `q` most, if more than 0.5 points; None otherwise."""
        best: tuple[float, Action] | None = None
        for a in plays:
            if g.cdef[a.card].is_curse and a.target == q.seat and a.flag != "sidekick":
                s = self.curse_severity(g, q, a.card, p.seat)
                if s > 0.5 and (best is None or s > best[0]):
                    best = (s, a)
        return best[1] if best else None
