"""Cards that help or hinder Running Away: escaping outright, answering the die roll."""

from __future__ import annotations

from typing import TYPE_CHECKING

from munchkin.cards.hooks import CardHook, hook
from munchkin.cards.library.common import escape_one
from munchkin.engine import actions as A
from munchkin.engine import changes, combat
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.rules import DIE_FACES, as_written, gifts_any_time

if TYPE_CHECKING:
    from munchkin.engine.game import Game


class RatOnAStick(CardHook):
    """Rat on a Stick: while Running Away, discard it (carried is enough) to escape outright a monster
    of Level 8 or below (its printed Level, not its combat strength)."""

    def works_carried(self) -> bool:
        return True

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        run, c = g.listing, g.combat
        if not isinstance(run, D.Run) or c is None:
            return []
        remaining = [m for m in c.monsters if m.card in run.monsters]
        if not as_written(g):  # older rules: its combat strength
            return [
                Action(A.USE, seat, card, monster=m.card) for m in remaining if combat.monster_strength(g, c, m) <= 8
            ]
        return [Action(A.USE, seat, card, monster=m.card) for m in remaining if g.cdef[m.base].level <= 8]

    def apply(self, g: Game, act: Action) -> None:
        escape_one(g, act, "escaping", "Rat on a Stick")


class InstantWall(CardHook):
    """Instant Wall (Smoke Screen): both fighters escape automatically, or one of them (your choice)."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if not isinstance(g.listing, D.Run) or g.combat is None:
            return []
        out = [Action(A.PLAY, seat, card)]
        fighters = g.combat.fighters()
        if gifts_any_time(g):  # rules 4: "just one of you" names a fighter who still has to run
            c = g.combat
            fighters = tuple(f for f in fighters if not g.players[f].dead and f not in c.escapes)
        if len(fighters) > 1:
            out += [Action(A.PLAY, seat, card, f, flag="only") for f in fighters]
        return out

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        changes.spend(g, g.players[act.seat], act.card)
        for f in c.fighters():
            if act.flag != "only" or f == act.target:
                c.escapes.add(f)
        g.events.append(E.Wall(act.seat, act.card, act.target if act.flag == "only" else -1))


class RollCard(CardHook):
    """Answers to a Run Away roll: Invisibility Potion, Flask of Glue, Loaded Die."""

    def __init__(self, which: str) -> None:
        self.which = which

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        rolled = g.listing
        if not isinstance(rolled, D.Rolled):
            return []
        runner, ok = rolled.runner, rolled.ok
        if self.which == "invisibility" and seat == runner and not ok:
            return [Action(A.PLAY, seat, card, flag="roll")]
        if self.which == "glue" and seat != runner and ok:
            return [Action(A.PLAY, seat, card, runner, flag="roll")]
        if self.which == "loaded" and seat == runner:  # any face but the one rolled
            die = g.roll.die
            return [Action(A.PLAY, seat, card, n=f, flag="face") for f in DIE_FACES if f != die]
        return []

    def sets_die(self) -> bool:
        return self.which == "loaded"

    def apply(self, g: Game, act: Action) -> None:
        changes.spend(g, g.players[act.seat], act.card)
        roll = g.roll
        if self.which == "invisibility":
            roll.escaped = True
        elif self.which == "glue":
            roll.reroll = True
        else:
            roll.die = act.n
        g.events.append(E.Play(act.seat, act.card))


hook("library.escape_weak_monster")(RatOnAStick())
hook("library.escape_automatically")(InstantWall())
hook("library.escape_after_failed_roll")(RollCard("invisibility"))
hook("library.reroll_escape")(RollCard("glue"))
hook("library.set_the_die")(RollCard("loaded"))
