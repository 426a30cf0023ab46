"""Where a game's chance comes from: a seed, the operating system, or a recorded log."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from munchkin.engine.actions import MunchkinError
from munchkin.engine.rules import DIE_FACES, DIE_SIDES

T = TypeVar("T")

KINDS = ("shuffle", "roll", "pick")


class Chance:
    """A source of chance outcomes: the engine asks for outcomes, never for raw numbers."""

    def shuffle(self, cards: list[int]) -> None:
        """Put `cards` in a random order, in place."""
        raise NotImplementedError

    def roll(self) -> int:
        """A roll of the six-sided die, 1 to 6."""
        raise NotImplementedError

    def pick(self, cards: Sequence[int]) -> int:
        """One of `cards` at random (a card taken blind from a hand)."""
        raise NotImplementedError

    def choice(self, options: Sequence[T]) -> T:
        """One of `options` at random, for choices made at setup (sexes, Houses)."""
        raise NotImplementedError

    def copy(self) -> Chance:
        """An independent copy that goes on drawing exactly what this one would."""
        raise NotImplementedError


class RandomChance(Chance):
    """Chance drawn from a `random.Random`; the calls are those the engine always made, so a
    seeded game draws exactly as before."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def shuffle(self, cards: list[int]) -> None:
        self.rng.shuffle(cards)

    def roll(self) -> int:
        return self.rng.randint(1, DIE_SIDES)

    def pick(self, cards: Sequence[int]) -> int:
        if not cards:
            raise MunchkinError("there is no card to pick from")
        return cards[self.rng.randrange(len(cards))]

    def choice(self, options: Sequence[T]) -> T:
        return self.rng.choice(options)

    def copy(self) -> RandomChance:
        new = object.__new__(type(self))
        rng = random.Random.__new__(random.Random)  # not seeded: its whole state is set just below
        rng.setstate(self.rng.getstate())
        new.rng = rng
        return new


class SeededChance(RandomChance):
    """Chance from a seed: the same seed gives the same game (simulations, tests, scenarios)."""

    def __init__(self, seed: int) -> None:
        super().__init__(random.Random(seed))

    @staticmethod
    def later(seed: int) -> RandomChance:
        """Chance from `seed`, its generator made only when first drawn from (seeding one costs
        more than most copies of a game that never draw at all)."""
        return _LaterSeeded(seed)


class _LaterSeeded(RandomChance):
    """A SeededChance whose generator is made on first use."""

    def __init__(self, seed: int) -> None:  # no generator yet
        self.seed = seed

    def __getattr__(self, name: str) -> Any:
        if name != "rng":
            raise AttributeError(name)
        self.rng = random.Random(self.seed)
        return self.rng

    def copy(self) -> RandomChance:
        return _LaterSeeded(self.seed) if "rng" not in self.__dict__ else super().copy()


class SystemChance(RandomChance):
    """Chance from the operating system's cryptographic randomness: nothing to seed or predict."""

    def __init__(self) -> None:
        super().__init__(random.SystemRandom())

    def copy(self) -> SystemChance:
        """The operating system's randomness has no state to copy: a copy draws unforeseeably too."""
        return SystemChance()


def _is_int(x: object) -> bool:
    return type(x) is int


class RecordedChance(Chance):
    """Plays back recorded outcomes in order, each checked against what the game asks for;
    once the recording runs out, asks `then`."""

    def __init__(self, outcomes: Iterable[Sequence[Any]], then: Chance) -> None:
        self.outcomes: list[Sequence[Any]] = list(outcomes)
        self.then = then
        self.pos = 0  # index of the next recorded outcome

    @property
    def remaining(self) -> int:
        """How many recorded outcomes have not been played back yet."""
        return len(self.outcomes) - self.pos

    def _next(self, kind: str) -> Any | None:
        """The recorded value of the next outcome, which must be a `kind`; None once run out."""
        if self.pos >= len(self.outcomes):
            return None
        i = self.pos
        entry = self.outcomes[i]
        if not isinstance(entry, (list, tuple)) or len(entry) != 3 or entry[0] not in KINDS:
            raise MunchkinError(f"recorded chance outcome {i} is malformed: {entry!r}")
        if entry[0] != kind:
            raise MunchkinError(f"recorded chance outcome {i} is a {entry[0]}, but the game asks for a {kind}")
        self.pos += 1
        return entry[2]

    def shuffle(self, cards: list[int]) -> None:
        i = self.pos
        order = self._next("shuffle")
        if order is None:
            self.then.shuffle(cards)
            return
        if not isinstance(order, (list, tuple)) or not all(_is_int(c) for c in order):
            raise MunchkinError(f"recorded chance outcome {i}: a shuffle's order must list card numbers")
        if sorted(order) != sorted(cards):
            raise MunchkinError(f"recorded chance outcome {i}: the shuffled order is not an order of the deck's cards")
        cards[:] = order

    def roll(self) -> int:
        i = self.pos
        value = self._next("roll")
        if value is None:
            return self.then.roll()
        if not _is_int(value) or value not in DIE_FACES:
            raise MunchkinError(f"recorded chance outcome {i}: a die roll of {value!r} is not 1 to 6")
        return int(value)

    def pick(self, cards: Sequence[int]) -> int:
        i = self.pos
        card = self._next("pick")
        if card is None:
            return self.then.pick(cards)
        if not _is_int(card) or card not in cards:
            raise MunchkinError(f"recorded chance outcome {i}: card {card!r} is not among the cards to pick from")
        return int(card)

    def choice(self, options: Sequence[T]) -> T:
        """Setup choices are not recorded (a save names them in its setup): ask `then`."""
        return self.then.choice(options)

    def copy(self) -> RecordedChance:
        new = object.__new__(RecordedChance)
        new.outcomes = self.outcomes  # never changed once recorded
        new.then = self.then.copy()
        new.pos = self.pos
        return new


__all__ = ["Chance", "RandomChance", "RecordedChance", "SeededChance", "SystemChance"]
