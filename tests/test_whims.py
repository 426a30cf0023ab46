"""Rules 6 (issue 34): a response window does not wait on a seat whose only moves besides passing are
whims, moves that only rearrange its own things (its own Race or Class discarded to no effect now, an
Item equipped, given or traded); it keeps them as any-time moves. A game of rules 5 waits as before."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from munchkin.agents.base import decide, interjection, make_agent
from munchkin.engine import actions as A
from munchkin.engine import legal
from munchkin.engine.actions import Action
from munchkin.engine.game import Game, Setup
from munchkin.engine.rules import RULES, WHIMS_WAIT_NOT
from munchkin.scenario import build_game

ANN, BEN, CY = 0, 1, 2

TABLE: dict[str, Any] = {
    "sets": ["deluxe"],
    "seed": 1,
    "players": [
        {"name": "Ann", "level": 3, "races": ["Dwarf"], "carried": ["Pointy Hat of Power"]},
        {"name": "Ben", "races": ["Elf"], "classes": ["Warrior"], "carried": ["Helm of Courage"]},
        {"name": "Cy", "hand": ["Duck of Doom"], "carried": ["Leather Armor"]},
    ],
    "door_deck": ["Flying Frogs", "Ancient"],
    "treasure_deck": ["Boots of Butt-Kicking"],
}


def table(rules: int = RULES, **change: Any) -> Game:
    """The table above (changed where asked), under `rules`."""
    spec = copy.deepcopy(TABLE)
    spec.update(change)
    spec["rules"] = rules
    return build_game(spec)


def act(g: Game, seat: int, text: str) -> Action:
    """The legal action of `seat` with this canonical text (it must be listed now)."""
    found = [a for a in g.legal_actions(seat) if g.text(a) == text]
    assert found, f"{text!r} is not among {[g.text(a) for a in g.legal_actions(seat)]}"
    return found[0]


def test_rules_number_and_constant() -> None:
    assert WHIMS_WAIT_NOT == 6 and RULES >= WHIMS_WAIT_NOT  # saves of rules 6 and later leave whims out


def test_what_is_a_whim() -> None:
    g = table()
    g.apply(act(g, ANN, "kick open the door"))  # Flying Frogs: Ann fights, Ben and Cy look on
    assert g.prompt.kind == "window"
    assert g.rearranges(act(g, BEN, "discard Elf")) and g.rearranges(act(g, BEN, "discard Warrior"))
    assert not g.rearranges(act(g, CY, "play Duck of Doom on Ann"))  # a Curse is a reason to wait
    assert not g.rearranges(Action(A.DISCARD, ANN, g.players[ANN].races[0]))  # a fighter's Race counts
    assert not g.rearranges(Action(A.PASS, BEN))
    assert not legal.keeps_table_waiting(g, Action(A.PASS, BEN))
    assert not legal.keeps_table_waiting(g, act(g, BEN, "discard Elf"))
    assert legal.keeps_table_waiting(g, act(g, CY, "play Duck of Doom on Ann"))
    # out of combat: Items equipped, given or traded are whims too; a card from the hand is not
    h = table(players=[TABLE["players"][0], {"name": "Ben", "carried": ["Helm of Courage"]}, TABLE["players"][2]])
    moves = {h.text(a): a for a in h.legal_actions(BEN)}
    for text in (
        "equip Helm of Courage",
        "give Helm of Courage to Cy",
        "trade Helm of Courage with Cy for Leather Armor",
    ):
        assert h.rearranges(moves[text]), text
    assert not h.rearranges(act(h, CY, "play Duck of Doom on Ben"))


@pytest.mark.parametrize("rules", [5, 6])
def test_a_combat_window_waits_on_whims_only_under_older_rules(rules: int) -> None:
    g = table(rules)
    g.apply(act(g, ANN, "kick open the door"))
    assert g.prompt.kind == "window"
    if rules >= WHIMS_WAIT_NOT:
        assert BEN not in g.to_act and CY in g.to_act
        assert BEN not in g.to_act and g.any_time(BEN) == g.legal_actions(BEN)  # his, at any time
        assert "pass" not in [g.text(a) for a in g.legal_actions(BEN)]
    else:
        assert BEN in g.to_act and CY in g.to_act
    g.apply(act(g, BEN, "discard Elf"))  # taken either way: as an answer, or at any time
    assert not g.players[BEN].races and g.prompt.kind == "window"
    assert (BEN in g.to_act) == (rules < WHIMS_WAIT_NOT)


def test_a_fighter_with_only_a_discard_is_still_asked() -> None:
    g = table(players=[TABLE["players"][0], {"name": "Ben"}, {"name": "Cy"}])
    g.apply(act(g, ANN, "kick open the door"))
    # Ann wins; her only move besides passing is discarding her Dwarf, which changes her fight
    assert g.prompt.kind == "window" and g.to_act == (ANN,)
    assert [g.text(a) for a in g.legal_actions(ANN)] == ["pass", "discard Dwarf"]


@pytest.mark.parametrize("rules", [5, 6])
def test_the_window_before_the_next_turn(rules: int) -> None:
    g = table(rules, players=[TABLE["players"][0], TABLE["players"][1], {"name": "Cy"}])
    g.apply(act(g, ANN, "kick open the door"))
    while g.prompt.kind == "window":  # nobody plays into the fight: Ann kills the Frogs
        g.apply(Action(A.PASS, g.to_act[0]))
    g.apply(act(g, ANN, "end the turn"))
    if rules >= WHIMS_WAIT_NOT:  # Ben has only whims, Cy nothing: Ben's turn begins at once
        assert g.prompt.kind == "main" and g.active == BEN
    else:
        assert g.prompt.kind == "end_window" and g.to_act == (BEN,)


def test_a_seat_holding_a_curse_is_waited_on_before_the_next_turn() -> None:
    g = table()
    g.apply(act(g, ANN, "kick open the door"))
    while g.prompt.kind == "window":
        g.apply(Action(A.PASS, g.to_act[0]))
    g.apply(act(g, ANN, "end the turn"))
    assert g.prompt.kind == "end_window" and g.to_act == (CY,)
    assert "discard Elf" in [g.text(a) for a in g.any_time(BEN)]  # Ben may still, while Cy decides
    g.apply(act(g, BEN, "discard Warrior"))
    assert g.prompt.kind == "end_window" and g.to_act == (CY,) and not g.players[BEN].classes


def test_a_save_of_rules_5_keeps_waiting_on_whims() -> None:
    g = table(5)
    g.apply(act(g, ANN, "kick open the door"))
    back = Game.from_json(g.to_json())
    assert back.rules == 5 and BEN in back.to_act
    assert back.state_digest() == g.state_digest()


@pytest.mark.parametrize("sets", [["deluxe"], ["star"], ["good-bad"], ["harry-potter"]])
def test_no_window_waits_on_whims_only_and_they_stay_any_time(sets: list[str]) -> None:
    """Over seeded bot games: a window never waits on someone else's seat whose only moves are whims,
    and a seat left out for its whims finds them among its any-time moves."""
    windows = {"window", "end_window", "curse_window", "rolled"}
    left_out = 0
    for seed in range(3):
        g = Game(Setup(sets=sets, players=["Ann", "Ben", "Cy", "Dee"], seed=seed))
        bots = {s: make_agent("heuristic", seed * 31 + s) for s in range(4)}
        while not g.over and g.decisions < 1200:
            if g.prompt.kind in windows:
                own = g.deciding()
                for s in g.to_act:
                    if s not in own:
                        moves = g.legal_actions(s)
                        assert any(a.kind != A.PASS and not g.rearranges(a) for a in moves), (
                            f"{g.players[s].name} waited on for whims: {[g.text(a) for a in moves]}"
                        )
                for s in range(4):
                    if s not in g.to_act and g.prompt.kind in ("window", "end_window"):
                        whims = [a for a in g.any_time(s) if a.kind == A.DISCARD and g.rearranges(a)]
                        left_out += bool(whims)
            a = interjection(g, bots)
            if a is None:
                seat = g.to_act[0]
                a = decide(bots[seat], g, seat, g.legal_actions(seat))
            g.apply(a)
    assert left_out > 0  # seats left out of windows kept their discards as any-time moves
