"""What the RL observation costs (issue 36): `Encoder.encode(game, seat)` at every decision of seeded
games between random bots, split into the seat's numbers (`engine.view.seat_numbers`) and their
encoding (`Encoder.encode_numbers`, which keeps each seat's unchanged blocks), beside the path through
the view it equals (`Game.view(seat, moves=False)`, then `Encoder.encode_view`), and next to what the
decision itself costs (the bot's choice and `apply`). One process, one core.

    .venv/bin/python benchmarks/rl_encoding.py [--sets deluxe] [--players 4] [--games 10] [--turns 300]

Target: `encode` (view and encoding) under 100 µs a call for Deluxe, 4 players.
"""

from __future__ import annotations

import argparse
import time

from munchkin.agents.base import decide
from munchkin.agents.random_agent import RandomAgent
from munchkin.engine.game import Game, Options, Setup
from munchkin.engine.view import seat_numbers
from munchkin.rl.encoding import Encoder

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default="deluxe", help="a set, or a mix: star,deluxe")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--turns", type=int, default=300, help="each game's turn cap")
    args = ap.parse_args()
    sets = args.sets.split(",")
    enc = Encoder(sets, args.players)
    fast = Encoder(sets, args.players)  # its own kept blocks, as an environment's encoder has them
    clock = time.perf_counter
    view_t = enc_t = whole_t = decide_t = nums_t = fast_t = 0.0
    calls = decisions = 0
    for seed in range(1, args.games + 1):
        g = Game(Setup(sets, NAMES[: args.players], seed, Options(turn_cap=args.turns)))
        bot = RandomAgent(seed)
        while not g.over:
            s = g.to_act[0]
            t0 = clock()
            v = g.view(s, moves=False)  # as `encode` reads it: the mask replaces the moves
            t1 = clock()
            enc.encode_view(v)
            t2 = clock()
            nums = seat_numbers(g, s)
            t3 = clock()
            fast.encode_numbers(nums)
            t4 = clock()
            view_t, enc_t, nums_t, fast_t = view_t + t1 - t0, enc_t + t2 - t1, nums_t + t3 - t2, fast_t + t4 - t3
            t0 = clock()
            enc.encode(g, s)
            whole_t += clock() - t0
            calls += 1
            t0 = clock()
            g.apply(decide(bot, g, s, g.legal_actions(s)))
            decide_t += clock() - t0
            decisions += 1
    us = 1e6 / calls
    print(f"{'+'.join(sets)}, {args.players} players: {args.games} games, {calls} calls, vector of {enc.size}")
    print(f"  view (Game.view, moves=False) {view_t * us:7.1f} µs")
    print(f"  its encoding (encode_view)    {enc_t * us:7.1f} µs")
    print(f"  seat_numbers                  {nums_t * us:7.1f} µs")
    print(f"  their encoding (encode_numbers) {fast_t * us:5.1f} µs")
    print(f"  encode (seat_numbers and encode_numbers) {whole_t * us:5.1f} µs   target < 100")
    print(f"  a decision (bot+apply)  {decide_t * 1e6 / decisions:7.1f} µs")


if __name__ == "__main__":
    main()
