"""`munchkin cards check` on a designer's folder: every mistake at once, each with its file, line,
card and field in plain words, with "did you mean" for near-misses (issue 35, point 2)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from munchkin.cards.loader import SETS_DIR, CardError, add_set_dir, clear_set_dirs, load_set, set_dirs
from munchkin.cli import app

DELUXE = SETS_DIR / "deluxe"


@pytest.fixture(autouse=True)
def _forget_folders() -> Iterator[None]:
    yield
    clear_set_dirs()


def copy_deluxe(to: Path) -> Path:
    """Deluxe's YAML files in a new folder (its hooks come from the built-in set)."""
    to.mkdir(parents=True)
    for f in DELUXE.glob("*.yaml"):
        shutil.copyfile(f, to / f.name)
    return to


def edit(file: Path, old: str, new: str, after: str = "") -> int:
    """Replace the first `old` (after `after`) with `new`; the 1-based line where `new` starts."""
    text = file.read_text(encoding="utf-8")
    start = text.index(after) if after else 0
    at = text.index(old, start)
    file.write_text(text[:at] + new + text[at + len(old) :], encoding="utf-8")
    return text.count("\n", 0, at) + 1


def problems_of(folder: Path) -> str:
    with pytest.raises(CardError) as err:
        add_set_dir(folder)
    return str(err.value)


def test_every_mistake_of_a_folder_is_reported_at_once(tmp_path: Path) -> None:
    folder = copy_deluxe(tmp_path / "my-deluxe")
    doors, treasures = folder / "doors.yaml", folder / "treasures.yaml"
    gazebo = "    name: GAZEBO\n"
    edit(doors, "    name: Gazebo\n", gazebo)
    # each mistake: (file, line, the words that must be on that line of the report)
    mistakes = [
        (
            treasures,
            edit(treasures, "    name: Horny Helmet\n", "    name: gazebo\n"),
            "card 'gazebo': name: differs only in case from 'GAZEBO' (at ",
        ),
        (
            doors,
            edit(doors, "level: 8", "level: -3", gazebo),
            "card 'GAZEBO': monster.level: should be at least 1, not -3",
        ),
        (
            doors,
            edit(doors, "no_help: true", "no_hlep: true", gazebo),
            "card 'GAZEBO': monster.no_hlep: unknown field 'no_hlep' (did you mean 'no_help'?)",
        ),
        (
            doors,
            edit(doors, "if: {race: elf}", "if: {race: hobbit}"),
            "card 'Potted Plant': monster.bonus_treasures[0].if.race: no set has a Race 'hobbit', so this never holds;"
            " the Races are: ",
        ),
        (
            doors,
            edit(doors, "if: {race: elf}", "if: {race: Elf}"),
            "card 'Drooling Slime': monster.modifiers[0].if.race: no set has a Race 'Elf', so this never holds"
            " (did you mean 'elf'?); conditions name them in lower case",
        ),
        (
            doors,
            edit(doors, "- lose_levels: 1", "- lose_levls: 1", "    name: Lose Your Class\n"),
            "card 'Lose Your Class': curse.effects[0].otherwise[0].lose_levls: unknown field 'lose_levls'"
            " (did you mean 'lose_levels'?)",
        ),
        (
            doors,
            edit(doors, "if: {class: cleric}", "if: {class: wizzard}"),
            "card 'Maul Rat': monster.modifiers[0].if.class: no set has a Class 'wizzard', so this never holds"
            " (did you mean 'wizard'?)",
        ),
        (
            doors,
            edit(doors, "hook: deluxe.pukachu", "hook: deluxe.pukachoo"),
            "card 'Pukachu': monster.hook: hook 'deluxe.pukachoo' is not registered (library or hooks.py)"
            " (did you mean 'deluxe.pukachu'?)",
        ),
        (
            treasures,
            edit(treasures, "gold: 200, slot: headgear", "gold: 200, slot: hedgear"),
            "card 'Helm of Courage': item.slot: should be one of 'headgear', 'armor', 'footgear', 'hands', 'none',"
            " not 'hedgear' (did you mean 'headgear'?)",
        ),
        (
            treasures,
            edit(treasures, "    provenance: published\n", "    provenence: published\n"),
            "provenence: unknown field 'provenence' (did you mean 'provenance'?)",
        ),
    ]
    report = problems_of(folder)
    lines = report.splitlines()
    # 'provenance' is then missing as well: one more line than the mistakes
    assert lines[0] == f"{folder}: {len(mistakes) + 1} problems", report
    for file, line, words in mistakes:
        assert any(ln.startswith(f"  {file}:{line}: ") and words in ln for ln in lines), (file, line, words, report)
    assert "Input should" not in report and "Value error" not in report  # pydantic's words, translated
    assert set_dirs() == {} and load_set("deluxe").path == DELUXE  # nothing registered

    r = CliRunner().invoke(app, ["cards", "check", "--set-dir", str(folder)])
    assert r.exit_code == 1 and r.stdout == "" and "Traceback" not in r.output
    assert r.stderr == f"Error: {report}\n"


