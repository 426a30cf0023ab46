"""A game's whole state as JSON data and back, without replaying a single rule.

A save of older rules can so go on under today's rules from where it stood, and a save can show
every move of its game as it was played without the rules it was played under: each move's state
is kept as the change from the one before (`diff`, `patch`). What the setup fixes (the cards, the
Houses, the options) is read again from the setup; the caches start empty (digest.CACHES).

The data names each record by its module and class; only the engine's own records are read back
(a step, a decision, an event, a player, a fight, an action, a chance), so a save cannot make the
loader build anything else.
"""

from __future__ import annotations

import importlib
import random
from typing import TYPE_CHECKING, Any

from munchkin.cards.schema import Effect
from munchkin.engine import events as E
from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.chance import Chance, FairChance, RandomChance, RecordedChance, SeededChance, SystemChance
from munchkin.engine.decisions import Decision
from munchkin.engine.digest import CACHES, FIXED
from munchkin.engine.flow import Step
from munchkin.engine.run_away import RollState
from munchkin.engine.state import Combat, MonsterIn, Player

if TYPE_CHECKING:
    from munchkin.engine.game import Game, Setup

SNAPSHOT_FORMAT = 1  # the shape of the data below; a later shape reads this one and says how
# what the setup fixes, read again from it when a snapshot is restored (digest.FIXED and the rest)
FROM_SETUP = FIXED | {
    *("setup", "ncards", "listen_variant", "rules"),
    *("sidekicks_discardable", "has_races", "has_classes", "sidekick_sexes", "allies", "item_grants"),
    "extra_big_cards",
}
RECORDS = (Step, Decision, Player, Combat, MonsterIn, RollState)  # the kinds of record a snapshot may hold
_PACKAGE = "munchkin."
_HOMES = ("engine.", "cards.", "sets.")  # the packages whose records a snapshot may name (the rules and the card hooks)


def _name(cls: type) -> str:
    return f"{cls.__module__.removeprefix(_PACKAGE)}:{cls.__qualname__}"


def _record_class(name: Any, bases: tuple[type, ...]) -> type:
    """The class a snapshot names, which must be one of the engine's records of `bases`."""
    if not isinstance(name, str) or ":" not in name:
        raise MunchkinError(f"the snapshot names no record kind: {name!r}")
    module, qual = name.split(":", 1)
    if not module.startswith(_HOMES):
        raise MunchkinError(f"the snapshot names a record outside the game's state: {name}")
    try:
        cls: Any = importlib.import_module(_PACKAGE + module)
        for part in qual.split("."):
            cls = getattr(cls, part)
    except (ImportError, AttributeError, ValueError):
        raise MunchkinError(f"the snapshot names a record this engine does not have: {name}") from None
    if not isinstance(cls, type) or not issubclass(cls, bases):
        raise MunchkinError(f"the snapshot names {name}, which is not a record of the game's state")
    return cls


def _fields(cls: type) -> list[str]:
    names: list[str] = []
    for c in reversed(cls.__mro__):
        names += [n for n in getattr(c, "__slots__", ()) if n not in names and not n.startswith("__")]
    return names


class _Writer:
    """Turns state into JSON data: lists stay lists, everything else is a one-key object saying its kind."""

    def __init__(self, shared: set[int]) -> None:
        self.shared = shared  # ids of the records held in more than one place: numbered, then referred to
        self.seen: dict[int, int] = {}  # id of a shared record written -> its number

    def value(self, x: Any) -> Any:
        t = type(x)
        if x is None or t is bool or t is int or t is str or t is float:
            return x
        if t is list:
            return [self.value(v) for v in x]
        if t is tuple:
            return {"t": [self.value(v) for v in x]}
        if t is Action:
            return {"a": [self.value(v) for v in x]}
        if isinstance(x, E.Event):
            return {"e": _name(t), "v": [self.value(v) for v in x[1:]]}
        if t is dict:
            return {"d": [[self.value(k), self.value(v)] for k, v in x.items()]}
        if t is set or t is frozenset:
            return {"s" if t is set else "f": sorted((self.value(v) for v in x), key=repr)}
        if isinstance(x, Chance):
            return {"c": self.chance(x)}
        if t is Effect:  # card data a step runs: written in the cards' own vocabulary
            return {"x": x.model_dump(mode="json", by_alias=True, exclude_defaults=True)}
        if isinstance(x, RECORDS):
            if id(x) not in self.shared:
                return {"o": _name(t), "v": self.fields(x)}
            n = self.seen.get(id(x))
            if n is not None:
                return {"r": n}
            n = self.seen[id(x)] = len(self.seen)
            return {"o": _name(t), "n": n, "v": self.fields(x)}
        raise MunchkinError(f"a snapshot cannot hold a {t.__name__} ({x!r:.60})")

    def fields(self, x: Any) -> dict[str, Any]:
        return {f: self.value(getattr(x, f)) for f in _fields(type(x)) if hasattr(x, f)}

    def chance(self, x: Chance) -> dict[str, Any]:
        t = type(x)
        if t is SystemChance:
            return {"kind": "system"}
        if isinstance(x, FairChance):
            return {"kind": "fair", "key": x._key.hex(), "draws": x.draws, "choices": x.choices}
        if isinstance(x, RecordedChance):
            outcomes = self.value(list(x.outcomes))
            return {"kind": "recorded", "outcomes": outcomes, "pos": x.pos, "then": self.chance(x.then)}
        if isinstance(x, RandomChance):
            if "rng" not in x.__dict__:  # seeded later: nothing drawn yet
                return {"kind": "seed", "seed": x.__dict__["seed"]}
            version, words, gauss = x.rng.getstate()
            return {"kind": "random", "as": t.__name__, "state": [version, list(words), gauss]}
        raise MunchkinError(f"a snapshot cannot hold the chance {t.__name__}")


