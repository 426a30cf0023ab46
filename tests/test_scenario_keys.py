"""The scenario keys a rules lawyer checks a seat's knowledge with (`sees`, `hears`), the rolls a
scenario scripted (`rolls_left`), the engine's own moves (`forced`), and `legal.excludes` entries
that must be actions: each one holds on a table where it should, and fails, with a message that
says what differs, where it should not."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from tests.editions import EDITIONS

from munchkin.engine.game import Game, Options, Setup
from munchkin.engine.notation import not_an_action
from munchkin.scenario import run_scenario

ALL_SETS = [("deluxe",), *(tuple(v) for v in EDITIONS.values())]

LONE_KILL = """
name: keys
sets: [deluxe]
seed: 1
players:
  - name: Ann
    level: 4
  - name: Ben
  - name: Cy
    hand: [Sleep Potion]
door_deck: [Lame Goblin, Gazebo]
treasure_deck: [Boots of Butt-Kicking, Huge Rock]
rolls: [6]
steps:
  - do: kick open the door
  - pass_all: true
    expect:
"""


def failures(tmp_path: Path, expect: str) -> list[str]:
    """Run the lone-kill table with these expectations (YAML, one per line) on its last step."""
    body = LONE_KILL + "".join(f"      {line}\n" for line in textwrap.dedent(expect).strip().splitlines())
    path = tmp_path / "keys.yaml"
    path.write_text(body, encoding="utf-8")
    return run_scenario(path).failures


def test_the_true_expectations_hold(tmp_path: Path) -> None:
    assert (
        failures(
            tmp_path,
            """
        sees: {Ann: {includes: [Boots of Butt-Kicking]}, Ben: {excludes: [Boots of Butt-Kicking, Huge Rock]}}
        hears: {Ann: {includes: [Ann draws Boots of Butt-Kicking]}, spectator: {excludes: [Boots of Butt-Kicking]}}
        rolls_left: 1
        legal: {for: Ben, excludes: [play Sleep Potion for Ann, kick open the door]}
        """,
        )
        == []
    )


@pytest.mark.parametrize(
    ("expect", "message"),
    [
        ("sees: {Ben: {includes: [Boots of Butt-Kicking]}}", "Ben does not see Boots of Butt-Kicking"),
        ("sees: {spectator: {includes: [Sleep Potion]}}", "spectator does not see Sleep Potion"),
        ("sees: {Ann: {excludes: [Boots of Butt-Kicking]}}", "Ann sees Boots of Butt-Kicking"),
        (
            "sees: {Ann: {excludes: [Boots of Butt-Kiking]}}",
            "no card named 'Boots of Butt-Kiking' in the sets in play (deluxe); did you mean 'Boots of Butt-Kicking'?",
        ),
        ("sees: {Ann: [Huge Rock]}", "a mapping with `includes` and/or `excludes` lists"),
        ("hears: {Ben: {includes: [Ann draws Boots of Butt-Kicking]}}", "Ben did not hear"),
        ("hears: {Ann: {excludes: [Boots of Butt-Kicking]}}", "Ann heard 'Boots of Butt-Kicking'"),
        ("rolls_left: 0", "rolls left: expected 0, got 1 (0 used in this scenario)"),
        ("forced: [kick open the door]", "the engine did not take 'kick open the door' by itself in this step"),
        ("legal: {excludes: [kick opne the door]}", "which is not an action"),
        ("legal: {excludes: [play Slep Potion for Ann]}", "which is not an action"),
        ("legal: {excludes: [play Sleep Potion fro Ann]}", "which is not an action"),
        ("legal: {includes: [pass Ann]}", "legal actions lack 'pass Ann', which is not an action"),
    ],
)
def test_a_wrong_expectation_fails_and_says_why(tmp_path: Path, expect: str, message: str) -> None:
    got = failures(tmp_path, expect)
    assert any(message in f for f in got), got


def test_the_first_step_hears_the_engines_own_first_moves(tmp_path: Path) -> None:
    """Ann's empty-handed kick is forced before step 1: step 1 still hears it and may name it."""
    path = tmp_path / "first.yaml"
    path.write_text(
        LONE_KILL.replace("  - pass_all: true\n    expect:\n", "")
        + "    expect:\n      forced: [kick open the door]\n      hears: {Ben: {includes: [Lame Goblin]}}\n",
        encoding="utf-8",
    )
    assert run_scenario(path).failures == []


