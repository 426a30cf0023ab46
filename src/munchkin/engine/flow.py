"""The game's flow as data: a stack of steps, each a rule in progress, resumed by the engine.

A step is a small record (a dataclass) of where a rule of the game stands and what it holds: the
turn at its Kick Open The Door, a Run Away at its roll, Charity at the card to give away. The
engine keeps the steps of the moment on a stack, the rule that runs now on top. Resuming a step
runs its rule until it must wait, and the step says what comes next:

- a `Decision` (decisions.py): the game waits for it; the action taken comes back as the step's next value;
- another step: a rule it calls (a fight calls the Run Away); what that step finishes with comes
  back as the caller's next value;
- `Done(value)`: the step is over and hands `value` to the step below it.

A step's stages are methods named by `at`, so a step reads top to bottom as its rule does. Since
every step is plain data, the whole game, flow included, can be copied at any moment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, TypeAlias

if TYPE_CHECKING:
    from munchkin.engine.core import GameCore
    from munchkin.engine.decisions import Decision


class Done(NamedTuple):
    """A step is over; `value` goes back to the step that called it."""

    value: Any = None


@dataclass(slots=True)
class Step:
    """One rule in progress. Subclasses are `@dataclass(slots=True)` records of plain data (seats,
    card numbers, counters, tuples of actions), never the game's own objects, and name their
    first stage `start`; `at` names the stage that runs when the step is next resumed."""

    at: str = field(default="start", init=False)
    # the fields holding card numbers (an int, a tuple or list of them, or an Action): a
    # determinized copy points them at the cards dealt in place of those that moved
    CARDS: ClassVar[tuple[str, ...]] = ()

    def resume(self, g: GameCore, value: Any) -> Out:
        """Run the stage `at` with the value the step was waiting for."""
        stage: Any = getattr(self, self.at)
        out: Out = stage(g, value)
        return out

    def reask(self, g: GameCore, waiting: Decision) -> Decision:
        """The decision to wait on again after a player it did not wait on acted at any time: the
        same one (its offers are listed afresh from the table), unless a step says otherwise."""
        return waiting

    def reweighs(self, g: GameCore) -> bool:
        """Whether a change to the fight, made at any time while this step waits, sends the fight
        back to be weighed again (the step then gets `actions.WEIGH_AGAIN` as its answer): the
        fighters told to ask for help or Run Away before anyone has run (rules 4)."""
        return False

    def then(self, at: str, out: Out) -> Out:
        """Go on at stage `at` once `out` (a decision, or a called step, or None: nothing to call)
        has its answer."""
        self.at = at
        return out

    def copy(self) -> Step:
        """An independent copy (a step holds plain data: lists, dicts and sets are copied one level,
        the rest shared), by a copier made once per kind of step (a search copies steps by the million)."""
        cls = type(self)
        copier = _COPIERS.get(cls)
        if copier is None:
            copier = _COPIERS[cls] = _make_copier(cls)
        return copier(self)  # type: ignore[no-any-return]


_COPIERS: dict[type, Any] = {}


def _make_copier(cls: type) -> Any:
    """A function copying a step of kind `cls` field by field: its slots read in one call, each
    list, dict or set copied, every other value shared (as `Step.copy` says)."""
    names: list[str] = []
    for c in cls.__mro__:
        names += [n for n in getattr(c, "__slots__", ()) if n not in names]
    if not names:
        return lambda step: object.__new__(cls)
    read = attrgetter(*names)
    one = len(names) == 1
    containers = (list, dict, set)
    setters = [getattr(cls, n).__set__ for n in names]  # each slot's descriptor writes its field

    def copier(step: Any) -> Any:
        new: Any = object.__new__(cls)
        try:
            values = (read(step),) if one else read(step)
        except AttributeError:  # a field not set yet: copy those that are
            for n in names:
                if hasattr(step, n):
                    v = getattr(step, n)
                    setattr(new, n, v.copy() if type(v) in containers else v)
            return new
        for put, v in zip(setters, values):
            put(new, v.copy() if type(v) in containers else v)
        return new

    return copier


Frame = Step  # what the flow's stack holds
# what a stage hands the driver: a step to call (None: nothing), a decision to wait on, the end
Out: TypeAlias = "Step | Decision | Done | None"  # a string: decisions.py imports the rules, which import this


def is_frame(x: object) -> bool:
    """Whether a hook's result is a rule to run (a step) rather than a plain value."""
    return isinstance(x, Step)


__all__ = ["Done", "Frame", "Out", "Step", "is_frame"]
