"""Go Up a Level cards with a condition (steal a Level, kill a Hireling, whine) and Hoard!."""

from __future__ import annotations

from typing import TYPE_CHECKING

from munchkin.cards.hooks import CardHook, hook
from munchkin.engine import actions as A
from munchkin.engine import changes
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.rules import WINNING_LEVEL, as_written

if TYPE_CHECKING:
    from munchkin.engine.game import Game


class LevelCard(CardHook):
    """Go Up a Level cards with a condition, and Steal a Level."""

    def __init__(self, which: str) -> None:
        self.which = which

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        out = []
        for q in g.players:
            if q.dead:
                continue
            # at Level 9 they may still be played: "it cannot give you the winning level" (you stay at 9)
            now = as_written(g)  # older rules: not at Level 9, and any target
            if self.which == "steal":
                if q.seat != seat and (q.level > 1 if now else g.players[seat].level < WINNING_LEVEL - 1):
                    out.append(Action(A.PLAY, seat, card, q.seat))  # a Level 1 player has no Level to lose
            elif self.which in ("kill_hireling", "kill_sidekick"):
                if q.sidekicks and (now or g.players[seat].level < WINNING_LEVEL - 1):  # name it when two
                    many = len(q.sidekicks) > 1
                    out += [Action(A.PLAY, seat, card, q.seat, monster=k if many else -1) for k in q.sidekicks]
            elif self.which == "whine":
                top = max(x.level for x in g.players)
                if q.level < top and q.level < WINNING_LEVEL - 1:
                    out.append(Action(A.PLAY, seat, card, q.seat))
        return out

    def apply(self, g: Game, act: Action) -> None:
        p = g.players[act.seat]
        q = g.players[act.target]
        p.hand.remove(act.card)
        g.discard(act.card)
        g.events.append(E.Play(act.seat, act.card))
        if self.which == "steal":
            if changes.lose_levels(g, q, 1, g.cdef[act.card].name):
                changes.gain_levels(g, p, 1, g.cdef[act.card].name)
        elif self.which == "kill_hireling":
            # the target owns the Sidekick (or Hireling); the player of the card gains the Level
            changes.lose_card(g, q, act.monster if act.monster >= 0 else q.sidekicks[0], g.cdef[act.card].name)
            changes.gain_levels(g, p, 1, g.cdef[act.card].name)
        elif self.which == "kill_sidekick":
            # the Good, the Bad, and the Munchkin: a Sidekick killed leaves its Items to its owner
            k = act.monster if act.monster >= 0 else q.sidekicks[0]
            q.carried.pop(k, None)
            changes.lose_card(g, q, k, g.cdef[act.card].name)
            changes.gain_levels(g, p, 1, g.cdef[act.card].name)
        else:
            changes.gain_levels(g, q, 1, g.cdef[act.card].name)


class Hoard(CardHook):
    """Hoard!: outside combat, draw three face-down Treasures."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        return [Action(A.PLAY, seat, card)] if g.combat is None else []

    def apply(self, g: Game, act: Action) -> None:
        p = g.players[act.seat]
        p.hand.remove(act.card)
        g.discard(act.card)
        g.events.append(E.Play(act.seat, act.card))
        g.draw_to_hand(p, "treasure", 3)


hook("library.steal_a_level")(LevelCard("steal"))
hook("library.level_for_killing_hireling")(LevelCard("kill_hireling"))
hook("library.level_for_whining")(LevelCard("whine"))
hook("library.draw_three_treasures")(Hoard())
