"""The command line: every command through typer's CliRunner, as a user would call it."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from munchkin.cli import app

runner = CliRunner()
SCENARIOS = Path(__file__).parent / "scenarios"
EXAMPLE = SCENARIOS / "deluxe" / "example_of_combat.yaml"


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


# ---------------------------------------------------------------- cards
def test_cards_check() -> None:
    r = run("cards", "check")
    assert r.exit_code == 0, r.output
    assert "deluxe: 95 Door, 73 Treasure cards OK" in r.stdout


def test_cards_check_unknown_set() -> None:
    r = run("cards", "check", "--set", "no-such-set")
    assert r.exit_code == 1
    assert "unknown set" in r.stdout


def test_cards_list_json_one_object_per_physical_card() -> None:
    r = run("cards", "list", "--set", "deluxe", "--json")
    assert r.exit_code == 0, r.output
    cards = json.loads(r.stdout)
    assert isinstance(cards, list)
    assert sum(1 for c in cards if c["deck"] == "door") == 95
    assert sum(1 for c in cards if c["deck"] == "treasure") == 73
    for c in cards:
        assert {"name", "deck", "kind", "provenance", "id", "text"} <= set(c)
        if c["kind"] == "monster":
            assert {"level", "treasures", "levels"} <= set(c)
        if c["kind"] == "item":
            assert {"bonus", "gold", "slot", "big"} <= set(c)
    # copies are counted: a card with three copies appears three times
    dwarves = [c for c in cards if c["name"] == "Dwarf"]
    assert len(dwarves) == dwarves[0]["copies"] == 3
    troll = next(c for c in cards if c["name"] == "Net Troll")
    assert (troll["level"], troll["treasures"]) == (10, 3)


def test_cards_list_table() -> None:
    r = run("cards", "list", "--set", "deluxe")
    assert r.exit_code == 0, r.output
    assert "Door cards (95)" in r.stdout and "Treasure cards (73)" in r.stdout
    assert "Net Troll" in r.stdout


# ---------------------------------------------------------------- simulate
SUMMARY_KEYS = {"games", "finished", "capped", "wins_by_seat", "turns", "decisions_per_second", "invariant_violations"}


def test_simulate_json() -> None:
    r = run(
        "simulate",
        "--set",
        "deluxe",
        "--players",
        "4",
        "--games",
        "5",
        "--seed",
        "1",
        "--agents",
        "random",
        "--check",
        "--json",
    )
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)  # stdout is exactly one JSON object
    assert SUMMARY_KEYS <= set(summary)
    assert set(summary["turns"]) >= {"mean", "p50", "p95"}
    assert summary["games"] == 5
    assert summary["finished"] + summary["capped"] == 5
    assert len(summary["wins_by_seat"]) == 4
    assert summary["invariant_violations"] == 0
    from munchkin.engine.cards import card_version
    from munchkin.engine.rules import RULES

    origin = summary["origin"]  # where the cards came from: no designer folder here
    assert (origin["rules"], origin["card_versions"], origin["set_dirs"]) == (
        RULES,
        {"deluxe": card_version("deluxe")},
        [],
    )
    assert origin["engine"] and origin["engine"] != "unknown"  # the installed package's version


def test_simulate_table_and_agent_list() -> None:
    r = run("simulate", "--games", "2", "--players", "3", "--agents", "random,random", "--seed", "7")
    assert r.exit_code == 0, r.output
    assert "invariant violations" in r.stdout
    assert "games" in r.stdout


def test_simulate_rejects_unknown_agent() -> None:
    r = run("simulate", "--games", "1", "--agents", "clever")
    assert r.exit_code != 0
    assert "unknown agent" in r.output


# ---------------------------------------------------------------- replay
def test_save_log_then_replay(tmp_path: Path) -> None:
    r = run("simulate", "--games", "2", "--players", "3", "--seed", "3", "--save-log", str(tmp_path), "--json")
    assert r.exit_code == 0, r.output
    saved = sorted(tmp_path.glob("game-*.json"))
    assert [p.name for p in saved] == ["game-3.json", "game-4.json"]
    assert json.loads(r.stdout)["games"] == 2
    r = run("replay", str(saved[0]))
    assert r.exit_code == 0, r.output
    assert "identical" in r.stdout
    assert r.stdout.startswith("replayed ")


def test_replay_verbose_and_tampered(tmp_path: Path) -> None:
    run("simulate", "--games", "1", "--players", "3", "--seed", "5", "--save-log", str(tmp_path), "--json")
    path = tmp_path / "game-5.json"
    r = run("replay", str(path), "--verbose")
    assert r.exit_code == 0, r.output
    assert "kick open the door" in r.stdout and "identical" in r.stdout
    data = json.loads(path.read_text())
    data["state"] = "0" * 16
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    r = run("replay", str(bad))
    assert r.exit_code == 1
    assert "does not replay" in r.stdout


def test_replay_verbose_of_a_game_without_a_seed(tmp_path: Path) -> None:
    """A live table's save has no seed: the replay draws the recorded chance again, step by step."""
    from munchkin.agents.base import decide, make_agent
    from munchkin.engine.game import Game, Setup

    g = Game(Setup(["deluxe"], ["Ann", "Bob", "Cy"], None))
    bot = make_agent("random", 1)
    while not g.over and g.turn < 6:
        seat = g.to_act[0]
        g.apply(decide(bot, g, seat, g.legal_actions(seat)))
    path = tmp_path / "live.json"
    path.write_text(g.to_json())
    r = run("replay", str(path), "--verbose")
    assert r.exit_code == 0, r.output
    assert f"identical (fingerprint {g.fingerprint()})" in r.stdout and "kick open the door" in r.stdout