@pytest.mark.parametrize("sets", ALL_SETS, ids=lambda s: "+".join(s))
def test_every_offered_action_text_is_an_action(sets: tuple[str, ...]) -> None:
    """Over whole seeded games, every legal action text offered to any seat has a shape of the
    notation, so `not_an_action` refuses only what no action could be."""
    from munchkin.agents.base import decide, make_agent

    seen: set[str] = set()
    for seed in range(3):
        g = Game(Setup(sets=tuple(sets), players=["Ann", "Ben", "Cy", "Dee"], seed=seed, options=Options()))
        agents = [make_agent("random", seed * 10 + s) for s in range(4)]
        while not g.over and g.decisions < 3000:
            for s in g.to_act:
                for a in g.legal_actions(s):
                    t = g.text(a)
                    if t not in seen:
                        seen.add(t)
                        assert not_an_action(g, t) is None, t
            s = g.to_act[0]
            g.apply(decide(agents[s], g, s))
    assert len(seen) > 100
    g = Game(Setup(sets=tuple(sets), players=["Ann", "Ben", "Cy", "Dee"], seed=0))
    for text in ("kick the door", "play", "ask Zed for help", "equip Ann", "sell", "run away from Ann"):
        assert not_an_action(g, text) is not None, text


def _table(tmp_path: Path, body: str) -> list[str]:
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return run_scenario(path).failures


def test_treasures_since_start_counts_the_engines_own_first_moves(tmp_path: Path) -> None:
    """Ann's empty-handed kick and kill happen before step 1: their Treasure counts from the start."""
    body = LONE_KILL.replace("    hand: [Sleep Potion]\n", "").replace(
        "  - do: kick open the door\n  - pass_all: true\n    expect:\n",
        "  - expect: {treasures_drawn: {Ann: 1}, no_combat: true}\n  - expect:\n",
    )
    assert _table(tmp_path, body + "      treasures_since_start: true\n      treasures_drawn: {Ann: 1}\n") == []
    wrong = body + "      treasures_since_start: true\n      treasures_drawn: {Ann: 0}\n"
    assert any("Ann drew 1 Treasures, expected 0" in f for f in _table(tmp_path, wrong))


TWO_CHEATS = """
name: two cheats
sets: [harry-potter]
seed: 1
players:
  - name: Ann
    house: Hufflepuff
    equipped: [Sword of Gryffindor, "Ravenclaw's Diadem"]
    cheat: CHEATS
  - name: Ben
  - name: Cy
steps:
  - expect:
      where: {Cheat!: in play by Ann}
"""


def test_cheat_takes_a_list_of_the_cards_it_is_on(tmp_path: Path) -> None:
    body = TWO_CHEATS.replace("CHEATS", '[Sword of Gryffindor, "Ravenclaw\'s Diadem"]')
    assert _table(tmp_path, body) == []
    g = Game(Setup(["harry-potter"], ["Ann", "Ben", "Cy"], 1, Options(), scenario=_spec(body)))
    assert sorted(g.cdef[k].name for k in g.players[0].cheats) == ["Ravenclaw's Diadem", "Sword of Gryffindor"]
    assert [g.view(1)["players"][0]["cheats"][i]["name"] for i in (0, 1)] == [
        "Sword of Gryffindor",
        "Ravenclaw's Diadem",
    ]


@pytest.mark.parametrize(
    ("cheats", "message"),
    [
        (
            "[Sword of Gryffindor, Sword of Gryffindor]",
            "Cheat! is on Sword of Gryffindor, not in play or already under one",
        ),
        ("[Golden Snitch]", "Cheat! is on Golden Snitch, not in play"),
        ('[Sword of Gryffindor, "Ravenclaw\'s Diadem", Sword of Gryffindor]', "not in play or already under one"),
    ],
)
def test_a_wrong_cheat_list_says_what_is_wrong(tmp_path: Path, cheats: str, message: str) -> None:
    got = _table(tmp_path, TWO_CHEATS.replace("CHEATS", cheats))
    assert any(message in f for f in got), got


