"""A card designer's own set folder (`add_set_dir`, `--set-dir`): a changed copy of Deluxe replaces
the stock set until cleared, a brand-new set plays, and every mistake is one clear CardError."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from munchkin.cards.hooks import HOOKS
from munchkin.cards.loader import (
    SETS_DIR,
    CardError,
    add_set_dir,
    add_set_files,
    available_sets,
    clear_set_dirs,
    load_set,
    set_dir_files,
    set_dirs,
)
from munchkin.cli import app
from munchkin.engine.game import Game, Setup
from munchkin.help import HelpNotFound, help_page
from munchkin.scenario import run_scenario
from waits import PATIENCE

runner = CliRunner()
DELUXE = SETS_DIR / "deluxe"
NAMES = ["Ann", "Ben", "Cy"]
NET_TROLL = "    name: Net Troll\n"
TROLL_LEVEL = "    monster:\n      level: 10\n      treasures: 3\n"

TINY_SET = """\
set: my-set
title: My Tiny Set
door_cards: 24
treasure_cards: 20
cards:
  - id: my_set.gelatinous_octahedron
    name: Gelatinous Octahedron
    deck: door
    kind: monster
    copies: 16
    provenance: original
    text: "Level 2, 1 Treasure. Bad Stuff: lose a Level."
    monster: {level: 2, treasures: 1, bad_stuff: [{lose_levels: 1}]}
  - id: my_set.big_slug
    name: Big Slug
    deck: door
    kind: monster
    copies: 8
    provenance: original
    text: "Level 6, 2 Treasures. Bad Stuff: lose 2 Levels."
    monster: {level: 6, treasures: 2, bad_stuff: [{lose_levels: 2}]}
  - id: my_set.pointy_stick
    name: Pointy Stick
    deck: treasure
    kind: item
    copies: 20
    provenance: original
    text: "1 Hand, +2. Worth 200 Gold Pieces."
    item: {bonus: 2, gold: 200, slot: hands, hands: 1}
"""


@pytest.fixture(autouse=True)
def _forget_set_dirs() -> Iterator[None]:
    clear_set_dirs()
    yield
    clear_set_dirs()


def run(*args: str):  # noqa: ANN201 - typer's Result
    return runner.invoke(app, list(args))


def copy_deluxe(to: Path, with_hooks: bool = False) -> Path:
    """The Deluxe set's YAML files (and its hooks.py if asked) in a new folder."""
    to.mkdir(parents=True)
    for f in DELUXE.glob("*.yaml"):
        shutil.copyfile(f, to / f.name)
    if with_hooks:
        shutil.copyfile(DELUXE / "hooks.py", to / "hooks.py")
    return to


def edit(folder: Path, file: str, old: str, new: str, after: str = "") -> None:
    """Replace the first `old` after `after` in one of the folder's files (the edit must apply)."""
    path = folder / file
    text = path.read_text(encoding="utf-8")
    start = text.index(after) if after else 0
    at = text.index(old, start)
    path.write_text(text[:at] + new + text[at + len(old) :], encoding="utf-8")


def troll_level(sets: list[str]) -> int:
    g = Game(Setup(sets, NAMES, 1))
    return next(d.level for d in g.defs if d.name == "Net Troll")


def my_deluxe(tmp_path: Path, level: int = 17) -> Path:
    """A copy of Deluxe whose Net Troll is of `level`."""
    folder = copy_deluxe(tmp_path / "my-deluxe")
    edit(folder, "doors.yaml", TROLL_LEVEL, TROLL_LEVEL.replace("10", str(level)), after=NET_TROLL)
    return folder


# ---------------------------------------------------------------- replacing a built-in set
def test_changed_copy_replaces_deluxe_until_cleared(tmp_path: Path) -> None:
    assert troll_level(["deluxe"]) == 10
    folder = my_deluxe(tmp_path)
    assert add_set_dir(folder) == "deluxe"
    assert set_dirs() == {"deluxe": folder.resolve()}
    assert available_sets().count("deluxe") == 1
    assert load_set("deluxe").path == folder.resolve()
    assert troll_level(["deluxe"]) == 17
    clear_set_dirs()
    assert set_dirs() == {}
    assert load_set("deluxe").path == DELUXE
    assert troll_level(["deluxe"]) == 10


