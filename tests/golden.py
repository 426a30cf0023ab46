"""Golden games: seeded bot games recorded with the engine as it was, to prove that a rebuild of the
engine's inside changes no rule and no outcome. First recorded before issue 14's rebuild (which
changed nothing in them); recorded anew, on purpose, when a rule change alters what is offered
(issue 15: a seat waited on also finds its any-time actions, and bots act at any time, so the bots'
games differ; a move recorded by a seat the game did not wait on is such an action).

Each game records its table (sets, players, seed, options), every decision as (seat, the action's
canonical text), a digest of the legal actions' texts offered at every decision, and the final
fingerprint. Checking a game plays the recorded texts back through `Game.play` (no agent is run,
so agents may change freely) and asserts that every text parses to a legal action, that the same
legal actions were offered at every step, and that the game ends in the same state.

`python -m tests.golden record` writes the file (`record BATCH...` records those batches anew and
keeps the others' lines as they are); `benchmarks/golden_games.py` checks every game,
`tests/test_golden.py` a seeded share of them in CI. Recorded anew for Star Munchkin's published
monsters (issue 17: batches star and star+deluxe); a game saved before carries no card versions
and replays with the cards of version 1 of every set, so the old records would still play.
Recorded anew, every batch, under rules 3 (issue 18: the cards do what their texts say); a record
names the rules it was played under, one without them is of rules 2, and before re-recording all
2,100 records of rules 2 played as recorded on the engine of rules 3 (its fixes asked
`rules.as_written`); 1,826 of the 2,100 games play differently under rules 3.
Recorded anew, every batch, under rules 4 (issue 32: Items given away at any time out of combat, a
fight weighed again when a change turns it before anyone has run); before re-recording all 2,100
records of rules 3 played as recorded on the engine of rules 4 (its fixes ask
`rules.gifts_any_time`); 2,048 of the 2,100 games play differently under rules 4 (bots, random ones
above all, now give Items away on others' turns).
"""

from __future__ import annotations

import hashlib
import json
import lzma
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from munchkin.agents.base import decide, interjection, make_agent
from munchkin.engine.game import Game, Options, Setup
from munchkin.simulate import NAMES

GOLDEN = Path(__file__).parent / "data" / "golden-games.jsonl.xz"  # a header line, then one game a line
GAMES_PER_BATCH = 300
HEAD = re.compile(r'\{"batch":"([^"]+)","sets":\[[^\]]*\],"seed":(\d+),')
BATCHES = {
    "deluxe": ["deluxe"],
    "star": ["star"],
    "good-bad": ["good-bad"],
    "harry-potter": ["harry-potter"],
    "star+deluxe": ["star", "deluxe"],
    "good-bad+deluxe": ["good-bad", "deluxe"],
    "harry-potter+deluxe": ["harry-potter", "deluxe"],
}