def test_another_command_gives_the_same_errors(tmp_path: Path) -> None:
    folder = copy_deluxe(tmp_path / "my-deluxe")
    line = edit(folder / "doors.yaml", "if: {class: cleric}", "if: {class: wizzard}")
    r = CliRunner().invoke(app, ["simulate", "--set-dir", str(folder), "--games", "1"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.stderr.startswith(f"Error: {folder / 'doors.yaml'}:{line}: card 'Maul Rat': ")
    assert "(did you mean 'wizard'?)" in r.stderr


@pytest.mark.parametrize(
    ("old", "new", "field", "words"),
    [
        ("      level: 10\n", "      level: 0\n", "monster.level", "should be at least 1, not 0"),
        ("      treasures: 3\n", "      treasures: -1\n", "monster.treasures", "should be at least 0, not -1"),
        (
            "- lose_levels: 1",
            "- lose_levels: -2",
            "curse.effects[0].otherwise[0].lose_levels",
            "should be at least 1, not -2",
        ),
        ("level_becomes: lowest", "level_becomes: 0", "level_becomes", "should be at least 1 or 'lowest', not 0"),
        ("    copies: 3\n", "    copies: 0\n", "copies", "should be at least 1, not 0"),
        ("{level_at_most: 3}", "{level_at_most: -1}", "will_not_pursue.level_at_most", "should be at least 1, not -1"),
    ],
)
def test_impossible_numbers_are_refused(tmp_path: Path, old: str, new: str, field: str, words: str) -> None:
    folder = copy_deluxe(tmp_path / "my-deluxe")
    line = edit(folder / "doors.yaml", old, new)
    report = problems_of(folder)
    assert f"doors.yaml:{line}: card '" in report and f"{field}: {words}" in report, report


def test_the_header_and_the_cards_are_reported_together(tmp_path: Path) -> None:
    folder = copy_deluxe(tmp_path / "my-deluxe")
    header = next(f for f in folder.glob("*.yaml") if f.read_text(encoding="utf-8").startswith("set:"))
    edit(header, "door_cards:", "door_card:")
    line = edit(folder / "doors.yaml", "level: 10", "level: ten", "    name: Net Troll\n")
    report = problems_of(folder)
    assert "door_card: unknown field 'door_card' (did you mean 'door_cards'?)" in report
    assert "door_cards: is missing (it is required)" in report
    assert f"doors.yaml:{line}: card 'Net Troll': monster.level: should be a whole number, not 'ten'" in report


def test_a_card_the_schema_refuses_still_has_its_names_checked(tmp_path: Path) -> None:
    folder = copy_deluxe(tmp_path / "my-deluxe")
    doors = folder / "doors.yaml"
    slime = "    name: Drooling Slime\n"
    race = edit(doors, "if: {race: elf}", "if: {race: elfs}", slime)
    typo = edit(doors, "- lose_levels: 1", "- lose_levls: 1", slime)
    report = problems_of(folder)
    assert f"doors.yaml:{race}: card 'Drooling Slime': monster.modifiers[0].if.race: no set has a Race 'elfs'" in report
    assert "(did you mean 'elf'?)" in report
    assert f"doors.yaml:{typo}: card 'Drooling Slime': monster.bad_stuff[0].otherwise[0].lose_levls: unknown" in report


def test_a_broken_file_does_not_hide_the_others(tmp_path: Path) -> None:
    folder = copy_deluxe(tmp_path / "my-deluxe")
    (folder / "extra.yaml").write_text("cards:\n  - id: deluxe.x\n    name: [unclosed\n", encoding="utf-8")
    line = edit(folder / "doors.yaml", "hook: deluxe.pukachu", "hook: deluxe.pukachoo")
    report = problems_of(folder)
    assert f"{folder / 'extra.yaml'}:4: not valid YAML" in report
    assert f"doors.yaml:{line}: card 'Pukachu': monster.hook:" in report


def test_a_race_of_the_folder_or_of_another_set_may_be_named(tmp_path: Path) -> None:
    """A condition may name a Race the folder itself adds, or one of another set that may share the game."""
    folder = copy_deluxe(tmp_path / "my-deluxe")
    edit(folder / "doors.yaml", "    name: Elf\n", "    name: Hobbit\n")
    edit(folder / "doors.yaml", "if: {race: elf}", "if: {race: hobbit}")
    edit(folder / "doors.yaml", "if: {race: elf}", "if: {race: cyborg}")  # Star Munchkin's
    assert add_set_dir(folder) == "deluxe"


def test_every_built_in_set_checks_clean() -> None:
    r = CliRunner().invoke(app, ["cards", "check"])
    assert r.exit_code == 0, r.output
    assert [ln.split(":")[0] for ln in r.stdout.splitlines()] == ["deluxe", "good-bad", "harry-potter", "star"]


def test_a_run_away_one_shot_without_a_hook_is_reported(tmp_path: Path) -> None:
    """A one-shot of a Run Away moment acts only through its hook: without one it could never be played
    (found by the vocabulary's coverage, issue 35). The check says so at its line, naming the way out."""
    folder = copy_deluxe(tmp_path / "my-deluxe")
    treasures = folder / "treasures.yaml"
    line = edit(treasures, "when: combat}", "when: run_away}", after="    name: Sleep Potion\n")
    out = problems_of(folder)
    assert f"treasures.yaml:{line}: card 'Sleep Potion': one_shot.when: a one-shot played when: run_away" in out
    assert "add a hook, or play it in combat (when: combat)" in out