def test_copy_keeps_the_builtin_hooks_and_may_be_registered_again(tmp_path: Path) -> None:
    """A copy without hooks.py plays with Deluxe's hooks; a copy with Deluxe's hooks.py replaces them
    (even registered twice) until cleared."""
    stock = HOOKS["deluxe.pukachu"]
    add_set_dir(my_deluxe(tmp_path))
    assert HOOKS["deluxe.pukachu"] is stock
    with_hooks = copy_deluxe(tmp_path / "with-hooks", with_hooks=True)
    assert add_set_dir(with_hooks) == "deluxe"
    first = HOOKS["deluxe.pukachu"]
    assert first is not stock and type(first).__name__ == type(stock).__name__
    assert add_set_dir(with_hooks) == "deluxe"  # the same folder again: no "registered twice"
    assert HOOKS["deluxe.pukachu"] is not first
    assert set_dirs() == {"deluxe": with_hooks.resolve()}
    assert troll_level(["deluxe"]) == 10
    clear_set_dirs()
    assert HOOKS["deluxe.pukachu"] is stock


def test_cli_lists_and_checks_the_copy(tmp_path: Path) -> None:
    folder = my_deluxe(tmp_path)
    r = run("cards", "check", "--set-dir", str(folder))
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("deluxe: 95 Door, 73 Treasure cards OK")
    assert "star" not in r.stdout  # only the folder's set, not every set
    r = run("cards", "list", "--json", "--set-dir", str(folder))
    assert r.exit_code == 0, r.output
    troll = next(c for c in json.loads(r.stdout) if c["name"] == "Net Troll")
    assert troll["level"] == 17