def _spec(body: str) -> dict[str, object]:
    import yaml

    spec = yaml.safe_load(textwrap.dedent(body))
    assert isinstance(spec, dict)
    return spec


SET_NAMED = """
name: set named
sets: [good-bad, deluxe]
seed: 1
players:
  - name: Ann
    hand: [HAND]
  - name: Ben
  - name: Cy
steps:
  - expect:
      where: {WHERE}
"""


@pytest.mark.parametrize(
    ("hand", "where", "message"),
    [
        ("Cheat!", '"Cheat! (good-bad)": hand of Ann, "Cheat! (deluxe)": door_deck', ""),  # the first set's copy
        ("Cheat! (deluxe)", '"Cheat! (deluxe)": hand of Ann, "Cheat! (good_bad)": door_deck', ""),
        ("Cheat! (deluxe)", '"Cheat! (good-bad)": hand of Ann', "Cheat! (good-bad): expected in hand of Ann"),
        ("Cheat! (star)", "Cheat!: hand of Ann", "'star' is not a set in play (in play: deluxe, good-bad)"),
        ("Gazebo (good-bad)", "Gazebo: hand of Ann", "the set good-bad has no card named 'gazebo'"),
        ("Cheat!", '"Cheat! (star)": hand of Ann', "where: 'Cheat! (star)': 'star' is not a set in play"),
    ],
)
def test_a_card_may_be_named_with_its_set(tmp_path: Path, hand: str, where: str, message: str) -> None:
    got = _table(tmp_path, SET_NAMED.replace("HAND", hand).replace("WHERE", where))
    assert (got == []) if not message else any(message in f for f in got), got


STOP = """
name: stop
sets: [deluxe]
seed: 1
players:
  - name: Ann
    level: 3
  - name: Ben
  - name: Cy
door_deck: [Harpies]
rolls: [1]
steps:
  - pass_all: true
  - do: run away
"""


def test_a_step_may_stop_between_the_engines_own_moves(tmp_path: Path) -> None:
    """Empty-handed Ann must Run Away from the Harpies: without `stop` the engine flees the only
    monster, she is caught, and it ends her turn and starts Ben's by itself. With `stop` a scenario
    looks between those moves; a later step takes each held move by name, logged as the engine's
    own (`forced`), as it would have been, or doing anything else lets the engine take them all."""
    assert _table(tmp_path, STOP + "    expect: {level: {Ann: 1}, active: Ben}\n") == []
    held = STOP + "    stop: true\n    expect: {prompt: run, level: {Ann: 3}}\n"
    body = (
        held
        + "  - do: run away from Harpies\n    stop: true\n"
        + "    expect: {level: {Ann: 1}, active: Ann, forced: run away from Harpies}\n"
        + "  - expect: {active: Ann, prompt: main, to_act: Ann}\n"
        + "  - do: end the turn\n    expect: {active: Ben, forced: end the turn}\n"
    )
    assert _table(tmp_path, body) == []
    other = "  - do: ask Ben for help\n    error: not legal\n    expect: {level: {Ann: 1}, active: Ben}\n"
    assert _table(tmp_path, held + other) == []


def test_a_mistyped_step_key_is_refused_not_skipped(tmp_path: Path) -> None:
    """`expct:` for `expect:` would check nothing and pass: the scenario is refused at setup, naming the
    step, the key and the one it resembles; a right key beside it changes nothing."""
    path = tmp_path / "typo.yaml"
    path.write_text(LONE_KILL + "      level: {Ann: 5}\n  - expct: {level: {Ann: 9}}\n", encoding="utf-8")
    (failure,) = run_scenario(path).failures
    assert failure.startswith("setup:") and "step 3: unknown keys 'expct' (did you mean 'expect'?)" in failure
    path.write_text(LONE_KILL + "      level: {Ann: 5}\n  - expect: {level: {Ann: 9}}\n", encoding="utf-8")
    assert run_scenario(path).failures == ["step 3 (check): Ann's Level: expected 9, got 5"]


