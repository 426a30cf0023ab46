"""Hidden information: what `Game.view` and `narrate` show each seat.

Full random games (3, 4 and 6 players, with and without the Faster Play Rules); after every
step, for every seat:

- `g.view(seat)` is JSON-serialisable and shows that seat's hand exactly;
- no card in another player's hand appears anywhere in it (a card in a hand is never public),
  nor any card still in a deck: the decks show as sizes only, never as an order;
- the narration of the new events never names a card that another seat drew face-down, nor a
  card given by Charity between two other seats; a spectator (`narrate(g, None)`) never hears
  the name of any face-down draw or of any Charity card.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from editions import sets_for
from munchkin.engine.game import Game, Options, Setup
from munchkin.engine.view import event_text, narrate
from soak import SOAK

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
# (seed, players, Faster Play Rules): six-player games run longest, so fewer of them; the seed
# picks the edition (tests/editions.py). MUNCHKIN_SOAK=N adds N-1 more seeds of each (+700: same edition).
CASES = [(101, 3, False), (102, 3, True), (103, 3, False), (104, 4, False), (105, 4, True), (106, 4, False)]
CASES += [(107, 6, False), (122, 6, True)]  # 122, not 108: a game of 5,800 steps, not 21,300 (four minutes)
CASES += [(seed + 700 * k, players, fast) for k in range(1, SOAK) for seed, players, fast in CASES]
CARD_KEYS = ("card", "cards", "monster", "monsters", "hand")
CONTAINERS = (dict, list, tuple)  # what a view nests; anything else holds no card


def walk(obj: Any, key: str, ids: list[tuple[str, int]], lists: list[list[int]]) -> None:
    if isinstance(obj, dict):
        if "id" in obj and "name" in obj and type(obj["id"]) is int:
            ids.append((key, obj["id"]))
        for k, v in obj.items():
            if type(v) is int:
                if k in CARD_KEYS and v >= 0:
                    ids.append((k, v))
            elif isinstance(v, CONTAINERS):
                walk(v, k, ids, lists)
    elif isinstance(obj, (list, tuple)):
        if len(obj) >= 2 and all(type(x) is int for x in obj):
            lists.append(list(obj))
            if key in CARD_KEYS:
                ids.extend((key, x) for x in obj)
            return
        for v in obj:
            if isinstance(v, CONTAINERS):
                walk(v, key, ids, lists)


def scan(view: dict[str, Any]) -> tuple[list[tuple[str, int]], list[list[int]]]:
    """Every card id in a view (the "id" of each card record and the ints under card-ish
    keys), and every list of ints held in it; checks that it is JSON-serialisable."""
    json.dumps(view)
    ids: list[tuple[str, int]] = []
    lists: list[list[int]] = []
    walk(view, "", ids, lists)
    return ids, lists


def check_view(g: Game, seat: int, where: str) -> None:
    v = g.view(seat)
    ids, lists = scan(v)
    p = g.players[seat]
    hand = [c["id"] for c in v["hand"]]
    assert sorted(hand) == sorted(p.hand), f"{where}: seat {seat}'s view shows hand {hand}, not {p.hand}"
    assert [c["name"] for c in v["hand"]] == [g.name(c) for c in hand], f"{where}: hand names do not match ids"
    hidden: dict[int, str] = {}
    for q in g.players:
        if q.seat != seat:
            for c in q.hand:
                hidden[c] = f"{q.name}'s hand"
    for c in g.door_deck:
        hidden[c] = "the door deck"
    for c in g.treasure_deck:
        hidden[c] = "the treasure deck"
    for path, c in ids:
        assert c not in hidden, f"{where}: seat {seat}'s view shows card {c} ({g.name(c)}) from {hidden[c]} at {path}"
    assert v["door_deck"] == len(g.door_deck) and v["treasure_deck"] == len(g.treasure_deck), where
    for xs in lists:
        for d in (g.door_deck, g.treasure_deck):
            if len(d) >= 2:
                assert xs != d and xs != d[::-1], f"{where}: seat {seat}'s view holds a deck order"
    for key, val in v.items():
        if "deck" in key:
            assert isinstance(val, int), f"{where}: view[{key!r}] is {type(val).__name__}, not a size"


def secret_names(g: Game, ev: tuple[Any, ...], seat: int | None) -> list[str]:
    """Names of the cards this event must not show to `seat`."""
    k = ev[0]
    if k == "draw":
        _, who, _deck, cards, face_up = ev
        if not face_up and who != seat:
            return [g.name(c) for c in cards]
    elif k == "charity":
        _, giver, taker, card = ev
        if seat not in (giver, taker):
            return [g.name(card)]
    return []


def check_narration(g: Game, start: int, where: str) -> None:
    seats: list[int | None] = [*range(len(g.players)), None]
    for seat in seats:
        lines = narrate(g, seat, start)
        assert all(isinstance(s, str) for s in lines), where
        for i, ev in enumerate(g.events[start:], start):
            names = secret_names(g, ev, seat)
            if not names:
                continue
            said = event_text(g, ev, seat)
            for name in names:
                assert name not in said, (
                    f"{where}: event {i} {ev!r} names {name!r} to {'a spectator' if seat is None else f'seat {seat}'}:"
                    f" {said!r}"
                )


def case_id(case: tuple[int, int, bool]) -> str:
    seed, players, fast = case
    return f"seed{seed}-{players}p" + ("-faster" if fast else "")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_views_hide_what_they_must(case: tuple[int, int, bool]) -> None:
    seed, players, fast = case
    options = Options(listen_at_the_door=fast, shared_victories=fast)
    sets = sets_for(seed)
    g = Game(Setup(sets, NAMES[:players], seed, options))
    r = random.Random(seed)
    seen = 0
    step = 0
    while True:
        where = f"{case_id(case)} step {step} turn {g.turn} ({g.prompt.kind})"
        for s in range(players):
            check_view(g, s, where)
        check_narration(g, seen, where)
        seen = len(g.events)
        if g.over:
            break
        seat = r.choice(list(g.to_act))
        legal = g.legal_actions(seat)
        g.apply(legal[r.randrange(len(legal))])
        step += 1
    # the whole story, for everyone, renders without error
    for s in [*range(players), None]:
        story = narrate(g, s)
        assert story and all(isinstance(x, str) for x in story)


def test_face_down_draws_are_hidden_from_the_start() -> None:
    """The opening deal: each seat hears its own cards, nobody else's."""
    g = Game(Setup(["deluxe"], NAMES[:4], 5))
    for s in range(4):
        mine = {g.name(c) for c in g.players[s].hand}
        told = " ".join(narrate(g, s))
        assert all(name in told for name in mine)
        for q in g.players:
            if q.seat != s:
                for c in q.hand:
                    if g.name(c) not in mine:
                        assert g.name(c) not in told, f"seat {s} hears of {g.name(c)} in {q.name}'s hand"
    spectator = " ".join(narrate(g, None))
    for q in g.players:
        for c in q.hand:
            assert g.name(c) not in spectator


