"""Any time: a player the game is not waiting on acts on their own ("Curses may be played on any
player at any time. ANY time, do you hear me?"), and then the game goes on where it was.

The step is pushed on top of the flow when such an action is applied (`Game.apply`). It carries
the action out as any free action (a Curse opens its cancel window, Go Up a Level raises a Level,
a trade moves two Items), then waits again on the decision that was interrupted, asked anew by the
step below it (`Step.reask`: a combat window opens a new round, since the table changed), and hands
the answer down to that step as if nothing had come between.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from munchkin.engine import combat, play
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import WEIGH_AGAIN, Action
from munchkin.engine.flow import Done, Out, Step
from munchkin.engine.rules import gifts_any_time

if TYPE_CHECKING:
    from munchkin.engine.game import Game


@dataclass(slots=True)
class AnyTime(Step):
    """`act`, taken at any time by a seat the game was not waiting on, while it waited on `waiting`."""

    CARDS = ("act", "waiting")  # fields holding card numbers (see Step.CARDS)

    act: Action
    waiting: D.Decision
    fight: str = ""  # the fight as the players read it when the action came (none: "")

    def start(self, g: Game, _: Any) -> Out:
        self.fight = _fight(g)
        return self.then("acted", play.do_free_action(g, self.act))

    def acted(self, g: Game, _: Any) -> Out:
        if g.over:
            return D.Over(())
        if g.combat is not None and _fight(g) == self.fight:  # the fight is as it was (a bystander's
            return self.then("answer", self.waiting)  # trade or Item): whoever had passed stays passed
        if g.combat is not None and gifts_any_time(g) and self._interrupted(g).reweighs(g):
            g.events.append(E.WeighAgain(g.combat.fighter))  # a Go Up a Level on a fighter told to run:
            return Done(WEIGH_AGAIN)  # "if your combat strength totals more than the monster's ... you kill it"
        return self.then("answer", self.reask(g, self.waiting))

    def _interrupted(self, g: Game) -> Step:
        """The step whose decision this action interrupted (the one below this step)."""
        stack = g._stack
        i = next(i for i in range(len(stack) - 1, -1, -1) if stack[i] is self) - 1
        while type(stack[i]) is AnyTime:
            i -= 1
        return stack[i]

    def reask(self, g: Game, waiting: D.Decision) -> D.Decision:  # type: ignore[override]
        """Asked by the step below (itself interrupted again): the step it interrupted decides."""
        return self._interrupted(g).reask(g, waiting)  # type: ignore[arg-type]

    def answer(self, g: Game, act: Action) -> Out:
        return Done(act)  # the answer to the interrupted decision, for the step that asked it


def _fight(g: Game) -> str:
    """The fight as the players read it (both sides' strengths and what makes them up), to tell
    whether an any-time action changed it."""
    if g.combat is None:
        return ""
    # read before the action within the same version: since rules 4 not kept in the cache, which
    # would then answer for the table before the action (rules 3 kept it, and played on it)
    return repr(combat.combat_breakdown(g, fresh=gifts_any_time(g)))


__all__ = ["AnyTime"]
