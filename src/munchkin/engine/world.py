"""Worlds dealt on first need: a seat's determinized copy of the game (`determinize.py`) that
shares the table with the game until something reads what the deal decides, so an agent that
judges by the table alone pays almost nothing for a world."""

from __future__ import annotations

import contextlib
import random
import weakref
from typing import Any

from munchkin.engine.actions import MunchkinError
from munchkin.engine.determinize import _deal, _draw, _unknown, _unseeded
from munchkin.engine.game import Game
from munchkin.engine.state import Player

# what a world holds back until something reads it: the decks and what tells of the hidden cards
# (who has seen which card, the events, the flow), and the chance (its seed is the world's own)
DEALT = ("door_deck", "treasure_deck", "hand_seen", "events", "_stack", "chance", "roll", "forced_rolls")
# a player's fields that may name cards another seat cannot know
PRIVATE = frozenset({"hand", "received"})


def world(g: Game, observer: int | None, rng: random.Random | int) -> Game:
    """`determinize(g, observer, rng)`, dealt only when something reads what the deal decides (a
    hidden hand, a deck, the flow, the events), so an agent that reads the table alone pays for no
    copy. Until then the world shares the table with `g`, read-only: `deal()` must run before `g`
    moves on (an Observation deals the worlds still alive when it closes), and every rule run on the
    world (`apply`, a copy, a save) deals it first. Dealt, it is exactly what `determinize` gives.
    `rng` a number: the seed of a generator no one else holds, so it is made, and drawn from, only
    when the world is dealt (the same world, and nothing to pay for a world never dealt)."""
    if isinstance(g, World):
        g.deal()  # a world of a world: the first one whole first
    draws: int | tuple[int, list[bytes]]
    hidden: set[int] | None = None
    if isinstance(rng, random.Random):  # the caller's generator: drawn from now, whenever it is dealt
        reseed, keys, hidden = _draw(g, observer, rng)
        draws = (reseed, keys)
    else:
        draws = rng
    w = object.__new__(World)
    d = w.__dict__
    d.update(g.__dict__)
    for k in DEALT:
        del d[k]
    d["log"] = []
    d["_legal_cache"], d["_window_cache"], d["_any_time_cache"] = {}, {}, {}
    d["_cache_version"] = d["_window_version"] = -1
    d["_win_cache"] = (-1, None, False)
    d["_masked_events"] = {}
    d["setup"] = _unseeded(g)
    d["seeded"] = False
    d["hypothetical"] = True
    if g.combat is not None:  # the world's own from the start: a rule may change it once dealt
        d["combat"] = g.combat.copy({})
    if type(g._prompt).CARDS:
        if hidden is None:
            hidden = {c for _, _, c in _unknown(g, observer)}
        if hidden and g._prompt.with_cards(dict.fromkeys(hidden, -1)) != g._prompt:
            del d["_prompt"]  # it names a card the deal may change
    ref = weakref.ref(w)  # not the world itself: a world no one holds any more is freed at once
    # another seat's hand is read only after the deal (unless none of its cards can be dealt anew)
    d["players"] = [WorldPlayer(q, ref, q.seat != observer and hidden != set()) for q in g.players]
    d["_undealt"] = (g, g.version, observer, draws)
    return w


class World(Game):
    """A world whose hidden cards are not dealt yet (see `world`)."""

    def __getattr__(self, name: str) -> Any:
        """A part held back until read (`DEALT`): the world is dealt, then it is there."""
        d = self.__dict__
        if "_undealt" in d:
            self.deal()
            if name in d:
                return d[name]
        raise AttributeError(f"a game has no {name!r}")

    @property
    def is_dealt(self) -> bool:
        """Whether the hidden cards are dealt (then the world shares nothing with its game)."""
        return "_undealt" not in self.__dict__

    def deal(self) -> None:
        """Deal the hidden cards now (nothing if done already): then the world shares nothing with
        the game it came from."""
        d = self.__dict__
        undealt = d.pop("_undealt", None)
        if undealt is None:
            return
        g, version, observer, draws = undealt
        if g.version != version:
            raise MunchkinError("this world was not dealt before its game moved on; call deal() before answering")
        if isinstance(draws, int):  # the generator's seed: drawn from now, as it would have been at once
            reseed, keys, _ = _draw(g, observer, random.Random(draws))
        else:
            reseed, keys = draws
        dealt = _deal(g, observer, reseed, keys)
        players, combat = d["players"], d["combat"]
        d.update(dealt.__dict__)
        d["combat"] = combat  # already the world's own
        d["_legal_cache"], d["_window_cache"], d["_any_time_cache"] = {}, {}, {}
        d["_cache_version"] = d["_window_version"] = -1
        for lazy, real in zip(players, dealt.players, strict=True):
            lazy.dealt(real)  # a player read before the deal reads the dealt one


class WorldPlayer(Player):
    """A player of a world not dealt yet: it reads the real player's fields (each kept on first
    read), and deals the world before it tells a hidden hand (`hidden`: a seat other than the
    world's). Once the world is dealt it forgets what it kept and reads the dealt player."""

    __slots__ = ("_of", "_world", "_hidden", "_undealt")

    def __init__(self, of: Player, world: weakref.ref[World], hidden: bool) -> None:
        self._of, self._world, self._hidden, self._undealt = of, world, hidden, True

    def __getattr__(self, name: str) -> Any:
        """Only a field not set on this copy comes here: read from the player it stands for."""
        if self._hidden and name in PRIVATE:
            w = self._world()
            if w is None:
                raise MunchkinError("this player's world is gone: hold the world, not only its players")
            w.deal()
        v = getattr(self._of, name)
        if self._undealt:
            setattr(self, name, v)  # read once: the real player does not change before the deal
        return v

    def dealt(self, real: Player) -> None:
        """The world is dealt: stand for `real` from now on."""
        self._of, self._hidden, self._undealt = real, False, False
        for name in Player.__slots__:
            with contextlib.suppress(AttributeError):  # a field never read was never kept
                delattr(self, name)


def _dealt_first(name: str) -> Any:
    """`Game.<name>`, run on a world after dealing it: a rule, a copy or a save sees the whole world."""
    method = getattr(Game, name)

    def run(self: World, *args: Any, **kwargs: Any) -> Any:
        self.deal()
        return method(self, *args, **kwargs)

    run.__name__, run.__qualname__, run.__doc__ = name, f"World.{name}", method.__doc__
    return run


# what runs rules on a world, copies it or writes it out: each deals the world first
RULES_RUN = (
    *("apply", "_apply_unchecked", "play", "apply_sequence", "hold_forced_moves", "apply_stored"),
    *("_copy", "to_json", "log_json", "state_digest", "fingerprint", "__getstate__"),  # a pickle, a deepcopy too
)
for _name in RULES_RUN:
    setattr(World, _name, _dealt_first(_name))

__all__ = ["World", "WorldPlayer", "world"]