def run_away_story(hand: list[str], equipped: list[str], rolls: list[int]) -> list[str]:
    """Ann (Level 1) kicks open the Harpies (no Run Away modifier), cannot win and runs away
    with the die forced to `rolls`; what everyone hears from the first roll on."""
    from munchkin.scenario import build_game

    spec = {
        "sets": ["deluxe"],
        "players": [
            # the unusable Pointy Hat of Power keeps "kick open the door" a real choice, not forced
            {"name": "Ann", "hand": hand, "equipped": equipped, "carried": ["Pointy Hat of Power"]},
            {"name": "Ben"},
            {"name": "Cy"},
        ],
        "door_deck": ["Harpies"],
        "rolls": rolls,
    }
    g = build_game(spec)
    g.play("kick open the door", 0)
    while g.prompt.kind == "window":
        g.play("pass", g.to_act[0])
    g.play("run away", 0)
    if g.prompt.kind == "run":
        g.play("run away from Harpies", 0)
    story = narrate(g, None)
    return story[next(i for i, s in enumerate(story) if " rolls a " in s) :]


def test_run_away_roll_names_each_modifier_and_the_total() -> None:
    """'rolls a 2' alone hid why it escaped: the Tuba of Charm's +3 and the total are told."""
    story = run_away_story(["Instant Wall"], ["Tuba of Charm"], [2])
    assert story[0] == "Ann rolls a 2 +3 (Tuba of Charm) = 5 to run away from Harpies: enough to escape."
    assert story[1] == "Ann escapes from Harpies."


def test_run_away_roll_without_modifiers_and_short() -> None:
    """No modifier: no sum to show; a roll under 5 says so, then the monster catches."""
    story = run_away_story(["Instant Wall"], [], [3])
    assert story[0] == "Ann rolls a 3 to run away from Harpies: not enough to escape (5 or more needed)."
    assert story[1] == "Harpies catches Ann!"


def test_a_view_without_moves_is_the_view_less_its_moves() -> None:
    """`view(seat, moves=False)` (the RL encoder's, whose mask stands for the moves) is the whole view
    with `legal` and `any_time` left empty, nothing else changed."""
    from munchkin.engine.game import Game, Setup

    g = Game(Setup(["deluxe"], ["Ann", "Ben", "Cy"], 5))
    for _ in range(200):
        if g.over:
            break
        seat = g.to_act[0]
        full, light = g.view(seat), g.view(seat, moves=False)
        assert full["legal"] and light["legal"] == [] and light["any_time"] == []
        assert {k: v for k, v in full.items() if k not in ("legal", "any_time")} == {
            k: v for k, v in light.items() if k not in ("legal", "any_time")
        }
        g.apply(g.legal_actions(seat)[-1])


def _ids(cards: list[dict[str, Any]]) -> list[int]:
    return sorted(c["id"] for c in cards)


