"""Where a game's chance comes from: a seed, the operating system, a fair table's keyed generator,
or a recorded log."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Iterable, Iterator, Sequence
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


FAIR_SCHEME = "munchkin-fair/1"  # the name of the generator below; a save's fair record names it
SECRET_BYTES = 32  # a fair table's secret: 256 bits
_WORD = 1 << 64


def fair_commitment(secret: bytes) -> str:
    """What a fair table shows before its deal: SHA-256 of its secret, in hex. It binds the server to the
    secret without telling it (the secret is revealed when the game ends, and anyone can hash it)."""
    return hashlib.sha256(secret).hexdigest()


def fair_key(secret: bytes, entropy: Sequence[str]) -> bytes:
    """The generator's key: HMAC-SHA256 keyed by the secret over the scheme's name and each seat's
    entropy in seat order, each as its UTF-8 length (4 bytes, big-endian) then its UTF-8 bytes (a seat
    that gave none, a bot's among them, counts as the empty string)."""
    message = FAIR_SCHEME.encode()
    for text in entropy:
        raw = text.encode("utf-8")
        message += len(raw).to_bytes(4, "big") + raw
    return hmac.new(secret, message, hashlib.sha256).digest()


class FairChance(Chance):
    """A fair table's chance: every outcome is a function of the key (`fair_key`) and the draw's index,
    so whoever learns the secret and the entropy after the game can recompute each one, and nobody can
    foresee one before (docs/server.md, "Provably fair deals").

    Draw i (the i-th shuffle, roll or pick of the game, counted from 0 as they appear in its log) reads
    the words of the stream HMAC-SHA256(key, b"draw" + i as 8 bytes + j as 4 bytes) for j = 0, 1, ...,
    each block four 64-bit big-endian words. A number below n is the first word u under
    2**64 - (2**64 mod n), taken mod n (no bias). A roll is 1 + a number below 6; a pick is the cards
    sorted by number, the one at a number below their count; a shuffle sorts the cards by number, then
    for k from the last position down to 1 swaps position k with a number below k + 1 (Fisher-Yates),
    all from that draw's one stream. A choice at setup (an undeclared sex or House) reads the stream
    b"choice" + c instead, c counting the choices from 0, so the draws are numbered as the log lists them."""

    def __init__(self, key: bytes, draws: int = 0, choices: int = 0) -> None:
        self._key = key
        self.draws = draws  # index of the next draw (shuffle, roll, pick)
        self.choices = choices  # index of the next setup choice

    def _words(self, label: bytes, index: int) -> Iterator[int]:
        block = 0
        while True:
            digest = hmac.new(self._key, label + index.to_bytes(8, "big") + block.to_bytes(4, "big"), hashlib.sha256)
            raw = digest.digest()
            for at in range(0, len(raw), 8):
                yield int.from_bytes(raw[at : at + 8], "big")
            block += 1

    @staticmethod
    def _below(words: Iterator[int], n: int) -> int:
        limit = _WORD - _WORD % n
        u = next(words)
        while u >= limit:  # fewer than one time in 2**60 for a deck: the next word decides
            u = next(words)
        return u % n

    def _draw(self) -> Iterator[int]:
        words = self._words(b"draw", self.draws)
        self.draws += 1
        return words

    def shuffle(self, cards: list[int]) -> None:
        words = self._draw()
        cards.sort()
        for k in range(len(cards) - 1, 0, -1):
            j = self._below(words, k + 1)
            cards[k], cards[j] = cards[j], cards[k]

    def roll(self) -> int:
        return 1 + self._below(self._draw(), DIE_SIDES)

    def pick(self, cards: Sequence[int]) -> int:
        if not cards:
            raise MunchkinError("there is no card to pick from")
        ordered = sorted(cards)
        return ordered[self._below(self._draw(), len(ordered))]

    def choice(self, options: Sequence[T]) -> T:
        if not options:
            raise MunchkinError("there is nothing to choose from")
        words = self._words(b"choice", self.choices)
        self.choices += 1
        return options[self._below(words, len(options))]

    def copy(self) -> FairChance:
        return FairChance(self._key, self.draws, self.choices)

    def key_digest(self) -> str:
        """SHA-256 of the key, in hex: tells two keys apart without giving either away."""
        return hashlib.sha256(self._key).hexdigest()

    def __repr__(self) -> str:  # never the key: whoever holds it can foresee every draw
        return f"FairChance(draws={self.draws}, choices={self.choices})"


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


__all__ = [
    "FAIR_SCHEME",
    "Chance",
    "FairChance",
    "RandomChance",
    "RecordedChance",
    "SeededChance",
    "SystemChance",
    "fair_commitment",
    "fair_key",
]
