"""A game's whole state as JSON data and back (engine/snapshot.py): a restored game is the same game,
plays on the same, and a snapshot builds nothing but the engine's own records."""

from __future__ import annotations

import json
import random

import pytest

from munchkin.engine import snapshot
from munchkin.engine.actions import MunchkinError
from munchkin.engine.digest import state_digest
from munchkin.engine.game import Game, Setup

MIXES = [
    *(["deluxe"], ["star"], ["good-bad"], ["harry-potter"]),
    *(["star", "deluxe"], ["deluxe", "star", "good-bad", "harry-potter"]),
]
MOVES = 300  # a game's first moves; every DIFFED-th move's snapshot is diffed from the one before
DIFFED = 6
RESTORED_AT = (1, 61, 157, 289)  # where a snapshot is restored and both games play on
PLAYED_ON = 80


def _play(sets: list[str], seed: int) -> tuple[Game, random.Random]:
    return Game(Setup(sets=sets, players=["Ann", "Bob", "Cid", "Dee"], seed=seed)), random.Random(seed)


@pytest.mark.parametrize("sets", MIXES, ids=["+".join(m) for m in MIXES])
def test_a_restored_snapshot_is_the_same_game_and_plays_on_the_same(sets: list[str]) -> None:
    g, rng = _play(sets, 11)
    before = json.loads(json.dumps(snapshot.take(g)))
    restored = 0
    for move in range(1, MOVES + 1):
        if g.over:
            break
        g.apply(rng.choice(g.legal_actions(g.to_act[0])))
        if move % DIFFED and move not in RESTORED_AT:
            continue
        data = json.loads(json.dumps(snapshot.take(g)))  # through JSON text, as a save holds it
        assert snapshot.patch(before, json.loads(json.dumps(snapshot.diff(before, data)))) == data
        before = data
        if move not in RESTORED_AT:
            continue
        h = snapshot.restore(g.setup, data, g.rules)
        assert state_digest(h) == state_digest(g), f"move {move}"
        a = g.clone()
        pick = random.Random(move)
        for _ in range(PLAYED_ON):
            if a.over:
                break
            acts = a.legal_actions(a.to_act[0])
            assert h.legal_actions(h.to_act[0]) == acts and h.to_act == a.to_act
            act = pick.choice(acts)
            a.apply(act)
            h.apply(act)
            assert h.events[-3:] == a.events[-3:]
        assert state_digest(h) == state_digest(a), f"played on from move {move}"
        restored += 1
    assert restored >= 2, "the game ended before two snapshots were restored: choose another seed"


def _record(data: dict, kind: str, name: str) -> dict:
    """The snapshot with one record's kind changed (a first step of the flow's stack, or an event)."""
    changed = json.loads(json.dumps(data))
    if kind == "o":
        changed["state"]["_stack"][0]["o"] = name
    else:
        changed["state"]["events"][0]["e"] = name
    return changed


@pytest.mark.parametrize(
    ("kind", "name", "said"),
    [
        ("o", "os:system", "outside the game's state"),
        ("o", "engine.game:Game", "no record of the game's state"),
        ("o", "engine.nothing:Here", "no record of the game's state"),
        ("e", "engine.state:Player", "no record of the game's state"),
        ("o", "server.app:create_app", "outside the game's state"),
    ],
)
def test_a_snapshot_builds_only_the_engines_records(kind: str, name: str, said: str) -> None:
    g, rng = _play(["deluxe"], 3)
    for _ in range(5):
        g.apply(rng.choice(g.legal_actions(g.to_act[0])))
    data = snapshot.take(g)
    with pytest.raises(MunchkinError, match=said):
        snapshot.restore(g.setup, _record(data, kind, name), g.rules)


def test_a_broken_snapshot_says_what_is_wrong() -> None:
    g, _ = _play(["deluxe"], 4)
    data = json.loads(json.dumps(snapshot.take(g)))
    with pytest.raises(MunchkinError, match="not a snapshot"):
        snapshot.restore(g.setup, {"state": data["state"]}, g.rules)
    del data["state"]["players"]
    with pytest.raises(MunchkinError, match="lacks part of the state: players"):
        snapshot.restore(g.setup, data, g.rules)
    data = json.loads(json.dumps(snapshot.take(g)))
    data["state"]["_legal_cache"] = {"d": []}
    with pytest.raises(MunchkinError, match="does not hold '_legal_cache'"):
        snapshot.restore(g.setup, data, g.rules)
    data = json.loads(json.dumps(snapshot.take(g)))
    data["state"]["players"][0]["v"]["wings"] = 3
    with pytest.raises(MunchkinError, match="a field it does not have: wings"):
        snapshot.restore(g.setup, data, g.rules)
