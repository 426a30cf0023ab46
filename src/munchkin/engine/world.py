"""Worlds dealt on first need: a seat's determinized copy of the game (`determinize.py`) that
shares the table with the game until something reads what the deal decides, so an agent that
judges by the table alone pays almost nothing for a world.

No class an agent reads a lot has a `__getattr__`: it would slow every attribute read (CPython then
takes its slow lookup, and cannot specialize the read), and an agent reads thousands a decision.
What is held back is reached through descriptors of the undealt classes instead (a world changes
class once dealt), and a world's player keeps each field of the real player at its first read."""

from __future__ import annotations

import random
import weakref
from operator import attrgetter
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
    hides, kept, make = hidden != set(), (g, g.version), object.__new__
    players = d["players"] = []
    for q in g.players:  # made without an __init__ call: a world is made at every decision
        if q.seat == observer:  # its own player: read in full by most agents, so kept in one step
            wp = make(WorldPlayer)
            wp.__dict__.update(zip(_FIELDS, _get_fields(q), strict=True))
        else:  # what an agent reads of every player first (who leads): kept at once
            wp = make(HiddenWorldPlayer if hides else WorldPlayer)
            wp.seat, wp.level, wp.dead, wp.equipped = q.seat, q.level, q.dead, q.equipped
        wp._of, wp._world, wp._game = q, ref, kept
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
    """A part held back until the deal: a world's `DEALT` parts (and a decision naming cards the deal
    may change), another seat's hand on a world's player. Reading it deals the world (`deal`), after
    which the part is read where it now is (the world's own, or the dealt player's)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: UndealtWorld | _WorldPlayerBase | None, owner: type) -> Any:
        if obj is None:
            return self
        obj.deal()  # its class changes: this part is found without coming here again
        return getattr(obj, self.name)


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
        for lazy, real in zip(players, dealt.players, strict=True):
            lazy.dealt(real)  # a player read before the deal reads the dealt one


for _name in (*DEALT, "_prompt"):
    setattr(UndealtWorld, _name, _DealtOnRead(_name))


class _KeptOnRead:
    """A field of a world's player, kept from the real player at its first read (then read from the
    instance's own dict, which a non-data descriptor gives way to): a world read for four fields of
    each player copies four, not all. The real game must not have moved on since the world was made
    (the deal refuses then too)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: WorldPlayer | None, owner: type) -> Any:
        if obj is None:
            return self
        d = obj.__dict__
        g, version = d["_game"]
        if g.version != version:
            raise MunchkinError("this world was not dealt before its game moved on; call deal() before answering")
        v = d[self.name] = getattr(d["_of"], self.name)
        return v


class _Dealt:
    """A field of a dealt world's player: the world's own player's, read and written through."""

    __slots__ = ("get", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.get = attrgetter(name)

    def __get__(self, obj: DealtPlayer | None, owner: type) -> Any:
        if obj is None:
            return self
        return self.get(obj.__dict__["_of"])

    def __set__(self, obj: DealtPlayer, value: Any) -> None:
        setattr(obj.__dict__["_of"], self.name, value)


class _WorldPlayerBase:
    """What the players of a world share: a `Player`'s methods, over fields reached through the
    descriptors of each subclass."""

    in_play = Player.in_play
    character_cards = Player.character_cards
    exempt = Player.exempt
    copy = Player.copy

    def deal(self) -> None:
        """Deal this player's world (a hidden hand is read)."""
        w = self.__dict__["_world"]()
        if w is None:
            raise MunchkinError("this player's world is gone: hold the world, not only its players")
        w.deal()

    def dealt(self, real: Player) -> None:
        """The world is dealt: stand for `real` from now on, whose fields change as the world is played."""
        d = self.__dict__
        world = d["_world"]
        d.clear()
        d.update(_of=real, _world=world)
        self.__class__ = DealtPlayer


class WorldPlayer(_WorldPlayerBase):
    """A player of a world not dealt yet: each field is kept from the real player at its first read
    (the real player does not change before the deal) and read as fast as any attribute after that.
    A hidden hand (`HiddenWorldPlayer`, another seat's) is read only after dealing the world. Once the
    world is dealt the player forgets what it kept and reads the dealt player (`DealtPlayer`)."""

    _of: Player
    _world: weakref.ref[UndealtWorld]
    _game: tuple[Game, int]  # the game it stands in, and that game's version when the world was made
    # (every field of Player is read through a `_KeptOnRead`; these are kept when it is made)
    seat: int
    level: int
    dead: bool
    equipped: set[int]


class HiddenWorldPlayer(WorldPlayer):
    """A `WorldPlayer` of another seat: its hand is dealt before it is read."""


class DealtPlayer(_WorldPlayerBase):
    """A player of a world once dealt: the dealt player's fields, as they are now."""


_FIELDS = Player.__slots__
_get_fields = attrgetter(*_FIELDS)
for _name in _FIELDS:
    setattr(WorldPlayer, _name, _KeptOnRead(_name))
    setattr(DealtPlayer, _name, _Dealt(_name))
for _name in PRIVATE:
    setattr(HiddenWorldPlayer, _name, _DealtOnRead(_name))


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

__all__ = ["DealtPlayer", "HiddenWorldPlayer", "UndealtWorld", "World", "WorldPlayer", "world"]
