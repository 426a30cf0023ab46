"""What an agent is given when its seat must act: never the game, only what the seat may know.

An `Observation` holds the seat, its legal actions, its view (built when first read) and a way to
ask for worlds: copies of the game in which every card the seat cannot know (other hands, the
order of the decks) is dealt anew at random, and future chance reseeded (`Game.determinize`). A
world is a full `Game` the agent may read, score and play forward (a search bot branches on
them), but what it shows of the hidden cards is invented, so it tells nothing the seat does not
know. The observation reaches the real game only through a private link that the runner cuts as
soon as the agent has answered (`decide` does both).

(Within one Python process nothing stops code set on finding objects in memory; what this gives is
an interface through which no hidden card ever reaches an agent. Bots that must be kept apart for
real run in their own process, as the server's seats do.)
"""

from __future__ import annotations

import random
import weakref
from typing import TYPE_CHECKING, Any

from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.world import world

if TYPE_CHECKING:
    from munchkin.engine.game import Game


class Observation:
    """One seat's moment to act: `seat`, `legal` (among them `any_time`, what it may do at any time),
    `view`, `world()`. Valid until the agent answers."""

    __slots__ = ("seat", "legal", "any_time", "_view", "__game", "_worlds")

    def __init__(self, game: Game, seat: int, legal: list[Action]) -> None:
        self.seat = seat
        self.legal = legal
        extra = game.any_time(seat)  # what the seat may do at any time, besides answering the game
        if extra:
            anytime = set(extra)
            self.any_time: list[Action] = [a for a in legal if a in anytime]
        else:
            self.any_time = []
        self._view: dict[str, Any] | None = None
        self.__game: Game | None = game
        self._worlds: list[weakref.ref[Game]] = []

    def _game(self) -> Game:
        g = self.__game
        if g is None:
            raise MunchkinError("this observation is closed: the seat has already answered it")
        return g

    @property
    def view(self) -> dict[str, Any]:
        """All the seat may know (as `Game.view(seat)`): its hand, every table, the discards, deck sizes."""
        if self._view is None:
            self._view = self._game().view(self.seat)
        return self._view

    @property
    def prompt(self) -> str:
        """The kind of decision the seat faces (main, window, run, charity, ...)."""
        return self._game().prompt.kind

    def world(self, rng: random.Random | None = None) -> Game:
        """A copy of the game as this seat might imagine it: the cards it cannot know dealt anew at
        random (from `rng`, else from a generator seeded by the moment), chance reseeded. It is a
        function of what the seat knows and of the generator only, so knowing the generator (the
        default one is public) tells nothing of the real deal. The deal is made when something
        reads what it decides (a hidden hand, a deck), so a world read for the table alone is cheap;
        a world still held when the agent answers is dealt then (`World.deal`)."""
        g = self._game()
        seed = g.version * 7919 + self.seat  # the default generator's: made only if the world is dealt
        w = world(g, self.seat, rng if rng is not None else seed)
        self._worlds.append(weakref.ref(w))
        return w

    def text(self, action: Action) -> str:
        """An action's canonical text (as `parse` reads it back)."""
        return self._game().text(action)

    def close(self) -> None:
        """Cut the link to the game: the seat has answered. Every world still held is dealt first,
        while the game is as it was when the world was made."""
        for ref in self._worlds:
            w = ref()
            if w is not None:
                w.deal()  # type: ignore[attr-defined]
        self._worlds.clear()
        self.__game = None


def observe(game: Game, seat: int, legal: list[Action] | None = None) -> Observation:
    """The observation of `seat` now (its legal actions, unless a runner narrows them)."""
    return Observation(game, seat, game.legal_actions(seat) if legal is None else legal)


__all__ = ["Observation", "observe"]
