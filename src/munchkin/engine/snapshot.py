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
# the records one state may hold in two places (a monster and its Mate's `mate_of`): numbered, and the
# second mention refers to the first. No other record is held twice (`Game.clone` copies each apart)
SHARED = frozenset({Combat, MonsterIn})
_PACKAGE = "munchkin."
_HOMES = ("engine.", "cards.", "sets.")  # the packages whose records a snapshot may name (the rules and the card hooks)


_PLAIN = frozenset({int, str, bool, float, type(None)})  # written as they are
_NAMES: dict[type, str] = {}


def _name(cls: type) -> str:
    """How a snapshot names a record kind: its module in the package and its name ("engine.turn:Main")."""
    name = _NAMES.get(cls)
    if name is None:
        name = _NAMES[cls] = f"{cls.__module__.removeprefix(_PACKAGE)}:{cls.__qualname__}"
    return name


def _kinds(base: type) -> dict[str, type]:
    """Every record kind of `base` the engine has now, by its snapshot name: `base` and the kinds that
    come from it, the card hooks' steps among them (loaded with their sets)."""
    out: dict[str, type] = {}
    todo = [base]
    while todo:
        cls = todo.pop()
        out[_name(cls)] = cls
        todo += cls.__subclasses__()
    return out


_KNOWN: dict[type, dict[str, type]] = {}  # the kinds of each base met so far, by name


def _record_class(name: Any, bases: tuple[type, ...]) -> type:
    """The class a snapshot names, which must be one of the engine's records of `bases`."""
    if not isinstance(name, str) or ":" not in name:
        raise MunchkinError(f"the snapshot names no record kind: {name!r}")
    if not name.split(":", 1)[0].startswith(_HOMES):
        raise MunchkinError(f"the snapshot names a record outside the game's state: {name}")
    for base in bases:
        cls = _KNOWN.get(base, {}).get(name)
        if cls is None:  # not met yet: look again (a card hook's steps come with their set)
            _KNOWN[base] = _kinds(base)
            cls = _KNOWN[base].get(name)
        if cls is not None:
            return cls
    raise MunchkinError(f"the snapshot names {name}, which is no record of the game's state this engine has")


_FIELDS: dict[type, list[str]] = {}


def _fields(cls: type) -> list[str]:
    """A record kind's fields: the slots of it and of the kinds it comes from (worked out once per kind)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = []
        for c in reversed(cls.__mro__):
            names += [n for n in getattr(c, "__slots__", ()) if n not in names and not n.startswith("__")]
        _FIELDS[cls] = names
    return names


class _Writer:
    """Turns state into JSON data: lists stay lists, everything else is a one-key object saying its kind."""

    def __init__(self) -> None:
        self.seen: dict[int, int] = {}  # id of a record of the fight written -> its number

    def value(self, x: Any) -> Any:
        t = type(x)
        if t in _PLAIN:
            return x
        if t is list:
            return self.items(x)
        if t is tuple:
            return {"t": self.items(x)}
        if t is Action:
            return {"a": self.items(x)}
        if isinstance(x, E.Event):
            return {"e": _name(t), "v": self.items(x[1:])}
        if t is dict:
            plain = _PLAIN
            return {
                "d": [
                    [k if type(k) in plain else self.value(k), v if type(v) in plain else self.value(v)]
                    for k, v in x.items()
                ]
            }
        if t is set or t is frozenset:
            return {"s" if t is set else "f": sorted(self.items(x), key=repr)}
        if isinstance(x, Chance):
            return {"c": self.chance(x)}
        if t is Effect:  # card data a step runs: written in the cards' own vocabulary
            return {"x": x.model_dump(mode="json", by_alias=True, exclude_defaults=True)}
        if isinstance(x, RECORDS):
            if t not in SHARED:
                return {"o": _name(t), "v": self.fields(x)}
            n = self.seen.get(id(x))
            if n is not None:
                return {"r": n}
            n = self.seen[id(x)] = len(self.seen)
            return {"o": _name(t), "n": n, "v": self.fields(x)}
        raise MunchkinError(f"a snapshot cannot hold a {t.__name__} ({x!r:.60})")

    def items(self, xs: Any) -> list[Any]:
        """The items of a list, tuple or set, each written (most are card numbers: kept as they are)."""
        return [v if type(v) in _PLAIN else self.value(v) for v in xs]

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


_RANDOM_KINDS = {c.__name__: c for c in (RandomChance, SeededChance, type(SeededChance.later(0)))}


HISTORY = ("log", "events")  # the parts that only grow: a move's record holds what it added to them


def take(g: Game, history: bool = True) -> dict[str, Any]:
    """The game's whole state as JSON data (the setup's part left out: the save holds the setup);
    without `history`, the log and the events left out too."""
    parts = {k: v for k, v in vars(g).items() if k not in CACHES and k not in FROM_SETUP}
    if not history:
        for k in HISTORY:
            del parts[k]
    w = _Writer()
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
    changed keys (None: no change at all), a list of the same length its items that changed, another
    list how many items it keeps from the start and what follows them."""
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
    if not (isinstance(before, list) and isinstance(after, list)):
        return {"=": after}
    if len(after) == len(before):
        return {"i": [[i, diff(b, a)] for i, (b, a) in enumerate(zip(before, after, strict=True)) if b != a]}
    kept = 0  # the items both begin with (a stack's lower steps, a log's past entries)
    while kept < min(len(before), len(after)) and before[kept] == after[kept]:
        kept += 1
    return {"k": kept, "+": after[kept:]}


