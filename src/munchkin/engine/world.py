"""Worlds dealt on first need: a seat's determinized copy of the game (`determinize.py`) that
shares the table with the game until something reads what the deal decides, so an agent that
judges by the table alone pays almost nothing for a world.

No class an agent reads a lot has a `__getattr__`: it would slow every attribute read (CPython then
takes its slow lookup, and cannot specialize the read), and an agent reads thousands a decision.
What is held back is reached through descriptors of the undealt classes instead (a world changes
class once dealt). A world's players are plain `Player`s sharing the real players' fields, but for
another seat's hand, which deals the world when used (`_HeldBack`)."""

from __future__ import annotations

import random
import weakref
from typing import Any

from munchkin.engine.actions import MunchkinError
from munchkin.engine.determinize import _deal, _draw, _unknown
from munchkin.engine.game import Game
from munchkin.engine.state import Player

# what a world holds back until something reads it: the decks and what tells of the hidden cards
# (who has seen which card, the events, the flow), the chance (its seed is the world's own) and the
# setup (the world's carries no seed; read by no rule but the first turn's)
DEALT = ("door_deck", "treasure_deck", "hand_seen", "events", "_stack", "chance", "roll", "forced_rolls", "setup")


def world(g: Game, observer: int | None, rng: random.Random | int) -> Game:
    """`determinize(g, observer, rng)`, dealt only when something reads what the deal decides (a
    hidden hand, a deck, the flow, the events), so an agent that reads the table alone pays for no
    copy. Until then the world shares the table with `g`, read-only: `deal()` must run before `g`
    moves on (an Observation deals the worlds still alive when it closes), and every rule run on the
    world (`apply`, a copy, a save) deals it first. Dealt, it is exactly what `determinize` gives.
    `rng` a number: the seed of a generator no one else holds, so it is made, and drawn from, only
    when the world is dealt (the same world, and nothing to pay for a world never dealt)."""
    if isinstance(g, UndealtWorld):
        g.deal()  # a world of a world: the first one whole first
    draws: int | tuple[int, list[bytes]]
    hidden: set[int] | None = None
    if isinstance(rng, random.Random):  # the caller's generator: drawn from now, whenever it is dealt
        reseed, keys, hidden = _draw(g, observer, rng)
        draws = (reseed, keys)
    else:
        draws = rng
    w = object.__new__(UndealtWorld)
    d = w.__dict__
    d.update(g.__dict__)  # the parts in DEALT are read through the class, which deals first (a data
    # descriptor comes before the instance's own entry: none is deleted, which would cost more)
    d["log"] = []
    d["_legal_cache"], d["_window_cache"], d["_any_time_cache"] = {}, {}, {}
    d["_cache_version"] = d["_window_version"] = -1
    d["_win_cache"] = (-1, None, False)
    d["_masked_events"] = {}
    d["seeded"] = False
    d["hypothetical"] = True
    if g.combat is not None:  # the world's own from the start: a rule may change it once dealt
        d["combat"] = g.combat.copy({})
    if type(g._prompt).CARDS:
        if hidden is None:
            hidden = {c for _, _, c in _unknown(g, observer)}
        if hidden and g._prompt.with_cards(dict.fromkeys(hidden, -1)) != g._prompt:
            del d["_prompt"]  # it names a card the deal may change
    # the players: plain `Player`s sharing the real ones' fields (read as fast as the game's own, by the
    # same specialized code); another seat's hand, when it may hold a card the deal can change, is held
    # back until the deal (as are the cards it received this turn)
    ref = weakref.ref(w) if hidden != set() else None  # not the world itself: one no one holds is freed
    players = d["players"] = []
    make = object.__new__
    for q in g.players:  # made without an __init__ call: a world is made at every decision
        wp = make(Player)
        wp.share(q)
        if ref is not None and q.seat != observer:  # (made without an __init__ call too)
            wp.hand = h = make(_HeldBack)  # type: ignore[assignment]
            h.world, h.seat, h.name = ref, q.seat, "hand"
            if q.received:  # (none received: the dealt player has none either)
                wp.received = h = make(_HeldBack)  # type: ignore[assignment]
                h.world, h.seat, h.name = ref, q.seat, "received"
        players.append(wp)
    d["_undealt"] = (g, g.version, observer, draws)
    return w


class World(Game):
    """A seat's world, dealt: a game of its own (see `world`)."""

    @property
    def is_dealt(self) -> bool:
        """Whether the hidden cards are dealt (then the world shares nothing with its game)."""
        return True

    def deal(self) -> None:
        """Deal the hidden cards now (nothing if done already): then the world shares nothing with
        the game it came from."""