def test_replay_missing_and_not_json(tmp_path: Path) -> None:
    assert run("replay", str(tmp_path / "nothing.json")).exit_code == 1
    junk = tmp_path / "junk.json"
    junk.write_text("this is not json")
    r = run("replay", str(junk))
    assert r.exit_code == 1 and "not JSON" in r.stdout


# ---------------------------------------------------------------- replay --to N (a replay to step through)
def _saved(tmp_path: Path, seed: int = 5) -> Path:
    run("simulate", "--games", "1", "--players", "3", "--seed", str(seed), "--save-log", str(tmp_path), "--json")
    return tmp_path / f"game-{seed}.json"


def test_replay_list_numbers_the_moves_that_to_counts(tmp_path: Path) -> None:
    """--list numbers the log's actions from 1, under their turns; --to N shows the game after the
    first N of them (N = 0 is the deal), and past the end shows the end with a note."""
    path = _saved(tmp_path)
    from munchkin.engine.game import Game

    g = Game.from_json(path.read_text())
    acts = [e[1] for e in g.log if e[0] == "act"]
    r = run("replay", str(path), "--list")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].strip() == "0. the deal (before any move)"
    assert "Turn 1: character creation" in r.stdout and "Turn 1: Ann's turn" in r.stdout
    numbered = [ln for ln in lines if re.match(r"^ *[1-9][0-9]*\. ", ln)]
    assert len(numbered) == len(acts)
    assert numbered[-1].strip().startswith(f"{len(acts)}. ")
    assert run("replay", str(path), "--seat", "1").stdout == r.stdout  # without --to: the list
    r = run("replay", str(path), "--to", "0")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(f"After move 0 of {len(acts)} (a spectator's view)")
    assert "character creation" in r.stdout and "Hand" not in r.stdout
    r = run("replay", str(path), "--to", str(len(acts) + 50), "--seat", "0")
    assert r.exit_code == 0, r.output
    assert f"Note: the save has {len(acts)} moves; showing the end (move {len(acts)})" in r.stdout
    assert f"After move {len(acts)} of {len(acts)}" in r.stdout and "Game over:" in r.stdout


def test_replay_to_shows_the_seat_its_hand_and_its_moves(tmp_path: Path) -> None:
    """The seat's view at move N is the terminal's: its hand, the others' hand sizes, and its own
    moves when the game waits on it; a seat may be named by number or by its player's name."""
    path = _saved(tmp_path)
    from munchkin.engine.game import Game

    g = Game.from_json(path.read_text())
    acts = [e[1] for e in g.log if e[0] == "act"]
    n = next(i for i, a in enumerate(acts) if a.seat == 1 and i > 3)  # move n + 1 is Bob's: he decides after n
    r = run("replay", str(path), "--to", str(n), "--seat", "bob")
    assert r.exit_code == 0, r.output
    assert f"After move {n} of {len(acts)} (seat 1, Bob's view)" in r.stdout
    assert "You (Bob)" in r.stdout and "Next, you decide:" in r.stdout
    assert re.search(r"^  1\. ", r.stdout, re.M)  # his moves, numbered as at the terminal
    assert r.stdout == run("replay", str(path), "--to", str(n), "--seat", "1").stdout
    spectator = run("replay", str(path), "--to", str(n), "--spectator")
    assert spectator.exit_code == 0 and "You (" not in spectator.stdout
    assert "Next: the game waits on Bob" in spectator.stdout and "Bob's moves" not in spectator.stdout
    analyst = run("replay", str(path), "--to", str(n), "--all")
    assert analyst.exit_code == 0, analyst.output
    assert analyst.stdout.count("    Hand: ") == 3 and "Door deck, top first: " in analyst.stdout
    assert "Bob's moves:" in analyst.stdout


