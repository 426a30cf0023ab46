"""Counts over many games, merged by adding: what a worker returns instead of its games.

Every field is an integer count (or a table of them), so merging is exact and its order does
not matter: the same seeds give the same tally on one worker, on every core or on a cluster.
Its size depends on the cards and the longest game, never on the number of games.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from munchkin.balance.record import CardInfo, GameRecord, MonsterRecord

FAR_BEHIND = 5  # Levels below the leader at a round's start that count as "left far behind"
DECISION_BIN = 25  # the decisions histogram counts games in bins this wide
MAX_ROUNDS = 100  # Levels by round are kept for this many rounds (longer games are counted up to it)
TALLY_FORMAT = 1  # tally.json's layout; raised when it changes, so an old file is refused, not misread


@dataclass
class CardTally:
    """One card over all games: seat-games it was drawn or played in, and how those seats did."""

    drawn: int = 0  # seat-games in which that seat drew it
    drawn_wins: int = 0
    played: int = 0  # times played
    played_games: int = 0  # seat-games in which that seat played it
    played_wins: int = 0
    held: int = 0  # seat-games in which that seat had it in play (Races, Classes, ...)
    held_wins: int = 0

    def add(self, other: CardTally) -> None:
        for f in self.__dataclass_fields__:
            setattr(self, f, getattr(self, f) + getattr(other, f))


@dataclass
class Tally:
    """Everything the report needs, summed over games."""

    players: int
    games: int = 0
    capped: int = 0
    wins_by_seat: list[int] = field(default_factory=list)
    turns: Counter[int] = field(default_factory=Counter)  # turns -> games
    turns_sq: int = 0  # sum of squared turns (for the interval of a difference of means)
    decisions: Counter[int] = field(default_factory=Counter)  # DECISION_BIN-wide bin start -> games
    decisions_sum: int = 0
    levels: dict[tuple[int, int], Counter[int]] = field(default_factory=dict)  # (seat, round) -> Level -> games
    far_behind_games: int = 0  # games in which a seat was FAR_BEHIND Levels below the leader at a round's start
    far_behind_end: int = 0  # seat-games that ended FAR_BEHIND Levels or more below the highest Level
    cards: dict[str, CardTally] = field(default_factory=dict)
    monsters: dict[str, MonsterRecord] = field(default_factory=dict)
    help: Counter[str] = field(default_factory=Counter)
    curses: Counter[str] = field(default_factory=Counter)
    info: dict[str, CardInfo] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.wins_by_seat:
            self.wins_by_seat = [0] * self.players

    def _card(self, k: str) -> CardTally:
        t = self.cards.get(k)
        if t is None:
            t = self.cards[k] = CardTally()
        return t

    def add_game(self, r: GameRecord) -> None:
        """Count one game."""
        if r.players != self.players:
            raise ValueError(f"a {r.players}-player game in a tally of {self.players}-player games")
        self.games += 1
        self.capped += r.capped
        won = [False] * r.players
        for w in r.winners:
            won[w] = True
            self.wins_by_seat[w] += 1
        self.turns[r.turns] += 1
        self.turns_sq += r.turns * r.turns
        self.decisions[r.decisions // DECISION_BIN * DECISION_BIN] += 1
        self.decisions_sum += r.decisions
        for rnd, lv in enumerate(r.levels[:MAX_ROUNDS]):
            for seat, x in enumerate(lv):
                c = self.levels.get((seat, rnd))
                if c is None:
                    c = self.levels[(seat, rnd)] = Counter()
                c[x] += 1
        self.far_behind_games += far_behind(r)
        if r.final_levels:
            top = max(r.final_levels)
            self.far_behind_end += sum(top - x >= FAR_BEHIND for x in r.final_levels)
        for seat in range(r.players):
            w = won[seat]
            for k in r.drawn[seat]:
                t = self._card(k)
                t.drawn += 1
                t.drawn_wins += w
            for k, times in r.played[seat].items():
                t = self._card(k)
                t.played += times
                t.played_games += 1
                t.played_wins += w
            for k in r.held[seat]:
                t = self._card(k)
                t.held += 1
                t.held_wins += w
        for k, m in r.monsters.items():
            mine = self.monsters.get(k)
            if mine is None:
                mine = self.monsters[k] = MonsterRecord()
            for f in MonsterRecord.__dataclass_fields__:
                setattr(mine, f, getattr(mine, f) + getattr(m, f))
        self.help.update(r.help)
        self.curses.update(r.curses)
        for k, info in r.cards.items():
            self.info.setdefault(k, info)

    def merge(self, other: Tally) -> None:
        """Add another tally's counts to this one."""
        if other.players != self.players:
            raise ValueError("tallies of different player counts")
        self.games += other.games
        self.capped += other.capped
        self.wins_by_seat = [a + b for a, b in zip(self.wins_by_seat, other.wins_by_seat)]
        self.turns.update(other.turns)
        self.turns_sq += other.turns_sq
        self.decisions.update(other.decisions)
        self.decisions_sum += other.decisions_sum
        for key, c in other.levels.items():
            self.levels.setdefault(key, Counter()).update(c)
        self.far_behind_games += other.far_behind_games
        self.far_behind_end += other.far_behind_end
        for k, t in other.cards.items():
            self._card(k).add(t)
        for k, m in other.monsters.items():
            mine = self.monsters.setdefault(k, MonsterRecord())
            for f in MonsterRecord.__dataclass_fields__:
                setattr(mine, f, getattr(mine, f) + getattr(m, f))
        self.help.update(other.help)
        self.curses.update(other.curses)
        for k, info in other.info.items():
            self.info.setdefault(k, info)

    def to_json(self) -> dict[str, Any]:
        """The counts as plain JSON data (tally.json), so runs on other seeds can be merged later."""
        return {
            "format": TALLY_FORMAT,
            "players": self.players,
            "games": self.games,
            "capped": self.capped,
            "wins_by_seat": list(self.wins_by_seat),
            "turns": _counts_out(self.turns),
            "turns_sq": self.turns_sq,
            "decisions": _counts_out(self.decisions),
            "decisions_sum": self.decisions_sum,
            "levels": [[seat, rnd, _counts_out(c)] for (seat, rnd), c in sorted(self.levels.items())],
            "far_behind_games": self.far_behind_games,
            "far_behind_end": self.far_behind_end,
            "cards": {k: asdict(t) for k, t in sorted(self.cards.items())},
            "monsters": {k: asdict(m) for k, m in sorted(self.monsters.items())},
            "help": dict(sorted(self.help.items())),
            "curses": dict(sorted(self.curses.items())),
            "info": {k: asdict(i) for k, i in sorted(self.info.items())},
        }

    @classmethod
    def from_json(cls, d: Any) -> Tally:
        """A tally read back from `to_json`'s data; ValueError naming what is wrong."""
        if not isinstance(d, dict):
            raise ValueError("a tally is a JSON object")
        if d.get("format") != TALLY_FORMAT:
            raise ValueError(f"tally format {d.get('format')!r}; this version reads format {TALLY_FORMAT}")
        try:
            t = cls(int(d["players"]))
            t.games, t.capped = int(d["games"]), int(d["capped"])
            t.wins_by_seat = [int(x) for x in d["wins_by_seat"]]
            if len(t.wins_by_seat) != t.players:
                raise ValueError(f"wins_by_seat has {len(t.wins_by_seat)} seats, not {t.players}")
            t.turns, t.turns_sq = _counts_in(d["turns"]), int(d["turns_sq"])
            t.decisions, t.decisions_sum = _counts_in(d["decisions"]), int(d["decisions_sum"])
            t.levels = {(int(seat), int(rnd)): _counts_in(c) for seat, rnd, c in d["levels"]}
            t.far_behind_games, t.far_behind_end = int(d["far_behind_games"]), int(d["far_behind_end"])
            t.cards = {str(k): CardTally(**v) for k, v in d["cards"].items()}
            t.monsters = {str(k): MonsterRecord(**v) for k, v in d["monsters"].items()}
            t.help = Counter({str(k): int(v) for k, v in d["help"].items()})
            t.curses = Counter({str(k): int(v) for k, v in d["curses"].items()})
            t.info = {str(k): CardInfo(**v) for k, v in d["info"].items()}
        except KeyError as exc:
            raise ValueError(f"the tally has no {exc.args[0]!r}") from None
        except (TypeError, AttributeError) as exc:
            raise ValueError(f"the tally is malformed: {exc}") from None
        return t

    @property
    def seat_games(self) -> int:
        return self.games * self.players

    @property
    def wins(self) -> int:
        return sum(self.wins_by_seat)


def far_behind(r: GameRecord) -> bool:
    """Whether a seat was FAR_BEHIND Levels below the leader at a round's start (of the rounds kept)."""
    return any(max(lv) - x >= FAR_BEHIND for lv in r.levels[:MAX_ROUNDS] for x in lv)


def _counts_out(c: Counter[int]) -> dict[str, int]:
    return {str(k): v for k, v in sorted(c.items())}


def _counts_in(d: Any) -> Counter[int]:
    return Counter({int(k): int(v) for k, v in d.items()})
