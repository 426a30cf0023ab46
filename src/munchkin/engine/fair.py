"""A fair table's game: dealt from its keyed generator (`chance.FairChance`), and replayed against
the generator to check that every recorded outcome is the one it gives (`munchkin verify`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.chance import Chance, FairChance
from munchkin.engine.game import RULES, Game, Setup

T = TypeVar("T")
SEXES = ("male", "female")


def deal(setup: Setup, chance: Chance, rules: int = RULES) -> Game:
    """A fair table's game: each sex its player did not declare drawn from `chance` in seat order, then
    the game made from the same chance (it draws the Houses not declared, in seat order, then shuffles
    both decks and deals). `setup.sexes` and `setup.houses` hold what was declared (None: not)."""
    declared: list[str | None] = [*(setup.sexes or [])] or [None] * len(setup.players)
    sexes = [s if s in SEXES else chance.choice(SEXES) for s in declared]
    return Game(replace(setup, sexes=sexes), chance, rules)


class DrawDiffers(Exception):
    """A recorded outcome that is not the one the generator gives: `index` counts the draws (shuffles,
    rolls, picks) from 0 in the order of the log; `recorded` is None when the record has no such draw,
    `kind` "nothing" when the game made no such draw."""

    def __init__(self, index: int, kind: str, recorded: Any, generated: Any) -> None:
        super().__init__(f"draw {index} ({kind}): recorded {recorded!r}, generated {generated!r}")
        self.index, self.kind, self.recorded, self.generated = index, kind, recorded, generated


class CheckedChance(Chance):
    """Draws from a fair generator and compares each outcome with the recorded one as it goes; the first
    that differs raises `DrawDiffers` (before the game could go on from an outcome the record lacks)."""

    def __init__(self, fair: FairChance, recorded: Sequence[Sequence[Any]]) -> None:
        self.fair = fair
        self.recorded = recorded

    def _check(self, kind: str, generated: Any) -> None:
        i = self.fair.draws - 1
        entry = self.recorded[i] if i < len(self.recorded) else None
        if entry is None or len(entry) != 3 or entry[0] != kind:
            raise DrawDiffers(i, kind, None if entry is None else tuple(entry), generated)
        value = list(entry[2]) if kind == "shuffle" and isinstance(entry[2], (list, tuple)) else entry[2]
        if value != generated:
            raise DrawDiffers(i, kind, value, generated)

    def shuffle(self, cards: list[int]) -> None:
        self.fair.shuffle(cards)
        self._check("shuffle", list(cards))

    def roll(self) -> int:
        value = self.fair.roll()
        self._check("roll", value)
        return value

    def pick(self, cards: Sequence[int]) -> int:
        card = self.fair.pick(cards)
        self._check("pick", card)
        return card

    def choice(self, options: Sequence[T]) -> T:
        return self.fair.choice(options)

    def copy(self) -> CheckedChance:
        return CheckedChance(self.fair.copy(), self.recorded)


@dataclass
class Replayed:
    """A fair game replayed against its generator: the game, how many draws and setup choices it made."""

    game: Game
    draws: int
    choices: int


def replay_checked(
    setup: Setup, actions: Sequence[Action], recorded: Sequence[Sequence[Any]], key: bytes, rules: int
) -> Replayed:
    """Deal a fair table's game again from `key` (`setup` as declared) and play `actions` on it, each
    draw compared with `recorded` as it is made. Raises DrawDiffers at the first draw that differs, and
    MunchkinError when an action does not replay or the record holds draws the game never made."""
    chance = CheckedChance(FairChance(key), recorded)
    g = deal(setup, chance, max(rules, 2))  # rules 1 replays as 2, as a save does
    for i, a in enumerate(actions):
        try:
            g.apply_stored(a, rules)
        except MunchkinError as exc:
            raise MunchkinError(f"action {i} ({a.kind} by seat {a.seat}) does not replay: {exc}") from None
    made = chance.fair.draws
    if made < len(recorded):
        raise DrawDiffers(made, "nothing", tuple(recorded[made]), None)
    return Replayed(g, made, chance.fair.choices)


__all__ = ["CheckedChance", "DrawDiffers", "Replayed", "deal", "replay_checked"]
