"""Plays a ladder's games as `munchkin.simulate` does (agents see observations only: `decide` and
`interjection`), timing each agent's every answer, and reads each finished game into an `Outcome`.

Workers play batches of consecutive games and send back their outcomes and the agents' clocks
(histograms that add up), never the games; the ratings are fitted afterwards, in game order.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from munchkin.agents.base import Agent, decide, interjection
from munchkin.agents.registry import make_agent
from munchkin.engine.actions import Action
from munchkin.engine.game import TURN_CAP, Game, Options, Setup
from munchkin.ladder.schedule import Schedule
from munchkin.simulate import NAMES

DEFAULT_TURN_CAP = TURN_CAP  # the engine's, as everywhere
STEPS_PER_DOUBLING = 16  # the clock's bins: 16 to each doubling of time, so a quantile is read within 2.2%
FLOOR = 1e-6  # seconds: the clock's first bin holds every answer faster than a microsecond


class AgentFailed(RuntimeError):
    """An agent raised an error or chose an action the game refused; names the agent, game and seat."""


@dataclass(frozen=True)
class League:
    """What a run plays, shared by every batch: the agents' specs, the editions (each a tuple of sets),
    the seats, the first seed (game g is dealt from seed + g), the seatings and the turn cap."""

    agents: tuple[str, ...]
    editions: tuple[tuple[str, ...], ...]
    players: int
    seed: int
    schedule: Schedule
    turn_cap: int = DEFAULT_TURN_CAP


@dataclass(frozen=True)
class Outcome:
    """One finished game: its number, the agent at each seat, the edition, the winning seats (none when
    the turn cap stopped it), every seat's Level at the end, and its length."""

    game: int
    seats: tuple[int, ...]
    edition: int
    winners: tuple[int, ...]
    levels: tuple[int, ...]
    capped: bool
    turns: int
    decisions: int


@dataclass
class Clock:
    """One agent's time spent answering: every decision's time in a histogram of geometric bins (so clocks
    of several workers add up and the median and 95th percentile are read within a bin's width)."""

    decisions: int = 0
    seconds: float = 0.0
    bins: dict[int, int] = field(default_factory=dict)

    def add(self, seconds: float) -> None:
        self.decisions += 1
        self.seconds += seconds
        b = max(0, math.floor(STEPS_PER_DOUBLING * math.log2(seconds / FLOOR))) if seconds > FLOOR else 0
        self.bins[b] = self.bins.get(b, 0) + 1

    def merge(self, other: Clock) -> None:
        self.decisions += other.decisions
        self.seconds += other.seconds
        for b, n in other.bins.items():
            self.bins[b] = self.bins.get(b, 0) + n

    def quantile(self, q: float) -> float:
        """The q-quantile of the decisions' times in seconds (nearest rank; the middle of its bin)."""
        if not self.decisions:
            return 0.0
        rank = max(1, math.ceil(q * self.decisions))
        seen = 0
        for b in sorted(self.bins):
            seen += self.bins[b]
            if seen >= rank:
                return float(FLOOR * 2 ** ((b + 0.5) / STEPS_PER_DOUBLING))
        return 0.0  # not reached: the bins hold every answer


@dataclass
class Timing:
    """One agent's clocks: its decisions (answers to what the game waits on, the think time a search bot
    is judged by) and the moments it was asked whether to act at any time (mostly a quick no)."""

    decide: Clock = field(default_factory=Clock)
    ask: Clock = field(default_factory=Clock)

    def merge(self, other: Timing) -> None:
        self.decide.merge(other.decide)
        self.ask.merge(other.ask)


def _ask_at_any_time(
    g: Game, asks: Mapping[int, Agent], timed: list[Timing], describe: Callable[[int, BaseException], str]
) -> tuple[int, Action] | None:
    """`interjection(g, asks)`, one seat at a time so that each agent's time is its own: a seat is asked
    (and timed) only where `interjection` would ask it, and the first action taken ends the round."""
    prompt = g.prompt
    moment = (prompt.kind, getattr(prompt, "stage", ""))
    waited = g.to_act
    for seat, bot in asks.items():
        if seat in waited or moment not in getattr(bot, "INTERJECT_AT", ()) or not g.any_time(seat):
            continue  # the listing above is the engine's time, not the agent's (the game keeps it)
        t0 = time.perf_counter()
        try:
            a = interjection(g, {seat: bot})
        except Exception as exc:
            raise AgentFailed(describe(seat, exc)) from exc
        timed[seat].ask.add(time.perf_counter() - t0)
        if a is not None:
            return seat, a
    return None


def play(league: League, game: int, timings: Mapping[int, Timing]) -> Outcome:
    """Play game number `game` of the league (seat i's agent seeded as `simulate` seeds it), adding
    each agent's times to `timings` (by agent number)."""
    seats = league.schedule.seating(game)
    edition = league.schedule.edition(game)
    seed = league.seed + game
    sets = list(league.editions[edition])
    g = Game(Setup(sets, NAMES[: league.players], seed, Options(turn_cap=league.turn_cap)))

    def describe(seat: int, exc: BaseException) -> str:
        return (
            f"agent {league.agents[seats[seat]]!r} at seat {seat + 1} of game {game + 1} "
            f"(seed {seed}, {'+'.join(sets)}): {type(exc).__name__}: {exc}"
        )

    bots: list[Agent] = []
    for i, who in enumerate(seats):
        try:
            bots.append(make_agent(league.agents[who], seed * 7919 + i))
        except Exception as exc:
            raise AgentFailed(describe(i, exc)) from exc
    timed = [timings[who] for who in seats]
    asks = {i: b for i, b in enumerate(bots) if hasattr(b, "interject")}  # bots that act at any time
    while not g.over:
        taken = _ask_at_any_time(g, asks, timed, describe) if asks else None
        if taken is not None:
            seat, a = taken
        else:
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            t0 = time.perf_counter()
            try:
                a = decide(bots[seat], g, seat, legal)
            except Exception as exc:
                raise AgentFailed(describe(seat, exc)) from exc
            timed[seat].decide.add(time.perf_counter() - t0)
        try:
            g.apply(a)
        except Exception as exc:
            raise AgentFailed(describe(seat, exc)) from exc
    levels = tuple(p.level for p in g.players)
    return Outcome(game, seats, edition, tuple(g.winners), levels, g.capped, g.turn, g.decisions)


def play_batch(league: League, first: int, count: int) -> tuple[list[Outcome], dict[int, Timing]]:
    """Games first .. first+count-1 of the league: their outcomes and each agent's timing."""
    timings = {a: Timing() for a in range(len(league.agents))}
    return [play(league, g, timings) for g in range(first, first + count)], timings