class _Reader:
    """JSON data back into state, each record of the kinds `RECORDS` names and no other."""

    def __init__(self) -> None:
        self.made: dict[int, Any] = {}

    def value(self, x: Any) -> Any:
        if x is None or isinstance(x, (bool, int, str, float)):
            return x
        if isinstance(x, list):
            return [self.value(v) for v in x]
        if not isinstance(x, dict) or len(x) not in (1, 2, 3):
            raise MunchkinError(f"the snapshot holds something it cannot: {x!r:.80}")
        if "t" in x:
            return tuple(self.value(v) for v in x["t"])
        if "a" in x:
            return Action(*(self.value(v) for v in x["a"]))
        if "e" in x:
            cls = _record_class(x["e"], (E.Event,))
            return tuple.__new__(cls, (cls.kind, *(self.value(v) for v in x["v"])))  # type: ignore[attr-defined]
        if "d" in x:
            return {self.value(k): self.value(v) for k, v in x["d"]}
        if "s" in x:
            return {self.value(v) for v in x["s"]}
        if "f" in x:
            return frozenset(self.value(v) for v in x["f"])
        if "c" in x:
            return self.chance(x["c"])
        if "x" in x:
            return Effect.model_validate(x["x"])
        if "r" in x:
            try:
                return self.made[x["r"]]
            except (KeyError, TypeError):
                raise MunchkinError(f"the snapshot refers to record {x['r']!r} before it holds it") from None
        if "o" in x:
            cls = _record_class(x["o"], RECORDS)
            new: Any = object.__new__(cls)
            if "n" in x:
                self.made[x["n"]] = new
            names = set(_fields(cls))
            for f, v in x["v"].items():
                if f not in names:
                    raise MunchkinError(f"the snapshot gives {x['o']} a field it does not have: {f}")
                setattr(new, f, self.value(v))
            return new
        raise MunchkinError(f"the snapshot holds something it cannot: {x!r:.80}")

    def chance(self, x: dict[str, Any]) -> Chance:
        kind = x.get("kind")
        if kind == "system":
            return SystemChance()
        if kind == "fair":
            return FairChance(bytes.fromhex(x["key"]), x["draws"], x["choices"])
        if kind == "recorded":
            new: RecordedChance = RecordedChance(self.value(x["outcomes"]), self.chance(x["then"]))
            new.pos = x["pos"]
            return new
        if kind == "seed":
            return SeededChance.later(x["seed"])
        if kind == "random":
            version, words, gauss = x["state"]
            rng = random.Random()
            rng.setstate((version, tuple(words), gauss))
            made = object.__new__(_RANDOM_KINDS.get(x.get("as", ""), RandomChance))
            made.rng = rng
            return made
        raise MunchkinError(f"the snapshot holds a chance of no known kind: {kind!r}")


