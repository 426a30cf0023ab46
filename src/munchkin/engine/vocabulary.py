"""Which keys of the card vocabulary the engine acted on: a recorder for the scenarios' coverage test.

The engine calls `used("effect.lose_gold")` where a key takes effect (the paths are those of
`munchkin.cards.vocabulary.paths`). Outside `recording()` that is one `is None` test and nothing
else; inside, the path is added to a set. Recording never changes a game: it reads nothing back.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

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
