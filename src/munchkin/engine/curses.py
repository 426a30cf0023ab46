"""Curses, as steps: a Curse played on someone (or drawn face-up), the answers that may cancel
it, then its effects (at once, or kept in play), and the table put right after."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from munchkin.cards.hooks import HOOKS, CardHook
from munchkin.engine import actions as A
from munchkin.engine import changes, resolve, settle, vocabulary
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.core import card_hook
from munchkin.engine.flow import Done, Frame, Out, Step, is_frame
from munchkin.engine.state import Player

if TYPE_CHECKING:
    from munchkin.engine.game import Game


@dataclass(slots=True)
class CurseFlow(Step):
    """A Curse is played (or drawn face-up): answers first, then it applies if it can."""

    CARDS = ("card",)  # fields holding card numbers (see Step.CARDS)

    card: int
    by: int  # the seat that played it (the victim's own when drawn)
    victim: int
    face_up_draw: bool = False

    def start(self, g: Game, _: Any) -> Out:
        p = g.players[self.victim]
        g.events.append(E.Curse(self.by, self.victim, self.card, self.face_up_draw))
        g.limbo.append(self.card)
        if self.face_up_draw and (guard := curse_guard(g, p)) >= 0:
            g.events.append(E.Cancel(self.victim, self.card, g.cdef[guard].name))
            return self.answered(g, True)
        return self.then("answered", curse_window(g, self.card, self.victim))

    def answered(self, g: Game, cancelled: Any) -> Out:
        card = self.card
        d = g.cdef[card]
        p = g.players[self.victim]
        if cancelled or p.dead:
            g.limbo.remove(card)
            g.discard(card)
            return Done()
        fn = HOOKS.get(d.hook) if d.hook else None
        vocabulary.used("curse.duration", d.duration)
        if d.effects:
            vocabulary.used("curse.effects")
        if fn is not None:
            vocabulary.used("curse.hook")
        if fn is not None and (isinstance(fn, CardHook) or not callable(fn)):
            fn = None  # a passive hook: the engine asks it while the Curse is kept
        g.limbo.remove(card)
        if d.duration != "once":
            p.curses.append(card)  # kept in play: applies now where it can, and while kept
        else:
            g.limbo.append(card)  # resolving; discarded once done
        if fn is not None:
            out = fn(g, p, card)
            if is_frame(out):
                return self.then("applied", out)
            return self.applied(g, None)
        effects = [e for e in d.effects if e.next_combat_bonus is None]
        return self.then("applied", resolve.run_effects(g, effects, p, card))

    def applied(self, g: Game, _: Any) -> Out:
        card = self.card
        if g.cdef[card].duration == "once":
            g.limbo.remove(card)
            g.discard(card)
        step = settle.settle_table(g)
        if step is None:
            return Done()
        return self.then("settled", step)

    def settled(self, g: Game, _: Any) -> Out:
        return Done()


@dataclass(slots=True)
class CurseWindow(Step):
    """Anyone holding a card that cancels a Curse may answer, in seat order from the active
    player, until all have passed; done with True if the Curse was cancelled."""

    CARDS = ("card",)  # fields holding card numbers (see Step.CARDS)

    card: int
    victim: int
    passed: set[int] = field(default_factory=set)  # seats that let the Curse be

    def start(self, g: Game, _: Any) -> Out:
        seats = tuple(s for s in changes.seat_order(g) if s not in self.passed and curse_cancellers(g, s))
        if not seats:
            return Done(False)
        return self.then("answer", D.CurseWindow(seats, self.card, self.victim))

    def answer(self, g: Game, act: Action) -> Out:
        if act.kind == A.PASS:
            self.passed.add(act.seat)
            return self.start(g, None)
        q = g.players[act.seat]
        changes.remove_from_play(g, q, act.card)
        g.discard(act.card)
        g.events.append(E.Cancel(act.seat, self.card, g.cdef[act.card].name))
        return Done(True)


# -------------------------------------------------------------- curses
def curse_bonus(g: Game, p: Player) -> int:
    """Combat bonuses from Curses the character keeps for their next combat."""
    total = 0
    for c in p.curses:
        for e in g.cdef[c].effects:
            if e.next_combat_bonus is not None:
                vocabulary.used("effect.next_combat_bonus")
                total += e.next_combat_bonus
    return total


def curse_flow(g: Game, card: int, by: int, victim: int, face_up_draw: bool = False) -> Frame:
    """A Curse is played (or drawn face-up): answers first, then it applies if it can."""
    return CurseFlow(card, by, victim, face_up_draw)


def curse_guard(g: Game, p: Player) -> int:
    """The equipped Item (Sandals of Protection) or Proficiency (Occlumency) that stops the
    Curses its owner draws face-up; -1 if none."""
    cards = list(p.equipped) + p.proficiencies if p.proficiencies else p.equipped
    return next((c for c in cards if (h := card_hook(g, c)) is not None and h.stops_drawn_curses(g, p)), -1)


def curse_window(g: Game, card: int, victim: int) -> Frame:
    """Anyone holding a card that cancels a Curse may answer; returns True if cancelled."""
    return CurseWindow(card, victim)


def curse_cancellers(g: Game, seat: int) -> list[int]:
    p = g.players[seat]
    if p.dead:
        return []
    cdef = g.cdef
    return [c for c in p.hand + p.items if cdef[c].when == "curse" and cdef[c].is_one_shot]