def test_replay_to_of_a_game_without_a_seed_deals_its_recorded_cards(tmp_path: Path) -> None:
    """A live table's save has no seed: stepping through it draws the recorded chance, so the analyst's
    view at its last move holds the very hands the game ended with."""
    from munchkin.agents.base import decide, make_agent
    from munchkin.engine.game import Game, Setup

    g = Game(Setup(["deluxe"], ["Ann", "Bob", "Cy"], None))
    bot = make_agent("random", 2)
    while not g.over and g.turn < 4:
        seat = g.to_act[0]
        g.apply(decide(bot, g, seat, g.legal_actions(seat)))
    path = tmp_path / "live.json"
    path.write_text(g.to_json())
    total = sum(1 for e in g.log if e[0] == "act")
    r = run("replay", str(path), "--to", str(total), "--all")
    assert r.exit_code == 0, r.output
    shown = [ln.strip()[len("Hand: ") :] for ln in r.stdout.splitlines() if ln.strip().startswith("Hand: ")]
    held = [sorted(g.view(s)["hand"], key=lambda c: (c["deck"], c["name"])) for s in range(3)]
    assert shown == [", ".join(c["name"] for c in h) or "none" for h in held]
    top = ", ".join(g.cdef[c].name for c in reversed(g.door_deck))
    assert f"Door deck, top first: {top}" in r.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--to", "-3"], "--to takes a move number from 0 (the deal), not '-3'"),
        (["--to", "ten"], "--to takes a move number from 0 (the deal), not 'ten'"),
        (["--to", "3", "--seat", "7"], "there is no seat 7: this game's seats are 0 Ann, 1 Bob, 2 Cid"),
        (["--to", "3", "--seat", "Zed"], "no player is named 'Zed'"),
        (["--to", "3", "--seat", "1", "--all"], "choose one of --seat, --spectator and --all, not --seat and --all"),
        (["--spectator", "--all"], "not --spectator and --all"),
        (["--to", "3", "--verbose"], "--verbose checks the whole save"),
    ],
)
def test_replay_to_refuses_bad_input_in_one_line(tmp_path: Path, args: list[str], words: str) -> None:
    path = _saved(tmp_path)
    r = run("replay", str(path), *args)
    assert r.exit_code == 2, r.output
    assert r.output.strip() == f"Error: {r.output.strip()[7:]}" and words in r.output
    assert len(r.output.strip().splitlines()) == 1 and "Traceback" not in r.output


def test_replay_to_refuses_a_missing_or_damaged_save(tmp_path: Path) -> None:
    r = run("replay", str(tmp_path / "nothing.json"), "--to", "3")
    assert r.exit_code == 2 and "cannot read" in r.output and len(r.output.strip().splitlines()) == 1
    path = _saved(tmp_path)
    data = json.loads(path.read_text())
    data["state"] = "0" * 16
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    r = run("replay", str(bad), "--to", "3", "--seat", "1")
    assert r.exit_code == 2 and "does not replay: the replayed game differs from the saved state" in r.output
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\xff\xfe not text")
    r = run("replay", str(junk), "--list")
    assert r.exit_code == 2 and "is not UTF-8 text" in r.output and "Traceback" not in r.output


def _twin_saves(tmp_path: Path, moves: int) -> tuple[Path, Path, str, str]:
    """Two saves of the same game that differ only in one card Cid (seat 2) was dealt face-down and
    still holds at the end, swapped with one still in its deck: what Bob (seat 1) may not know.
    Returns the saves and the two swapped cards' names."""
    from munchkin.agents.base import decide, make_agent
    from munchkin.engine.chance import RecordedChance, SystemChance
    from munchkin.engine.game import Game, Setup

    setup = Setup(["deluxe"], ["Ann", "Bob", "Cid"], 11, sexes=["female", "male", "male"])
    g = Game(setup)
    dealt = list(g.players[2].hand)
    bot = make_agent("random", 3)
    acts = []
    while len(acts) < moves:
        seat = g.to_act[0]
        a = decide(bot, g, seat, g.legal_actions(seat))
        acts.append(a)
        g.apply(a)
    names = {c: g.cdef[c].name for c in range(g.ncards)}
    # an Item for another Item deep in its deck (never drawn): the same moves stay legal, and the same
    # seats are asked (a fight's window asks only those who could play into it: a public fact)
    x = next(c for c in dealt if c in g.players[2].hand and g.cdef[c].kind == "item")
    y = next(c for c in g.treasure_deck[:20] if g.cdef[c].kind == "item" and names[c] != names[x])
    swapped = []
    for entry in g.chance_log():
        if entry[0] == "shuffle" and x in entry[2]:
            order = [y if c == x else x if c == y else c for c in entry[2]]
            entry = (entry[0], entry[1], order)
        swapped.append(entry)
    paths = []
    for i, chance in enumerate((g.chance_log(), swapped)):
        twin = Game(
            Setup(["deluxe"], ["Ann", "Bob", "Cid"], None, sexes=setup.sexes), RecordedChance(chance, SystemChance())
        )
        for a in acts:
            twin.apply(a)
        path = tmp_path / f"twin-{i}.json"
        path.write_text(twin.to_json())
        paths.append(path)
    return paths[0], paths[1], names[x], names[y]


