"""Paired counts of a comparison: versions A and B of each seed played side by side, so that a
difference is read game by game (the same deals until the change matters) and its interval is tighter.

For every figure that is a sum over games, `PairedTally` keeps the sums of each game's values and of
their products (integers: merged by adding, so one worker, several or Ray give the same result).
A difference B − A is then a paired difference of means with a normal 95% interval; for a rate over
draws or fights (a card's improvement when drawn, a monster's kill rate), the delta method turns
each game's counts into its contribution to the rate and pairs those contributions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from munchkin.balance.record import GameRecord
from munchkin.balance.stats import Z95
from munchkin.balance.tally import far_behind

# a card's variables in a game: its drawers' wins and its drawers under A, then under B, then each
# version's winners (kept globally: a game where the card is in neither version adds only to those)
W_A, N_A, W_B, N_B, T_A, T_B = range(6)
# a monster's variables in a game under A then B: kills, deaths, escapes, fights
KILLS, DEATHS, ESCAPES, FIGHTS = range(4)
MONSTER_FIGURES = {"kill": KILLS, "death": DEATHS, "escape": ESCAPES}
# below these the normal interval of a paired mean is not trusted (the unpaired Wilson-based ones are
# used instead): games played under both versions, and draws or fights behind a rate in each version
MIN_GAMES = 30
MIN_EVENTS = 10


@dataclass
class Moments:
    """Sums of a vector's entries and of their pairwise products, over games."""

    size: int
    s: list[int] = field(default_factory=list)
    q: list[int] = field(default_factory=list)  # upper triangle, row by row: (0,0), (0,1), ..., (1,1), ...

    def __post_init__(self) -> None:
        if not self.s:
            self.s = [0] * self.size
            self.q = [0] * (self.size * (self.size + 1) // 2)

    def add(self, x: list[int]) -> None:
        k = 0
        for i in range(self.size):
            self.s[i] += x[i]
            xi = x[i]
            for j in range(i, self.size):
                self.q[k] += xi * x[j]
                k += 1

    def merge(self, o: Moments) -> None:
        self.s = [a + b for a, b in zip(self.s, o.s, strict=True)]
        self.q = [a + b for a, b in zip(self.q, o.q, strict=True)]

    def prod(self, i: int, j: int) -> int:
        if i > j:
            i, j = j, i
        return self.q[i * self.size - i * (i - 1) // 2 + (j - i)]

    def to_json(self) -> list[list[int]]:
        return [self.s, self.q]


def _vars_game(r: GameRecord) -> list[int]:
    """The game-wide figures of one game: each seat's win, turns, capped, far behind, winners."""
    won = [0] * r.players
    for w in r.winners:
        won[w] = 1
    return [*won, r.turns, int(r.capped), int(far_behind(r)), len(r.winners)]


@dataclass
class PairedTally:
    """Per-seed sums of a comparison's figures over the games both versions played."""

    players: int
    games: int = 0
    game: Moments = field(init=False)  # game-wide figures: A's then B's (see `_vars_game`)
    drawn: dict[str, Moments] = field(default_factory=dict)  # card id -> (W_A, N_A, W_B, N_B, T_A, T_B)
    held: dict[str, Moments] = field(default_factory=dict)  # the same for the seats that had it in play
    monsters: dict[str, Moments] = field(default_factory=dict)  # id -> A's (KILLS..FIGHTS), then B's

    def __post_init__(self) -> None:
        self.game = Moments(2 * self.width)

    @property
    def width(self) -> int:
        """Game-wide figures per version."""
        return self.players + 4

    def add_pair(self, a: GameRecord, b: GameRecord) -> None:
        """Count one seed played under A and under B."""
        if a.players != self.players or b.players != self.players:
            raise ValueError("a paired game of another player count")
        self.games += 1
        self.game.add(_vars_game(a) + _vars_game(b))
        ta, tb = len(a.winners), len(b.winners)
        for into, seats in ((self.drawn, (a.drawn, b.drawn)), (self.held, (a.held, b.held))):
            counts: dict[str, list[int]] = {}
            for v, (rec, by_seat) in enumerate(((a, seats[0]), (b, seats[1]))):
                won = set(rec.winners)
                for seat, cards in enumerate(by_seat):
                    for k in cards:
                        x = counts.setdefault(k, [0, 0, 0, 0, ta, tb])
                        x[2 * v] += seat in won
                        x[2 * v + 1] += 1
            for k, x in counts.items():
                into.setdefault(k, Moments(6)).add(x)
        for k in set(a.monsters) | set(b.monsters):
            x = []
            for rec in (a, b):
                m = rec.monsters.get(k)
                if m is None:
                    x += [0, 0, 0, 0]
                else:
                    f = m.fought
                    x += [min(f, m.killed_alone + m.killed_helped), min(f, m.deaths), min(f, m.escaped), f]
            self.monsters.setdefault(k, Moments(8)).add(x)

    def merge(self, o: PairedTally) -> None:
        if o.players != self.players:
            raise ValueError("paired tallies of different player counts")
        self.games += o.games
        self.game.merge(o.game)
        for mine, theirs, size in ((self.drawn, o.drawn, 6), (self.held, o.held, 6), (self.monsters, o.monsters, 8)):
            for k, m in theirs.items():
                mine.setdefault(k, Moments(size)).merge(m)

    def to_json(self) -> dict[str, Any]:
        """Every sum, for comparison.json's reader (and for a check that two runs agree)."""
        return {
            "games": self.games,
            "game": self.game.to_json(),
            "drawn": {k: m.to_json() for k, m in sorted(self.drawn.items())},
            "held": {k: m.to_json() for k, m in sorted(self.held.items())},
            "monsters": {k: m.to_json() for k, m in sorted(self.monsters.items())},
        }

    # ------------------------------------------------------------- figures

    def _interval(self, d: float, cov: list[list[float]], c: list[float]) -> dict[str, Any]:
        var = sum(c[i] * c[j] * cov[i][j] for i in range(len(c)) for j in range(len(c)) if c[i] and c[j])
        half = Z95 * math.sqrt(max(0.0, var) / self.games)
        return {"diff": d, "low": d - half, "high": d + half, "paired": True}

    def _cov(self, s: list[float], q: Any) -> list[list[float]]:
        n, m = self.games, len(s)
        return [[(q(i, j) - s[i] * s[j] / n) / (n - 1) for j in range(m)] for i in range(m)]

    def linear(self, coef_a: list[float], coef_b: list[float]) -> dict[str, Any] | None:
        """The paired difference of a game-wide figure, Σ coef_b·(B's figures) − Σ coef_a·(A's),
        its mean over games and its normal 95% interval; None with fewer than MIN_GAMES games."""
        if self.games < MIN_GAMES:
            return None
        c = [-x for x in coef_a] + list(coef_b)
        s = [float(x) for x in self.game.s]
        d = sum(ci * si for ci, si in zip(c, s, strict=True)) / self.games
        return self._interval(d, self._cov(s, self.game.prod), c)

    def seat(self, i: int) -> dict[str, Any] | None:
        """Seat i's win rate per game played, B − A."""
        e = [0.0] * self.width
        e[i] = 1.0
        return self.linear(e, e)

    def figure(self, index: int) -> dict[str, Any] | None:
        """A game-wide figure by its index after the seats: 0 turns, 1 capped, 2 far behind."""
        e = [0.0] * self.width
        e[self.players + index] = 1.0
        return self.linear(e, e)

    def first_player_edge(self) -> dict[str, Any] | None:
        """Seat 1's win rate less the other seats' average, B − A."""
        e = [1.0] + [-1.0 / (self.players - 1)] * (self.players - 1) + [0.0] * 4
        return self.linear(e, e)

    def improvement(self, k: str, which: str = "drawn") -> dict[str, Any] | None:
        """A card's improvement when drawn (or when held), B − A, paired by the delta method: each
        game's contribution to each version's improvement, differenced game by game. None when a
        version has no drawer or no non-drawer of it (the figure is undefined there)."""
        m = (self.drawn if which == "drawn" else self.held).get(k)
        g = self.games
        if m is None or g < MIN_GAMES or min(m.s[N_A], m.s[N_B]) < MIN_EVENTS:
            return None
        tg = 2 * self.width  # the game moments' index of each version's winners
        t_index = {T_A: self.width - 1, T_B: tg - 1}
        s = [float(m.s[i]) for i in (W_A, N_A, W_B, N_B)] + [float(self.game.s[t_index[T]]) for T in (T_A, T_B)]

        def q(i: int, j: int) -> float:
            if i in t_index and j in t_index:
                return float(self.game.prod(t_index[i], t_index[j]))
            return float(m.prod(i, j))

        seats = g * self.players
        c = [0.0] * 6
        d = 0.0
        for v, (w, n, t) in enumerate(((W_A, N_A, T_A), (W_B, N_B, T_B))):
            n1, w1, tt = s[n], s[w], s[t]
            n0 = seats - n1
            if n1 <= 0 or n0 <= 0:
                return None
            p1, p0 = w1 / n1, (tt - w1) / n0
            sign = 1.0 if v else -1.0
            d += sign * (p1 - p0)
            c[w] = sign * (g / n1 + g / n0)
            c[n] = sign * (-p1 * g / n1 - p0 * g / n0)
            c[t] = sign * (-g / n0)
        return self._interval(d, self._cov(s, q), c)

    def monster(self, k: str, figure: str) -> dict[str, Any] | None:
        """A monster's kill, death or escape rate per fight, B − A, paired by the delta method."""
        m = self.monsters.get(k)
        g = self.games
        if m is None or g < MIN_GAMES or min(m.s[FIGHTS], m.s[4 + FIGHTS]) < MIN_EVENTS:
            return None
        i = MONSTER_FIGURES[figure]
        s = [float(x) for x in m.s]
        fa, fb = s[FIGHTS], s[4 + FIGHTS]
        ra, rb = s[i] / fa, s[4 + i] / fb
        c = [0.0] * 8
        c[i], c[FIGHTS] = -g / fa, ra * g / fa
        c[4 + i], c[4 + FIGHTS] = g / fb, -rb * g / fb
        return self._interval(rb - ra, self._cov(s, lambda x, y: float(m.prod(x, y))), c)