def _moment_as_shown(g: Game, numbers: dict[str, object]) -> dict[str, object]:
    """`moment_numbers` told as `moment` tells it: cards as their faces, a deal in words."""
    from munchkin.engine.actions import Action
    from munchkin.engine.view import card_public

    out = dict(numbers)
    for key in ("card", "monster"):
        if key in out:
            out[key] = card_public(g, out[key])  # type: ignore[arg-type]
    deal = out.pop("deal", None)
    if isinstance(deal, Action):
        text = g.text(deal)
        out["text"] = text
        if g.prompt.kind == "help" and deal.kind != "volunteer":
            out["offer"] = text.split(" offering ", 1)[1] if " offering " in text else None
    return out


@pytest.mark.parametrize(
    ("sets", "players", "seed"),
    [(["deluxe"], 4, 11), (["good-bad"], 3, 12), (["harry-potter"], 5, 13), (["star", "deluxe"], 6, 14)],
    ids=["deluxe-4", "good-bad-3", "harry-potter-5", "star+deluxe-6"],
)
def test_seat_numbers_show_what_the_view_shows(sets: list[str], players: int, seed: int) -> None:
    """`seat_numbers(g, seat)`, the view as numbers for a learner's encoder, holds at every decision
    of a random game, for every seat, exactly what `seat_view(g, seat, moves=False)` shows: the
    own hand, each table's cards and numbers, the discards, deck sizes, the fight and the moment."""
    from munchkin.engine.view import seat_numbers

    g = Game(Setup(sets, NAMES[:players], seed, Options(turn_cap=40)))
    rng = random.Random(seed)
    fights = 0
    while True:
        for seat in range(players):
            v, nums = g.view(seat, moves=False), seat_numbers(g, seat)
            assert nums.hand == [c["id"] for c in v["hand"]]
            assert nums.names == [p["name"] for p in v["players"]]
            for key in ("you", "turn", "active", "phase", "over", "capped", "winners", "to_act", "prompt"):
                assert getattr(nums, key) == v[key], key
            for key in ("door_deck", "treasure_deck"):
                assert getattr(nums, key) == v[key], key
            assert _moment_as_shown(g, nums.moment) == v["moment"]
            assert nums.door_discard == [c["id"] for c in v["door_discard"]]
            assert nums.treasure_discard == [c["id"] for c in v["treasure_discard"]]
            for p, pv in zip(nums.players, v["players"], strict=True):
                assert sorted(p.equipped) == _ids(pv["equipped"]) and sorted(p.carried) == _ids(pv["carried"])
                character = pv["races"] + pv["classes"] + pv["roles"] + pv["proficiencies"]
                assert sorted(p.character) == _ids(character)
                for zone in ("sidekicks", "curses", "item_enhancers"):
                    assert sorted(getattr(p, zone)) == _ids(pv[zone]), zone
                for key in ("level", "sex", "dead", "half_breed", "super_munchkin", "dual_role", "sex_changed"):
                    assert getattr(p, key) == pv[key], key
                assert list(p.barred) == pv["barred"]
                for key in ("rank_total", "hand_size", "hand_limit", "house"):
                    assert getattr(p, key) == pv[key], key
                assert p.equipped_bonus == sum(c["bonus"] for c in pv["equipped"] if c["usable"])
                assert p.unusable == sum(not c["usable"] for c in pv["equipped"])
                assert p.cheats == len(pv["cheats"])
                assert p.sidekick_loads == sum(k["carrying"] is not None for k in pv["sidekicks"])
            fight, breakdown = nums.combat, v["combat"]
            assert (fight is None) == (not breakdown)
            if fight is not None:
                fights += 1
                assert [(NAMES[s], st) for s, st in fight.fighters] == [
                    (f["player"], f["strength"]) for f in breakdown["fighters"]
                ]
                assert [g.cdef[m].name + (" (Mate)" if mate else "") for m, mate, _, _ in fight.monsters] == [
                    m["monster"] for m in breakdown["monsters"]
                ]
                assert [t for *_, t in fight.monsters] == [m["treasures"] for m in breakdown["monsters"]]
                for (_, _, played, _), m in zip(fight.monsters, breakdown["monsters"], strict=True):
                    names = {name for name, _ in m["parts"]}
                    assert all(g.cdef[k].name in names for k in played)
                side = [name for name, _ in breakdown["one_shots"]]
                assert [g.cdef[k].name for k in fight.one_shots] == side[: len(fight.one_shots)]
                assert fight.doppleganger == any(s.startswith("Doppleganger (") for s in side)
                for key in ("side_strength", "monster_strength", "fighters_winning"):
                    assert getattr(fight, key) == breakdown[key], key
        if g.over:
            break
        s = g.to_act[0]
        acts = g.legal_actions(s)
        g.apply(acts[rng.randrange(len(acts))])
    assert fights > 10, "no fight was compared"
