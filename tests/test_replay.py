"""Replays: a game rebuilds exactly from its log, from its save, and from the text of its actions.

For 42 seeded games between random agents, played to the end: every edition alone and each
shuffled with Deluxe (tests/editions.py), with 3, 4 and 6 players, with and without the Faster
Play Rules, each of these 42 tables once (`MUNCHKIN_SOAK=N`: N times as many games):

(a) `Game.from_log(setup, log)` rebuilds the same state;
(b) `Game.from_json(g.to_json())` loads and rebuilds the same state;
(c) replaying the canonical text of every action, each text read in the state it was taken in,
    through `Game.play` gives back the very same actions and the same state: every canonical
    text parses back to its action.

Also: a game saved in the middle of a combat loads and goes on exactly as the original; and a
corrupted save (edited entries, wrong format, broken JSON) is refused with a MunchkinError that
says what is wrong.
"""

from __future__ import annotations

import json
import lzma
import random
from pathlib import Path
from typing import Any

import pytest

from editions import sets_for
from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.game import RULES, Game, Options, Setup
from saves import refused
from soak import SOAK

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
CASES = [(seed, [4, 3, 6][seed % 3], seed % 2 == 0) for seed in range(1, 42 * SOAK + 1)]  # 7 x 3 x 2 tables


def setup_for(seed: int, players: int, fast: bool) -> Setup:
    options = Options(listen_at_the_door=True, shared_victories=True) if fast else Options()
    return Setup(sets_for(seed), NAMES[:players], seed, options)


Record = tuple[int, str, Action]


def play_recorded(setup: Setup, stop: Any = None) -> tuple[Game, list[Record]]:
    """A random-agent game; each decision recorded with its text as it read when taken."""
    g = Game(setup)
    r = random.Random(setup.seed * 31 + 7)
    records: list[Record] = []
    while not g.over:
        if stop is not None and stop(g):
            break
        seat = r.choice(list(g.to_act))
        legal = g.legal_actions(seat)
        a = legal[r.randrange(len(legal))]
        records.append((seat, g.text(a), a))
        g.apply(a)
    return g, records


def same_game(g: Game, h: Game, what: str) -> None:
    assert h.fingerprint() == g.fingerprint(), f"{what}: fingerprint differs"
    assert h.to_act == g.to_act, f"{what}: to_act differs"
    assert h.events == g.events, f"{what}: events differ"
    assert h.log == g.log, f"{what}: log differs"
    assert (h.over, h.capped, h.winners, h.turn) == (g.over, g.capped, g.winners, g.turn), f"{what}: outcome differs"


def case_id(case: tuple[int, int, bool]) -> str:
    seed, players, fast = case
    return f"seed{seed}-{'+'.join(sets_for(seed))}-{players}p" + ("-faster" if fast else "")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_full_game_replays(case: tuple[int, int, bool]) -> None:
    setup = setup_for(*case)
    g, records = play_recorded(setup)
    assert g.over

    # (a) from the log
    same_game(g, Game.from_log(g.setup, g.log), f"{case_id(case)} from_log")

    # (b) from the save
    saved = g.to_json()
    json.loads(saved)
    loaded = Game.from_json(saved)
    same_game(g, loaded, f"{case_id(case)} from_json")

    # (c) from the text of each action, read when it was taken
    g2 = Game(setup)
    for i, (seat, text, a) in enumerate(records):
        try:
            got = g2.play(text, seat)
        except MunchkinError as exc:
            msg = f"{case_id(case)} decision {i}: {text!r} as seat {seat} does not replay: {exc}"
            raise AssertionError(msg) from exc
        assert got == a, f"{case_id(case)} decision {i}: {text!r} parsed as {got!r}, not {a!r}"
    same_game(g, g2, f"{case_id(case)} replayed by text")


def test_save_texts_read_as_played() -> None:
    """The save writes each action's text as it read when taken (the recorded texts)."""
    g, records = play_recorded(setup_for(3, 4, False))
    acts = [e for e in json.loads(g.to_json())["log"] if "act" in e]
    assert [(e["seat"], e["act"]) for e in acts] == [(s, t) for s, t, _ in records]