def table(seed: int) -> tuple[int, list[str], Options]:
    """Players, agents and the Faster Play options of a golden game, varied by seed."""
    players = 3 + seed % 4
    agents = [["random"], ["heuristic"], ["random", "heuristic"], ["heuristic", "random"]][seed // 4 % 4]
    opts = Options(listen_at_the_door=seed % 2 == 0, shared_victories=seed % 3 == 0, turn_cap=5000)
    return players, agents, opts


def offered_digest(g: Game, seat: int, h: Any) -> None:
    """Fold the texts of the legal actions offered to `seat` into the running digest `h`."""
    for a in g.legal_actions(seat):
        h.update(g.text(a).encode())
        h.update(b"\n")
    h.update(b"|")


def record_game(sets: list[str], seed: int) -> dict[str, Any]:
    """Play one seeded game between bots with the engine as it is, recording it."""
    players, agents, opts = table(seed)
    setup = Setup(list(sets), NAMES[:players], seed, opts)
    g = Game(setup)
    bots = [make_agent(agents[i % len(agents)], seed * 7919 + i) for i in range(players)]
    by_seat = {i: b for i, b in enumerate(bots) if hasattr(b, "interject")}  # bots that act at any time
    moves: list[list[Any]] = []
    h = hashlib.sha256()
    while not g.over:
        a = interjection(g, by_seat) if by_seat else None  # as `simulate` plays: any-time moves first
        if a is None:
            seat = g.to_act[0]
            offered_digest(g, seat, h)
            a = decide(bots[seat], g, seat, g.legal_actions(seat))
        else:
            offered_digest(g, a.seat, h)
        moves.append([a.seat, g.text(a)])
        g.apply(a)
    return {
        "sets": sets,
        "seed": seed,
        "rules": g.rules,  # a record without it was played under rules 2 (before issue 18)
        "setup": {**asdict(setup), "card_versions": dict(g.card_versions)},  # replays with these very cards
        "moves": moves,
        "offered": h.hexdigest()[:16],
        "fingerprint": g.fingerprint(),
        "turns": g.turn,
        "winners": list(g.winners),
    }


def check_game(rec: dict[str, Any]) -> list[str]:
    """Play a recorded game back by its texts; what differs from the record, in words (empty: nothing)."""
    g = Game(Game.setup_from_json({"setup": rec["setup"]}), rules=rec.get("rules", 2))
    h = hashlib.sha256()
    where = f"{'+'.join(rec['sets'])} seed {rec['seed']}"
    for i, (seat, text) in enumerate(rec["moves"]):
        if g.over:
            return [f"{where}: the game ended before move {i} ({text!r})"]
        if g.to_act[0] != seat and not g.any_time(seat):  # neither its answer nor a move at any time
            return [f"{where}: move {i} ({text!r}) is seat {seat}'s, but the game waits on {g.to_act}"]
        offered_digest(g, seat, h)
        try:
            g.play(text, seat)
        except Exception as exc:  # any difference is reported, not raised
            return [f"{where}: move {i} ({text!r}) no longer plays: {type(exc).__name__}: {exc}"]
    out = []
    if not g.over:
        out.append(f"{where}: the game did not end after its {len(rec['moves'])} moves")
    if h.hexdigest()[:16] != rec["offered"]:
        out.append(f"{where}: the legal actions offered differ from the record at some decision")
    if g.fingerprint() != rec["fingerprint"]:
        out.append(f"{where}: the final state differs (fingerprint {g.fingerprint()} != {rec['fingerprint']})")
    if list(g.winners) != rec["winners"] or g.turn != rec["turns"]:
        out.append(f"{where}: winners {g.winners} at turn {g.turn}, recorded {rec['winners']} at {rec['turns']}")
    return out


def rerun_agents(rec: dict[str, Any]) -> tuple[list[str], list[int]]:
    """Play a recorded game again with today's agents (given observations, not the game): where they
    choose differently from the recorded ones (empty: every move the same), and who won."""
    players, agents, _ = table(rec["seed"])
    g = Game(Game.setup_from_json({"setup": rec["setup"]}), rules=rec.get("rules", 2))
    bots = [make_agent(agents[i % len(agents)], rec["seed"] * 7919 + i) for i in range(players)]
    by_seat = {i: b for i, b in enumerate(bots) if hasattr(b, "interject")}
    where = f"{'+'.join(rec['sets'])} seed {rec['seed']}"
    for i, (seat, text) in enumerate(rec["moves"]):
        a = None if g.over else interjection(g, by_seat)
        if a is None:
            if g.over or g.to_act[0] != seat:
                return [f"{where}: the game went differently before move {i}"], list(g.winners)
            a = decide(bots[seat], g, seat)
        if g.text(a) != text:
            return [f"{where}: move {i}: the agent now plays {g.text(a)!r}, recorded {text!r}"], list(g.winners)
        g.apply(a)
    return ([] if g.over else [f"{where}: the game did not end after its recorded moves"]), list(g.winners)


def seat_agents(seed: int) -> list[str]:
    """The agent of each seat of a golden game."""
    players, agents, _ = table(seed)
    return [agents[i % len(agents)] for i in range(players)]


def games(keep: Callable[[str, int], bool] = lambda batch, seed: True) -> Iterator[dict[str, Any]]:
    """The recorded golden games, one at a time (the file is large), those `keep(batch, seed)` accepts."""
    with lzma.open(GOLDEN, "rt", encoding="utf-8") as f:
        header = json.loads(next(f))
        if header.get("format") != "munchkin-golden/1":
            raise ValueError(f"{GOLDEN.name} is not a golden-games file")
        for line in f:
            head = HEAD.match(line)  # the batch and seed, read without parsing the whole game
            if head is None:
                raise ValueError(f"{GOLDEN.name}: a line is not a recorded game")
            if keep(head[1], int(head[2])):
                yield json.loads(line)


def _record_batch(name: str) -> list[dict[str, Any]]:
    return [record_game(BATCHES[name], seed) for seed in range(1, GAMES_PER_BATCH + 1)]


def record(only: list[str] | None = None) -> None:
    """Record every batch (or those in `only`, keeping the others' lines) on every core and write the file."""
    from concurrent.futures import ProcessPoolExecutor

    names = list(only or BATCHES)
    kept: dict[str, list[str]] = {}
    if only:
        with lzma.open(GOLDEN, "rt", encoding="utf-8") as f:
            next(f)
            for line in f:
                head = HEAD.match(line)
                if head is not None and head[1] not in names:
                    kept.setdefault(head[1], []).append(line)
    with ProcessPoolExecutor() as pool:
        done = dict(zip(names, pool.map(_record_batch, names), strict=True))
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    with lzma.open(GOLDEN, "wt", encoding="utf-8", preset=9) as f:
        f.write(json.dumps({"format": "munchkin-golden/1"}) + "\n")
        for name in BATCHES:  # the batches in their usual order
            if name in done:
                for rec in done[name]:
                    f.write(json.dumps({"batch": name, **rec}, separators=(",", ":")) + "\n")
            else:
                f.writelines(kept.get(name, []))
    moves = sum(len(r["moves"]) for b in done.values() for r in b)
    print(f"recorded {sum(map(len, done.values()))} games ({', '.join(names)}), {moves} moves, into {GOLDEN}")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] != ["record"] or any(b not in BATCHES for b in args[1:]):
        sys.exit(f"usage: python -m tests.golden record [BATCH...]   (batches: {', '.join(BATCHES)})")
    record(args[1:] or None)
