"""The bot in a combat window: as a fighter or helper, make the fight won at the least cost; as an
onlooker, spoil a fight that would win the game or feed the leader; and asking for help and answering
a call for it.

A fight is a gap to close (`slack`). Each thing that would help is a unit: how far it moves the gap,
and what its card is worth (`_Unit`); `_plan` picks a cheap set of units that closes the gap. A
fighter spends up to what the kill is worth (its Levels and Treasures, plus the Bad Stuff it avoids;
anything for the winning Level) and asks for help, or ends the fight (a Friendship Potion, a Magic
Lamp, ...), when the plan costs too much. A helper spends what its share and its own risk are worth.
An onlooker acts only against a fighter who would win the game or who leads the table, spending a
little, or anything to stop a win. With a wide margin the fighter makes its own monster bigger for
more Treasure. It asks the candidate most likely to turn the fight, with a fair share of the
Treasure, and helps when asked only if the fight is then won and does not hand anyone the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from munchkin.agents.heuristic.names import _hook
from munchkin.agents.heuristic.reckoning import Reckoning
from munchkin.agents.heuristic.values import LEVEL, TREASURE
from munchkin.engine import actions as A
from munchkin.engine import characters, combat
from munchkin.engine import decisions as D
from munchkin.engine.actions import Action
from munchkin.engine.game import Game
from munchkin.engine.rules import ABILITY_DISCARDS, TURNING_BONUS, WINNING_LEVEL
from munchkin.engine.state import Combat, Player

STOPPERS = ("friendship_potion", "out_to_lunch", "transferral_potion")
REMOVERS = ("pollymorph_potion", "magic_lamp")


class _Unit(NamedTuple):
    """One step towards a combat goal: how much it changes the gap, what it costs."""

    delta: float
    cost: float
    action: Action
    card: int = -1


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


class Fighting(Reckoning):
    """The combat windows, asking for help and answering a call for it (the fifth part of
    `HeuristicAgent`)."""

    def _on_window(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        """A combat window: the fighters' side works to win it, the others watch and may spoil it."""
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
        """A fighter's or helper's window: while the fight is lost, the cheapest plan that wins it, asking for
        help or ending the fight (a removal), whichever the win is worth; once it is won, only the fighter's own
        monster made bigger for more Treasure."""
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
        """An onlooker's window: against a fighter who would win the game or who leads (Level 4 or more, none
        higher), the cheapest plan that turns the fight within a small budget (any, against the winning kill); a
        lost fight may get this seat's help instead."""
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
        """Volunteer for a lost fight only to gain Levels by helping (an Elf), short of the last Level, when the
        fight is then won by 1 or more and the fighter is no threat."""
        vol = next((a for a in legal if a.kind == A.VOLUNTEER), None)
        if vol is None or threat:
            return None
        if not characters.has_ability(g, p, "levels_for_helping") or p.level >= WINNING_LEVEL - 1:
            return None
        if self.slack_with_helper(g, c, p.seat) < 1:
            return None
        return vol

    def _on_losing(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        """The fight is lost: ask for help if anyone would turn it, else run away."""
        c = g.combat
        if c is None:
            return None
        ask = self.choose_ask(g, c, seat, legal, 0.0)
        return ask if ask is not None else next((a for a in legal if a.kind == A.RUN), None)

    def _on_help(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        """Asked to help: help when the fight is then won (by 1 against Bad Stuff of 10 points or more) and pays
        (Treasure or cards offered, or Levels for an Elf), never towards the fighter's winning Level or a higher
        fighter's last one. As the fighter offered help: accept a helper who makes the fight won."""
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
