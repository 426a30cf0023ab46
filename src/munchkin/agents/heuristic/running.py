"""The bot running away: each monster's Bad Stuff weighed by the chance of not escaping it.

The expected loss is the sum, over the monsters still to flee, of the Bad Stuff's harm times the
chance the roll fails (1 - `p_escape`). When it is large enough the bot plays an Instant Wall, lets a
slow Steed go, sacrifices, or gives up an Item that lets it escape; it discards for Flight when a
cheap card buys a face of the die; it flees the worst monster first. After a failed roll it spends a
re-roll, an Invisibility Potion or a Loaded Die when the Bad Stuff hurts more than the card is worth;
it glues a leader who escaped (Flask of Glue). Caught, it makes the monster vanish when its Bad Stuff
is worse than the card.
"""

from __future__ import annotations

from munchkin.agents.heuristic.names import _hook
from munchkin.agents.heuristic.reckoning import Reckoning
from munchkin.engine import actions as A
from munchkin.engine import decisions as D
from munchkin.engine.actions import Action
from munchkin.engine.game import Game
from munchkin.engine.rules import ESCAPE_ROLL


class Running(Reckoning):
    """Running away, the roll, and being caught (the sixth part of `HeuristicAgent`)."""

    def _on_run(self, g: Game, seat: int, legal: list[Action]) -> Action | None:
        """Running away: spend a card or an Item only when the Bad Stuff it would spare is worth more; then flee
        the worst monster first."""
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
        """After a roll: a runner that failed spends a re-roll or turns the die when that is cheaper than the
        harm; an onlooker glues a leader who got away from harsh Bad Stuff."""
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
