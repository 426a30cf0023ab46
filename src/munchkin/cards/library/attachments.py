"""Cards that attach to another card in play: Half-Breed, Super Munchkin (and Dual Role), Cheat!."""

from __future__ import annotations

from typing import TYPE_CHECKING

from munchkin.cards.hooks import CardHook, hook
from munchkin.cards.library.common import own_turn_free, uniq
from munchkin.engine import actions as A
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.rules import as_written

if TYPE_CHECKING:
    from munchkin.engine.game import Game


class Attachment(CardHook):
    """Half-Breed / Super Munchkin / Dual Role: attach to a Race / Class / Role in play."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        p = g.players[seat]
        if seat != g.active and card not in p.received:
            return []
        if self.kind == "race":
            ok = bool(p.races) and p.half_breed < 0
        elif self.kind == "role":
            ok = bool(p.roles) and p.dual_role < 0
        else:
            ok = bool(p.classes) and p.super_munchkin < 0
        return [Action(A.PLAY, seat, card)] if ok else []

    def apply(self, g: Game, act: Action) -> None:
        p = g.players[act.seat]
        p.hand.remove(act.card)
        if self.kind == "race":
            p.half_breed = act.card
        elif self.kind == "role":
            p.dual_role = act.card
        else:
            p.super_munchkin = act.card
        g.events.append(E.Play(act.seat, act.card))


class Cheat(CardHook):
    """Attach to an Item (on your own turn, out of combat). With `sidekicks` (the Good, the Bad,
    and the Munchkin) it may instead go on a Sidekick, at any time: one more Sidekick in play."""

    def __init__(self, sidekicks: bool = False) -> None:
        self.sidekicks = sidekicks

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        p = g.players[seat]
        if p.cheats and not as_written(g):  # older rules: one Cheat! a player
            return []
        out: list[Action] = []  # one Cheat! to a card: a second one goes on another Item
        if own_turn_free(g, seat):
            items = [c for c in p.items if c not in p.cheats] + [c for c in p.hand if g.cdef[c].is_item]
            out += [Action(A.PLAY, seat, card, cards=(c,), flag="with") for c in uniq(g, items)]
        if self.sidekicks and (g.listing is D.FREE or g.listing is D.IN_WINDOW):
            kicks = [c for c in p.sidekicks if c not in p.cheats] + [c for c in p.hand if g.cdef[c].is_sidekick]
            out += [Action(A.PLAY, seat, card, cards=(c,), flag="with") for c in uniq(g, kicks)]
        return out

    def apply(self, g: Game, act: Action) -> None:
        p = g.players[act.seat]
        p.hand.remove(act.card)
        item = act.cards[0]
        p.cheats[item] = act.card
        if g.cdef[item].is_sidekick:
            if item in p.hand:
                p.hand.remove(item)
                p.sidekicks.append(item)
            g.events.append(E.Play(act.seat, act.card))
            return
        if item in p.hand:
            p.hand.remove(item)
            p.items.append(item)
        p.equipped.add(item)
        g.events.append(E.Play(act.seat, act.card))


hook("library.attach_race")(Attachment("race"))
hook("library.attach_class")(Attachment("class"))
hook("library.use_any_item")(Cheat())