def test_cards_copy_makes_a_folder_to_edit(tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    r = run("cards", "copy", "deluxe", str(folder))
    assert r.exit_code == 0, r.output
    assert sorted(f.name for f in folder.iterdir()) == sorted(f.name for f in DELUXE.glob("*.yaml"))
    again = run("cards", "copy", "deluxe", str(folder))
    assert again.exit_code == 1 and "already exists" in again.stderr
    assert run("cards", "copy", "no-such-set", str(tmp_path / "x")).exit_code == 1


def test_simulate_with_the_copy(tmp_path: Path) -> None:
    r = run("simulate", "--set-dir", str(my_deluxe(tmp_path)), "--set", "deluxe", "--games", "2", "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)
    assert summary["games"] == 2 and summary["sets"] == ["deluxe"]
    assert set_dirs()["deluxe"] == (tmp_path / "my-deluxe").resolve()  # the command registered it


SCENARIO = """\
name: Strong Flying Frogs
sets: [deluxe]
seed: 1
players:
  - {name: Ann, level: 2, classes: [Warrior]}
  - {name: Ben}
  - {name: Cy}
door_deck: [Flying Frogs]
steps:
  - do: kick open the door
    expect:
      combat: {fighters: 2, monsters: 9, winning: false}
"""


def test_scenario_sets_resolve_to_the_folder(tmp_path: Path) -> None:
    folder = copy_deluxe(tmp_path / "frogs")
    edit(folder, "doors.yaml", "level: 2\n", "level: 9\n", after="    name: Flying Frogs\n")
    scenario = tmp_path / "frogs.yaml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    stock = run("scenario", str(scenario))
    assert stock.exit_code == 1 and "FAIL" in stock.stdout
    r = run("scenario", "--set-dir", str(folder), str(scenario))
    assert r.exit_code == 0, r.output
    assert "1 passed, 0 failed" in r.stdout


def test_help_pages_follow_the_folder(tmp_path: Path) -> None:
    """The help page's list of Races is made from the cards: a copy with a new Race shows it."""
    folder = copy_deluxe(tmp_path / "gnomes")
    gnome = "  - id: deluxe.gnome\n    name: Gnome\n    deck: door\n    kind: race\n    provenance: original\n"
    gnome += '    text: "You may carry any number of Big items."\n    race:\n      abilities: [carry_any_big]\n\n'
    edit(folder, "doors.yaml", "  - id: deluxe.dwarf\n", gnome + "  - id: deluxe.dwarf\n")
    edit(folder, "set.yaml", "door_cards: 95", "door_cards: 96")
    assert "Gnome" not in help_page("deluxe")
    add_set_dir(folder)
    assert "Gnome" in help_page("deluxe")
    clear_set_dirs()
    assert "Gnome" not in help_page("deluxe")


# ---------------------------------------------------------------- a set of one's own
def test_brand_new_tiny_set(tmp_path: Path) -> None:
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "set.yaml").write_text(TINY_SET, encoding="utf-8")
    assert add_set_dir(folder) == "my-set"
    assert "my-set" in available_sets() and "deluxe" in available_sets()
    g = Game(Setup(["my-set"], NAMES, 3))
    assert "Rules: My Tiny Set" in help_page("my-set")  # the shared rules, under the set's title
    assert {d.name for d in g.defs} == {"Gelatinous Octahedron", "Big Slug", "Pointy Stick"}
    r = run("simulate", "--set-dir", str(folder), "--games", "2", "--json")  # --set defaults to the folder's
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["sets"] == ["my-set"]
    clear_set_dirs()
    assert "my-set" not in available_sets()
    with pytest.raises(CardError, match="unknown set 'my-set'"):
        load_set("my-set")
    with pytest.raises(HelpNotFound):
        help_page("my-set")


def test_renamed_copy_of_deluxe_plays_beside_deluxe(tmp_path: Path) -> None:
    """A copy of Deluxe under a new name: its ids renamed, its cards still naming Deluxe's hooks."""
    folder = my_deluxe(tmp_path)
    for f in folder.glob("*.yaml"):
        text = f.read_text(encoding="utf-8").replace("- id: deluxe.", "- id: my_deluxe.")
        f.write_text(text.replace("set: deluxe", "set: my-deluxe"), encoding="utf-8")
    assert add_set_dir(folder) == "my-deluxe"
    assert troll_level(["my-deluxe"]) == 17
    assert troll_level(["deluxe"]) == 10
    r = run("simulate", "--set-dir", str(folder), "--set", "my-deluxe", "--games", "2", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["games"] == 2


def test_files_travel_to_another_folder(tmp_path: Path) -> None:
    files = set_dir_files(my_deluxe(tmp_path))
    assert sorted(files) == sorted(f.name for f in DELUXE.glob("*.yaml"))
    assert add_set_files(files) == "deluxe"
    assert set_dirs()["deluxe"] != (tmp_path / "my-deluxe").resolve()
    assert troll_level(["deluxe"]) == 17
    with pytest.raises(CardError, match="only"):
        add_set_files({"../evil.yaml": "set: x"})


def test_the_lobby_offers_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "set.yaml").write_text(TINY_SET, encoding="utf-8")
    add_set_dir(folder)
    from munchkin.server.app import create_app
    from munchkin.server.clock import ManualClock

    with TestClient(create_app(f"sqlite:///{tmp_path / 'munchkin.db'}", clock=ManualClock())) as client:
        assert {"id": "my-set", "name": "My Tiny Set"} in client.get("/api/sets").json()
        seats = [{"name": "Ann", "kind": "human"}, {"name": "B", "kind": "bot"}, {"name": "C", "kind": "bot"}]
        r = client.post("/api/tables", json={"name": "t", "sets": ["my-set"], "seats": seats, "bot_delay": 0})
        assert r.status_code == 201, r.text
        catalog = client.get(f"/api/tables/{r.json()['table']['id']}/cards").json()
        assert set(catalog) == {"gelatinous octahedron", "big slug", "pointy stick"}


def test_the_replay_worker_registers_the_folders(tmp_path: Path) -> None:
    """The server makes finished games' saves in a spawned process: it registers the same folders."""
    from munchkin.server import tables

    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "set.yaml").write_text(TINY_SET, encoding="utf-8")
    add_set_dir(folder)
    g = Game(Setup(["my-set"], NAMES, 5))
    spawn = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        1, mp_context=spawn, initializer=tables._follow_parent, initargs=(os.getpid(), [str(folder)])
    )
    with pool:
        saved = pool.submit(tables.make_replay, g.setup, list(g.log)).result(timeout=PATIENCE)
    assert json.loads(saved)["setup"]["sets"] == ["my-set"]


# ---------------------------------------------------------------- mistakes
def _wrong_type(folder: Path) -> None:
    edit(folder, "doors.yaml", "level: 10", "level: ten", after=NET_TROLL)


def _duplicate_id(folder: Path) -> None:
    edit(folder, "doors.yaml", "  - id: deluxe.net_troll\n", "  - id: deluxe.flying_frogs\n")