def test_replay_seat_shows_nothing_of_what_the_seat_may_not_know(tmp_path: Path) -> None:
    """The attacker's check: two saves that differ only in a card Cid holds unseen give Bob's view the
    very same text, move after move, while Cid's own view and the analyst's show the difference."""
    a, b, x, y = _twin_saves(tmp_path, 40)
    for n in (0, 10, 25, 40):
        bob = [run("replay", str(p), "--to", str(n), "--seat", "1") for p in (a, b)]
        assert bob[0].exit_code == 0, bob[0].output
        assert bob[0].stdout == bob[1].stdout
        spectators = [run("replay", str(p), "--to", str(n), "--spectator").stdout for p in (a, b)]
        assert spectators[0] == spectators[1]
        assert x not in bob[0].stdout and y not in bob[1].stdout
    cid = [run("replay", str(p), "--to", "40", "--seat", "2").stdout for p in (a, b)]
    assert x in cid[0] and y in cid[1] and cid[0] != cid[1]
    everything = [run("replay", str(p), "--to", "40", "--all").stdout for p in (a, b)]
    assert everything[0] != everything[1]


# ---------------------------------------------------------------- scenario
def test_scenario_directory() -> None:
    """Every scenario under tests/scenarios is run; the verdict agrees with run_scenario.

    (Whether they all pass is tests/test_scenarios.py's business: when they do, this exits 0.)
    """
    from munchkin.scenario import run_scenario

    files = sorted(SCENARIOS.rglob("*.yaml"))
    failed = sum(1 for f in files if not run_scenario(f).ok)
    r = run("scenario", str(SCENARIOS))
    assert f"{len(files) - failed} passed, {failed} failed" in r.stdout
    assert r.exit_code == (1 if failed else 0), r.stdout
    assert r.stdout.count("PASS ") == len(files) - failed


def test_scenario_file_and_failure(tmp_path: Path) -> None:
    r = run("scenario", str(EXAMPLE))
    assert r.exit_code == 0, r.stdout
    assert "PASS" in r.stdout and "1 passed, 0 failed" in r.stdout
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(EXAMPLE.read_text().replace("level: {Aric: 5}", "level: {Aric: 7}"))
    r = run("scenario", str(EXAMPLE), str(wrong), str(tmp_path / "missing.yaml"))
    assert r.exit_code == 1
    assert "FAIL" in r.stdout and "Aric's Level: expected 7, got 5" in r.stdout
    assert "1 passed, 2 failed" in r.stdout
    assert "         prompt: over" not in r.stdout  # where the game stands, under the failed step:
    lines = r.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if "Aric's Level: expected 7, got 5" in line)
    assert lines[at + 1].startswith("         ") and "prompt: " in lines[at + 1]
    assert lines[at + 2].startswith("         to act: ")


def test_scenario_trace() -> None:
    """`--trace` prints the state after every step under the verdict; without it, none."""
    r = run("scenario", "--trace", str(EXAMPLE))
    assert r.exit_code == 0, r.stdout
    steps = len(yaml.safe_load(EXAMPLE.read_text())["steps"])
    assert r.stdout.count("       after step ") == steps
    assert "       the table as set" in r.stdout and "         Aric: Level " in r.stdout
    assert "         > " in r.stdout and "1 passed, 0 failed" in r.stdout
    assert "after step" not in run("scenario", str(EXAMPLE)).stdout


# ---------------------------------------------------------------- play
def test_play_many_ones() -> None:
    r = run("play", "--seed", "21", "--bots", "3", "--bot-agent", "random", input="1\n" * 400)
    assert r.exit_code == 0, r.output
    assert r.exception is None
    out = r.stdout
    assert "Traceback" not in r.output
    assert "Turn 1: Player's turn" in out
    assert "Hand (" in out and "Other players" in out and "Decks: Door" in out
    assert "1. kick open the door" in out
    assert "What happened" in out and "kicks open the door" in out
    assert "Combat:" in out and "The fighters are" in out
    assert "End of input." in out or "Game over" in out


def test_play_shows_the_end_of_a_finished_game() -> None:
    import io

    from rich.console import Console

    from munchkin.agents.base import decide, make_agent
    from munchkin.engine.game import Game, Options, Setup
    from munchkin.terminal import Seat

    g = Game(Setup(["deluxe"], ["Player", "Ann", "Bob"], 4, Options(turn_cap=5000)))
    bots = {s: make_agent("random", s) for s in range(3)}
    while not g.over:
        seat = g.to_act[0]
        g.apply(decide(bots[seat], g, seat, g.legal_actions(seat)))
    buf = io.StringIO()
    assert Seat(g, bots, Console(file=buf, width=100)).run() is True
    out = buf.getvalue()
    assert "Game over" in out
    assert "wins the game!" in out or "turn cap" in out
    assert "Player: Level" in out