# ------------------------------------------------------------------ saved mid-combat
def in_combat(g: Game) -> bool:
    return g.combat is not None and g.prompt.kind in ("window", "losing", "run", "help", "rolled")


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 8])
def test_save_in_combat_loads_and_goes_on_identically(seed: int) -> None:
    players = [3, 4, 6][seed % 3]
    setup = setup_for(seed, players, seed % 2 == 1)
    # stop at the second combat prompt of the game, some way into it
    seen = [0]

    def stop(g: Game) -> bool:
        if in_combat(g):
            seen[0] += 1
        return seen[0] >= 3

    g, _ = play_recorded(setup, stop)
    assert not g.over and in_combat(g), f"seed {seed}: no combat reached"
    h = Game.from_json(g.to_json())
    same_game(g, h, f"seed {seed} loaded in combat")
    assert h.combat is not None
    for s in range(players):
        assert h.view(s) == g.view(s), f"seed {seed}: seat {s}'s view differs after loading"
    r = random.Random(seed)
    step = 0
    while not g.over:
        seat = r.choice(list(g.to_act))
        legal = g.legal_actions(seat)
        assert h.legal_actions(seat) == legal, f"seed {seed} step {step}: legal actions differ"
        a = legal[r.randrange(len(legal))]
        g.apply(a)
        h.apply(a)
        assert h.fingerprint() == g.fingerprint(), f"seed {seed} step {step}: {a!r} gives different states"
        if g.combat is not None or step < 50:
            for s in range(players):
                assert h.view(s) == g.view(s), f"seed {seed} step {step}: seat {s}'s view differs"
        step += 1
    same_game(g, h, f"seed {seed} continued after loading")
    assert h.state_digest() == g.state_digest(), f"seed {seed}: the whole states differ at the end"


# ------------------------------------------------------------------ corrupted saves
@pytest.fixture(scope="module")
def save() -> dict[str, Any]:
    g, _ = play_recorded(setup_for(11, 4, False), stop=lambda g: g.turn >= 12)
    return json.loads(g.to_json())


def act_indices(data: dict[str, Any]) -> list[int]:
    return [i for i, e in enumerate(data["log"]) if isinstance(e, dict) and "act" in e]


def test_intact_save_loads(save: dict[str, Any]) -> None:
    g = Game.from_json(json.dumps(save))
    assert g.fingerprint() == save["state"]


@pytest.mark.parametrize(
    "text",
    ["", "{", "not json", '{"format": "munchkin-game/1", "setup": ', "null", "[]", "42", '"munchkin-game/1"'],
)
def test_not_a_save(text: str) -> None:
    msg = refused(text)
    assert "json" in msg or "save" in msg or "format" in msg, msg


def test_wrong_format(save: dict[str, Any]) -> None:
    for fmt in ["munchkin-game/0", "munchkin-game/2", "", None, 1]:
        bad = dict(save, format=fmt)
        assert "format" in refused(json.dumps(bad))
    bad = dict(save)
    del bad["format"]
    assert "format" in refused(json.dumps(bad))


@pytest.mark.parametrize(
    "edit",
    [
        "no setup",
        "setup not a dict",
        "no log",
        "log not a list",
        "unknown option",
        "two players",
        "unknown set",
        "duplicate names",
    ],
)
def test_broken_setup(save: dict[str, Any], edit: str) -> None:
    bad = json.loads(json.dumps(save))
    if edit == "no setup":
        del bad["setup"]
    elif edit == "setup not a dict":
        bad["setup"] = [1, 2, 3]
    elif edit == "no log":
        del bad["log"]
    elif edit == "log not a list":
        bad["log"] = 5
    elif edit == "unknown option":
        bad["setup"]["options"]["fly"] = True
    elif edit == "two players":
        bad["setup"]["players"] = bad["setup"]["players"][:2]
    elif edit == "unknown set":
        bad["setup"]["sets"] = ["no-such-set"]
    elif edit == "duplicate names":
        bad["setup"]["players"][1] = bad["setup"]["players"][0]
    refused(json.dumps(bad))


def test_edited_seed_is_refused(save: dict[str, Any]) -> None:
    bad = json.loads(json.dumps(save))
    bad["setup"]["seed"] += 1
    refused(json.dumps(bad))


def test_edited_state_is_refused(save: dict[str, Any]) -> None:
    bad = dict(save, state="0" * 16)
    assert "state" in refused(json.dumps(bad))


@pytest.mark.parametrize("which", [0, 5, -1])
def test_edited_action_raw_is_refused(save: dict[str, Any], which: int) -> None:
    """An action changed to one that is not legal there."""
    bad = json.loads(json.dumps(save))
    i = act_indices(bad)[which]
    raw = bad["log"][i]["raw"]
    raw[0] = "steal" if raw[0] != "steal" else "kick"
    msg = refused(json.dumps(bad))
    assert f"log entry {i}" in msg, msg