def _no_header(folder: Path) -> None:
    (folder / "set.yaml").unlink()


def _unknown_hook(folder: Path) -> None:
    edit(folder, "doors.yaml", "hook: deluxe.pukachu\n", "hook: deluxe.no_such_hook\n")


MISTAKES = {
    "wrong type": (_wrong_type, ["doors.yaml", "card 'Net Troll'", "monster.level", "whole number, not 'ten'"]),
    "duplicate id": (_duplicate_id, ["doors.yaml", "card 'Net Troll'", "duplicate id 'deluxe.flying_frogs'"]),
    "no header": (_no_header, ["no file carries the set header"]),
    "unknown hook": (_unknown_hook, ["doors.yaml", "card 'Pukachu'", "hook 'deluxe.no_such_hook' is not registered"]),
}


@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_a_mistake_is_one_clear_error(tmp_path: Path, mistake: str) -> None:
    make, words = MISTAKES[mistake]
    folder = copy_deluxe(tmp_path / "bad")
    make(folder)
    with pytest.raises(CardError) as err:
        add_set_dir(folder)
    for w in words:
        assert w in str(err.value)
    assert str(err.value).startswith(str(folder))  # the folder as it was given, then its file
    assert set_dirs() == {} and load_set("deluxe").path == DELUXE  # nothing registered
    r = run("cards", "check", "--set-dir", str(folder))
    assert r.exit_code == 1
    assert r.stderr.startswith("Error: ") and all(w in r.stderr for w in words)
    assert "Traceback" not in r.output and r.stdout == ""
    assert isinstance(r.exception, SystemExit)


def test_a_missing_or_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(CardError, match="no such folder"):
        add_set_dir(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CardError, match=r"empty: no set files"):
        add_set_dir(tmp_path / "empty")
    (tmp_path / "file.yaml").write_text("set: x\n", encoding="utf-8")
    with pytest.raises(CardError, match="not a folder"):
        add_set_dir(tmp_path / "file.yaml")
    r = run("simulate", "--set-dir", str(tmp_path / "nowhere"), "--games", "1")
    assert r.exit_code == 1 and "nowhere: no such folder" in r.stderr and "Traceback" not in r.output


def test_a_bad_set_name(tmp_path: Path) -> None:
    folder = my_deluxe(tmp_path)
    edit(folder, "set.yaml", "set: deluxe", "set: My Deluxe")
    with pytest.raises(CardError, match=r"set.yaml: set 'My Deluxe': a set's name is lower-case"):
        add_set_dir(folder)


def test_a_hook_clash_is_refused_and_leaves_no_trace(tmp_path: Path) -> None:
    """A new set's hooks.py may not take a hook of another set (or the library) for its own."""
    stock = HOOKS["deluxe.pukachu"]
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "set.yaml").write_text(TINY_SET, encoding="utf-8")
    (folder / "hooks.py").write_text(
        "from munchkin.cards.loader import hook\n\n"
        "hook('my_set.first')(lambda g, p, card: True)\n"
        "hook('deluxe.pukachu')(lambda g, p, card: True)\n",
        encoding="utf-8",
    )
    with pytest.raises(CardError, match=r"tiny/hooks.py: hook 'deluxe.pukachu' registered twice"):
        add_set_dir(folder)
    assert HOOKS["deluxe.pukachu"] is stock and "my_set.first" not in HOOKS
    (folder / "hooks.py").write_text("hook('my_set.first')(None)\n", encoding="utf-8")  # no import: a NameError
    with pytest.raises(CardError, match=r"hooks.py: cannot import: NameError"):
        add_set_dir(folder)
    (folder / "hooks.py").write_text(
        "from munchkin.cards.loader import hook\n\nhook('my_set.first')(lambda g, p, card: True)\n", encoding="utf-8"
    )
    assert add_set_dir(folder) == add_set_dir(folder) == "my-set"  # its own hook, registered twice: fine
    assert "my_set.first" in HOOKS
    clear_set_dirs()
    assert "my_set.first" not in HOOKS


SALESMAN = """\
name: Nothing to pay the Insurance Salesman with
sets: [deluxe]
seed: 1
{rules}players:
  - {{name: Ann, level: 5, hand: []}}
  - {{name: Ben, hand: []}}
  - {{name: Cy, hand: []}}
door_deck: [Insurance Salesman]
rolls: [1]
steps:
  - do: kick open the door
    expect: {{combat: {{winning: false}}}}
  - pass_all: true
  - do: run away
    as: Ann
    expect:
      level: {{Ann: {level}}}
"""


