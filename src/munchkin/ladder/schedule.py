"""Who sits where in each game of a ladder: every agent in every seat equally often, each pair of
agents meeting, and each agent sitting right after each other, about equally often.

With K agents, P seats and E editions, a *pattern* is a seating up to a common shift of the agents'
numbers: P offsets, the first 0. Game g (from 0) plays pattern b = g // (K·E), in edition
e = (g // K) % E, shifted by r = g % K: seat s holds agent (pattern[s] + r) % K. So the K games of a
block play one pattern at every shift, and each agent sits in each seat exactly once in them, whatever
the pattern; the next block plays the same pattern in the next edition, so every edition sees the same
seatings.

Each agent takes P // K or P // K + 1 seats of a game: with K >= P the P agents of a game are distinct,
with K < P every agent plays every game and some fill several seats. Every pattern of that kind comes
once in a period (so a full period plays each possible seating once per edition); their order is chosen
greedily, among the next few of a shuffled pool, so that a run stopping part way through a period still
has pairs meeting, and agents following one another in the turn order, about equally often. (Over
MAX_PATTERNS patterns, many agents at a big table, a period of DRAWN_PERIOD blocks is drawn at random,
chosen greedily the same way.) The order depends on K and P alone, not on the seed: two runs of the same
number of agents play the same seatings.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

Pattern = tuple[int, ...]

MAX_PATTERNS = 5_000  # more than this (many agents at a big table): patterns are drawn, not listed,
DRAWN_PERIOD = 1_000  # and a period of this many blocks is drawn and repeated
CANDIDATES = 24  # patterns of the pool weighed at each step of the greedy order


def _patterns(k: int, p: int) -> Iterator[Pattern]:
    """Every pattern: P offsets from 0, the first 0, each offset used P // K or P // K + 1 times."""
    q, r = divmod(p, k)
    counts = [0] * k
    seats: list[int] = []

    def fill(full: int) -> Iterator[Pattern]:  # `full`: offsets already used q + 1 times
        if len(seats) == p:
            yield tuple(seats)
            return
        for a in range(k) if seats else (0,):
            if counts[a] > q or (counts[a] == q and full == r):
                continue
            counts[a] += 1
            seats.append(a)
            yield from fill(full + (counts[a] == q + 1))
            seats.pop()
            counts[a] -= 1

    yield from fill(0)


def _draw(rng: random.Random, k: int, p: int) -> Pattern:
    """One pattern at random, for leagues too big to list every pattern."""
    q, r = divmod(p, k)
    more = set(rng.sample(range(k), r))
    seats = [a for a in range(k) for _ in range(q + (a in more))]
    rng.shuffle(seats)
    return tuple((a - seats[0]) % k for a in seats)


def _profile(pattern: Pattern, k: int) -> tuple[int, ...]:
    """What a block of K games on a pattern adds, by difference d of two agents' numbers (mod K): the
    games each pair of agents d apart share (for d = 1 .. K-1), then the times an agent sits right
    after the agent d below it (d = 0 .. K-1; the turn order wraps around). A block plays the pattern at
    every shift, so these counts are the same for every pair of agents d apart."""
    present = set(pattern)
    meet = [sum((x + d) % k in present for x in present) for d in range(1, k)]
    after = [0] * k
    for s, o in enumerate(pattern):
        after[(pattern[(s + 1) % len(pattern)] - o) % k] += 1
    return (*meet, *after)


def order_patterns(k: int, p: int, blocks: int) -> list[Pattern]:
    """The patterns of the first `blocks` blocks: one period (every pattern once) repeated, its order
    taken step by step among the next CANDIDATES of a shuffled pool, the one keeping the counts most
    even (the smallest sum of squares of the meetings and of the who-follows-whom counts)."""
    rng = random.Random(f"ladder {k} agents {p} seats")
    every: list[Pattern] = []
    for pat in _patterns(k, p):
        every.append(pat)
        if len(every) > MAX_PATTERNS:
            every = []  # too many to list: a period of DRAWN_PERIOD blocks draws its candidates
            break
    pool = every[:]
    rng.shuffle(pool)
    counts = [0] * (2 * k - 1)
    out: list[Pattern] = []
    while len(out) < blocks and (pool or (not every and len(out) < DRAWN_PERIOD)):
        candidates = pool[:CANDIDATES] if every else [_draw(rng, k, p) for _ in range(CANDIDATES)]
        adds = [_profile(c, k) for c in candidates]
        costs = [sum((c + n) ** 2 for c, n in zip(counts, add, strict=True)) for add in adds]
        best = costs.index(min(costs))
        out.append(candidates[best])
        counts = [c + n for c, n in zip(counts, adds[best], strict=True)]
        if every:
            pool.pop(best)
    return [out[b % len(out)] for b in range(blocks)]


@dataclass(frozen=True)
class Schedule:
    """The seatings and editions of a run's games (module docstring)."""

    agents: int
    players: int
    editions: int
    patterns: tuple[Pattern, ...]  # one per block of K·E games, in the order played

    @classmethod
    def make(cls, agents: int, players: int, editions: int, games: int) -> Schedule:
        """The schedule of `games` games."""
        per_block = agents * editions
        blocks = max(1, -(-games // per_block))
        return cls(agents, players, editions, tuple(order_patterns(agents, players, blocks)))

    def seating(self, game: int) -> tuple[int, ...]:
        """The agent (its number in the list) at each seat of game `game` (from 0)."""
        pattern = self.patterns[game // (self.agents * self.editions)]
        shift = game % self.agents
        return tuple((o + shift) % self.agents for o in pattern)

    def edition(self, game: int) -> int:
        """The edition (its number in the list) that game `game` plays."""
        return (game // self.agents) % self.editions
