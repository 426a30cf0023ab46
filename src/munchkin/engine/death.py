"""Death, as a step: the character loses all their stuff but what defines them, the other
players roll for the order of looting (highest Level first, ties by the die), then each takes
one card from the body in that order; the rest is discarded."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine import play, resolve
from munchkin.engine.actions import Action
from munchkin.engine.flow import Done, Frame, Out, Step
from munchkin.engine.rules import as_written
from munchkin.engine.state import Player

if TYPE_CHECKING:
    from munchkin.engine.game import Game


@dataclass(slots=True)
class KillPlayer(Step):
    """Death: lose all your stuff but Race, Class, Role, Proficiencies, Level, Curses, Super
    Munchkin, Half-Breed, Dual Role (and the House, which is no card in play); the others loot
    the body."""

    CARDS = ("corpse",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    why: str
    corpse: list[int] = field(default_factory=list)  # cards on the body, not yet looted
    others: list[int] = field(default_factory=list)  # the living looters' seats
    levels: list[int] = field(default_factory=list)  # their Levels, highest first
    li: int = 0  # the Level whose ties are being rolled for
    tied: list[int] = field(default_factory=list)  # the seats at that Level
    ti: int = 0  # the next of them to roll
    rolls: dict[int, int] = field(default_factory=dict)  # each tied looter's roll
    order: list[int] = field(default_factory=list)  # looting order so far
    oi: int = 0  # the next looter in that order

    def start(self, g: Game, _: Any) -> Out:
        p = g.players[self.seat]
        if p.dead:
            return Done()
        g.events.append(E.Death(p.seat, self.why))
        # each Item apart from its Item Enhancers and Cheat!: separate picks
        corpse = self.corpse = list(p.hand) + list(p.items) + list(p.enhancers) + list(p.sidekicks)
        corpse += p.cheats.values()
        p.hand.clear()
        p.items.clear()
        p.equipped.clear()
        p.sidekicks.clear()
        p.carried.clear()
        p.enhancers.clear()
        p.swapped.clear()
        p.cheats.clear()
        p.dead = True
        p.reborn = True
        g.limbo.extend(corpse)
        # looters by Level, highest first; ties broken by the die
        others = [q for q in g.players if q is not p and not q.dead]
        self.others = [q.seat for q in others]
        self.levels = sorted({q.level for q in others}, reverse=True)
        return self.next_level(g, None)

    def next_level(self, g: Game, _: Any) -> Out:
        while self.li < len(self.levels):
            lv = self.levels[self.li]
            self.tied = [s for s in self.others if g.players[s].level == lv]
            if len(self.tied) > 1:
                self.ti = 0
                return self.roll(g, None)
            self.order.extend(self.tied)
            self.li += 1
        return self.loot(g, None)

    def roll(self, g: Game, _: Any) -> Out:
        if self.ti < len(self.tied):
            return self.then("rolled", resolve.DieRoll(self.tied[self.ti], "loot order"))
        rolls = self.rolls
        self.tied.sort(key=lambda s: -rolls[s])
        self.order.extend(self.tied)
        self.li += 1
        return self.next_level(g, None)

    def rolled(self, g: Game, value: int) -> Out:
        seat = self.tied[self.ti]  # "every die roll you make is at -1" (Chicken On Your Head) counts here too
        self.rolls[seat] = value + (play.die_modifier(g, g.players[seat]) if as_written(g) else 0)
        self.ti += 1
        return self.roll(g, None)

    def loot(self, g: Game, _: Any) -> Out:
        corpse = self.corpse
        if self.oi < len(self.order) and corpse:
            if len(corpse) == 1:
                return self.looted(g, None)
            q = self.order[self.oi]
            return self.then("looted", D.LootBody((q,), self.seat, tuple(corpse)))
        for c in corpse:
            g.limbo.remove(c)
            g.discard(c)
        return Done()

    def looted(self, g: Game, act: Action | None) -> Out:
        c = self.corpse[0] if act is None else act.card
        q = g.players[self.order[self.oi]]
        self.oi += 1
        self.corpse.remove(c)
        g.limbo.remove(c)
        q.hand.append(c)
        q.received.add(c)
        g.events.append(E.Looted(q.seat, self.seat, c))
        return self.loot(g, None)


# -------------------------------------------------------------- death
def kill_player(g: Game, p: Player, why: str) -> Frame | None:
    """Death: lose all your stuff but Race, Class, Role, Proficiencies, Level, Curses, Super
    Munchkin, Half-Breed, Dual Role (and the House, which is no card in play); the others
    loot the body. None (nothing happens) for a character already dead."""
    return None if p.dead else KillPlayer(p.seat, why)