def test_lose_gold_with_nothing_to_pay_runs_its_otherwise(tmp_path: Path) -> None:
    """A designer's Insurance Salesman: lose 1,000 gold, otherwise 2 Levels. Ann has no Items, so from
    rules 6 she loses the 2 Levels, as the card's data says; a game of rules 5 keeps its old outcome."""
    folder = copy_deluxe(tmp_path / "salesman")
    edit(
        folder,
        "doors.yaml",
        "        - lose_gold: 1000\n",
        "        - lose_gold: 1000\n          otherwise: [{lose_levels: 2}]\n",
        after="    name: Insurance Salesman\n",
    )
    add_set_dir(folder)
    for rules, level in (("", 3), ("rules: 5\n", 5)):
        scenario = tmp_path / f"salesman{level}.yaml"
        scenario.write_text(SALESMAN.format(rules=rules, level=level), encoding="utf-8")
        assert run_scenario(scenario).failures == [], rules


# ---------------------------------------------------------------- where a save's cards came from
def test_cards_check_takes_the_folder_as_typed_and_shows_its_hash(tmp_path: Path) -> None:
    """`munchkin cards check FOLDER`, as a designer types it, checks the folder as --set-dir does."""
    from munchkin.cards.loader import SHORT_HASH, cards_sha256

    folder = my_deluxe(tmp_path)
    sha = cards_sha256(set_dir_files(folder))
    for args in (["cards", "check", str(folder)], ["cards", "check", "--set-dir", str(folder)]):
        r = run(*args)
        assert r.exit_code == 0, r.output
        assert r.stdout.startswith("deluxe: 95 Door, 73 Treasure cards OK") and "star" not in r.stdout
        assert f"cards sha256 {sha[:SHORT_HASH]}" in r.stdout
    edit(folder, "doors.yaml", "level: 17", "level: -3")
    r = run("cards", "check", str(folder))
    assert r.exit_code == 1 and "Net Troll" in r.output and "Traceback" not in r.output
    r = run("cards", "check", str(tmp_path / "nowhere"))
    assert r.exit_code == 1 and "no such folder" in r.output


def test_the_cards_hash_reads_every_card_file_and_hooks_but_not_line_endings(tmp_path: Path) -> None:
    from munchkin.cards.loader import cards_sha256

    folder = my_deluxe(tmp_path)
    sha = cards_sha256(set_dir_files(folder))
    crlf = copy_deluxe(tmp_path / "crlf")
    for f in folder.glob("*.yaml"):
        (crlf / f.name).write_bytes(f.read_bytes().replace(b"\n", b"\r\n"))
    assert cards_sha256(set_dir_files(crlf)) == sha
    (crlf / "hooks.py").write_text("# nothing\n", encoding="utf-8")
    assert cards_sha256(set_dir_files(crlf)) != sha
    assert cards_sha256({"a.yaml": "x", "b.yaml": ""}) != cards_sha256({"a.yaml": "", "b.yaml": "x"})


