"""Play many games between agents and summarise them.

Seats are numbered from 0 here and in the JSON summary (as the engine numbers them: `Game.seat_of`);
what is printed for people numbers them from 1, as the balance report does."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from munchkin.agents.base import Agent, decide, interjection, make_agent
from munchkin.balance.summary import by_agent
from munchkin.engine.game import Game, Options, Setup
from munchkin.invariants import Checker

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


@dataclass
class GameResult:
    seed: int
    turns: int
    decisions: int
    winners: list[int]
    capped: bool
    violations: list[str] = field(default_factory=list)


def play_game(
    sets: list[str],
    players: int,
    seed: int,
    agents: list[str],
    check: bool = False,
    options: Options | None = None,
    save_dir: Path | None = None,
    origin: dict[str, Any] | None = None,
) -> GameResult:
    """One game from a seed; with `check`, every invariant after every step;
    with `save_dir`, its log saved there as game-SEED.json (recording `origin`, see `Setup.origin`)."""
    checker = Checker() if check else None
    problems: list[str] = []
    g = run_game(sets, players, seed, agents, options, checker, problems, origin)
    if checker is not None and not problems:
        problems += [f"seed {seed}: {x}" for x in checker.check(g)]
    if save_dir is not None:
        (save_dir / f"game-{seed}.json").write_text(g.to_json(), encoding="utf-8")
    return GameResult(seed, g.turn, g.decisions, list(g.winners), g.capped, problems)


def run_game(
    sets: list[str],
    players: int,
    seed: int,
    agents: list[str],
    options: Options | None = None,
    checker: Checker | None = None,
    problems: list[str] | None = None,
    origin: dict[str, Any] | None = None,
) -> Game:
    """Play one game from a seed to its end between bots (seat i plays agents[i % len(agents)]);
    with a `checker`, stop at the first broken invariant and add it to `problems`. `origin`: where
    the cards came from, as its save records it (`Setup.origin`)."""
    g = Game(Setup(list(sets), NAMES[:players], seed, options or Options(), origin=origin))
    bots: list[Agent] = [make_agent(agents[i % len(agents)], seed * 7919 + i) for i in range(players)]
    by_seat = {i: b for i, b in enumerate(bots) if hasattr(b, "interject")}  # bots that act at any time
    while not g.over:
        a = interjection(g, by_seat) if by_seat else None
        if a is None:
            seat = g.to_act[0]
            a = decide(bots[seat], g, seat, g.legal_actions(seat))
        g.apply(a)
        if checker is not None:
            v = checker.check(g)
            if v:
                if problems is not None:
                    problems += [f"seed {seed} turn {g.turn}: {x}" for x in v]
                break
    return g


def percentile(xs: list[int], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    i = min(len(s) - 1, max(0, round(q * (len(s) - 1))))
    return float(s[i])


def simulate(
    sets: list[str],
    players: int,
    games: int,
    seed: int,
    agents: list[str],
    check: bool = False,
    progress: Callable[[int], None] | None = None,
    save_dir: Path | None = None,
) -> dict[str, Any]:
    """Play `games` games from seeds seed, seed+1, ... and summarise them; the summary's `origin` says
    where the cards came from (rules, engine, card versions, designer folders: `report_origin`)."""
    from munchkin.origin import report_origin

    origin = report_origin(sets)
    folders = {"set_dirs": origin["set_dirs"]} if origin["set_dirs"] else None  # what a save records
    results: list[GameResult] = []
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    for i in range(games):
        results.append(play_game(sets, players, seed + i, agents, check, save_dir=save_dir, origin=folders))
        if progress:
            progress(i + 1)
    elapsed = time.perf_counter() - t0
    wins = [0] * players
    for r in results:
        for w in r.winners:
            wins[w] += 1
    turns = [r.turns for r in results]
    decisions = sum(r.decisions for r in results)
    violations = [v for r in results for v in r.violations]
    return {
        "games": games,
        "finished": sum(1 for r in results if not r.capped),
        "capped": sum(1 for r in results if r.capped),
        "wins_by_seat": wins,
        "wins_by_agent": by_agent(wins, agents, sum(1 for r in results if not r.capped)),
        "turns": {
            "mean": sum(turns) / len(turns) if turns else 0.0,
            "p50": percentile(turns, 0.5),
            "p95": percentile(turns, 0.95),
        },
        "decisions": decisions,
        "seconds": elapsed,
        "decisions_per_second": decisions / elapsed if elapsed else 0.0,
        "games_per_second": games / elapsed if elapsed else 0.0,
        "invariant_violations": len(violations),
        "violations": violations[:20],
        "sets": sets,
        "players": players,
        "agents": agents,
        "seed": seed,
        "checked": check,
        "origin": origin,
    }
