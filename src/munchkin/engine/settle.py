"""Putting a table right, as steps: whoever lost the right to something they have in play (too
many Big items, Proficiencies above their Level, a second Sidekick or Steed, a second Headgear or
Complex Item, more Hands than they have) corrects it at once.

This runs after every free and combat action, and almost always finds nothing to correct:
`unsettled` tells that cheaply, without side effects, so that no step is made then."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from munchkin.engine import actions as A
from munchkin.engine import changes, characters, legal, play
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.flow import Done, Frame, Out, Step
from munchkin.engine.state import Player

if TYPE_CHECKING:
    from munchkin.engine.game import Game


def too_many_big(g: Game, p: Player) -> bool:
    """More Big items than this living character may carry (and no right to carry any)."""
    return (
        not p.dead
        and characters.big_count(g, p) > characters.big_allowance(g, p)
        and not characters.has_ability(g, p, "carry_any_big")
    )


def two_steeds(g: Game, p: Player) -> list[int]:
    """The Steeds counted against the one-Steed limit, if there are several (else empty)."""
    steeds = [k for k in characters.steeds(g, p) if k not in p.cheats]
    return steeds if len(steeds) > 1 else []


def unsettled(g: Game) -> bool:
    """Whether anyone has something to put right: exactly the tests `SettleTable` starts with,
    none of which changes anything."""
    cdef = g.cdef
    for p in g.players:
        if p.dead:  # nothing to settle for a dead character (their table is empty)
            continue
        items = p.items
        if len(items) >= 2:
            big = steeds = 0
            for c in items:
                d = cdef[c]
                big += d.big
                steeds += d.steed
            # one Big item is always allowed unless a card changes the allowance; one Steed too
            if (big >= 2 or g.extra_big_cards) and too_many_big(g, p):
                return True
            if steeds >= 2 and two_steeds(g, p):
                return True
        if p.proficiencies and characters.rank_total(g, p) > p.level:
            return True
        if len(p.sidekicks) > 1 and characters.sidekick_count(g, p) > characters.sidekick_limit(g, p):
            return True
        if len(p.equipped) > 1 and characters.equipment_overflow(g, p):
            return True
    return False


def big_unsettled(g: Game) -> bool:
    """Whether anyone carries more Big items than they may (the test `SettleBigItems` starts with)."""
    return any(len(p.items) >= 2 and too_many_big(g, p) for p in g.players)


@dataclass(slots=True)
class SettleTable(Step):
    """Whoever lost the right to something they have in play puts it right at once: extra Big
    items first (everyone), then for each living player in seat order: Proficiencies whose total
    Rank is above their Level, a second Sidekick, a second Steed, Items equipped beyond a limit."""

    i: int = 0  # the seat being put right

    def start(self, g: Game, _: Any) -> Out:
        big = settle_big_items(g)
        if big is None:
            return self.next_player(g, None)
        return self.then("next_player", big)

    def next_player(self, g: Game, _: Any) -> Out:
        while self.i < len(g.players):
            if not g.players[self.i].dead:
                return self.rank(g, None)
            self.i += 1
        return Done()

    def rank(self, g: Game, _: Any) -> Out:
        p = g.players[self.i]
        if p.proficiencies and characters.rank_total(g, p) > p.level:  # Level fell below the total Rank
            acts = tuple(Action(A.DISCARD, p.seat, k) for k in dict.fromkeys(p.proficiencies))
            return self.then("rank_lost", D.Before((p.seat,), -1, tuple(acts)))
        return self.sidekick(g, None)

    def rank_lost(self, g: Game, act: Action) -> Out:
        p = g.players[self.i]
        changes.lose_card(g, p, act.card, f"total Rank above Level {p.level}")
        return self.rank(g, None)

    def sidekick(self, g: Game, _: Any) -> Out:
        p = g.players[self.i]
        if len(p.sidekicks) > 1 and characters.sidekick_count(g, p) > characters.sidekick_limit(g, p):
            acts = tuple(Action(A.DISCARD, p.seat, k) for k in p.sidekicks)
            prompt = D.Before((p.seat,), -1, tuple(acts + corrections(g, p, "two_sidekicks")))
            return self.then("sidekick_lost", prompt)
        return self.steed(g, None)

    def sidekick_lost(self, g: Game, act: Action) -> Out:
        if act.kind == A.DISCARD:
            changes.lose_card(g, g.players[self.i], act.card, f"one {g.cdef[act.card].word} only")
            return self.sidekick(g, None)
        return self.then("sidekick", play.do_free_action(g, act))

    def steed(self, g: Game, _: Any) -> Out:
        p = g.players[self.i]
        if len(p.items) > 1 and (steeds := two_steeds(g, p)):
            acts = tuple(Action(A.DISCARD, p.seat, k) for k in steeds)
            return self.then("steed_lost", D.Before((p.seat,), -1, tuple(acts)))
        return self.equipment(g, None)

    def steed_lost(self, g: Game, act: Action) -> Out:
        changes.lose_card(g, g.players[self.i], act.card, "one Steed only")
        return self.steed(g, None)

    def equipment(self, g: Game, _: Any) -> Out:
        p = g.players[self.i]
        if len(p.equipped) > 1 and (over := characters.equipment_overflow(g, p)):
            need = "equip_any_complex" if any(g.cdef[k].complex for k in over) else "extra_headgear"
            acts = tuple(Action(A.UNEQUIP, p.seat, k) for k in over)
            return self.then("unequipped", D.Before((p.seat,), -1, tuple(acts + corrections(g, p, need))))
        self.i += 1
        return self.next_player(g, None)

    def unequipped(self, g: Game, act: Action) -> Out:
        if act.kind == A.UNEQUIP:
            p = g.players[self.i]
            p.equipped.discard(act.card)
            g.events.append(E.Unequip(p.seat, act.card))
            return self.equipment(g, None)
        return self.then("equipment", play.do_free_action(g, act))


@dataclass(slots=True)
class SettleBigItems(Step):
    """Whoever lost the right to several Big items puts it right at once: sells the extras (on
    their own turn, out of combat), or gives them to the lowest-Level player(s) who can carry
    them, or discards them if nobody can."""

    i: int = 0  # the seat putting it right

    def start(self, g: Game, _: Any) -> Out:
        while self.i < len(g.players):
            if len(g.players[self.i].items) >= 2:
                return self.put_right(g, None)
            self.i += 1
        return Done()

    def put_right(self, g: Game, _: Any) -> Out:
        p = g.players[self.i]
        if not too_many_big(g, p):
            self.i += 1
            return self.start(g, None)
        cdef = g.cdef
        exempt = p.exempt()
        bigs = [c for c in p.items if cdef[c].big and c not in exempt]
        takers = [q for q in g.players if q is not p and not q.dead and characters.may_carry_big(g, q)]
        acts: list[Action] = []
        if takers:
            low = min(q.level for q in takers)
            acts += [Action(A.GIVE, p.seat, c, q.seat, flag="big") for c in bigs for q in takers if q.level == low]
        else:
            acts += [Action(A.DISCARD, p.seat, c) for c in bigs]
        if p.seat == g.active and g.combat is None:
            acts += [a for a in legal.sale_actions(g, p) if any(cdef[c].big for c in a.cards)]
        return self.then("answer", D.Before((p.seat,), -1, tuple(acts)))

    def answer(self, g: Game, act: Action) -> Out:
        p = g.players[self.i]
        if act.kind == A.GIVE:
            changes.move_item(g, p, g.players[act.target], act.card)
            g.events.append(E.Gift(p.seat, act.target, act.card))
        elif act.kind == A.DISCARD:
            changes.lose_card(g, p, act.card, "one Big item only")
        else:
            return self.then("put_right", play.do_free_action(g, act))
        return self.put_right(g, None)


def settle_table(g: Game) -> Frame | None:
    """Whoever lost the right to something they have in play puts it right at once:
    extra Big items, a second Headgear or Complex Item equipped, a second Sidekick.
    None (nothing to run) when nobody has anything to put right, as is almost always so."""
    return SettleTable() if unsettled(g) else None


def corrections(g: Game, p: Player, ability: str) -> tuple[Action, ...]:
    """Cards in hand that would "correct the problem immediately": a Class, Race or Sidekick
    giving back the lost right, where it may be played now."""
    cdef = g.cdef
    out: list[Action] = []
    for c in dict.fromkeys(p.hand):
        if ability in cdef[c].abilities:
            own = p.seat == g.active  # a Race or Class on your own turn, a Sidekick any time
            if cdef[c].is_sidekick or own:
                out += [a for a in legal.card_actions(g, p.seat, c, own_turn=own) if a.kind == A.PLAY]
    return tuple(out)


def settle_big_items(g: Game) -> Frame | None:
    """Whoever lost the right to several Big items puts it right at once: sells the extras
    (on their own turn, out of combat), or gives them to the lowest-Level player(s) who can
    carry them, or discards them if nobody can. None when nobody carries too many."""
    return SettleBigItems() if big_unsettled(g) else None
