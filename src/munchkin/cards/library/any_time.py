"""Cards played at any time: take a card back from the discards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from munchkin.cards.hooks import CardHook, hook
from munchkin.engine import actions as A
from munchkin.engine import changes, resolve
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.flow import Done, Frame, Out, Step

if TYPE_CHECKING:
    from munchkin.engine.game import Game


class WandOfDowsing(CardHook):
    """Wand of Dowsing (Salvage Scanner): at any time, any one card from the discards."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if not (g.listing is D.FREE or g.listing is D.IN_WINDOW) or not (g.door_discard or g.treasure_discard):
            return []
        return [Action(A.PLAY, seat, card)]

    def apply(self, g: Game, act: Action) -> Frame:
        return Dowse(act.seat, act.card)


@dataclass(slots=True)
class Dowse(Step):
    """Wand of Dowsing: take any one card from the discards."""

    CARDS = ("card",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    card: int

    def start(self, g: Game, _: Any) -> Out:
        changes.remove_from_play(g, g.players[self.seat], self.card)
        g.limbo.append(self.card)
        pool = g.door_discard + g.treasure_discard
        return self.then("chosen", resolve.choose_card(g, self.seat, pool, "take a card from the discards"))

    def chosen(self, g: Game, k: int) -> Out:
        (g.door_discard if k in g.door_discard else g.treasure_discard).remove(k)
        g.limbo.remove(self.card)
        g.discard(self.card)
        g.give_card(g.players[self.seat], k)
        g.events.append(E.Dowse(self.seat, k, self.card))
        return Done()


hook("library.take_from_discards")(WandOfDowsing())
