"""Effects resolved as steps: the vocabulary of Bad Stuff and Curses applied to one character
(losing Levels, Items, a Race, gold...), a card chosen among several, and a die rolled by a
player who may set it with a card (Loaded Die).

These steps hold `Effect`s: immutable card data (frozen pydantic models read from the card
files), not game state, so a copy of the game may share them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from munchkin.cards.hooks import HOOKS
from munchkin.cards.schema import Effect
from munchkin.engine import actions as A
from munchkin.engine import changes, characters, death, vocabulary
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.core import card_hook
from munchkin.engine.flow import Done, Frame, Out, Step, is_frame
from munchkin.engine.rules import DIE_FACES, unpaid_gold_runs_otherwise
from munchkin.engine.state import Player

if TYPE_CHECKING:
    from munchkin.engine.game import Game


@dataclass(slots=True)
class ChooseCard(Step):
    """A seat chooses one card among several (done with it); no question if there is only one,
    and -1 if there is none."""

    CARDS = ("options",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    options: tuple[int, ...]  # without repeats, in their order
    why: str

    def start(self, g: Game, _: Any) -> Out:
        if not self.options:
            return Done(-1)
        if len(self.options) == 1:
            return Done(self.options[0])
        return self.then("chosen", D.Choose((self.seat,), tuple(self.options), self.why))

    def chosen(self, g: Game, act: Action) -> Out:
        return Done(act.card)


def choose(seat: int, options: Sequence[int], why: str) -> ChooseCard:
    """The step asking `seat` to choose among `options` (repeats counted once)."""
    return ChooseCard(seat, tuple(dict.fromkeys(options)), why)


@dataclass(slots=True)
class RunEffects(Step):
    """A list of vocabulary effects applied to one character, in order: an effect whose `if`
    fails, or that found nothing to act on, runs its `otherwise` instead; a death ends the list."""

    CARDS = ("source",)  # fields holding card numbers (see Step.CARDS)

    effects: tuple[Effect, ...]  # card data, not game state (see the module docstring)
    seat: int
    source: int  # the card the effects come from, -1 if none
    i: int = 0  # the effect being applied

    def start(self, g: Game, _: Any) -> Out:
        p = g.players[self.seat]
        while self.i < len(self.effects):
            e = self.effects[self.i]
            if p.dead:
                return Done()
            if e.if_ is not None and not characters.matches(g, p, e.if_, path="effect.if"):
                self.i += 1
                if e.otherwise:
                    vocabulary.used("effect.otherwise")
                    return self.then("start", RunEffects(tuple(e.otherwise), self.seat, self.source))
                continue
            return self.then("applied", RunEffect(e, self.seat, self.source))
        return Done()

    def applied(self, g: Game, did: Any) -> Out:
        e = self.effects[self.i]
        self.i += 1
        if not did and e.otherwise:
            vocabulary.used("effect.otherwise")
            return self.then("start", RunEffects(tuple(e.otherwise), self.seat, self.source))
        return self.start(g, None)


@dataclass(slots=True)
class RunEffect(Step):
    """One vocabulary effect applied to one character; done with whether it acted on anything."""

    CARDS = ("source",)  # fields holding card numbers (see Step.CARDS)

    e: Effect  # card data, not game state (see the module docstring)
    seat: int
    source: int
    why: str = ""  # the source card's name, for the log
    n: int = 0  # Items lost so far (one at a time, the victim's choice)

    def start(self, g: Game, _: Any) -> Out:
        e = self.e
        p = g.players[self.seat]
        if vocabulary.seen is not None:
            note_effect(e)
        self.why = why = g.cdef[self.source].name if self.source >= 0 else ""
        if e.lose_levels is not None:
            return Done(changes.lose_levels(g, p, e.lose_levels, why) > 0)
        if e.gain_levels is not None:
            return Done(changes.gain_levels(g, p, e.gain_levels, why) > 0)
        if e.die:
            dying = death.kill_player(g, p, why)
            if dying is None:  # already dead
                return Done(True)
            return self.then("acted", dying)
        if e.lose_items is not None:
            li = e.lose_items
            found = changes.items_matching(g, p, li.which)
            if not found:
                return Done(False)
            if li.count == "all":
                for c in found:
                    changes.lose_card(g, p, c, why)
                return Done(True)
            return self.lose_item(g, None)
        if e.discard_hand:
            if not p.hand:
                return Done(False)
            for c in list(p.hand):
                changes.lose_card(g, p, c, why)
            return Done(True)
        if e.lose_race is not None:
            return self.then("finish", lose_some(g, p, p.races, e.lose_race, "a Race", why))
        if e.lose_class is not None:
            return self.then("finish", lose_some(g, p, p.classes, e.lose_class, "a Class", why))
        if e.lose_role is not None:
            return self.then("finish", lose_some(g, p, p.roles, e.lose_role, "a Role", why))
        if e.lose_proficiency is not None:
            return self.then("finish", lose_some(g, p, p.proficiencies, e.lose_proficiency, "a Proficiency", why))
        if e.level_becomes is not None:
            if e.level_becomes == "lowest":
                target = min(q.level for q in g.players)
            else:
                target = int(e.level_becomes)
            if target < p.level:
                return Done(changes.lose_levels(g, p, p.level - target, why) > 0)
            return Done(False)
        if e.lose_gold is not None:
            return self.then("paid", lose_gold(g, p, e.lose_gold, why))
        if e.change_sex:
            p.sex = "female" if p.sex == "male" else "male"
            p.sex_changed = True
            g.events.append(E.Sex(p.seat, p.sex))
            return Done(True)
        if e.next_combat_bonus is not None:
            return Done(True)  # counted while the Curse is kept (see curse_bonus)
        if e.draw_treasures is not None:
            return Done(bool(g.draw_to_hand(p, "treasure", e.draw_treasures)))
        if e.draw_doors is not None:
            return Done(bool(g.draw_to_hand(p, "door", e.draw_doors)))
        if e.lose_sidekick is not None:
            return self.then("finish", lose_some(g, p, p.sidekicks, e.lose_sidekick, "a Sidekick", why))
        if e.discard_cards is not None:
            if not p.hand:
                return Done(False)
            return self.discard_card(g, None)
        if e.bar is not None:
            # "until the end of your next turn": the rest of this turn too, if it is theirs
            p.barred[e.bar] = max(p.barred.get(e.bar, 0), 2 if g.active == p.seat else 1)
            g.events.append(E.Barred(p.seat, e.bar, self.source))
            return Done(True)
        if e.hook is not None:
            out = HOOKS[e.hook](g, p, self.source)
            if is_frame(out):
                return self.then("hooked", out)
            return Done(out is not False)
        return Done(False)

    def lose_item(self, g: Game, _: Any) -> Out:
        li = self.e.lose_items
        assert li is not None and li.count != "all"
        if self.n >= li.count:
            return Done(True)
        p = g.players[self.seat]
        found = changes.items_matching(g, p, li.which)
        if not found:
            return Done(True)
        self.n += 1
        vocabulary.used("effect.lose_items.chosen_by", li.chosen_by)
        if li.chosen_by != "self":
            picker = changes.neighbour(g, p.seat, 1 if li.chosen_by == "left" else -1)
            if picker != p.seat:
                return self.then("item_chosen", choose(picker, found, f"choose an Item {p.name} loses to {self.why}"))
        return self.then("item_chosen", choose(p.seat, found, f"lose an Item to {self.why}"))

    def discard_card(self, g: Game, _: Any) -> Out:
        assert self.e.discard_cards is not None
        p = g.players[self.seat]
        if self.n >= self.e.discard_cards or not p.hand:
            return Done(True)
        self.n += 1
        return self.then("card_discarded", choose(p.seat, p.hand, f"discard a card to {self.why}"))

    def card_discarded(self, g: Game, c: int) -> Out:
        changes.lose_card(g, g.players[self.seat], c, self.why)
        return self.discard_card(g, None)

    def item_chosen(self, g: Game, c: int) -> Out:
        changes.lose_card(g, g.players[self.seat], c, self.why)
        return self.lose_item(g, None)

    def acted(self, g: Game, _: Any) -> Out:
        return Done(True)

    def paid(self, g: Game, lost: Any) -> Out:
        """Gold lost: since rules 6 a victim with no Items to pay with lost nothing, so the effect's
        `otherwise` runs (docs/cards.md); older rules counted it as done."""
        return Done(lost is not False or not unpaid_gold_runs_otherwise(g))

    def finish(self, g: Game, did: Any) -> Out:
        return Done(did)

    def hooked(self, g: Game, out: Any) -> Out:
        return Done(out is not False)


@dataclass(slots=True)
class DieRoll(Step):
    """A roll of a player's own: they may answer it with a card that sets the die (Loaded Die).
    Done with the face. `best` is the face that serves them best here (for the bots)."""

    seat: int
    why: str
    best: int = 6
    value: int = 0  # the face rolled

    def start(self, g: Game, _: Any) -> Out:
        p = g.players[self.seat]
        self.value = value = g.roll_die(p.seat, self.why)
        setters = [k for k in dict.fromkeys(p.hand) if (h := card_hook(g, k)) is not None and h.sets_die()]
        if not setters or p.dead:
            return Done(value)
        acts = [Action(A.PASS, p.seat)]
        seen: set[int] = set()
        for k in setters:
            if g.cdef[k].idx not in seen:
                seen.add(g.cdef[k].idx)
                acts += [Action(A.PLAY, p.seat, k, n=f, flag="face") for f in DIE_FACES if f != value]
        return self.then("answer", D.DieFace((p.seat,), setters[0], tuple(acts), self.why, value, self.best))

    def answer(self, g: Game, act: Action) -> Out:
        p = g.players[self.seat]
        if act.kind == A.PLAY:
            changes.remove_from_play(g, p, act.card)
            g.discard(act.card)
            self.value = act.n
            g.events.append(E.Face(p.seat, act.card, self.value))
        return Done(self.value)


@dataclass(slots=True)
class LoseSome(Step):
    """Lose `all` of some cards, or `one` of the victim's choice; done with False if there are none."""

    CARDS = ("cards",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    cards: tuple[int, ...]  # the cards as they stand when the step starts (it starts at once)
    how: str  # all or one
    what: str  # a Race, a Class... (for the question)
    why: str

    def start(self, g: Game, _: Any) -> Out:
        if not self.cards:
            return Done(False)
        p = g.players[self.seat]
        if self.how == "all" or len(self.cards) == 1:
            for c in self.cards:
                changes.lose_card(g, p, c, self.why)
            return Done(True)
        return self.then("chosen", choose(p.seat, self.cards, f"lose {self.what} to {self.why}"))

    def chosen(self, g: Game, c: int) -> Out:
        changes.lose_card(g, g.players[self.seat], c, self.why)
        return Done(True)


@dataclass(slots=True)
class LoseGold(Step):
    """Lose Items worth at least `amount` gold, one at a time (the victim chooses); all of them
    if they are worth less."""

    seat: int
    amount: int
    why: str
    paid: int = 0  # gold paid so far

    def start(self, g: Game, _: Any) -> Out:
        p = g.players[self.seat]
        items = [c for c in p.items]
        total = sum(characters.sale_value(g, p, c) for c in items)  # an Item with its Item Enhancers
        if total <= self.amount:
            for c in items:
                changes.lose_card(g, p, c, self.why)
            return Done(bool(items))  # False: nothing to pay with, nothing lost
        return self.pay(g, None)

    def pay(self, g: Game, _: Any) -> Out:
        if self.paid >= self.amount:
            return Done()
        p = g.players[self.seat]
        opts = [c for c in p.items]
        return self.then("paid_with", choose(p.seat, opts, f"pay {self.amount - self.paid} more gold to {self.why}"))

    def paid_with(self, g: Game, c: int) -> Out:
        p = g.players[self.seat]
        self.paid += characters.sale_value(g, p, c)
        changes.lose_card(g, p, c, self.why)
        return self.pay(g, None)


def choose_card(g: Game, seat: int, options: Sequence[int], why: str) -> Frame:
    """Ask a seat to choose one card among options (returns it); no prompt if only one."""
    return choose(seat, options, why)


# -------------------------------------------------------------- effects
def note_effect(e: Effect) -> None:
    """Record the operation an effect runs, with its value where the value is a branch
    (`effect.lose_race=one`, `effect.level_becomes=lowest`), for the vocabulary's coverage."""
    for key, value in e.model_dump(exclude_none=True, exclude={"if_", "otherwise"}).items():
        if key == "lose_items":
            vocabulary.used("effect.lose_items.which")
            vocabulary.used("effect.lose_items.count", "all" if value["count"] == "all" else None)
        elif isinstance(value, str) and key != "hook":
            vocabulary.used(f"effect.{key}", value)
        else:
            vocabulary.used(f"effect.{key}")


def run_effects(g: Game, effects: Sequence[Effect], p: Player, source: int) -> Frame:
    """Apply a list of vocabulary effects to one character, in order."""
    return RunEffects(tuple(effects), p.seat, source)  # Effects are immutable card data


def run_effect(g: Game, e: Effect, p: Player, source: int) -> Frame:
    """Apply one vocabulary effect to one character; returns whether it acted on anything."""
    return RunEffect(e, p.seat, source)  # an Effect is immutable card data


def die_roll(g: Game, p: Player, why: str, best: int = 6) -> Frame:
    """A roll of p's own: p may answer it with a card that sets the die (Loaded Die).
    `best` is the face that serves p best here (for the bots)."""
    return DieRoll(p.seat, why, best)


def lose_some(g: Game, p: Player, cards: list[int], how: str, what: str, why: str) -> Frame:
    """Lose `all` of these cards, or `one` of the victim's choice; False if there are none.
    (The step starts at once, so it may take the cards as they stand now.)"""
    return LoseSome(p.seat, tuple(cards), how, what, why)


def lose_gold(g: Game, p: Player, amount: int, why: str) -> Frame:
    """Lose Items worth at least `amount` (the victim chooses); all of them if short."""
    return LoseGold(p.seat, amount, why)