def patch(before: Any, change: Any) -> Any:
    """The snapshot data `diff` was taken to, from the one before and the change (neither is changed)."""
    if change is None:
        return before
    if not isinstance(change, dict):
        raise MunchkinError("a move's change is broken")
    if "=" in change:
        return change["="]
    if "+" in change and isinstance(before, list):
        return [*before[: change.get("k", len(before))], *change["+"]]
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


class Recorder:
    """A game's record as it is played: its snapshot at the start, then each move's change, so that
    the game can be shown after any move without a rule being run (`at_move`)."""

    def __init__(self, g: Game) -> None:
        self.start = take(g)
        self.last = take(g, history=False)["state"]
        self.grown = [len(getattr(g, k)) for k in HISTORY]
        self.moves: list[dict[str, Any]] = []

    def move(self, g: Game) -> None:
        """Record the move just made: the change to the state, and what it added to the log and events."""
        now = take(g, history=False)["state"]
        w = _Writer()
        step: dict[str, Any] = {"change": diff(self.last, now)}
        for i, k in enumerate(HISTORY):
            whole = getattr(g, k)
            step[k] = [w.value(e) for e in whole[self.grown[i] :]]
            self.grown[i] = len(whole)
        self.moves.append(step)
        self.last = now

    def record(self) -> dict[str, Any]:
        return {"start": self.start, "moves": self.moves}


def record_problem(record: Any) -> str | None:
    """Why a save's record is not one `at_move` can read, in words, or None (nothing is restored)."""
    if not isinstance(record, dict) or not isinstance(record.get("start"), dict):
        return "the save's record has no start"
    moves = record.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, dict) for m in moves):
        return "the save's record has no list of moves"
    start = record["start"]
    if start.get("snapshot") != SNAPSHOT_FORMAT or not isinstance(start.get("state"), dict):
        return f"the save's record does not start with a snapshot of format {SNAPSHOT_FORMAT}"
    return None


def at_move(setup: Setup, record: dict[str, Any], n: int, rules: int) -> Game:
    """The game of a save's record after its first `n` moves, restored from the record alone."""
    problem = record_problem(record)
    if problem:
        raise MunchkinError(problem)
    moves = record["moves"]
    if not 0 <= n <= len(moves):
        raise MunchkinError(f"the record has {len(moves)} moves, not {n}")
    start = record["start"]["state"]
    state = {k: v for k, v in start.items() if k not in HISTORY}
    history: dict[str, list[Any]] = {k: list(start.get(k, [])) for k in HISTORY}
    for i, step in enumerate(moves[:n]):
        try:
            state = patch(state, step["change"])
            for k in HISTORY:
                history[k] += step[k]
        except (KeyError, TypeError, IndexError, AttributeError):
            raise MunchkinError(f"the record's move {i + 1} is broken") from None
    return restore(setup, {"snapshot": SNAPSHOT_FORMAT, "state": {**state, **history}}, rules)


__all__ = ["SNAPSHOT_FORMAT", "Recorder", "at_move", "diff", "patch", "record_problem", "restore", "take"]
