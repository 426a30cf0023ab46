"""Hooks of the vocabulary test cards: a Race's and a Sidekick's power on their owner's turn."""

from __future__ import annotations

from typing import Any

from munchkin.cards.hooks import CardHook
from munchkin.cards.loader import hook
from munchkin.engine import actions as A
from munchkin.engine import changes
from munchkin.engine import decisions as D
from munchkin.engine.actions import Action


class SpendForALevel(CardHook):
    """On your own turn outside combat, discard this card (in play) to go up a Level."""

    def actions(self, g: Any, seat: int, card: int) -> list[Action]:
        if seat != g.active or g.combat is not None or g.listing is not D.FREE:
            return []
        return [Action(A.USE, seat, card)]

    def apply(self, g: Any, act: Action) -> None:
        p = g.players[act.seat]
        changes.spend(g, p, act.card)
        changes.gain_levels(g, p, 1, g.cdef[act.card].name)


hook("vocabulary.gnome")(SpendForALevel())
hook("vocabulary.lucky_cat")(SpendForALevel())
