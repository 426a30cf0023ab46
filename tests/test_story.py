"""The story of a game (`munchkin.story`): each player's Level turn by turn and their figures, told
from the public events alone. Whole seeded bot games of every edition, checked against the events
they narrated; and a few events made by hand for the cases a game rarely shows (a cancelled Curse,
a monster killed outright, the Treasures of a kill with a helper)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any, cast

import pytest

from editions import EDITIONS, sets_for
from munchkin.agents.base import decide, make_agent
from munchkin.engine.game import WINNING_LEVEL, Game, Options, Setup
from munchkin.story import figures_text, game_story, sparkline

NAMES = ["Ann", "Bob", "Cid", "Dee"]
SEEDS = sorted(EDITIONS) + [7]  # one game of each edition alone and shuffled with Deluxe, and Deluxe
FIGURES = ("kills", "helped_kill", "helped", "was_helped", "curses", "deaths", "treasures", "level_ups", "level_losses")


def whole_game(seed: int, players: int = 4) -> Game:
    g = Game(Setup(sets_for(seed), NAMES[:players], seed, Options(turn_cap=2000)))
    bots = [make_agent("heuristic" if i % 2 else "random", seed * 31 + i) for i in range(players)]
    while not g.over:
        seat = g.to_act[0]
        g.apply(decide(bots[seat], g, seat, g.legal_actions(seat)))
    return g


@pytest.mark.parametrize("seed", SEEDS)
def test_the_story_of_a_whole_game_matches_its_events(seed: int) -> None:
    g = whole_game(seed)
    story = game_story(g)
    json.dumps(story)  # it goes into a state message as it is
    events = g.events
    turns = sum(1 for e in events if e[0] == "turn")
    assert story["turns"] == turns == g.turn + 1
    assert story["winning_level"] == WINNING_LEVEL
    assert story["winners"] == list(g.winners) and story["winners"], "a seeded bot game ends with a winner"
    for p, q in zip(story["players"], g.players, strict=True):
        levels = p["levels"]
        assert len(levels) == turns + 1, "one Level as the first turn began and one after each turn"
        assert levels[0] == 1 and levels[-1] == q.level == p["level"]
        assert all(1 <= lv <= WINNING_LEVEL for lv in levels)
        assert p["level_ups"] - p["level_losses"] == q.level - 1
        assert all(p[k] >= 0 for k in FIGURES), p
        if p["seat"] in g.winners:
            assert levels[-1] == WINNING_LEVEL and max(levels[:-1]) < WINNING_LEVEL
        else:
            assert max(levels) < WINNING_LEVEL
    # the Level after each turn is the one the last "level" event before the next turn left
    level_now = [1] * len(g.players)
    after: list[list[int]] = []
    for e in events:
        if e[0] == "turn":
            after.append(list(level_now))
        elif e[0] == "level":
            level_now[e[1]] = e[3]
    after.append(level_now)
    assert [list(col) for col in zip(*after, strict=True)] == [p["levels"] for p in story["players"]]
    # the figures add up to the events
    total = lambda k: sum(p[k] for p in story["players"])  # noqa: E731
    kills = sum(len(e[3]) for e in events if e[0] == "kill") + sum(1 for e in events if e[0] == "slay")
    assert total("kills") == kills > 0
    assert total("helped_kill") == sum(len(e[3]) for e in events if e[0] == "kill" and e[2] >= 0)
    assert total("helped") == total("was_helped") == sum(1 for e in events if e[0] == "help")
    for p in story["players"]:
        s = p["seat"]
        assert p["deaths"] == sum(1 for e in events if e[0] == "death" and e[1] == s)
        assert p["curses"] <= sum(1 for e in events if e[0] == "curse" and e[2] == s)
    assert total("curses") == sum(1 for e in events if e[0] == "curse") - sum(1 for e in events if e[0] == "cancel")
    assert total("treasures") > 0
    for p in story["players"]:  # Treasures won are among the Treasures the player drew or took
        s = p["seat"]
        drawn = sum(len(e[3]) for e in events if e[0] == "draw" and e[1] == s and e[2] == "treasure")
        assert p["treasures"] <= drawn + sum(1 for e in events if e[0] == "take" and e[1] == s)
    # the terminal's words for the winner
    won = story["players"][g.winners[0]]
    assert figures_text(won).startswith(f"{won['kills']} monster")


def fake_game(events: list[tuple[Any, ...]], levels: list[int], winners: list[int]) -> Game:
    """Just what the story reads of a game: its players' names and Levels, its events, its end."""
    players = [SimpleNamespace(name=n, level=lv) for n, lv in zip(NAMES, levels, strict=False)]
    return cast(Game, SimpleNamespace(players=players, events=events, winners=winners, capped=False))


def test_cancelled_curses_slain_monsters_and_the_treasures_of_a_kill() -> None:
    events: list[tuple[Any, ...]] = [
        ("draw", 0, "treasure", (1, 2, 3, 4), False),  # the deal: no Treasure won
        ("turn", 0, 0),
        ("curse", 1, 0, 50, False),
        ("cancel", 2, 50, "Wishing Ring"),  # cancelled at once: not suffered
        ("curse", 1, 0, 51, False),  # struck (it takes a level)
        ("level", 0, -1, 1, "Curse"),
        ("kill", 0, 2, (60, 61)),  # two monsters, Cid helping
        ("level", 0, 2, 3, "killing"),
        ("reveal", 0, (70, 71, 72)),
        ("take", 2, 70),
        ("take", 0, 71),
        ("take", 0, 72),
        ("help", 2, 0),
        ("turn", 1, 1),
        ("curse", 0, 1, 52, True),  # drawn face-up, nothing else happens: struck all the same
        ("turn", 2, 2),
        ("slay", 3, 62, 80),  # Dee kills a monster outright
        ("combat_over", 2),
        ("level", 2, 1, 2, "killing a monster"),
        ("draw", 2, "treasure", (73,), False),  # not after a kill event: not counted as won by a kill
        ("kill", 1, -1, (63,)),
        ("draw", 1, "treasure", (74, 75), False),  # the reward, face-down: counted by number only
        ("draw", 1, "door", (90,), False),  # a bonus Door: no Treasure
        ("death", 3, "Bad Stuff"),
    ]
    story = game_story(fake_game(events, [3, 1, 2, 1], []))
    ann, bob, cid, dee = story["players"]
    assert story["turns"] == 3
    assert ann["levels"] == [2, 3, 3, 3] and cid["levels"] == [1, 1, 1, 2] and bob["levels"] == [1, 1, 1, 1]
    assert ann["level_ups"] == 2 and ann["level_losses"] == 1
    assert (ann["curses"], bob["curses"], cid["curses"]) == (1, 1, 0)
    assert (ann["kills"], bob["kills"], cid["kills"], dee["kills"]) == (2, 1, 0, 1)
    assert cid["helped_kill"] == 2 and cid["helped"] == 1 and ann["was_helped"] == 1
    assert (ann["treasures"], bob["treasures"], cid["treasures"]) == (2, 2, 1)
    assert dee["deaths"] == 1
    assert "2 monsters killed" in figures_text(ann) and "1 Curse suffered" in figures_text(ann)
    assert figures_text(dee).endswith("1 death, 0 Treasures won")


def test_the_sparkline_fits_its_width_and_climbs() -> None:
    line = sparkline(list(range(1, 11)) * 10, 10, width=30)
    assert 0 < len(line) <= 30
    assert sparkline([1, 5, 10], 10) == "▁▄█"
    assert sparkline([], 10) == ""
