"""Which keys of the card vocabulary the engine acted on: a recorder for the scenarios' coverage test.

The engine calls `used("effect.lose_gold")` where a key takes effect (the paths are those of
`munchkin.cards.vocabulary.paths`). Outside `recording()` that is one `is None` test and nothing
else; inside, the path is added to a set. Recording never changes a game: it reads nothing back.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

seen: set[str] | None = None  # the paths noted while recording, else None (read by the engine's hot paths)


def used(path: str, value: object = None) -> None:
    """Note that the engine acted on the vocabulary's `path` (`path=value` for one of a Literal's
    values, the string built only while recording); a no-op unless recording."""
    if seen is not None:
        seen.add(path if value is None else f"{path}={value}")


def decided(path: str, held: bool) -> bool:
    """Note which branch a condition-typed key took (`path=held` or `path=failed`) and return `held`."""
    if seen is not None:
        seen.add(f"{path}={'held' if held else 'failed'}")
    return held


@contextmanager
def recording() -> Iterator[set[str]]:
    """Record the paths used inside the block into the set it yields (recordings nest: the outer keeps all)."""
    global seen
    outer = seen
    found: set[str] = set()
    seen = found
    try:
        yield found
    finally:
        seen = outer
        if outer is not None:
            outer |= found


def namespace(kind: str) -> str:
    """The vocabulary's name for a card kind's block: Races, Classes, Roles and Houses share theirs."""
    return "character_card" if kind in ("race", "class", "role", "house") else kind


def note_played(d: Any, kind: str, flag: str) -> None:
    """Record the keys that made a card's play (or equipping, or handing to a Hireling) legal and
    what it does as it comes into play: its timing, its slot and Hands, a flag of its kind."""
    if kind == "give":
        if flag == "hireling":
            used("sidekick.carries", 1)
        return
    if d.is_one_shot:
        used("one_shot.when", d.when)
    elif d.is_special:
        used("special.when", d.when)
    elif d.is_gual:
        used("card.go_up_a_level")
    elif d.is_sidekick:
        hireling = bool(getattr(d.model, "hireling", None))
        used("card.hireling" if hireling else "sidekick.carries", None if hireling else d.carries)
    elif d.is_proficiency:
        used("proficiency.rank", d.rank)
    elif d.is_item:
        used("item.slot", d.slot)
        used("item.hands", d.hands)
        for key in ("big", "complex", "laser", "steed"):
            if getattr(d, key):
                used(f"item.{key}")
    elif d.is_race or d.is_class or d.is_role:
        used(f"card.{d.kind}")
