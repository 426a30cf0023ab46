"""The staged menu of a seat's moves (munchkin.menu): over seeded whole games of every edition, at
every decision of every seat that may act, a dozen top-level choices at most, every legal action
reachable exactly once as a leaf by its canonical text, every choice explained; and the moments the
issue names: the Stoned Golem's "pass", a fight's natural moves first, a Curse on yourself set apart."""

from __future__ import annotations

import json
from typing import Any

import pytest

from munchkin.agents.base import decide, make_agent
from munchkin.engine.game import Game, Options, Setup
from munchkin.engine.notation import parse
from munchkin.menu import ANY_TIME, MAX_TOP, Entry, Menu, build_menu
from munchkin.scenario import build_game

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
# (sets, players, agents, seed): every edition alone, each shuffled with Deluxe, random and heuristic bots
GAMES = [
    (["deluxe"], 4, ["random"], 1),
    (["deluxe"], 3, ["heuristic"], 2),
    (["star"], 5, ["random", "heuristic"], 3),
    (["good-bad"], 4, ["heuristic", "random"], 4),
    (["harry-potter"], 4, ["random"], 5),
    (["star", "deluxe"], 6, ["heuristic"], 6),
    (["good-bad", "deluxe"], 3, ["random"], 7),
    (["harry-potter", "deluxe"], 4, ["heuristic", "random"], 8),
]


def check_entries(entries: list[Entry], depth: int) -> None:
    """Each stage holds a dozen entries at most; every entry says what it means; groups are not empty."""
    assert 1 <= len(entries) <= 12, [e.label for e in entries]
    for e in entries:
        assert e.label.strip() and e.meaning.strip(), e
        if e.type == "group":
            assert e.id and not e.text
            check_entries(e.entries, depth + 1)
        else:
            assert e.type == "move" and e.text and not e.entries


def check_menu(g: Game, seat: int) -> Menu:
    """The menu's invariants for one seat at this moment."""
    menu = build_menu(g, seat)
    legal = {g.text(a) for a in g.legal_actions(seat)}
    leaves = [m.text for m in menu.moves()]
    assert len(menu.entries) <= MAX_TOP == 12, [e.label for e in menu.entries]
    assert len(leaves) == len(set(leaves)), "a move is reachable twice"
    assert set(leaves) == legal, (legal - set(leaves), set(leaves) - legal)
    check_entries(menu.entries, 0)
    assert menu.title
    json.dumps(menu.to_json())  # plain JSON for the page
    return menu


@pytest.mark.parametrize(("sets", "players", "agents", "seed"), GAMES, ids=lambda v: str(v))
def test_every_decision_of_a_whole_game_has_a_scannable_menu(
    sets: list[str], players: int, agents: list[str], seed: int
) -> None:
    g = Game(Setup(sets, NAMES[:players], seed, Options(turn_cap=5000)))
    bots = [make_agent(agents[i % len(agents)], seed * 7919 + i) for i in range(players)]
    decisions = 0
    deepest = 0
    bystanders = 0
    while not g.over:
        for s in g.to_act:
            menu = check_menu(g, s)
            decisions += 1
            deepest = max(deepest, len(menu.moves()))
            group = next((e for e in menu.entries if e.id == ANY_TIME), None)
            if group is not None:  # the any-time group holds only any-time moves, the rest only answers
                extra = {g.text(a) for a in g.any_time(s)}
                assert {m.text for m in group.moves()} <= extra
                assert any(m.text not in extra for e in menu.entries if e is not group for m in e.moves())
        for s in range(players):  # a seat not waited on: its any-time moves, under a title that says so
            if s not in g.to_act and decisions % 4 == 0 and g.any_time(s):
                menu = check_menu(g, s)
                assert menu.title.startswith("Waiting on "), menu.title
                bystanders += 1
        seat = g.to_act[0]
        g.apply(decide(bots[seat], g, seat, g.legal_actions(seat)))
    assert decisions > 50 and deepest > 12  # the game had moments with more moves than a screenful
    assert bystanders > 0  # and moments when another seat could act at any time


def test_every_leaf_text_parses_back_to_its_action() -> None:
    """Typing a leaf's text plays exactly that leaf's action (a short game, every decision)."""
    g = Game(Setup(["deluxe"], NAMES[:4], 11, Options(turn_cap=5000)))
    bots = [make_agent("random", 11 + i) for i in range(4)]
    for _ in range(300):
        if g.over:
            break
        seat = g.to_act[0]
        menu = build_menu(g, seat)
        by_text = {g.text(a): a for a in g.legal_actions(seat)}
        for m in menu.moves():
            assert parse(g, m.text, seat) == [by_text[m.text]]
        g.apply(decide(bots[seat], g, seat, g.legal_actions(seat)))