@pytest.mark.parametrize(
    "raw",
    [None, "kick", [], ["kick"], ["kick", 0, -1, -1, -1, [], 0, "", "extra"], ["kick", "zero"], {"kind": "kick"}, 7],
)
def test_malformed_action_raw_is_refused(save: dict[str, Any], raw: Any) -> None:
    bad = json.loads(json.dumps(save))
    i = act_indices(bad)[0]
    bad["log"][i]["raw"] = raw
    msg = refused(json.dumps(bad))
    assert f"log entry {i}" in msg, msg


def test_action_swapped_for_another_legal_one_is_refused(save: dict[str, Any]) -> None:
    """A save whose Nth action is replaced by another action legal at that point."""
    setup = Game.setup_from_json(save)
    acts = [Action(*[tuple(x) if isinstance(x, list) else x for x in e["raw"]]) for e in save["log"] if "act" in e]
    g = Game(setup)
    swapped = None
    for k, a in enumerate(acts):
        legal = g.legal_actions(a.seat)
        others = [b for b in legal if b != a]
        if k >= 10 and others:
            swapped = k
            break
        g.apply(a)
    assert swapped is not None
    bad = json.loads(json.dumps(save))
    i = act_indices(bad)[swapped]
    bad["log"][i]["raw"] = list(others[0])
    refused(json.dumps(bad))


def test_edited_action_text_is_refused(save: dict[str, Any]) -> None:
    bad = json.loads(json.dumps(save))
    i = act_indices(bad)[3]
    bad["log"][i]["act"] = "end the turn" if bad["log"][i]["act"] != "end the turn" else "pass"
    msg = refused(json.dumps(bad))
    assert "log entry" in msg, msg


@pytest.mark.parametrize("kind", ["roll", "shuffle"])
def test_edited_chance_is_refused(save: dict[str, Any], kind: str) -> None:
    bad = json.loads(json.dumps(save))
    entries = [i for i, e in enumerate(bad["log"]) if kind in e]
    assert entries, f"the save has no {kind} entry"
    i = entries[-1]
    if kind == "roll":
        bad["log"][i]["roll"] = bad["log"][i]["roll"] % 6 + 1
    else:
        order = bad["log"][i]["order"]
        order[0], order[-1] = order[-1], order[0]
    msg = refused(json.dumps(bad))
    assert "log entry" in msg or "state" in msg, msg


def test_deleted_and_added_entries_are_refused(save: dict[str, Any]) -> None:
    for edit in ("delete act", "delete last", "duplicate act", "append junk", "insert string"):
        bad = json.loads(json.dumps(save))
        i = act_indices(bad)[4]
        if edit == "delete act":
            del bad["log"][i]
        elif edit == "delete last":
            bad["log"].pop()
        elif edit == "duplicate act":
            bad["log"].insert(i, bad["log"][i])
        elif edit == "append junk":
            bad["log"].append({"roll": 3, "seat": 0})
        else:
            bad["log"].insert(i, "kick open the door")
        refused(json.dumps(bad))


RULES1_SAVES = Path(__file__).parent / "data" / "rules1-saves.jsonl.xz"


def test_saves_of_the_rules_before_any_time_actions_still_load() -> None:
    """Fifteen finished games saved by the engine before issue 15 (no "rules" in the save; random and
    heuristic bots, every edition and Star with Deluxe): each loads, checked entry by entry and
    against its saved state, though the window before the next turn now also asks a player who may
    only unequip (a pass is added for them); saved again, it is a save of rules 2 (the passes said,
    and none of the card fixes of rules 3, which it was not played with)."""
    saves = [json.loads(line) for line in lzma.decompress(RULES1_SAVES.read_bytes()).decode().splitlines()]
    assert len(saves) == 15 and all("rules" not in s for s in saves)
    added = 0
    for save in saves:
        g = Game.from_json(json.dumps(save))
        assert g.over and g.fingerprint() == save["state"]
        ours = [e for e in g.log if e[0] == "act"]
        theirs = [e for e in save["log"] if "act" in e]
        added += len(ours) - len(theirs)
        again = json.loads(g.to_json(record=False))  # its record is checked below
        assert again["rules"] == 2 and g.rules == 2
        assert Game.from_json(json.dumps(again)).fingerprint() == g.fingerprint()
    assert added > 0  # some did need the passes of today's rules
    with pytest.raises(MunchkinError, match=f"rules are {RULES + 1}"):
        Game.from_json(json.dumps({**saves[0], "rules": RULES + 1}))