def _shared(parts: dict[str, Any]) -> set[int]:
    """The ids of the records that more than one place holds (a monster and its Mate's `mate_of`, the
    fight and a step): a snapshot numbers them, so that they are one record again when restored."""
    once: set[int] = set()
    twice: set[int] = set()
    todo: list[Any] = list(parts.values())
    while todo:
        x = todo.pop()
        t = type(x)
        if t is list or t is tuple or t is set or t is frozenset:
            todo.extend(x)
        elif t is dict:
            todo.extend(x.keys())
            todo.extend(x.values())
        elif isinstance(x, RECORDS):
            if id(x) in once:
                twice.add(id(x))
                continue
            once.add(id(x))
            todo.extend(getattr(x, f) for f in _fields(t) if hasattr(x, f))
    return twice


_RANDOM_KINDS = {c.__name__: c for c in (RandomChance, SeededChance, type(SeededChance.later(0)))}


def take(g: Game) -> dict[str, Any]:
    """The game's whole state as JSON data (the setup's part left out: the save holds the setup)."""
    parts = {k: v for k, v in vars(g).items() if k not in CACHES and k not in FROM_SETUP}
    w = _Writer(_shared(parts))
    state = {k: w.value(v) for k, v in parts.items()}
    return {"snapshot": SNAPSHOT_FORMAT, "state": state}


def restore(setup: Setup, data: dict[str, Any], rules: int) -> Game:
    """The game a snapshot holds, its cards read again from `setup` (as saved with it); it plays on
    under `rules`. Raises MunchkinError naming what does not fit."""
    from munchkin.engine.game import Game

    if not isinstance(data, dict) or data.get("snapshot") != SNAPSHOT_FORMAT or not isinstance(data.get("state"), dict):
        raise MunchkinError(f"not a snapshot of format {SNAPSHOT_FORMAT}")
    g = object.__new__(Game)
    g.rules = rules
    g._read_sets(setup)
    g._empty_caches()
    r = _Reader()
    try:
        for k, v in data["state"].items():
            if k in CACHES or k in FROM_SETUP or not k.isidentifier():
                raise MunchkinError(f"a snapshot does not hold {k!r}")
            setattr(g, k, r.value(v))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise MunchkinError(f"the snapshot is broken: {exc!r}") from None
    missing = [k for k in _STATE if k not in vars(g)]
    if missing:
        raise MunchkinError(f"the snapshot lacks part of the state: {', '.join(missing)}")
    return g


# the parts of the state a snapshot must hold (those a new game has besides the setup's and the caches)
_STATE = (
    *("chance", "seeded", "forced_rolls", "players", "door_deck", "treasure_deck", "door_discard"),
    *("treasure_discard", "log", "events", "turn", "active", "combat", "over", "capped", "winners"),
    *("version", "decisions", "phase", "limbo", "set_aside", "charity_given", "hand_seen", "hypothetical"),
    *("transferred", "roll", "forced_at_setup", "holding", "held", "_stack", "_prompt"),
)


def diff(before: Any, after: Any) -> Any:
    """The change from one snapshot's data to the next, to be put back by `patch`: a dict lists its
    changed keys (None: no change at all), a list that grew at its end only its new items, a list of
    the same length its items that changed."""
    if before == after:
        return None
    if isinstance(before, dict) and isinstance(after, dict):
        out: dict[str, Any] = {}
        for k, v in after.items():
            if k not in before:
                out[k] = {"=": v}
            elif before[k] != v:
                out[k] = diff(before[k], v)
        gone = [k for k in before if k not in after]
        return {"~": out, "-": gone} if gone else {"~": out}
    lists = isinstance(before, list) and isinstance(after, list)
    if lists and len(after) > len(before) and after[: len(before)] == before:
        return {"+": after[len(before) :]}
    if lists and len(after) == len(before):
        return {"i": [[i, diff(b, a)] for i, (b, a) in enumerate(zip(before, after, strict=True)) if b != a]}
    return {"=": after}


def patch(before: Any, change: Any) -> Any:
    """The snapshot data `diff` was taken to, from the one before and the change (neither is changed)."""
    if change is None:
        return before
    if not isinstance(change, dict):
        raise MunchkinError("a move's change is broken")
    if "=" in change:
        return change["="]
    if "+" in change:
        return [*before, *change["+"]]
    if "i" in change and isinstance(before, list):
        out_list = list(before)
        for i, c in change["i"]:
            out_list[i] = patch(before[i], c)
        return out_list
    if "~" in change and isinstance(before, dict):
        out = {k: v for k, v in before.items() if k not in change.get("-", ())}
        for k, v in change["~"].items():
            out[k] = patch(before.get(k), v)
        return out
    raise MunchkinError("a move's change is broken")


__all__ = ["SNAPSHOT_FORMAT", "diff", "patch", "restore", "take"]