def test_play_bad_input_is_shown_and_asked_again(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    lines = [
        "fly to the moon",
        "99",
        "loot the room",
        "card Net Troll",
        "help",
        f"save {save}",
        "READY",
        "KICK OPEN THE DOOR",
        "quit",
    ]
    r = run("play", "--seed", "5", "--bot-agent", "random", "--name", "Zoe", input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "Error: unknown action 'fly to the moon'" in out
    assert "Error: choose a number from 1 to" in out
    assert "Error: 'loot the room' is not legal now" in out
    assert "Net Troll (Door card: Monster, Level 10" in out
    assert "How to answer" in out
    assert "Zoe kicks open the door" in out  # the bad lines lost nothing
    assert "You leave the game." in out
    assert json.loads(save.read_text())["format"] == "munchkin-game/1"
    # the saved game resumes where it was saved, and replays as saved
    r = run("play", "--load", str(save), "--bot-agent", "random", input="quit\n")
    assert r.exit_code == 0, r.output
    assert "seed 5. You are Zoe" in " ".join(r.stdout.split())
    assert "identical" in run("replay", str(save)).stdout


def test_play_eof_quits_cleanly() -> None:
    r = run("play", "--seed", "2", "--bot-agent", "random", "--listen-at-the-door", input="")
    assert r.exit_code == 0, r.output
    assert "End of input." in r.stdout


def test_play_default_bots_and_options() -> None:
    r = run("play", "--seed", "9", "--bots", "4", "--shared-victories", input="1\n" * 40)
    assert r.exit_code == 0, r.output
    assert r.exception is None
    said = " ".join(r.stdout.split())
    assert "Ann, Bob, Cid, Dee." in said  # five players: you and four bots
    assert "the bots (Medium: search:2)" in said  # the middle tier unless told otherwise
    bad = run("play", "--bot-agent", "search:lots", input="quit\n")
    assert bad.exit_code == 2 and "a search budget is" in " ".join(bad.output.split())


def test_play_a_harry_potter_game_in_the_terminal() -> None:
    """The person chooses a House; the turn is told in this book's words; the game ends."""
    r = run(
        "play",
        "--set",
        "harry-potter",
        "--seed",
        "11",
        "--house",
        "Slytherin",
        "--sex",
        "female",
        "--bot-agent",
        "easy",
        input="1\n\n" * 3000,
    )
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "You (Player): Level 1 female Slytherin, no Role" in out
    assert "one Role, one Proficiency of Rank 1 and any usable Items and Allies" in " ".join(out.split())
    assert "1. unlock the door" in out and "unlocks the door:" in out and "before Unlock the Door" in out
    assert "get up to no good with" in out
    assert "wins the game!" in out
    bad = run("play", "--set", "harry-potter", "--house", "Durmstrang", input="quit\n")
    assert bad.exit_code != 0 and "unknown House 'Durmstrang'" in bad.output


def test_serve_refuses_a_limit_that_is_not_a_finite_number() -> None:
    for flag in ("--expire-idle", "--tables-per-minute", "--replays-per-second"):
        r = run("serve", flag, "inf")
        assert r.exit_code == 2 and "finite" in r.output, r.output


def test_play_staged_moves_open_a_group_go_back_and_play_from_a_stage() -> None:
    """The numbered list is staged: a group lists its own choices with a way back; a move in a stage
    is made by its number; typed actions still work at any stage."""
    lines = ["ready", "2", "1", "0", "0", "back", "2", "2", "kick open the door", "quit"]
    r = run("play", "--seed", "5", "--bot-agent", "random", "--name", "Zoe", input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.output
    out = " ".join(r.stdout.split())
    assert "1. kick open the door — turn up the top Door" in out
    assert "2. Play a card > (7 choices)" in out
    assert "Play a card (0 goes back): 1. Income Tax > (3 choices)" in out
    stage = "Play a card > Income Tax (0 goes back):"
    assert f"{stage} 1. on Ann — curse Ann with Income Tax [play Income Tax on Ann]" in out
    assert "0. back" in out
    assert "Error: this is the first list already" in out  # "back" at the top level
    assert "Zoe plays Halfling." in out  # the second choice of "Play a card", by its number
    assert "Zoe kicks open the door" in out  # typed, after moving through the stages


def test_play_a_choice_typed_by_its_words_and_a_card_name_alone() -> None:
    """Issue 35: typing a card's name at a stage listing it gave a 40-verb parse error. A choice's own
    words now choose it (a group opens, a move is made); a card's name alone, where no choice bears it,
    says in one line that it is a card and what to type."""
    lines = ["ready", "Income Tax", "2", "income tax", "on ann", "quit"]
    r = run("play", "--seed", "5", "--bot-agent", "random", "--name", "Zoe", input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.output
    out = " ".join(r.stdout.split())
    assert "Error: Income Tax is a card, not a move: choose a number from the list" in out
    assert "'card Income Tax' to read it" in out and "unknown action" not in out
    assert "Play a card > Income Tax (0 goes back):" in out  # the group opened by its words
    assert "Zoe curses Ann with Income Tax." in out  # the move chosen by its words, "on Ann"


# ---------------------------------------------------------------- issue 13: errors a new user met
def test_serve_on_a_port_in_use_says_only_that_and_the_flag(tmp_path: Path) -> None:
    """The address was printed first and then "[Errno 98] address already in use": now one line
    names the port and --port, nothing is announced and no data folder is made."""
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = run("serve", "--port", str(port), "--data", str(tmp_path / "data"))
    assert r.exit_code == 1, r.output
    assert f"port {port} is already in use" in r.output and "--port" in r.output
    assert "Munchkin table:" not in r.output and "Errno" not in r.output and "Traceback" not in r.output
    assert not (tmp_path / "data").exists()


def test_replay_names_what_a_save_lacks(tmp_path: Path) -> None:
    """The message "the save's setup is broken: 'setup'" said nothing useful: the missing part is named."""
    run("simulate", "--games", "1", "--players", "3", "--seed", "3", "--save-log", str(tmp_path), "--json")
    good = json.loads((tmp_path / "game-3.json").read_text())

    def replay_without(drop: Callable[[dict[str, Any]], None]) -> str:
        data = json.loads(json.dumps(good))
        drop(data)
        path = tmp_path / "broken.json"
        path.write_text(json.dumps(data))
        r = run("replay", str(path))
        assert r.exit_code == 1, r.output
        assert "Traceback" not in r.output
        return " ".join(r.output.split())

    out = replay_without(lambda d: d.pop("setup"))
    assert "the save has no setup:" in out and "'setup'" not in out
    assert "the save has no log:" in replay_without(lambda d: d.pop("log"))
    assert "the save's setup has no players:" in replay_without(lambda d: d["setup"].pop("players"))
    assert "the save's setup has no seed:" in replay_without(lambda d: d["setup"].pop("seed"))
    first_act = next(i for i, e in enumerate(good["log"]) if "act" in e)
    out = replay_without(lambda d: d["log"][first_act].pop("raw"))
    assert f"log entry {first_act} (" in out and "has no 'raw'" in out


def test_help_shows_no_bool_after_flags() -> None:
    """typer printed "--check <bool>" and "--help <bool>" as if flags took a value; options that do
    take one keep their type."""
    import typer

    def paths(cmd: Any, prefix: list[str]) -> list[list[str]]:
        """Every command and subcommand (typer carries its own copy of click: no isinstance)."""
        out = [prefix]
        for name, sub in (getattr(cmd, "commands", None) or {}).items():
            out += paths(sub, [*prefix, name])
        return out

    every = paths(typer.main.get_command(app), [])
    assert ["simulate"] in every and ["serve"] in every and ["cards", "list"] in every
    for args in every:
        r = run(*args, "--help")
        assert r.exit_code == 0, (args, r.output)
        assert "<bool>" not in r.output, (args, r.output)
        assert "--help" in r.output
    simulate = run("simulate", "--help").output
    assert "--check" in simulate and "--json" in simulate
    assert "PORT" in run("serve", "--help").output  # --port still says it takes a value


def test_help_at_80_columns_shows_whole_flag_names_and_readable_values() -> None:
    """At 80 columns rich squeezed serve's long flags ("--max-live-tables-per…") and printed
    "--set-dir <list[Path]>": every command's help shows each of its flags whole, on one line, and
    a repeatable value as its element."""
    import typer

    def commands(cmd: Any, prefix: list[str]) -> list[tuple[list[str], Any]]:
        out = [(prefix, cmd)]
        for name, sub in (getattr(cmd, "commands", None) or {}).items():
            out += commands(sub, [*prefix, name])
        return out

    narrow = CliRunner(env={"COLUMNS": "80"})
    for args, cmd in commands(typer.main.get_command(app), []):
        out = narrow.invoke(app, [*args, "--help"]).output
        assert max(len(line) for line in out.splitlines()) <= 80, (args, out)
        assert "…" not in out and "list[" not in out, (args, out)
        for param in getattr(cmd, "params", []):
            for flag in (o for o in param.opts if o.startswith("--")):
                assert re.search(rf"{re.escape(flag)}(?![\w-])", out), (args, flag, out)
    serve = narrow.invoke(app, ["serve", "--help"]).output
    assert re.search(r"--set-dir +DIR ", serve) and re.search(r"--max-live-tables-per-address +N ", serve), serve
    assert "65535)" in serve  # a range said in words ("1 to 65535") where the value column has no room for it


# ---------------------------------------------------------------- the terminal seat: the engine's public interface only
# what munchkin.terminal may read of a game: the seat's view, the moves and their texts, who is to act, the
# prompt's kind, the save, and the cards' definitions (public card data); never the players, the fight,
# the decks, the log or a private attribute. The helpers it calls (narrate, build_menu, catalog, game_story)
# are the engine's and the presentation's own: they see the whole game.
PUBLIC = {"view", "legal_actions", "text", "play", "apply", "to_act", "deciding", "over", "winners", "prompt"}
PUBLIC |= {"to_json", "cdef", "any_time"}


class PromptKind:
    """The prompt as the terminal may see it: its kind alone."""

    def __init__(self, kind: str) -> None:
        self.kind = kind


class PublicOnly:
    """A game that fails the test when munchkin.terminal reads anything outside PUBLIC (or a prompt's
    data), and passes every other caller (the engine, the bots, the menu, the story) through."""

    def __init__(self, game: Any) -> None:
        self.game_ = game
        self.reached: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        import sys

        if sys._getframe(1).f_globals.get("__name__") == "munchkin.terminal":
            assert name in PUBLIC, f"the terminal seat reached g.{name}, outside the engine's public interface"
            self.reached.add(name)
            if name == "prompt":
                return PromptKind(self.game_.prompt.kind)
        return getattr(self.game_, name)


def guarded_seat(g: Any, lines: str, bots: dict[int, Any] | None = None) -> tuple[Any, PublicOnly, Any]:
    import io

    from rich.console import Console

    from munchkin.agents.base import make_agent
    from munchkin.terminal import Seat

    guard = PublicOnly(g)
    bots = bots or {s: make_agent("random", 50 + s) for s in range(1, len(g.view(None)["players"]))}
    buf = io.StringIO()
    seat = Seat(guard, bots, Console(file=buf, width=120), lines=io.StringIO(lines))  # type: ignore[arg-type]
    return seat, guard, buf


def test_the_terminal_seat_plays_a_whole_game_through_the_public_interface_only() -> None:
    """A whole game at the terminal against bots, the seat reading the game through a guard that fails
    on anything outside the public interface: the character, the fight and the end are still shown."""
    from munchkin.engine.game import Game, Options, Setup

    g = Game(Setup(["deluxe"], ["Player", "Ann", "Bob"], 3, Options(turn_cap=12)))
    seat, guard, buf = guarded_seat(g, "1\n\n" * 2000)  # "1", then Enter to let a pause go by
    assert seat.run() is True
    out = buf.getvalue()
    assert g.over
    assert "You (Player): Level" in out and "Items:" in out and "Hand (" in out
    assert "Other players" in out and "Ann: Level" in out and "Decks: Door" in out
    assert "Combat:" in out and "Fighting: Player" in out and "The fighters are" in out
    assert "What happened" in out and "kicks open the door" in out
    assert "Game over" in out and "Levels over 12 turns" in out and "turn cap (12 turns)" in out
    assert {"view", "play", "apply", "to_act", "over", "cdef"} <= guard.reached  # (its bots read through decide)
    probe: dict[str, Any] = {"__name__": "munchkin.terminal"}  # the guard itself: it does stop an internal read
    exec("def peek(g, name):\n    return getattr(g, name)\n", probe)
    for name in ("players", "combat", "door_deck", "log", "events", "cards_by_name", "equipped_bonus"):
        with pytest.raises(AssertionError, match=f"g.{name}, outside"):
            probe["peek"](guard, name)


def test_the_terminal_seat_pauses_on_anothers_turn_for_moves_at_any_time() -> None:
    """At the start of another's turn and right after their door, the terminal stops for the person's
    any-time moves (Enter lets play go on); a move made there is taken while the game waits on a bot."""
    from munchkin.engine.game import Game, Options, Setup

    g = Game(Setup(["deluxe"], ["Player", "Ann", "Bob"], 1, Options(turn_cap=12)))
    seat, _, buf = guarded_seat(g, "1\n1\n\n" * 2000)  # at a pause: act (once or twice), then Enter
    assert seat.run() is True
    out = " ".join(buf.getvalue().split())
    assert "Waiting on Ann. You may act at any time (a Curse, a trade, an Item)" in out
    replay = Game(g.setup)
    off_turn = []
    for entry in g.log:
        if entry[0] == "act":
            a = entry[1]
            if a.seat == 0 and 0 not in replay.to_act:
                off_turn.append(replay.text(a))
            replay.apply(a)
    assert off_turn, "the person never acted while a bot was asked"


def test_the_terminal_seat_in_a_harry_potter_game_reads_houses_roles_and_allies_from_the_view() -> None:
    from munchkin.engine.game import Game, Options, Setup

    g = Game(Setup(["harry-potter"], ["Player", "Ann", "Bob"], 11, Options(turn_cap=6), houses=["Slytherin"]))
    seat, _, buf = guarded_seat(g, "card Slytherin\ncard net troll.\ncard Nobody\n" + "1\n\n" * 800)
    assert seat.run() is True
    out = " ".join(buf.getvalue().split())
    assert "You (Player): Level 1" in out and "Slytherin, no Role" in out
    assert "one Role, one Proficiency of Rank 1 and any usable Items and Allies" in out
    assert "Slytherin (House, chosen at setup)" in out  # a House's face, which `card` did not know before
    assert "Error: no card is named 'net troll.'" in out  # no such card in this set
    assert "Error: no card is named 'Nobody'" in out
    assert "Game over" in out


def test_the_terminal_seat_says_what_putting_a_table_right_asks_without_a_card_asking_it() -> None:
    """Too many Big items after a trade: the engine asks before the game goes on, and no card asks it
    (the old seat stopped with "there is no card number -1")."""
    from munchkin.agents.base import decide, make_agent
    from munchkin.engine.game import Game, Options, Setup

    for seed in range(60, 120):  # the first seeded game that comes to such a moment (73)
        g = Game(
            Setup(["deluxe"], ["Player", "Ann", "Bob"], seed, Options(turn_cap=200)), rules=5
        )  # the moment found under rules 5
        bots = {s: make_agent("random", 100 + s) for s in range(3)}
        while not g.over and not (
            g.prompt.kind == "before"
            and 0 in g.to_act
            and not g.view(0)["moment"]
            and any(a.kind == "give" for a in g.legal_actions(0))  # a Big item too many: give it away
        ):
            seat = g.to_act[0]
            g.apply(decide(bots[seat], g, seat))
        if not g.over:
            break
    seat, _, buf = guarded_seat(g, "1\nquit\n", bots)
    assert seat.run() is False
    out = " ".join(buf.getvalue().split())
    assert "Your table must be put right before the game goes on: choose what to give up or take off." in out
    assert "1. give " in out and "You leave the game." in out  # the first way out: give the Big item away


def test_the_view_adds_what_the_terminal_seat_shows() -> None:
    """The keys the terminal reads, added to the view (the web page reads the same view): each player's
    hand limit and total Rank, an equipped Item's bonus and use, the set's words, the turn cap, the
    number of events, and the moment's facts, a question's for the seat it is put to alone."""
    from munchkin.agents.base import decide, make_agent
    from munchkin.engine.game import Game, Setup

    g = Game(Setup(["deluxe"], ["Player", "Ann", "Bob"], 10), rules=5)  # a game of rules 5 that comes to each moment
    v = g.view(0)
    assert v["moment"] == {"stage": "create"} and v["capped"] is False and v["phase_words"] == {}
    assert v["event_count"] > 0 and v["allies_in_game"] is False
    assert all(p["hand_limit"] == 5 and p["rank_total"] == 0 for p in v["players"])
    bots = {s: make_agent("random", 7 + s) for s in range(3)}
    kinds: set[str] = set()
    for _ in range(3000):
        if g.over:
            break
        k = g.prompt.kind
        asked = g.to_act[0]
        others = [g.view(s)["moment"] for s in range(3) if s not in g.to_act] + [g.view(None)["moment"]]
        mine = g.view(asked)["moment"]
        if k == "drawn":
            assert mine["card"]["name"] and all("card" not in m for m in others)
        if k in ("help", "offer"):
            assert mine["seat"] != asked and mine["text"] and all("seat" not in m for m in others)
        if k == "rolled":
            assert all(m["runner"] == mine["runner"] and m["monster"] == mine["monster"] for m in others)
        kinds.add(k)
        for p in g.view(None)["players"]:
            for item in p["equipped"]:
                assert type(item["bonus"]) is int and type(item["usable"]) is bool
        g.apply(decide(bots[asked], g, asked))
    assert {"drawn", "rolled", "help"} <= kinds


def test_the_header_names_the_fight_not_the_door_that_led_to_it() -> None:
    """Issue 35: during a fight Looked For, the header said "Look For Trouble or Loot The Room". It
    names the fight; out of a fight it names the phase in the set's words."""
    from munchkin import scenario
    from munchkin.terminal import phase_title

    g = scenario.build_game(
        {
            "sets": ["deluxe"],
            "players": [{"name": "Ann", "hand": ["Gazebo"]}, {"name": "Bob"}, {"name": "Cy"}],
            "door_deck": ["Elf"],
        }
    )
    g.play("keep Elf", 0)  # the door was kicked open at once: Ann had nothing else to do
    assert phase_title(g.view(0)) == "Look For Trouble or Loot The Room"
    g.play("look for trouble with Gazebo", 0)
    assert phase_title(g.view(0)) == "fighting Gazebo" and phase_title(g.view(None)) == "fighting Gazebo"