def _saved_from_folder(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of Deluxe with a Level 17 Net Troll, and a game of it saved by `simulate --save-log`."""
    folder = my_deluxe(tmp_path)
    saves = tmp_path / "saves"
    r = run("simulate", "--set-dir", str(folder), "--games", "1", "--seed", "3", "--save-log", str(saves))
    assert r.exit_code == 0, r.output
    return folder, saves / "game-3.json"


def test_a_save_records_its_folder_and_replays_only_with_it(tmp_path: Path) -> None:
    """A save dealt from a designer folder names the folder and its cards' hash; a replay without the
    folder, or with changed cards, says which folder to give before replaying any move."""
    from munchkin.cards.loader import cards_sha256

    folder, save = _saved_from_folder(tmp_path)
    data = json.loads(save.read_text(encoding="utf-8"))
    sha = cards_sha256(set_dir_files(folder))
    assert data["setup"]["origin"] == {"set_dirs": [{"set": "deluxe", "folder": "my-deluxe", "sha256": sha}]}
    assert str(tmp_path) not in save.read_text(encoding="utf-8")
    clear_set_dirs()
    r = run("replay", str(save))
    assert r.exit_code == 1 and "Traceback" not in r.output
    said = " ".join(r.output.split())
    assert "this save was dealt from a designer folder: set 'deluxe' from folder 'my-deluxe'" in said, said
    assert f"cards sha256 {sha[:12]}" in said and "give it with --set-dir my-deluxe" in said
    assert "log entry" not in said  # said before any move is replayed
    r = run("replay", str(save), "--to", "3")
    assert r.exit_code == 2 and "give it with --set-dir my-deluxe" in " ".join(r.output.split())
    r = run("replay", str(save), "--set-dir", str(folder))
    assert r.exit_code == 0 and "identical" in r.output, r.output
    clear_set_dirs()
    edit(folder, "doors.yaml", "level: 17", "level: 16")
    r = run("replay", str(save), "--set-dir", str(folder))
    said = " ".join(r.output.split())
    assert r.exit_code == 1 and "whose cards differ from the one given" in said, said
    assert sha[:12] in said and cards_sha256(set_dir_files(folder))[:12] in said
    clear_set_dirs()
    r = run("play", "--load", str(save))
    assert r.exit_code == 1 and "give it with --set-dir my-deluxe" in " ".join(r.output.split()), r.output


def test_a_save_from_the_built_in_sets_records_no_origin(tmp_path: Path) -> None:
    """Dealt from the built-in sets, a save is as it always was (no origin key), and still replays."""
    r = run("simulate", "--games", "1", "--seed", "3", "--save-log", str(tmp_path))
    assert r.exit_code == 0, r.output
    data = json.loads((tmp_path / "game-3.json").read_text(encoding="utf-8"))
    assert "origin" not in data["setup"]
    assert run("replay", str(tmp_path / "game-3.json")).exit_code == 0
    # since rules 7 no origin means the built-in cards: a folder put in their place is refused, in words
    folder = my_deluxe(tmp_path / "elsewhere")
    r = run("replay", str(tmp_path / "game-3.json"), "--set-dir", str(folder))
    said = " ".join(r.output.split())
    assert r.exit_code == 1 and "Traceback" not in r.output and "log entry" not in said, said
    assert "dealt from the built-in 'deluxe' cards, but --set-dir gave set 'deluxe' from folder 'my-deluxe'" in said
    assert "replay it without that folder" in said
    data["rules"] = 6  # a save of older rules cannot tell: it replays as before (here it does, move by move)
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    assert "dealt from the built-in" not in " ".join(run("replay", str(old), "--set-dir", str(folder)).output.split())


def test_a_terminal_game_from_a_folder_saves_its_origin(tmp_path: Path) -> None:
    folder = my_deluxe(tmp_path)
    save = tmp_path / "t.json"
    r = runner.invoke(app, ["play", "--set-dir", str(folder), "--seed", "5"], input=f"save {save}\nquit\n")
    assert save.exists(), r.output
    origin = json.loads(save.read_text(encoding="utf-8"))["setup"]["origin"]
    assert [d["folder"] for d in origin["set_dirs"]] == ["my-deluxe"]
    clear_set_dirs()
    r = runner.invoke(app, ["play", "--load", str(save), "--set-dir", str(folder)], input="quit\n")
    assert r.exit_code == 0 and "Error" not in r.output, r.output


def test_a_save_whose_origin_is_not_a_mapping_is_refused_in_words() -> None:
    from munchkin.engine.game import save_problem

    g = Game(Setup(["deluxe"], NAMES, 1, origin={"set_dirs": []}))
    data = json.loads(g.to_json())
    assert save_problem(data) is None and Game.from_json(g.to_json()).setup.origin == {"set_dirs": []}
    data["setup"]["origin"] = [1]
    assert save_problem(data) == "the save's setup origin is not a mapping"


def test_a_table_dealt_from_a_folder_is_restored_only_with_it(tmp_path: Path) -> None:
    """A table records the `serve --set-dir` folder it was dealt from; a server restarted without that
    folder (or with its cards changed) stops the table saying which folder to give, not at some move."""
    from munchkin.server.app import create_app
    from munchkin.server.clock import ManualClock

    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "set.yaml").write_text(TINY_SET, encoding="utf-8")
    add_set_dir(folder)
    db = f"sqlite:///{tmp_path / 'munchkin.db'}"
    seats = [{"name": "Ann", "kind": "human"}, {"name": "B", "kind": "bot"}, {"name": "C", "kind": "bot"}]
    with TestClient(create_app(db, clock=ManualClock())) as client:  # (no table's timer runs out meanwhile)
        r = client.post("/api/tables", json={"name": "t", "sets": ["my-set"], "seats": seats, "bot_delay": 0})
        assert r.status_code == 201, r.text
        table = r.json()["table"]["id"]
    with TestClient(create_app(db, clock=ManualClock())) as client:  # restarted with the folder: it plays on
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert listed[table]["status"] == "playing", listed[table]
    clear_set_dirs()
    with TestClient(create_app(db, clock=ManualClock())) as client:  # restarted without it
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        stopped = " ".join(str(listed[table]["stopped"]).split())
        assert listed[table]["status"] == "stopped", listed[table]
        assert "this table was dealt from a designer folder: set 'my-set' from folder 'tiny'" in stopped, stopped
        assert "give it with --set-dir tiny" in stopped


def test_verify_says_which_folder_a_fair_game_was_dealt_from(tmp_path: Path) -> None:
    """`munchkin verify` of a fair table's game dealt from a folder: without the folder, it says which
    folder to give (exit 2) instead of naming a draw that differs; with it, the game verifies."""
    from munchkin.agents.base import decide, make_agent
    from munchkin.cli import game_origin
    from munchkin.engine.chance import FairChance, fair_commitment, fair_key
    from munchkin.engine.fair import deal
    from munchkin.server.fairness import new_fair_record
    from munchkin.server.tables import with_fair

    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "set.yaml").write_text(TINY_SET, encoding="utf-8")
    add_set_dir(folder)
    secret = bytes(range(32))
    record = new_fair_record(len(NAMES))
    record.update(secret=secret.hex(), commitment=fair_commitment(secret), entropy=[None] * 3, dealt=True)
    record["declared"] = {"sexes": ["male", "female", "male"], "houses": None}
    setup = Setup(["my-set"], NAMES, None, sexes=["male", "female", "male"], origin=game_origin(["my-set"]))
    g = deal(setup, FairChance(fair_key(secret, ["", "", ""])))
    bots = [make_agent("heuristic", s) for s in range(3)]
    while not g.over:
        seat = g.to_act[0]
        g.apply(decide(bots[seat], g, seat, g.legal_actions(seat)))
    save = tmp_path / "fair.json"
    save.write_text(with_fair(g.to_json(), record), encoding="utf-8")
    r = run("verify", str(save), "--set-dir", str(folder))
    assert r.exit_code == 0, r.output
    clear_set_dirs()
    r = run("verify", str(save))
    said = " ".join(r.output.split())
    assert r.exit_code == 2 and "this save was dealt from a designer folder: set 'my-set'" in said, said


def test_an_old_save_of_a_folder_that_does_not_replay_hints_at_the_folder(tmp_path: Path) -> None:
    """A save from before saves named their folder (no origin) whose set is unknown here: the error says a
    designer's folder may be missing; a save whose moves replay but whose state differs gets no such hint."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "set.yaml").write_text(TINY_SET, encoding="utf-8")
    saves = tmp_path / "saves"
    assert run("simulate", "--set-dir", str(folder), "--games", "1", "--save-log", str(saves)).exit_code == 0
    clear_set_dirs()
    save = saves / "game-1.json"
    data = json.loads(save.read_text(encoding="utf-8"))
    del data["setup"]["origin"]
    save.write_text(json.dumps(data), encoding="utf-8")  # (a new set: no built-in cards to tell apart)
    r = run("replay", str(save))
    said = " ".join(r.output.split())
    assert r.exit_code == 1 and "unknown set 'my-set'" in said and "give it with --set-dir" in said, said
    r = run("replay", str(save), "--set-dir", str(folder))
    assert r.exit_code == 0, r.output
    clear_set_dirs()
    stock = tmp_path / "stock"
    assert run("simulate", "--games", "1", "--save-log", str(stock)).exit_code == 0
    data = json.loads((stock / "game-1.json").read_text(encoding="utf-8"))
    data["state"] = "0" * 16
    (stock / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    r = run("replay", str(stock / "bad.json"))
    assert r.exit_code == 1 and "differs from the saved state" in r.output and "--set-dir" not in r.output, r.output
