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
        ("sees: {Ann: {excludes: [Boots of Butt-Kiking]}}", "no card is named 'Boots of Butt-Kiking'"),
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
