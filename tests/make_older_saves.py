"""Makes the saves of older rules in tests/data/ (`python tests/make_older_saves.py`), with an engine
that still plays those rules: saves of each rules number from 4 to today's, and each save given its
record of every move's state (snapshot.Recorder), so that it shows, verifies and goes on once the
engine plays today's rules only.

    python tests/make_older_saves.py record     # add its record to every save of rules 1 to 3
    python tests/make_older_saves.py play 4 5   # sixteen saves of each of these rules numbers

A save of rules N is a finished game between bots (random and heuristic, seats alternating), two of
every edition and mix; where the next rules would play a game differently, such a game is taken
first (tried on the next MAX_TRIES seeds), so that the file shows what those rules did.
"""

from __future__ import annotations

import json
import lzma
import sys
from pathlib import Path

from munchkin.agents.base import decide, interjection
from munchkin.agents.registry import make_agent
from munchkin.engine.actions import MunchkinError
from munchkin.engine.game import RULES, Game, Setup
from munchkin.simulate import NAMES

DATA = Path(__file__).parent / "data"
MIXES = [
    ["deluxe"],
    ["star"],
    ["good-bad"],
    ["harry-potter"],
    ["star", "deluxe"],
    ["good-bad", "deluxe"],
    ["harry-potter", "deluxe"],
    ["deluxe", "star", "good-bad", "harry-potter"],
]
PER_MIX = 2
MAX_TRIES = 10  # seeds tried per save for a game the next rules play differently
MAX_MOVES = 2500  # longer games are passed over: a save's record grows with every move


def saves_path(rules: int) -> Path:
    return DATA / f"rules{rules}-saves.jsonl.xz"


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in lzma.decompress(path.read_bytes()).decode().splitlines()]


def write(path: Path, saves: list[dict]) -> None:
    text = "\n".join(json.dumps(s, separators=(",", ":")) for s in saves) + "\n"
    path.write_bytes(lzma.compress(text.encode(), preset=9 | lzma.PRESET_EXTREME))


def add_records(rules: int) -> None:
    """Each save of the file, loaded under its own rules, written back with its record added; the
    save's own log stays as it was written (a save of rules 1 never said some passes)."""
    path = saves_path(rules)
    saves = read(path)
    for save in saves:
        g = Game.from_json(json.dumps({k: v for k, v in save.items() if k != "record"}))
        save["record"] = json.loads(g.to_json())["record"]
    write(path, saves)
    print(f"{path.name}: {len(saves)} saves, each with its record")


def play(sets: list[str], seed: int, rules: int) -> Game | None:
    players = 3 + seed % 4
    g = Game(Setup(list(sets), NAMES[:players], seed), rules=rules)
    kinds = ["random", "heuristic"]
    bots = [make_agent(kinds[(seed + i) % 2], seed * 7919 + i) for i in range(players)]
    by_seat = {i: b for i, b in enumerate(bots) if hasattr(b, "interject")}
    moves = 0
    while not g.over:
        a = interjection(g, by_seat) if by_seat else None
        if a is None:
            seat = g.to_act[0]
            a = decide(bots[seat], g, seat, g.legal_actions(seat))
        g.apply(a)
        moves += 1
        if moves > MAX_MOVES:
            return None
    return g


def differs_next(save: dict, rules: int) -> bool:
    """Whether the next rules play this save's game differently (its log does not replay under them)."""
    if rules >= RULES:
        return False
    try:
        Game.from_json(json.dumps({**{k: v for k, v in save.items() if k != "record"}, "rules": rules + 1}))
    except MunchkinError:
        return True
    return False


def make_saves(rules: int) -> None:
    saves: list[dict] = []
    seed = rules * 1000
    for sets in MIXES:
        found: list[dict] = []
        fallback: list[dict] = []
        for _ in range(MAX_TRIES):
            seed += 1
            g = play(sets, seed, rules)
            if g is None or g.capped:
                continue
            save = json.loads(g.to_json())
            (found if differs_next(save, rules) else fallback).append(save)
            if len(found) >= PER_MIX or (rules >= RULES and len(fallback) >= PER_MIX):
                break
        chosen = (found + fallback)[:PER_MIX]
        saves += chosen
        print(f"rules {rules} {'+'.join(sets)}: {len(found)} of {len(chosen)} played differently by the next rules")
    write(saves_path(rules), saves)
    print(f"{saves_path(rules).name}: {len(saves)} saves")


def main(argv: list[str]) -> None:
    if argv[:1] == ["record"]:
        for rules in (1, 2, 3):
            add_records(rules)
    elif argv[:1] == ["play"] and argv[1:]:
        for n in argv[1:]:
            make_saves(int(n))
    else:
        print(__doc__)
        raise SystemExit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
