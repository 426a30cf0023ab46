"""The observation of one seat as a fixed-length vector (issue 36): its own hand and table by card
definition, every player's public table, Levels, the fight's numbers, deck and discard sizes, and the
seats relative to it. Read from `Game.view(seat)` alone, so it holds nothing the seat may not know.

CONTRACT (shared by the `rlobs` and `rlenv` helpers; keep these names and signatures):

    class Encoder:
        def __init__(self, sets: Sequence[str], players: int) -> None
            # `sets` as Setup.sets (one set or a mix), 3 <= players <= 6
        size: int                       # length of every vector this encoder makes
        definitions: list[str]          # the card definitions' ids, in feature order (identity: CardDef.idx)
        def encode(self, game: Game, seat: int) -> numpy.ndarray   # float32, shape (size,)
            # reads ONLY game.view(seat) plus the static card table (physical card -> definition), never
            # another seat's hand, the decks' order or the RNG
        def layout(self) -> list[tuple[str, int, int]]             # (block name, start, length), for docs/rl.md

The environment appends its own features (the decision kind, the sub-choice stage) after these.

PROVISIONAL: this implementation is a small stand-in written on the `rlenv` branch so the environment
can run; the `rlobs` helper's Encoder replaces it at merge. Nothing outside this file may rely on its
layout, only on the contract above.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from munchkin.engine.cards import build_table
from munchkin.engine.rules import MAX_PLAYERS, MIN_PLAYERS, WINNING_LEVEL

if TYPE_CHECKING:
    from munchkin.engine.game import Game


class Encoder:
    """Provisional: own hand and own table counted by card definition, then every seat's Level and
    hand size (relative to the seat), then the deck sizes."""

    def __init__(self, sets: Sequence[str], players: int) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Munchkin needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")
        self.sets = list(sets)
        self.players = players
        defs, _ = build_table(self.sets)
        ids = sorted({x.idx for x in defs})  # one feature per identity (copies, same-named cards of a mix)
        self.definitions = [defs[i].id for i in ids]
        self._pos = {i: k for k, i in enumerate(ids)}
        d = len(ids)
        self._blocks = [("hand", 0, d), ("table", d, d), ("levels", 2 * d, players)]
        self._blocks += [("hand_sizes", 2 * d + players, players), ("decks", 2 * d + 2 * players, 2)]
        self.size = 2 * d + 2 * players + 2

    def encode(self, game: Game, seat: int) -> np.ndarray:
        """The seat's vector, read from `game.view(seat)` and the card table."""
        v = game.view(seat)
        out = np.zeros(self.size, dtype=np.float32)
        d = len(self.definitions)
        cdef, pos = game.cdef, self._pos
        for c in v["hand"]:
            out[pos[cdef[c["id"]].idx]] += 1.0
        me = v["players"][seat]
        for zone in ("races", "classes", "roles", "proficiencies", "equipped", "carried", "sidekicks", "curses"):
            for c in me[zone]:
                out[d + pos[cdef[c["id"]].idx]] += 1.0
        n = self.players
        for k, p in enumerate(v["players"]):
            rel = (k - seat) % n
            out[2 * d + rel] = p["level"] / WINNING_LEVEL
            out[2 * d + n + rel] = p["hand_size"] / 10.0
        out[2 * d + 2 * n] = v["door_deck"] / 100.0
        out[2 * d + 2 * n + 1] = v["treasure_deck"] / 100.0
        return out

    def layout(self) -> list[tuple[str, int, int]]:
        """The blocks of the vector: (name, start, length)."""
        return list(self._blocks)


__all__ = ["Encoder"]
