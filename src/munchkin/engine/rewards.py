"""Rewards, as steps: the monsters killed, the Levels gained, then the Treasures drawn (face-up
when someone helped, and shared out as agreed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from munchkin.engine import actions as A
from munchkin.engine import changes, characters, play, vocabulary
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.core import card_hook, fight_in
from munchkin.engine.flow import Done, Frame, Out, Step
from munchkin.engine.state import Combat, MonsterIn, Player

if TYPE_CHECKING:
    from munchkin.engine.game import Game


@dataclass(slots=True)
class WinCombat(Step):
    """Kill the monsters: Levels, then Treasures drawn (face-up if helped) and shared as agreed,
    then any Door cards the kill brings."""

    CARDS = ("bases",)  # fields holding card numbers (see Step.CARDS)

    seat: int = -1  # the fighter
    bases: tuple[int, ...] = ()  # the cards whose stats the killed monsters had

    def start(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        self.seat = c.fighter
        p = g.players[c.fighter]
        cdef = g.cdef
        levels = c.extra_levels
        treasures = 0
        helper_levels = 0  # more levels a monster gives a helper who matches (Starfish: a Feline)
        for m in c.monsters:
            levels += cdef[m.base].levels
            vocabulary.used("monster.levels")
            h = card_hook(g, m.base)
            if h is not None:
                levels += h.extra_levels(g, c, m)
            for bl in cdef[m.base].bonus_levels:
                if characters.matches(g, p, bl.if_, path="conditional_value.if"):
                    vocabulary.used("monster.bonus_levels")
                    vocabulary.used("conditional_value.value")
                    levels += bl.value
                if c.helper >= 0 and characters.matches(g, g.players[c.helper], bl.if_, path="conditional_value.if"):
                    vocabulary.used("monster.bonus_levels")
                    helper_levels += bl.value
            treasures += monster_treasures(g, c, m)
        treasures += sum(n for _, n in c.removed)  # left behind by monsters taken out of the fight
        killed = len(c.monsters)
        names = tuple(m.card for m in c.monsters)
        self.bases = tuple(m.base for m in c.monsters)
        g.events.append(E.Kill(c.fighter, c.helper, names))
        for k in c.played:
            g.discard(k)
        c.played.clear()
        c.monsters.clear()
        c.ended = True
        changes.gain_levels(g, p, levels, "killing " + ", ".join(cdef[k].name for k in names), may_win=True)
        if c.helper >= 0:
            hp = g.players[c.helper]
            if helper_levels:
                changes.gain_levels(
                    g,
                    hp,
                    helper_levels,
                    "helping kill " + ", ".join(cdef[k].name for k in names),
                    may_win=g.options.shared_victories,
                )
            if characters.has_ability(g, hp, "levels_for_helping"):
                changes.gain_levels(g, hp, killed, "helping kill a monster (Elf)", may_win=g.options.shared_victories)
            elif characters.has_ability(g, hp, "levels_for_helping_without_treasure") and not c.rewarded:
                changes.gain_levels(
                    g, hp, killed, "helping for no reward (Cavalry)", may_win=g.options.shared_victories
                )
            if g.over and g.options.shared_victories and c.fighter in g.winners:
                changes.declare_winner(g, [c.fighter, c.helper])
        if g.over:
            return Done()
        return self.then("bonus_doors", CollectTreasures(treasures))

    def bonus_doors(self, g: Game, _: Any) -> Out:
        bonus_doors(g, fight_in(g), g.players[self.seat], self.bases)
        return Done()


@dataclass(slots=True)
class CollectTreasures(Step):
    """The fighter draws `n` Treasures: face-down alone; face-up with a helper (a Cleric may take
    the top discard instead, paying a card), then fighter and helper pick them in turn as agreed."""

    CARDS = ("drawn",)  # fields holding card numbers (see Step.CARDS)

    n: int
    seat: int = -1  # the fighter
    i: int = 0  # how many Treasures have been drawn (or tried)
    drawn: list[int] = field(default_factory=list)  # face-up on the table until shared out
    share: int = 0  # the helper's Treasures still to pick under the deal
    mine: int = 0  # the fighter's still to pick
    turn: int = -1  # who picks next

    def start(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        self.seat = c.fighter
        if c.helper < 0:
            g.draw_to_hand(g.players[self.seat], "treasure", self.n, face_up=False)
            return Done()
        return self.draw(g, None)

    def draw(self, g: Game, _: Any) -> Out:
        p = g.players[self.seat]
        while self.i < self.n:
            self.i += 1
            if characters.has_ability(g, p, "resurrection") and g.treasure_discard and p.hand:
                # a Cleric drawing face-up may take the top discard instead, paying a card
                one_each = {g.cdef[c].idx: c for c in reversed(p.hand)}.values()
                pays = [Action(A.RESURRECT, p.seat, c, flag="treasure") for c in one_each]
                return self.then("paid", D.Before((p.seat,), -1, (Action(A.PASS, p.seat), *pays)))
            if not self._lay(g, -1):
                break
        return self.reveal(g, None)

    def paid(self, g: Game, act: Action) -> Out:
        k = -1
        if act.kind == A.RESURRECT:
            k = play._resurrect(g, g.players[self.seat], "treasure", act.card)
        if not self._lay(g, k):
            return self.reveal(g, None)
        return self.draw(g, None)

    def _lay(self, g: Game, k: int) -> bool:
        """Lay Treasure `k` (or, if none, the top of the deck) face-up; False if the deck is out."""
        if k < 0:
            k = g.draw("treasure")
        if k < 0:
            return False
        self.drawn.append(k)
        g.limbo.append(k)
        return True

    def reveal(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        g.events.append(E.Reveal(c.fighter, tuple(self.drawn)))
        self.share = min(c.deal_treasures, len(self.drawn))  # the helper's Treasures under the deal
        self.mine = len(self.drawn) - self.share
        self.turn = c.helper if c.helper_first else c.fighter
        return self.pick(g, None)

    def pick(self, g: Game, _: Any) -> Out:
        drawn = self.drawn
        if drawn:
            if self.share == 0 or self.mine == 0:  # one side is served: the other takes the rest
                c = fight_in(g)
                rest = c.fighter if self.share == 0 else c.helper
                for k in list(drawn):
                    _hand_over(g, drawn, k, rest)
            else:
                return self.then("picked", D.Pick((self.turn,), tuple(drawn)))
        return self.gifts(g, None)

    def picked(self, g: Game, act: Action) -> Out:
        c = fight_in(g)
        _hand_over(g, self.drawn, act.card, self.turn)
        if self.turn == c.helper:
            self.share -= 1
            self.turn = c.fighter
        else:
            self.mine -= 1
            self.turn = c.helper
        return self.pick(g, None)

    def gifts(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        p, hp = g.players[self.seat], g.players[c.helper]
        for it in c.deal_items:
            if it in p.items and not hp.dead:
                changes.move_item(g, p, hp, it)
                g.events.append(E.Gift(p.seat, hp.seat, it))
        return Done()


def monster_treasures(g: Game, c: Combat, m: MonsterIn) -> int:
    cdef = g.cdef
    d = cdef[m.base]
    n = d.treasures + sum(cdef[e].treasures for e in m.enhancers)
    if vocabulary.seen is not None:
        vocabulary.used("monster.treasures")
        if any(cdef[e].treasures for e in m.enhancers):
            vocabulary.used("enhancer.treasures")
    if any((h := card_hook(g, e)) is not None and h.enhancer_floor() for e in m.enhancers):
        n = max(1, n)
    for bt in d.bonus_treasures:
        vocabulary.used("monster.bonus_treasures.who", bt.who)
        if bt.who == "fighter":
            hit = characters.matches(g, g.players[c.fighter], bt.if_, path="monster.bonus_treasures.if")
            n += bt.value if hit else 0
        else:
            hits = sum(
                1
                for f in c.fighters()
                if characters.matches(g, g.players[f], bt.if_, path="monster.bonus_treasures.if")
            )
            hit = hits > 0
            n += bt.value * (min(hits, 1) if bt.who == "either" else hits)
        if hit:
            vocabulary.used("monster.bonus_treasures.value")
    return max(0, n)


# -------------------------------------------------------------- rewards
def win_combat(g: Game, c: Combat) -> Frame:
    """Kill the monsters: levels, then Treasures drawn (face-up if helped) and shared as agreed."""
    return WinCombat()


def bonus_doors(g: Game, c: Combat, p: Player, killed: tuple[int, ...]) -> None:
    """Door cards drawn face-down after a kill: the monster's own reward (Bottle Bottle),
    then a Bounty Hunter's bounty for helping."""
    doors = sum(g.cdef[k].bonus_doors for k in killed)
    if doors:
        vocabulary.used("monster.bonus_doors")
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
