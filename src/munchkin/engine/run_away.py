"""Running Away, as steps: each fighter in turn flees each monster (or escapes another way),
rolling the die (5 or more escapes) with the answers a roll allows; caught, they suffer the
monster's Bad Stuff."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from munchkin.engine import actions as A
from munchkin.engine import changes, characters, combat, legal, play, resolve, settle, vocabulary
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import WEIGH_AGAIN, Action
from munchkin.engine.core import card_hook, fight_in
from munchkin.engine.flow import Done, Frame, Out, Step
from munchkin.engine.rules import ESCAPE_ROLL, as_written, empty_run_ends, gifts_any_time
from munchkin.engine.state import Combat, MonsterIn, Player

if TYPE_CHECKING:
    from munchkin.engine.game import Game


def _monster(c: Combat, card: int) -> MonsterIn:
    """The monster `card` in the fight (cards are distinct among a fight's monsters)."""
    return next(m for m in c.monsters if m.card == card)


@dataclass(slots=True)
class RunAwayAll(Step):
    """The fighters lost: each one Runs Away in turn (unless they escape automatically), then the
    helper gets the Items they were promised."""

    fighters: tuple[int, ...] = ()
    i: int = 0  # the next of `fighters` to run
    mark: int = 0  # the events before the current runner ran

    def start(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        g.events.append(E.Lost(c.fighter, c.helper))
        self.fighters = c.fighters()
        return self.next_runner(g, None)

    def next_runner(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        while self.i < len(self.fighters):
            seat = self.fighters[self.i]
            self.i += 1
            self.mark = len(g.events)
            if seat in c.escapes:
                g.events.append(E.Escape(seat, -1, "automatically"))
                if not as_written(g):
                    continue
                return self.then("after_run", EvenIfEscaped(seat, [m.card for m in c.monsters]))
            return self.then("after_run", RunAway(seat, first=self.i == 1 and gifts_any_time(g)))
        for it in c.deal_items:  # the helper was promised these for helping
            p, hp = g.players[c.fighter], g.players[c.helper]
            if it in p.items and not hp.dead and not p.dead:
                changes.move_item(g, p, hp, it)
                g.events.append(E.Gift(p.seat, hp.seat, it))
        return Done()

    def after_run(self, g: Game, value: Any) -> Out:
        if value is WEIGH_AGAIN:  # called off before anyone ran: the fight is weighed again
            return Done(WEIGH_AGAIN)
        if g.over:
            return Done()
        seat = self.fighters[self.i - 1]
        p = g.players[seat]
        caught = any(ev[0] == "caught" and ev[1] == seat for ev in g.events[self.mark :])
        if as_written(g) and not p.dead and not caught:
            for k in list(p.equipped):  # got away from the combat, caught by none (Tuba of Charm)
                if (h := card_hook(g, k)) is not None:
                    h.on_escape(g, p)
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
    first: bool = False  # the first runner, who has done nothing yet: a change may still turn the fight

    def reweighs(self, g: Game) -> bool:  # type: ignore[override]
        return self.first and self.at == "answer"

    def start(self, g: Game, _: Any) -> Out:
        c = fight_in(g)  # a monster the fighters defeat at once (the Janibot) pursues nobody
        self.remaining = [m.card for m in c.monsters if not (as_written(g) and combat.beaten_at_once(g, c, m))]
        return self.choose(g, None)

    def choose(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        if self.remaining and not g.players[self.seat].dead and not g.over:
            if self.seat in c.escapes:  # a card let them escape the rest
                return self.then("finish", EvenIfEscaped(self.seat, self.remaining if as_written(g) else []))
            remaining = self.remaining
            monsters = tuple([m.card for m in c.monsters if m.card in remaining])  # in the fight's order
            if monsters or not empty_run_ends(g):  # none left: a card made them vanish (a Mate with its monster)
                return self.then("answer", D.Run((self.seat,), monsters, self.used, self.bonus))
        return Done()

    def answer(self, g: Game, act: Action) -> Out:
        if act is WEIGH_AGAIN:  # a change turned the fight before this runner did anything
            return Done(WEIGH_AGAIN)
        self.first = False
        c = fight_in(g)
        p = g.players[self.seat]
        if act.kind == A.SACRIFICE:
            changes.lose_card(g, p, act.card, "sacrificed to escape")
            g.events.append(E.Escape(p.seat, -1, f"sacrificed {g.cdef[act.card].name}"))
            if act.flag == "both" and c.helper >= 0:
                c.escapes.add(c.helper)
            return self.then("escaped", settle.settle_table(g))  # a Whiz Kid sacrificed takes its exception along
        if act.kind == A.DISCARD:  # a Steed with a Run Away penalty, let go before the roll
            changes.lose_card(g, p, act.card, "let go before running")
            return self.then("choose", settle.settle_table(g))
        if act.kind == A.FLIGHT:
            for k in act.cards:
                changes.spend(g, p, k)
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
        cards = {m.card for m in fight_in(g).monsters}
        self.remaining = [k for k in self.remaining if k in cards]
        return self.choose(g, None)

    def fled(self, g: Game, _: Any) -> Out:
        if not fight_in(g).monsters:
            return Done()
        return self.choose(g, None)

    def escaped(self, g: Game, _: Any) -> Out:
        return self.then("finish", EvenIfEscaped(self.seat, self.remaining if as_written(g) else []))

    def finish(self, g: Game, _: Any) -> Out:
        return Done()


@dataclass(slots=True)
class EvenIfEscaped(Step):
    """Escaped the monsters `cards` another way than a roll (a card, a Sidekick sacrificed): what a
    monster does "even if you escape" still happens to a runner it pursues (Mr. Bones, Space Probe)."""

    CARDS = ("cards",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    cards: list[int] = field(default_factory=list)
    i: int = 0  # the next of `cards`

    def start(self, g: Game, _: Any) -> Out:
        c, p = fight_in(g), g.players[self.seat]
        while self.i < len(self.cards) and not p.dead and not g.over:
            k = self.cards[self.i]
            self.i += 1
            m = next((x for x in c.monsters if x.card == k), None)
            if m is not None and g.cdef[m.base].even_if_escaped and pursued(g, p, m):
                vocabulary.used("monster.even_if_escaped")
                return self.then("settle", resolve.run_effects(g, g.cdef[m.base].even_if_escaped, p, k))
        return Done()

    def settle(self, g: Game, _: Any) -> Out:
        return self.then("start", settle.settle_table(g))


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
        m = _monster(fight_in(g), self.card)
        self.base = m.base
        d = g.cdef[m.base]
        if not pursued(g, g.players[self.seat], m):
            g.events.append(E.Escape(self.seat, m.card, "not pursued"))
            return Done()
        if d.escape_if is not None and characters.matches(
            g, g.players[self.seat], d.escape_if, path="monster.escape_if"
        ):
            g.events.append(E.Escape(self.seat, m.card, "automatically"))
            if d.even_if_escaped:
                vocabulary.used("monster.even_if_escaped")
                return self.then("settle", resolve.run_effects(g, d.even_if_escaped, g.players[self.seat], self.card))
            return self.escaped(g, None)
        vocabulary.used("monster.escape", d.escape)
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
                vocabulary.used("monster.even_if_escaped")
                return self.then("settle", resolve.run_effects(g, d.even_if_escaped, p, self.card))
            return self.escaped(g, None)
        g.events.append(E.Caught(p.seat, self.card))
        return self.then("caught", BeforeBadStuff(self.seat, self.card))

    def caught(self, g: Game, _: Any) -> Out:
        if g.over or g.players[self.seat].dead or all(m.card != self.card for m in fight_in(g).monsters):
            return Done()  # a card made the monster vanish before its Bad Stuff
        return self.then("finish", BadStuff(self.seat, self.card, self.base))

    def settle(self, g: Game, _: Any) -> Out:
        return self.then("escaped", settle.settle_table(g))

    def escaped(self, g: Game, _: Any) -> Out:
        if not as_written(g):  # older rules: the Tuba of Charm drew for each monster escaped
            p = g.players[self.seat]
            for k in list(p.equipped):
                if (h := card_hook(g, k)) is not None:
                    h.on_escape(g, p)
        return Done()

    def finish(self, g: Game, _: Any) -> Out:
        return Done()


@dataclass(slots=True)
class BeforeBadStuff(Step):
    """The runner was caught: if they hold a card playable even now (Magic Lamp, "even after a
    failed Run Away roll"), they are asked before the Bad Stuff lands."""

    CARDS = ("card",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    card: int  # the monster that caught them

    def start(self, g: Game, _: Any) -> Out:
        caught = D.Caught((self.seat,), self.seat, self.card)
        if not as_written(g) or len(legal.caught_actions(g, self.seat, caught)) < 2:
            return Done()  # nothing to play: the Bad Stuff lands at once
        return self.then("answer", caught)

    def answer(self, g: Game, act: Action) -> Out:
        if act.kind == A.PASS:
            return Done()
        return self.then("finish", play.do_combat_action(g, act))

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
        vocabulary.used("monster.bad_stuff")
        return self.then("settle", resolve.run_effects(g, g.cdef[self.base].bad_stuff, g.players[self.seat], self.base))

    def settle(self, g: Game, _: Any) -> Out:
        return self.then("finish", settle.settle_table(g))

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

    def start(self, g: Game, again: Any) -> Out:
        """Roll (`again` is True for a second roll after a reroll: the log says so)."""
        m = _monster(fight_in(g), self.card)
        why = f"run away from {g.cdef[m.base].name}"
        die = g.roll_die(self.seat, why)
        # the roll's event also carries each modifier with its source and the total, for the log
        fb = self.flight_bonus
        mods = ([("Flight spell", fb)] if fb else []) + run_away_parts(g, fight_in(g), g.players[self.seat], m)
        total = die + sum(v for _, v in mods)
        g.events[-1] = E.RunAwayRoll(self.seat, die, why, tuple(mods), total, True if again is True else None)
        g.roll = RollState(die)
        self.passed = set()
        return self.look(g, None)

    def look(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        p = g.players[self.seat]
        roll = g.roll
        total = roll.die + run_away_bonus(g, c, p, _monster(c, self.card)) + self.flight_bonus
        ok = total >= ESCAPE_ROLL if roll.escaped is None else roll.escaped
        rolled = D.Rolled((), p.seat, self.card, roll.die, total, ok, self.retried)
        passed = self.passed
        seats = tuple(s for s in changes.seat_order(g) if s not in passed and roll_answers(g, s, rolled))
        if not seats:
            if roll.reroll:
                return self.start(g, True)
            return Done(ok)
        rolled.seats = seats
        return self.then("answer", rolled)

    def answer(self, g: Game, act: Action) -> Out:
        if act.kind == A.PASS:
            self.passed.add(act.seat)
            return self.look(g, None)
        if act.kind == A.USE and act.flag == "retry":
            changes.spend(g, g.players[self.seat], act.card)
            g.events.append(E.RunAgain(self.seat, act.card))
            self.retried = True
            g.roll.reroll = True
            return self.start(g, True)
        return self.then("answered", RollAnswer(act))

    def answered(self, g: Game, _: Any) -> Out:
        self.passed = set()
        if g.roll.reroll:
            return self.start(g, True)
        return self.look(g, None)


@dataclass(slots=True)
class RollAnswer(Step):
    """An answer to a Run Away roll (a card played on it): its hook changes `g.roll`."""

    CARDS = ("act",)  # fields holding card numbers (see Step.CARDS)

    act: Action

    def start(self, g: Game, _: Any) -> Out:
        h = card_hook(g, self.act.card)
        if h is None:
            return Done()
        return self.then("finish", h.apply(g, self.act))

    def finish(self, g: Game, _: Any) -> Out:
        return Done()


# -------------------------------------------------------------- running away
def run_away_all(g: Game, c: Combat) -> Frame:
    """The fighters lost: each one Runs Away in turn."""
    return RunAwayAll()


def run_away(g: Game, c: Combat, p: Player) -> Frame:
    """`p` Runs Away from each monster of the fight."""
    return RunAway(p.seat)


def run_away_bonus(g: Game, c: Combat, p: Player, m: MonsterIn) -> int:
    """The total modifier to `p`'s Run Away roll from `m` (without the Flight spell)."""
    return sum(v for _, v in run_away_parts(g, c, p, m))


def run_away_parts(g: Game, c: Combat, p: Player, m: MonsterIn) -> list[tuple[str, int]]:
    """Each modifier to the Run Away roll with the card (or House) it comes from, so the
    log can show how a roll became an escape; zero modifiers are left out."""
    cdef = g.cdef
    d = cdef[m.base]
    parts: list[tuple[str, int]] = []
    own: list[tuple[str, int]] = []
    steed: tuple[str, int] | None = None
    kicks = [] if combat.no_sidekicks(g, c) and as_written(g) else p.sidekicks  # Great Cthulhu: no help
    for k in p.character_cards() + kicks:
        own.append((cdef[k].name, cdef[k].run_away))
    if p.house:
        house = g.houses[p.house]
        own.append((house.name, house.run_away))
    for k in p.equipped:
        if characters.can_use(g, p, k):
            own.append((cdef[k].name, cdef[k].run_away))
            if cdef[k].steed and cdef[k].run_away:
                steed = (cdef[k].name, cdef[k].run_away)
    parts += own if steed is None else [steed]  # a Steed's modifier replaces the rider's own
    for k in p.curses:
        h = card_hook(g, k)
        if h is not None:
            parts.append((cdef[k].name, h.die_modifier(g, p)))
    if d.is_monster:  # a Steed fought as a monster has no Run Away modifier
        parts.append((d.name, d.run_away))
    both = as_written(g)  # a Mate's penalty counts against it and the monster it doubled alike
    for x in c.monsters:
        if (x is m and x.mate_of is not None or both and x.mate_of is m) and (h := card_hook(g, x.card)) is not None:
            parts.append((cdef[x.card].name, -h.run_penalty()))
    if vocabulary.seen is not None:
        _note_run_away(g, c, p, d, steed is not None)
    return [(who, v) for who, v in parts if v]


def _note_run_away(g: Game, c: Combat, p: Player, d: Any, steed: bool) -> None:
    """Record the `run_away` keys that counted in a roll (the vocabulary's coverage)."""
    cdef = g.cdef
    if combat.no_sidekicks(g, c) and any(cdef[k].run_away for k in p.sidekicks):
        vocabulary.used("monster.no_sidekicks")
    if not steed:
        for k in p.character_cards():
            if cdef[k].run_away:
                vocabulary.used("proficiency.run_away" if cdef[k].is_proficiency else "character_card.run_away")
        if p.house and g.houses[p.house].run_away:
            vocabulary.used("character_card.run_away")
        if any(cdef[k].run_away for k in p.sidekicks) and not combat.no_sidekicks(g, c):
            vocabulary.used("sidekick.run_away")
    if any(cdef[k].run_away and characters.can_use(g, p, k) for k in p.equipped):
        vocabulary.used("item.run_away")
    if d.is_monster and d.run_away:
        vocabulary.used("monster.run_away")


def pursued(g: Game, p: Player, m: MonsterIn) -> bool:
    d = g.cdef[m.base]
    if d.wnp_level >= 0 and p.level <= d.wnp_level:
        vocabulary.used("monster.will_not_pursue.level_at_most")
        return d.wnp_unless is not None and characters.matches(
            g, p, d.wnp_unless, path="monster.will_not_pursue.unless"
        )
    return True


def flee_from(g: Game, c: Combat, p: Player, m: MonsterIn, flight_bonus: int) -> Frame:
    """`p` flees one monster: escaped, or caught and its Bad Stuff."""
    return FleeFrom(p.seat, m.card, flight_bonus)


def bad_stuff(g: Game, c: Combat, p: Player, m: MonsterIn) -> Frame:
    """The monster's Bad Stuff happens to `p`."""
    return BadStuff(p.seat, m.card, m.base)


def run_roll(g: Game, c: Combat, p: Player, m: MonsterIn, flight_bonus: int) -> Frame:
    """Roll to Run Away (5 or more escapes), with the answers a roll allows."""
    return RunRoll(p.seat, m.card, flight_bonus)


def roll_answers(g: Game, seat: int, rolled: D.Rolled) -> bool:
    """Whether `seat` has a card (or power) that answers the roll `rolled`."""
    return len(legal.rolled_actions(g, seat, rolled)) > 1