def test_a_mistyped_top_level_key_says_what_it_resembles(tmp_path: Path) -> None:
    path = tmp_path / "typo.yaml"
    path.write_text(LONE_KILL.replace("door_deck:", "door_dek:") + "      level: {Ann: 5}\n", encoding="utf-8")
    (failure,) = run_scenario(path).failures
    assert "unknown keys 'door_dek' (did you mean 'door_deck'?)" in failure


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("    level: 4\n", "    levle: 4\n", "player Ann: unknown keys 'levle' (did you mean 'level'?)"),
        ("seed: 1\n", "seed: 1\noptions: {turncap: 3}\n", "options: unknown keys 'turncap' (did you mean 'turn_cap'?)"),
        ("seed: 1\n", "seed: 1\noptions: [turn_cap]\n", "options: unknown keys not a mapping"),
        ("  - name: Ben\n", "  - Ben\n", "player 2: a mapping with at least a `name`"),
        (
            "    expect:\n",
            "    expect:\n      levle: {Ann: 5}\n",
            "step 2: expect: unknown keys 'levle' (did you mean 'level'?)",
        ),
        (
            "    expect:\n",
            "    expect:\n      combat: {fighter: 4}\n",
            "combat: unknown keys 'fighter' (did you mean 'fighters'?)",
        ),
        ("    expect:\n", "    expect:\n      legal: {fro: Ben}\n", "legal: unknown keys 'fro' (did you mean 'for'?)"),
        ("    expect:\n", "    expect:\n      sees: {Ann: {include: [Gazebo]}}\n", "sees Ann: unknown keys 'include'"),
        ("    expect:\n", "    expect:\n      hears: [Ann]\n", "hears: a mapping of names"),
    ],
)
def test_a_mistyped_key_at_any_level_is_refused_before_the_run(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    """A player's, the options', an expectation's and a check's own keys: a typo is refused at setup
    (nothing is played), naming where it is and the key it resembles."""
    assert LONE_KILL.count(old) == 1
    path = tmp_path / "typo.yaml"
    path.write_text(LONE_KILL.replace(old, new) + "      level: {Ann: 5}\n", encoding="utf-8")
    (failure,) = run_scenario(path).failures
    assert failure.startswith("setup:") and message in failure, failure


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "hand: [Sleep Potion]",
            "hand: [Sleep Potoin]",
            "setup: player Cy: no card named 'Sleep Potoin' in the sets in play (deluxe); "
            "did you mean 'Sleep Potion'? Is it in a --set-dir?",
        ),
        (
            "door_deck: [Lame Goblin, Gazebo]",
            "door_deck: [Lame Goblin, Zorblax]",
            "setup: door_deck: no card named 'Zorblax' in the sets in play (deluxe). Is it in a --set-dir?",
        ),
        (
            "sets: [deluxe]",
            "sets: [my-folder]",
            "setup: sets: unknown set 'my-folder'; known sets: ",
        ),
        (
            "  - do: kick open the door\n",
            "  - do: play Slep Potion for Ann\n    as: Cy\n",
            "step 1 (play Slep Potion for Ann): no card named 'slep potion' in the sets in play (deluxe); "
            "did you mean 'Sleep Potion'",
        ),
        (
            "    expect:\n",
            "    expect:\n      where: {Gazbo: door_deck}\n",
            "step 2 (everyone passes): where: no card named 'Gazbo' in the sets in play (deluxe); "
            "did you mean 'Gazebo'? Is it in a --set-dir?",
        ),
    ],
)
def test_a_card_missing_from_the_sets_in_play_asks_for_a_set_dir(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    """A designer's card named without its folder: the failure names the sets in play, the near names,
    and asks whether it is in a --set-dir (an unknown set: whether it is a --set-dir folder)."""
    assert LONE_KILL.count(old) == 1
    path = tmp_path / "missing.yaml"
    path.write_text(LONE_KILL.replace(old, new) + "      level: {Ann: 5}\n", encoding="utf-8")
    got = run_scenario(path).failures
    assert any(f.startswith(message) for f in got), got
    if "my-folder" in new:
        assert got[0].endswith("Is it a --set-dir folder?"), got


def test_a_failed_check_says_where_the_game_stands(tmp_path: Path) -> None:
    """With a failed check: the prompt and what it allows, who is to act, their legal moves in the
    canonical texts; a step that holds has no such lines."""
    path = tmp_path / "stands.yaml"
    path.write_text(
        LONE_KILL.replace("  - pass_all: true\n", "    expect: {level: {Ann: 9}}\n  - pass_all: true\n")
        + "      level: {Ann: 5}\n",
        encoding="utf-8",
    )
    result = run_scenario(path)
    assert result.failures == ["step 1 (kick open the door): Ann's Level: expected 9, got 4"]
    assert list(result.stands) == [1]
    assert result.stands[1] == [
        "prompt: window (a combat window: play a card on the fight, or pass)",
        "to act: Cy",
        "Cy may: pass | play Sleep Potion for Ann | play Sleep Potion on Lame Goblin",
    ]
    assert result.report() == result.failures + ["  " + line for line in result.stands[1]]


def test_a_refused_move_says_where_the_game_stands_and_long_lists_are_cut(tmp_path: Path) -> None:
    """A `do` the game refuses stops the scenario: the moves then legal are listed, at most
    SHOWN_MOVES of them, then how many more."""
    from munchkin.scenario import SHOWN_MOVES

    path = tmp_path / "refused.yaml"
    many = ", ".join(["Sleep Potion", "Flaming Poison Potion", "Freezing Explosive Potion", "Cotion of Ponfusion"])
    body = LONE_KILL.replace("hand: [Sleep Potion]", f"hand: [{many}, Magic Missile, Electric Radioactive Acid Potion]")
    path.write_text(body.replace("  - pass_all: true\n    expect:\n", "  - do: loot the room\n"), encoding="utf-8")
    result = run_scenario(path)
    assert len(result.failures) == 1 and result.failures[0].startswith("step 2 (loot the room): ")
    prompt, to_act, moves = result.stands[2]
    assert (prompt, to_act) == ("prompt: window (a combat window: play a card on the fight, or pass)", "to act: Cy")
    shown = moves.removeprefix("Cy may: ").split(" | ")
    assert len(shown) == SHOWN_MOVES + 1 and shown[0] == "pass" and shown[-1].startswith("and ")
    assert "play Magic Missile for Ann" in shown


def test_the_trace_shows_the_state_after_every_step(tmp_path: Path) -> None:
    """`trace`: after each step whose turn and phase, the prompt, who acts and their moves, each
    player's Level, hand size and table, the fight's numbers, and the step's narration as a spectator
    hears it (the Treasure Ann draws face-down is not named there)."""
    path = tmp_path / "trace.yaml"
    body = LONE_KILL.replace("  - name: Ann\n", "  - name: Ann\n    races: [Elf]\n") + "      level: {Ann: 5}\n"
    path.write_text(body, encoding="utf-8")
    result = run_scenario(path, trace=True)
    assert result.ok, result.report()
    steps = "\n".join(result.trace).split("after step ")
    assert steps[0].startswith("the table as set (with the engine's own first moves):\n")
    assert "  Ann: Level 4, 0 in hand; in play: Elf\n" in steps[0]
    assert "  combat: Ann 4 (side 4) against Lame Goblin 1 (monsters 1); the fighters win now\n" in steps[1]
    assert "  > Ann kicks open the door: Lame Goblin!\n" in steps[1]
    two = steps[2].splitlines()
    assert two[:4] == [
        "2 (everyone passes):",
        "  turn 1: Ann's turn, phase after",
        "  prompt: main (the end of the turn: act, then end it)",
        "  to act: Ann",
    ]
    assert "  Ann: Level 5, 1 in hand; in play: Elf" in two and "  Cy: Level 1, 1 in hand; in play: nothing" in two
    assert "  > Ann kills Lame Goblin." in two and "  > Ann draws 1 treasure card face-down." in two
    assert not any(line.startswith("  combat:") for line in two)
    assert not any("Boots" in line for line in two if line.startswith("  > "))
    assert run_scenario(path).trace == []
