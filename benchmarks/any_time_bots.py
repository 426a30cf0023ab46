"""What acting "at any time" is worth to the heuristic bot: seeded 4-player games in each edition
where one seat's bot takes any-time actions off its own turn (a Curse on the leader right after
the leader's door opens) and the three others never do, the acting seat moved round the table
game by game so that seat order cancels out; then all four acting, against all four never acting.

    .venv/bin/python benchmarks/any_time_bots.py [--games 200] [--sets deluxe,star,good-bad,harry-potter]

Prints, per edition, the acting seat's win rate with its 95% Wilson interval (a quarter is par),
the mean game length in turns with and without any-time actions, and how many Curses the bots
played off their turn.
"""

from __future__ import annotations

import argparse
import statistics

from munchkin.agents.base import Agent, decide, interjection
from munchkin.agents.heuristic import HeuristicAgent
from munchkin.balance.stats import wilson
from munchkin.engine.game import Game, Options, Setup

NAMES = ["Ann", "Bob", "Cid", "Dee"]


class Plain(HeuristicAgent):
    """The heuristic bot that acts only when the game waits on it (as before issue 15)."""

    INTERJECT_AT: frozenset[tuple[str, str]] = frozenset()


def play(sets: list[str], seed: int, acting: set[int]) -> tuple[list[int], int, int]:
    """One game: its winners, its turns, and the actions taken off the seat's own decision."""
    g = Game(Setup(sets, NAMES, seed, Options(turn_cap=5000)))
    bots: dict[int, Agent] = {i: (HeuristicAgent if i in acting else Plain)(seed * 7919 + i) for i in range(len(NAMES))}
    extra = 0
    while not g.over:
        a = interjection(g, bots)
        if a is None:
            seat = g.to_act[0]
            a = decide(bots[seat], g, seat)
        else:
            extra += 1
        g.apply(a)
    return list(g.winners), g.turn, extra


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--sets", default="deluxe,star,good-bad,harry-potter")
    args = ap.parse_args()
    for edition in args.sets.split(","):
        sets = [edition]
        wins = n = extra = 0
        for i in range(args.games):
            me = i % len(NAMES)
            winners, _, x = play(sets, 1000 + i, {me})
            n += 1
            wins += me in winners
            extra += x
        lo, hi = wilson(wins, n)
        plain = [play(sets, 1000 + i, set())[1] for i in range(args.games)]
        everyone = [play(sets, 1000 + i, set(range(len(NAMES)))) for i in range(args.games)]
        print(
            f"{edition}: the one seat acting at any time won {wins}/{n} = {wins / n:.1%} "
            f"(95% {lo:.1%}–{hi:.1%}; par 25%), {extra} off-turn actions; "
            f"turns {statistics.mean(plain):.1f} with none acting, "
            f"{statistics.mean(t for _, t, _ in everyone):.1f} with all four "
            f"({sum(x for _, _, x in everyone)} off-turn actions)"
        )


if __name__ == "__main__":
    main()
