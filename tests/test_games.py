"""The CI game suite: seeded games between bots, every invariant checked after every step.

- 120 random-agent games (4 players, seeds 1..120) in 8 chunks of 15;
- 80 heuristic-agent games (4 players, seeds 1..80) in 8 chunks of 10;
- 120 mixed games: 3 to 6 players, Listen At The Door and shared victories on and off,
  random and heuristic agents at one table, in 8 chunks of 15 (the tables repeat every 60
  seeds, so each is played twice);
- 120 games of each other edition alone and 120 of it shuffled with Deluxe (Star Munchkin,
  The Good, the Bad, and the Munchkin, Harry Potter; seeds 1..120 each, in chunks of 15),
  tables varied by seed: 3 to 6 players, random agents, heuristic agents or both at one
  table, the Faster Play options on and off (the tables repeat every 48 seeds).

Each chunk asserts: no game raises, no invariant is ever violated, every game that was not
stopped by the turn cap has a winner, and the chunk alone does not use up its batch's budget
of capped games. The budget itself (fewer than 1% of each whole batch capped) is checked
across chunks, also under pytest-xdist, by `tests/conftest.py`.

`MUNCHKIN_SOAK=N` multiplies every batch by N (`benchmarks/game_soak.py` runs it on every core):
the batches here are sized to keep CI under its time limit (they were 300 games, 200 heuristic,
until the fresh-clone CI reached 26 minutes; then 150 and 100 until it reached 28 minutes with the
search bot's, the ladder's and the fair deals' suites to come), the soak is for runs by hand.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from typing import Any

import pytest

from munchkin.engine.game import Options
from munchkin.simulate import play_game
from soak import SOAK

RANDOM_GAMES, RANDOM_CHUNK = 120 * SOAK, 15
HEURISTIC_GAMES, HEURISTIC_CHUNK = 80 * SOAK, 10
MIXED_GAMES, MIXED_CHUNK = 120 * SOAK, 15
STAR_GAMES, STAR_CHUNK = 120 * SOAK, 15
CAP_SHARE = 0.01  # capped games must be fewer than 1% of a batch


def mixed_table(seed: int) -> tuple[int, list[str], Options]:
    """Players, agents and options for a mixed game, varied by seed."""
    players = 3 + seed % 4
    agents = [["heuristic"], ["random"], ["random"], ["random", "heuristic"], ["heuristic", "random"]][seed % 5]
    opts = Options(listen_at_the_door=seed % 2 == 0, shared_victories=seed % 3 == 0, turn_cap=5000)
    return players, agents, opts


def varied_table(seed: int) -> tuple[int, list[str], Options]:
    """Players, agents and options for a game of another edition, varied by seed (a quarter all random)."""
    players = 3 + seed % 4
    agents = [["random"], ["heuristic"], ["random", "heuristic"], ["heuristic", "random"]][seed // 4 % 4]
    opts = Options(listen_at_the_door=seed % 2 == 0, shared_victories=seed % 3 == 0, turn_cap=5000)
    return players, agents, opts


SET_BATCHES = {
    "star": ["star"],
    "star+deluxe": ["star", "deluxe"],
    "good-bad": ["good-bad"],
    "good-bad+deluxe": ["good-bad", "deluxe"],
    "harry-potter": ["harry-potter"],
    "harry-potter+deluxe": ["harry-potter", "deluxe"],
}


def run_chunk(agent: str, seeds: range, batch: int, record_property: Callable[[str, Any], None]) -> None:
    t0 = time.perf_counter()
    problems: list[str] = []
    capped: list[int] = []
    for seed in seeds:
        try:
            if agent in SET_BATCHES:
                players, agents, opts = varied_table(seed)
                r = play_game(SET_BATCHES[agent], players, seed, agents, check=True, options=opts)
            elif agent == "mixed":
                players, agents, opts = mixed_table(seed)
                r = play_game(["deluxe"], players, seed, agents, check=True, options=opts)
            else:
                r = play_game(["deluxe"], 4, seed, [agent], check=True)
        except Exception as exc:  # an engine or agent crash: report it with the others
            tb = traceback.format_exception(exc)
            problems.append(f"seed {seed}: {type(exc).__name__}: {exc}\n{''.join(tb[-6:])}")
            continue
        problems += r.violations
        if r.capped:
            capped.append(seed)
        elif not r.winners:
            problems.append(f"seed {seed}: the game ended after {r.turns} turns without a winner")
    seconds = time.perf_counter() - t0
    record_property("game_batch", {"batch": agent, "games": len(seeds), "capped": capped, "seconds": seconds})
    assert not problems, f"{agent} games, seeds {seeds.start}..{seeds.stop - 1}:\n" + "\n".join(problems[:20])
    assert len(capped) < CAP_SHARE * batch, f"{agent} games capped by the turn cap: seeds {capped}"


BATCHES = {
    "random": (RANDOM_GAMES, RANDOM_CHUNK),
    "heuristic": (HEURISTIC_GAMES, HEURISTIC_CHUNK),
    "mixed": (MIXED_GAMES, MIXED_CHUNK),
    "star": (STAR_GAMES, STAR_CHUNK),
    "star+deluxe": (STAR_GAMES, STAR_CHUNK),
    "good-bad": (STAR_GAMES, STAR_CHUNK),
    "good-bad+deluxe": (STAR_GAMES, STAR_CHUNK),
    "harry-potter": (STAR_GAMES, STAR_CHUNK),
    "harry-potter+deluxe": (STAR_GAMES, STAR_CHUNK),
}
CHUNKS = [(agent, start) for agent, (total, size) in BATCHES.items() for start in range(1, total + 1, size)]


@pytest.mark.parametrize(
    ("agent", "start"),
    CHUNKS,
    ids=[f"{a}-seeds{s}-{s + BATCHES[a][1] - 1}" for a, s in CHUNKS],
)
def test_game_suite(agent: str, start: int, record_property: Callable[[str, Any], None]) -> None:
    total, size = BATCHES[agent]
    run_chunk(agent, range(start, start + size), total, record_property)