def spec(**over: Any) -> dict[str, Any]:
    """A small Deluxe table for the moments below."""
    base: dict[str, Any] = {
        "sets": ["deluxe"],
        "seed": 1,
        "players": [
            {"name": "Aric", "sex": "male", "level": 4, "hand": []},
            {"name": "Suzan", "sex": "female", "level": 2},
            {"name": "Ben", "sex": "male"},
        ],
    }
    base.update(over)
    return base


def top(menu: Menu) -> list[Entry]:
    return menu.entries


def test_stoned_golem_says_that_pass_means_fight() -> None:
    g = build_game(spec(door_deck=["Stoned Golem"]))
    if g.prompt.kind == "main":  # with nothing else to do, the door was kicked open already
        g.play("kick open the door", 0)
    assert g.prompt.kind == "before"
    menu = check_menu(g, 0)
    moves = {m.text: m for m in menu.moves()}
    assert moves["pass"].meaning == "fight the Stoned Golem"
    assert moves["decline Stoned Golem"].meaning.startswith("let it pass")
    assert [e.text for e in top(menu)] == ["pass", "decline Stoned Golem"]


def test_a_fight_shows_its_natural_moves_first() -> None:
    """The fighter: "pass" (with the fight's standing) first, asking for help next, cards after;
    an onlooker's "pass" means not interfering."""
    g = build_game(
        spec(
            players=[
                {"name": "Aric", "sex": "male", "level": 4, "hand": ["Magic Missile", "Change Sex"]},
                {"name": "Suzan", "sex": "female", "level": 2, "hand": ["Enraged", "Baby"]},
                {"name": "Ben", "sex": "male"},
            ],
            door_deck=["Net Troll"],
        )
    )
    g.play("kick open the door", 0)
    assert g.prompt.kind == "window"
    menu = check_menu(g, 0)
    first = top(menu)[0]
    assert first.type == "move" and first.text == "pass"
    assert "as it stands you lose" in first.meaning and "ask for help or run away" in first.meaning
    labels = [e.label for e in top(menu)]
    assert labels.index("Ask for help") < labels.index("Play a card"), labels
    asks = next(e for e in top(menu) if e.label == "Ask for help")
    assert {e.label for e in asks.entries} == {"Ask Suzan", "Ask Ben"}
    assert all(m.text.startswith("ask ") for m in asks.moves())
    onlooker = check_menu(g, 1)
    assert next(m for m in onlooker.moves() if m.text == "pass").meaning == "don't interfere: let the fight go on"
    meanings = {m.text: m.meaning for m in onlooker.moves()}
    # a Monster Enhancer says which way it turns the fight (and the Treasures)
    assert meanings["play Enraged on Net Troll"] == (
        "Enraged makes the Net Troll stronger by 5 (harder to beat; 1 more Treasure for killing it)"
    )
    assert meanings["play Baby on Net Troll"] == (
        "Baby makes the Net Troll weaker by 5 (easier to beat; 1 fewer Treasure for killing it)"
    )


def test_a_curse_on_yourself_is_set_apart() -> None:
    """Cursing yourself stays reachable, but in "Less likely moves", not beside cursing the others."""
    g = build_game(
        spec(players=[{"name": "Ann", "sex": "male", "hand": ["Change Sex"]}, {"name": "Ben"}, {"name": "Cy"}])
    )
    menu = check_menu(g, 0)
    assert "play Change Sex on Ann" not in [e.text for e in top(menu)]
    unlikely = next(e for e in top(menu) if e.id == "unlikely")
    assert [m.text for m in unlikely.moves()] == ["play Change Sex on Ann"]
    assert unlikely.moves()[0].meaning == "curse yourself with Change Sex"
    play = next(e for e in top(menu) if e.id in ("play", "play/card-change-sex"))
    assert {m.text for m in play.moves()} == {"play Change Sex on Ben", "play Change Sex on Cy"}


def test_character_creation_explains_ready() -> None:
    g = Game(Setup(["deluxe"], NAMES[:3], 5))
    seat = g.to_act[0]
    menu = check_menu(g, seat)
    ready = next(e for e in top(menu) if e.text == "ready")
    assert top(menu)[0] is ready and "character is set" in ready.meaning
    assert menu.title.startswith("Set up your character")


def test_a_seat_that_may_not_act_has_an_empty_menu() -> None:
    g = Game(Setup(["deluxe"], NAMES[:3], 5))
    idle = next(s for s in range(3) if s not in g.to_act)
    assert build_menu(g, idle).entries == []
