"""Running Away, as steps: each fighter in turn flees each monster (or escapes another way),
rolling the die (5 or more escapes) with the answers a roll allows; caught, they suffer the
monster's Bad Stuff."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from munchkin.engine import actions as A
from munchkin.engine import changes, combat, play
from munchkin.engine import combat as rules  # card_hook (combat.py imports this module)
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.flow import Done, Out, Step
from munchkin.engine.rules import ESCAPE_ROLL
from munchkin.engine.state import Combat, MonsterIn

if TYPE_CHECKING:
    from munchkin.engine.game import Game


def _fight(g: Game) -> Combat:
    c = g.combat
    assert c is not None
    return c


def _monster(c: Combat, card: int) -> MonsterIn:
    """The monster `card` in the fight (cards are distinct among a fight's monsters)."""
    return next(m for m in c.monsters if m.card == card)


@dataclass(slots=True)
class RunAwayAll(Step):
    """The fighters lost: each one Runs Away in turn (unless they escape automatically), then the
    helper gets the Items they were promised."""

    fighters: tuple[int, ...] = ()
    i: int = 0  # the next of `fighters` to run

    def start(self, g: Game, _: Any) -> Out:
        c = _fight(g)
        g.events.append(E.Lost(c.fighter, c.helper))
        self.fighters = c.fighters()
        return self.next_runner(g, None)

    def next_runner(self, g: Game, _: Any) -> Out:
        c = _fight(g)
        while self.i < len(self.fighters):
            seat = self.fighters[self.i]
            self.i += 1
            if seat in c.escapes:
                g.events.append(E.Escape(seat, -1, "automatically"))
                continue
            return self.then("after_run", RunAway(seat))
        for it in c.deal_items:  # the helper was promised these for helping
            p, hp = g.players[c.fighter], g.players[c.helper]
            if it in p.items and not hp.dead and not p.dead:
                changes.move_item(g, p, hp, it)
                g.events.append(E.Gift(p.seat, hp.seat, it))
        return Done()

    def after_run(self, g: Game, _: Any) -> Out:
        if g.over:
            return Done()
        return self.next_runner(g, None)


@dataclass(slots=True)
class RunAway(Step):
    """One fighter Runs Away from each monster in the order they choose, or escapes them all
    another way (a Sidekick sacrificed, a one-shot played); the Flight spell adds to each roll."""

    CARDS = ("remaining",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    remaining: list[int] = field(default_factory=list)  # the monsters still to flee, by card
    used: int = 0  # cards discarded for the Flight spell (three at most)
    bonus: int = 0  # the Flight spell's bonus to each roll

    def start(self, g: Game, _: Any) -> Out:
        self.remaining = [m.card for m in _fight(g).monsters]
        return self.choose(g, None)

    def choose(self, g: Game, _: Any) -> Out:
        c = _fight(g)
        if self.remaining and not g.players[self.seat].dead and not g.over:
            if self.seat in c.escapes:
                return Done()
            remaining = self.remaining
            monsters = tuple([m.card for m in c.monsters if m.card in remaining])  # in the fight's order
            return self.then("answer", D.Run((self.seat,), monsters, self.used, self.bonus))
        return Done()

    def answer(self, g: Game, act: Action) -> Out:
        c = _fight(g)
        p = g.players[self.seat]
        if act.kind == A.SACRIFICE:
            changes.lose_card(g, p, act.card, "sacrificed to escape")
            g.events.append(E.Escape(p.seat, -1, f"sacrificed {g.cdef[act.card].name}"))
            if act.flag == "both" and c.helper >= 0:
                c.escapes.add(c.helper)
            return self.then("finish", changes.settle_table(g))  # a Whiz Kid sacrificed takes its exception along
        if act.kind == A.DISCARD:  # a Steed with a Run Away penalty, let go before the roll
            changes.lose_card(g, p, act.card, "let go before running")
            return self.then("choose", changes.settle_table(g))
        if act.kind == A.FLIGHT:
            for k in act.cards:
                combat.spend(g, p, k)
                self.used += 1
                self.bonus += 1
            return self.choose(g, None)
        if act.kind == A.PLAY or act.kind == A.USE:
            return self.then("after_action", play.do_combat_action(g, act))
        self.remaining.remove(act.monster)
        if act.kind == A.FLEE_FROM:
            return self.then("fled", FleeFrom(self.seat, act.monster, self.bonus))
        return self.fled(g, None)

    def after_action(self, g: Game, _: Any) -> Out:
        cards = {m.card for m in _fight(g).monsters}
        self.remaining = [k for k in self.remaining if k in cards]
        return self.choose(g, None)

    def fled(self, g: Game, _: Any) -> Out:
        if not _fight(g).monsters:
            return Done()
        return self.choose(g, None)

    def finish(self, g: Game, _: Any) -> Out:
        return Done()


@dataclass(slots=True)
class FleeFrom(Step):
    """Flee one monster: not pursued, an automatic or impossible escape, or the roll; escaped,
    what happens even so; caught, its Bad Stuff."""

    CARDS = ("card", "base")  # fields holding card numbers (see Step.CARDS)

    seat: int
    card: int  # the monster fled
    flight_bonus: int
    base: int = -1  # the card whose stats it has

    def start(self, g: Game, _: Any) -> Out:
        m = _monster(_fight(g), self.card)
        self.base = m.base
        d = g.cdef[m.base]
        if not combat.pursued(g, g.players[self.seat], m):
            g.events.append(E.Escape(self.seat, m.card, "not pursued"))
            return Done()
        if d.escape == "automatic":
            return self.rolled(g, True)
        if d.escape == "impossible":
            return self.rolled(g, False)
        return self.then("rolled", RunRoll(self.seat, self.card, self.flight_bonus))

    def rolled(self, g: Game, escaped: Any) -> Out:
        p = g.players[self.seat]
        if escaped:
            g.events.append(E.Escape(p.seat, self.card, ""))
            d = g.cdef[self.base]
            if d.even_if_escaped:
                return self.then("settle", changes.run_effects(g, d.even_if_escaped, p, self.card))
            return self.escaped(g, None)
        g.events.append(E.Caught(p.seat, self.card))
        return self.then("finish", BadStuff(self.seat, self.card, self.base))

    def settle(self, g: Game, _: Any) -> Out:
        return self.then("escaped", changes.settle_table(g))

    def escaped(self, g: Game, _: Any) -> Out:
        p = g.players[self.seat]
        for k in list(p.equipped):
            if (h := rules.card_hook(g, k)) is not None:
                h.on_escape(g, p)
        return Done()

    def finish(self, g: Game, _: Any) -> Out:
        return Done()


@dataclass(slots=True)
class BadStuff(Step):
    """Caught: the monster's Bad Stuff happens to the runner."""

    CARDS = ("card", "base")  # fields holding card numbers (see Step.CARDS)

    seat: int
    card: int  # the monster
    base: int  # the card whose Bad Stuff it has

    def start(self, g: Game, _: Any) -> Out:
        g.events.append(E.BadStuff(self.seat, self.card))
        return self.then("settle", changes.run_effects(g, g.cdef[self.base].bad_stuff, g.players[self.seat], self.base))

    def settle(self, g: Game, _: Any) -> Out:
        return self.then("finish", changes.settle_table(g))

    def finish(self, g: Game, _: Any) -> Out:
        return Done()


@dataclass(slots=True)
class RollState:
    """A Run Away roll as it stands: the die's face, an outcome a card forced (None: the total
    decides), and whether a card called for a reroll."""

    die: int = 0
    escaped: bool | None = None
    reroll: bool = False

    def copy(self) -> RollState:
        return RollState(self.die, self.escaped, self.reroll)


@dataclass(slots=True)
class RunRoll(Step):
    """Roll to Run Away (5 or more escapes), with the answers a roll allows. Done with whether the
    runner escaped. The roll's state (the face, a forced outcome, a reroll) is `g.roll`, which
    answers to the roll read and change (Loaded Die, Invisibility Potion, Flask of Glue)."""

    CARDS = ("card",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    card: int  # the monster fled
    flight_bonus: int
    retried: bool = False  # a reroll of the runner's own was used
    passed: set[int] = field(default_factory=set)  # who passed on the roll as it stands

    def start(self, g: Game, _: Any) -> Out:
        m = _monster(_fight(g), self.card)
        why = f"run away from {g.cdef[m.base].name}"
        die = g.roll_die(self.seat, why)
        # the roll's event also carries each modifier with its source and the total, for the log
        fb = self.flight_bonus
        mods = ([("Flight spell", fb)] if fb else []) + combat.run_away_parts(g, _fight(g), g.players[self.seat], m)
        g.events[-1] = E.RunAwayRoll(self.seat, die, why, tuple(mods), die + sum(v for _, v in mods))
        g.roll = RollState(die)
        self.passed = set()
        return self.look(g, None)

    def look(self, g: Game, _: Any) -> Out:
        c = _fight(g)
        p = g.players[self.seat]
        roll = g.roll
        total = roll.die + combat.run_away_bonus(g, c, p, _monster(c, self.card)) + self.flight_bonus
        ok = total >= ESCAPE_ROLL if roll.escaped is None else roll.escaped
        rolled = D.Rolled((), p.seat, self.card, roll.die, total, ok, self.retried)
        passed = self.passed
        seats = tuple(s for s in changes.seat_order(g) if s not in passed and combat.roll_answers(g, s, rolled))
        if not seats:
            if roll.reroll:
                return self.start(g, None)
            return Done(ok)
        rolled.seats = seats
        return self.then("answer", rolled)

    def answer(self, g: Game, act: Action) -> Out:
        if act.kind == A.PASS:
            self.passed.add(act.seat)
            return self.look(g, None)
        if act.kind == A.USE and act.flag == "retry":
            combat.spend(g, g.players[self.seat], act.card)
            self.retried = True
            g.roll.reroll = True
            return self.start(g, None)
        return self.then("answered", RollAnswer(act))

    def answered(self, g: Game, _: Any) -> Out:
        self.passed = set()
        if g.roll.reroll:
            return self.start(g, None)
        return self.look(g, None)


@dataclass(slots=True)
class RollAnswer(Step):
    """An answer to a Run Away roll (a card played on it): its hook changes `g.roll`."""

    CARDS = ("act",)  # fields holding card numbers (see Step.CARDS)

    act: Action

    def start(self, g: Game, _: Any) -> Out:
        h = rules.card_hook(g, self.act.card)
        if h is None:
            return Done()
        return self.then("finish", h.apply(g, self.act))

    def finish(self, g: Game, _: Any) -> Out:
        return Done()
