"""The hook protocol: what a card's Python hook may add to the rules, all optional."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from munchkin.errors import CardError

if TYPE_CHECKING:
    from munchkin.engine.actions import Action
    from munchkin.engine.flow import Frame
    from munchkin.engine.state import Combat, MonsterIn, Player


class CardHook:
    """Base of class-style hooks. The engine calls only the methods a hook overrides.

    A hook that acts (`apply`, `before_combat`) returns a rule to run (a step, or a generator not
    yet rewritten as one), or None when it did all its work at once and nothing is left to run.
    A Curse's or Bad Stuff's effect function (a plain function, not a CardHook) returns a rule to
    run that finishes with its result, or that result at once: whether it did anything (False
    when it did nothing)."""

    # cards in a hand (or in play) that offer actions of their own
    def actions(self, g: Any, seat: int, card: int) -> list[Action]:
        return []

    def apply(self, g: Any, act: Action) -> Frame | None:
        return None

    # monsters
    def before_combat(self, g: Any, c: Combat, m: MonsterIn) -> Frame | None:
        return None

    def monster_actions(self, g: Any, seat: int, c: Combat, m: MonsterIn) -> list[Action]:
        return []

    def extra_levels(self, g: Any, c: Combat, m: MonsterIn) -> int:
        return 0

    def flee_actions(self, g: Any, p: Player, c: Combat, m: MonsterIn) -> list[Action]:
        return []

    def sets_die(self) -> bool:
        """A card that turns the die its holder just rolled to any face (Loaded Die)."""
        return False

    def works_carried(self) -> bool:
        """An Item whose action needs it only carried, not equipped (Rat on a Stick is discarded)."""
        return False

    def run_penalty(self) -> int:
        """A Mate-like copy of a monster: how much harder it is to Run Away from."""
        return 0

    # kept Curses and Items: passive rules
    def die_modifier(self, g: Any, p: Player) -> int:
        return 0

    def only_armor(self, g: Any, p: Player) -> bool:
        return False

    def enhancer_floor(self) -> bool:
        return False

    # equipped Items with a standing rule
    def stops_drawn_curses(self, g: Any, p: Player) -> bool:
        """Curses this character draws face-up from the Door deck do not affect them."""
        return False

    def compels_help(self, g: Any, p: Player, helper: Player) -> bool:
        """The player this character asks for help cannot refuse (never in a fight for the win)."""
        return False

    def on_escape(self, g: Any, p: Player) -> None:
        """Something happens when this character gets away from a combat by Running Away (caught by
        none of its monsters): once a combat."""

    # a kept Curse that goes when a card of the victim's goes (Chicken with the Headgear)
    def leaves_with(self, g: Any, p: Player, lost: int) -> bool:
        return False

    # a card that acts the moment anyone draws it (returns True when it is used up)
    def on_draw(self, g: Any, p: Player, card: int) -> bool:
        return False


# Hooks are registered by name (a card's block names its hook) when a set's hooks module is imported;
# the engine looks them up here, so it needs neither the set files nor the loader that reads them.
HOOKS: dict[str, Any] = {}

# A designer's set folder (`munchkin.cards.loader.add_set_dir`) may bring its own hooks.py, which may
# replace the hooks of the set it replaces (a copy of Deluxe with Deluxe's hooks.py) and its own from an
# earlier registration of the same folder; `_loading` holds (owner, id prefix, what it changed) while one
# is imported. `_BEFORE` keeps each hook as it was before any designer's folder changed it.
_loading: list[tuple[str, str, dict[str, tuple[Any, str | None, bool]]]] = []
_OWNER: dict[str, str] = {}  # hook name -> the designer's hooks.py that registered it last
_BEFORE: dict[str, Any] = {}  # hook name -> the hook before designers' folders (None: there was none)


def hook(name: str) -> Callable[[Any], Any]:
    """Register a card hook (a function, or a CardHook object) under `name`, the card id."""

    def register(fn: Any) -> Any:
        old = HOOKS.get(name)
        if old is not None and old is not fn and not _may_replace(name):
            by = f"{_loading[-1][0]}: " if _loading else ""
            raise CardError(f"{by}hook {name!r} registered twice (another set or the library already has it)")
        if _loading:
            owner, _, changed = _loading[-1]
            changed.setdefault(name, (old, _OWNER.get(name), name in _BEFORE))
            _BEFORE.setdefault(name, old)
            _OWNER[name] = owner
        HOOKS[name] = fn
        return fn

    return register


def _may_replace(name: str) -> bool:
    if not _loading:
        return False
    owner, prefix, _ = _loading[-1]
    return name.startswith(prefix) or _OWNER.get(name) == owner


@contextmanager
def designer_hooks(owner: str, prefix: str) -> Iterator[None]:
    """Around importing and checking a designer's set: its hooks.py may replace hooks whose ids start
    with `prefix` (the set it replaces) or that `owner` registered before; on an error, every hook it
    changed is put back, so a folder that fails to register leaves no trace."""
    changed: dict[str, tuple[Any, str | None, bool]] = {}
    _loading.append((owner, prefix, changed))
    try:
        yield
    except BaseException:
        for name, (old, old_owner, had_before) in changed.items():
            _put(HOOKS, name, old)
            _put(_OWNER, name, old_owner)
            if not had_before:
                _BEFORE.pop(name, None)
        raise
    finally:
        _loading.pop()


def restore_hooks() -> None:
    """Undo every designer's folder: each hook as the package and the built-in sets registered it."""
    for name, old in _BEFORE.items():
        _put(HOOKS, name, old)
    _BEFORE.clear()
    _OWNER.clear()


def _put(d: dict[str, Any], key: str, value: Any) -> None:
    if value is None:
        d.pop(key, None)
    else:
        d[key] = value