class _DealtOnRead:
    """A decision naming cards the deal may change, held back until the deal (the world's own entry
    is deleted then): reading it deals the world (`deal`), after which it is the world's own."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: UndealtWorld | None, owner: type) -> Any:
        if obj is None:
            return self
        obj.deal()  # its class changes: this part is found without coming here again
        return getattr(obj, self.name)


class _Dealt(_DealtOnRead):
    """A part of a world the deal decides (`DEALT`): reading or setting it deals the world first. A
    data descriptor, so it comes before the world's own entry (the game's, until the deal)."""

    __slots__ = ()

    def __set__(self, obj: UndealtWorld, value: Any) -> None:
        obj.deal()
        setattr(obj, self.name, value)

    def __delete__(self, obj: UndealtWorld) -> None:
        obj.deal()
        delattr(obj, self.name)


class UndealtWorld(World):
    """A world whose hidden cards are not dealt yet (see `world`); dealt, it becomes a `World`."""

    @property
    def is_dealt(self) -> bool:
        return False

    def deal(self) -> None:
        d = self.__dict__
        undealt = d.get("_undealt")
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
        del d["_undealt"]
        d.update(dealt.__dict__)
        d["combat"] = combat  # already the world's own
        d["_legal_cache"], d["_window_cache"], d["_any_time_cache"] = {}, {}, {}
        d["_cache_version"] = d["_window_version"] = -1
        self.__class__ = World  # type: ignore[assignment]  # a game of its own from now on
        for wp, real in zip(players, dealt.players, strict=True):  # a player read before the deal is the dealt one
            wp.share(real)  # the dealt copy's own lists: nothing shared with the real game any more
        d["players"] = players


for _name in DEALT:
    setattr(UndealtWorld, _name, _Dealt(_name))
UndealtWorld._prompt = _DealtOnRead("_prompt")  # type: ignore[assignment]


class _HeldBack:
    """What stands for another seat's hand (or the cards it received this turn) on a world's player
    until the world is dealt: any use of it deals the world, then acts on the dealt player's own
    (a list or set operation, a method, a comparison); the player itself then holds that one."""

    __slots__ = ("world", "seat", "name")
    __hash__ = None  # type: ignore[assignment]  # as the list or set it stands for
    world: weakref.ref[UndealtWorld]
    seat: int
    name: str

    def dealt(self) -> Any:
        """The dealt player's field, the world dealt first."""
        w = self.world()
        if w is None:
            raise MunchkinError("this player's world is gone: hold the world, not only its players")
        w.deal()
        return getattr(w.players[self.seat], self.name)

    def __getattr__(self, name: str) -> Any:  # a method of the list or set (append, discard, copy, ...)
        return getattr(self.dealt(), name)

    def __bool__(self) -> bool:
        return bool(self.dealt())

    def __radd__(self, other: Any) -> Any:
        return other + self.dealt()

    def __ror__(self, other: Any) -> Any:
        return other | self.dealt()

    def __rand__(self, other: Any) -> Any:
        return other & self.dealt()

    def __rsub__(self, other: Any) -> Any:
        return other - self.dealt()


def _passed_on(name: str) -> Any:
    def run(self: _HeldBack, *args: Any) -> Any:
        return getattr(self.dealt(), name)(*args)

    run.__name__ = name
    return run


# the operations Python looks up on the type itself (never through `__getattr__`), each passed on
for _name in (
    *("__len__", "__iter__", "__reversed__", "__contains__", "__getitem__", "__setitem__", "__delitem__"),
    *("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__repr__", "__str__"),
    *("__add__", "__mul__", "__rmul__", "__or__", "__and__", "__sub__", "__xor__", "__rxor__"),
    *("__iadd__", "__imul__", "__ior__", "__iand__", "__isub__", "__ixor__", "__reduce_ex__"),  # (a copy: as pickled)
):
    setattr(_HeldBack, _name, _passed_on(_name))


def _dealt_first(name: str) -> Any:
    """`Game.<name>`, run on a world after dealing it: a rule, a copy or a save sees the whole world."""
    method = getattr(Game, name)

    def run(self: UndealtWorld, *args: Any, **kwargs: Any) -> Any:
        self.deal()
        return getattr(self, name)(*args, **kwargs)

    run.__name__, run.__qualname__, run.__doc__ = name, f"UndealtWorld.{name}", method.__doc__
    return run


# what runs rules on a world, copies it or writes it out: each deals the world first
RULES_RUN = (
    *("apply", "_apply_unchecked", "play", "apply_sequence", "hold_forced_moves", "apply_stored"),
    *("_copy", "to_json", "log_json", "state_digest", "fingerprint"),
    *("__reduce_ex__", "__getstate__"),  # a pickle, a deepcopy: dealt before its class is taken
)
for _name in RULES_RUN:
    setattr(UndealtWorld, _name, _dealt_first(_name))

__all__ = ["UndealtWorld", "World", "world"]
