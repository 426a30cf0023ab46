"""The bot's answers to the other questions out of a fight: a card drawn face up, the window at a
turn's end, Charity, an offer, a choice among cards, a Curse about to strike it, and the questions
asked before something happens.

Rules of thumb: take what is worth most and give up what is worth least (by `values`); accept a
gift, and a trade only when what it gets is worth more than what it gives; at Charity use the cards
first (free actions, then Curses on the highest opponents), then give away or discard the least worth
from the hand; stop a Curse with a card when the Curse hurts more than the card is worth; before a
monster's own choice (Lawyers, Floating Nose, Stoned Golem, a bribe, a monster one may let pass) pay
only when the fight looks lost, or the price is below the harm.
"""

from __future__ import annotations

import re

from munchkin.agents.heuristic.names import _hook
from munchkin.agents.heuristic.own_turn import MAX_FREE, OwnTurn
from munchkin.agents.heuristic.values import LEVEL, TREASURE
from munchkin.engine import actions as A
from munchkin.engine import characters
from munchkin.engine import decisions as D
from munchkin.engine.actions import Action
from munchkin.engine.game import Game


class Prompts(OwnTurn):
    """The decisions out of combat other than the Main one (the fourth part of `HeuristicAgent`)."""

    def _on_drawn(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        """A card drawn face up: fight a Steed beaten with room to spare (or with no room to ride it), play a
        card worth playing now, else keep it."""
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
        """The window at the turn's end: free actions, up to `MAX_FREE`."""
        if self._count(g, seat, "end") >= MAX_FREE:
            return None
        a = self.plan_free(g, seat, legal, "end")
        return a

    def _on_charity(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        """Charity: free actions first, then Curses on the highest opponents, up to `MAX_FREE`; then the card
        from the hand worth least, given away or discarded."""
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
        """A choice among cards: of its own, give up what is worth least (paying gold, enough of it at the least
        cost); of another's, make them lose what is worth most to them; else take what is worth most to it."""
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
        """Take the card worth most to it (looting a body, picking a card)."""
        p = g.players[seat]
        takes = [a for a in legal if a.kind == A.TAKE]
        if not takes:
            return None
        return max(takes, key=lambda a: self.card_value(g, p, a.card))

    _on_loot_body = _take_best
    _on_pick = _take_best

    def _on_curse_window(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        """A Curse about to strike it: cancel it with a card worth no more than the harm the Curse does."""
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
        """The questions asked before something happens (a limit to put right, a Loaded Die on its own roll, a
        Sidekick changing sex, Lawyers, Floating Nose, Stoned Golem, a monster one may let pass, a bribe, two
        harms to pick from): each weighed in points, declining when it does not pay."""
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
