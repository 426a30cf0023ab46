"""Small helpers the card hooks share: when a card may be played, spending it, asking a choice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from munchkin.engine import actions as A
from munchkin.engine import changes, play
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.flow import Done, Frame, Out, Step
from munchkin.engine.rules import as_written

if TYPE_CHECKING:
    from munchkin.engine.game import Game


def in_combat_window(g: Game) -> bool:
    """Whether a fight is waiting on its window of answers (where combat one-shots are played)."""
    return g.combat is not None and g.listing is D.IN_WINDOW


def own_turn_free(g: Game, seat: int) -> bool:
    """Whether it is the seat's own turn, outside combat, with its free actions listed."""
    return g.combat is None and seat == g.active and g.listing is D.FREE


def spend(g: Game, seat: int, card: int) -> None:
    """A one-shot card leaves its player's hand or table for the discards."""
    changes.spend(g, g.players[seat], card)


def escape_one(g: Game, act: Action, why: str, how: str) -> None:
    """The card `act` plays is discarded (`why`) and its player escapes the monster it names (`how`),
    which leaves the fight (Rat on a Stick, a Pit Bull distracted)."""
    c = g.combat
    assert c is not None
    changes.lose_card(g, g.players[act.seat], act.card, why)
    g.events.append(E.Escape(act.seat, act.monster, how))
    for m in list(c.monsters):
        if m.card == act.monster:
            if any(x.mate_of is m for x in c.monsters) or not as_written(g):
                c.monsters.remove(m)  # its Mate fights on, with the enhancers they share
            else:
                play.monster_leaves(g, c, m)  # gone: its cards to the discards at once


def uniq(g: Game, cards: list[int]) -> list[int]:
    """One card of each kind: identical copies would make the same action."""
    seen: set[int] = set()
    out = []
    for c in cards:
        if g.cdef[c].idx not in seen:
            seen.add(g.cdef[c].idx)
            out.append(c)
    return out


neighbour = changes.neighbour  # the next living player to the left (step 1) or the right (step -1)


def choose_option(g: Game, seat: int, source: int, options: list[str]) -> Frame:
    """Ask a seat to pick one of several worded options; returns its index."""
    return ChooseOption(seat, source, tuple(options))


@dataclass(slots=True)
class ChooseOption(Step):
    """A card's choice between worded options (Platycore: your hand or 2 Levels): the index chosen."""

    CARDS = ("source",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    source: int
    options: tuple[str, ...]

    def start(self, g: Game, _: Any) -> Out:
        acts = tuple(Action(A.CHOOSE, self.seat, -1, monster=self.source, flag=o) for o in self.options)
        return self.then("chosen", D.Before((self.seat,), self.source, tuple(acts)))

    def chosen(self, g: Game, act: Action) -> Out:
        return Done(self.options.index(act.flag))