def test_a_save_replays_with_the_cards_it_was_played_with() -> None:
    """A save records each set's card version; one from before versions replays with version 1 of
    every set (Star's monsters before the published ones), today's with today's; a version the
    engine does not have is refused, naming the set."""
    g = Game(Setup(["star", "deluxe"], ["Ann", "Ben", "Cid"], 5))
    assert json.loads(g.to_json())["setup"]["card_versions"] == {"star": 2, "deluxe": 1}
    names = {d.name for d in g.defs}
    assert "Janibot" in names and "Space Lint" not in names
    then = Game(Setup(["star", "deluxe"], ["Ann", "Ben", "Cid"], 5, card_versions={"star": 1}))
    for _ in range(40):  # a few moves with the cards of then
        then.apply(then.legal_actions(then.to_act[0])[0])
    data = json.loads(then.to_json())
    assert data["setup"]["card_versions"] == {"star": 1, "deluxe": 1}
    del data["setup"]["card_versions"]  # as saved before sets had versions
    old = Game.from_json(json.dumps(data))
    assert old.fingerprint() == then.fingerprint()
    old_names = {d.name for d in old.defs}
    assert "Space Lint" in old_names and "Janibot" not in old_names
    data["setup"]["card_versions"] = {"star": 9, "deluxe": 1}
    with pytest.raises(MunchkinError, match="star.*version 9"):
        Game.from_json(json.dumps(data))


OLDER_RULES_SAVES = {
    # rules 2: before issue 18's card fixes; rules 3: before issue 32 (Items given away only on
    # one's own turn, a fight weighed once)
    2: Path(__file__).parent / "data" / "rules2-saves.jsonl.xz",
    3: Path(__file__).parent / "data" / "rules3-saves.jsonl.xz",
}


@pytest.mark.parametrize("rules", sorted(OLDER_RULES_SAVES))
def test_saves_of_older_rules_still_load(rules: int) -> None:
    """Sixteen finished games saved by the engine of older rules (two of every edition and mix, bots
    of both kinds), each one that the next rules would have played differently: each loads under its
    own rules, ends in its saved state and is saved again under them, while the same log read under
    the next rules does not replay (so each file does test that older rules are kept)."""
    data = OLDER_RULES_SAVES[rules].read_bytes()
    saves = [json.loads(line) for line in lzma.decompress(data).decode().splitlines()]
    assert len(saves) == 16 and all(s["rules"] == rules for s in saves)
    assert len({"+".join(s["setup"]["sets"]) for s in saves}) == 8
    for save in saves:
        g = Game.from_json(json.dumps(save))
        assert g.over and g.rules == rules and g.fingerprint() == save["state"]
        again = json.loads(g.to_json(record=False))  # its record is checked below
        assert again["rules"] == rules and Game.from_json(json.dumps(again)).fingerprint() == g.fingerprint()
        with pytest.raises(MunchkinError, match="differs|does not replay"):
            Game.from_json(json.dumps({**save, "rules": rules + 1}))


SAVES_OF_EVERY_RULES = {n: Path(__file__).parent / "data" / f"rules{n}-saves.jsonl.xz" for n in range(1, RULES + 1)}
RECORD_CHECKED_AT = (0.0, 0.37, 0.81)  # the moves (as parts of the game) where a record is compared with a replay


@pytest.mark.parametrize("rules", sorted(SAVES_OF_EVERY_RULES))
def test_the_record_of_a_save_of_any_rules_shows_its_game_as_played(rules: int) -> None:
    """Every save of tests/data, of every rules number, holds its record of every move's state (made by
    tests/make_older_saves.py with the engine that played those rules): restored from the record alone,
    without a rule being run, the game after its last move is the one its log replays to, and after
    moves along the way the one a replay reaches (checked on the first save of each edition and mix)."""
    from munchkin import stepping
    from munchkin.engine import snapshot
    from munchkin.engine.digest import state_digest

    text = lzma.decompress(SAVES_OF_EVERY_RULES[rules].read_bytes()).decode()
    saves = [json.loads(line) for line in text.splitlines()]
    assert len(saves) >= 15 and all("record" in s for s in saves)
    mixes: set[str] = set()
    for save in saves:
        g = Game.from_json(json.dumps(save))
        record = save["record"]
        n = len(record["moves"])
        assert n == len(stepping.logged_moves(g))
        last = snapshot.at_move(g.setup, record, n, g.rules)
        assert state_digest(last) == state_digest(g) and last.fingerprint() == save["state"]
        mix = "+".join(save["setup"]["sets"])
        if mix in mixes:
            continue
        mixes.add(mix)
        for part in RECORD_CHECKED_AT:
            k = int(n * part)
            assert state_digest(snapshot.at_move(g.setup, record, k, g.rules)) == state_digest(stepping.step_to(g, k))
