"""A table's game rebuilt from its stored rows (a restarted table's, checked against them), a finished game's
save and watchers' views (made in the worker process), and `seat_body`, what a seat is shown of a game."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.chance import Chance, RecordedChance, SystemChance
from munchkin.engine.game import RULES, Game, Setup
from munchkin.engine.view import narrate
from munchkin.menu import build_menu
from munchkin.server.fairness import revealed_fair
from munchkin.server.store import DamagedTable
from munchkin.story import game_story

CHANCE_KINDS = frozenset({"shuffle", "roll", "pick"})  # the log entries that record a chance outcome


def make_replay(
    setup: Setup, game_log: list[tuple[Any, ...]], rules: int = RULES, fair: dict[str, Any] | None = None
) -> str:
    """A finished game's `munchkin-game/1` save, rebuilt from its setup and log under the rules it was
    played with (in the worker process); a fair table's save reveals its record (`with_fair`). It holds
    no record of every move's state (`Game.to_json`): for a long game between bots that would be tens
    of megabytes, made at once; the server is to keep it move by move as the game is played."""
    return with_fair(Game.from_log(setup, game_log, rules).to_json(record=False), fair)


def with_fair(save: str, fair: dict[str, Any] | None) -> str:
    """A save with a fair table's record added under "fair" (its secret revealed: the game is over),
    for `munchkin verify`; a save of any other table as it is."""
    if fair is None:
        return save
    data = json.loads(save)
    data["fair"] = revealed_fair(fair)
    return json.dumps(data)


def replay_game(
    setup: Setup,
    rules: int,
    actions: list[list[Any]],
    chance: list[list[Any]],
    before: Callable[[Game, Action], None] | None = None,
    draw: Chance | None = None,
) -> Game:
    """A table's game rebuilt from its stored actions and chance outcomes (a seeded table draws them
    again from its seed, a fair one from `draw`, its generator, and must draw the same), under the rules
    it began with; `before(game, action)` runs before each action. Raises DamagedTable naming what does
    not fit."""
    recorded = RecordedChance(chance, then=SystemChance()) if setup.seed is None and draw is None else None
    g = Game(setup, draw if draw is not None else recorded, max(rules, 2))  # the table's rules (1 replays as 2)
    for i, raw in enumerate(actions):
        if len(raw) != len(Action._fields):
            raise DamagedTable(f"stored action {i} has {len(raw)} fields, not {len(Action._fields)}")
        raw[5] = tuple(raw[5])
        a = Action(*raw)
        if before is not None:
            before(g, a)
        try:
            g.apply_stored(a, rules)  # a table begun under older rules replays under them
        except MunchkinError as exc:
            raise DamagedTable(f"stored action {i} does not replay: {exc}") from exc
    drawn = [list(e) for e in g.log if e[0] in CHANCE_KINDS]
    if recorded is not None and len(drawn) > len(chance):
        raise DamagedTable(f"{len(drawn) - len(chance)} chance outcomes are missing from the database")
    if recorded is not None and recorded.remaining:
        raise DamagedTable(f"{recorded.remaining} stored chance outcomes were never drawn in the replay")
    if (chance or draw is not None) and json.loads(json.dumps(drawn)) != chance:
        raise DamagedTable("the replay drew other chance outcomes than the stored ones")
    return g


def finished_game(setup: Setup, rules: int, actions: list[list[Any]], chance: list[list[Any]]) -> Game:
    """A finished table's game from its stored rows; DamagedTable if they do not make a finished game."""
    g = replay_game(setup, rules, actions, chance)
    if not g.over:
        raise DamagedTable("its stored actions end before the game does")
    return g


def rebuild_save(
    setup: Setup, rules: int, actions: list[list[Any]], chance: list[list[Any]], fair: dict[str, Any] | None = None
) -> str:
    """In the worker process: a finished game's `munchkin-game/1` save, made from its stored rows (a fair
    table's with its record, `with_fair`), as `make_replay` makes it."""
    return with_fair(finished_game(setup, rules, actions, chance).to_json(record=False), fair)


@dataclass
class FinishedGame:
    """A finished game as its watchers see it, made in the worker process so that the server never
    replays a game itself: each seat's body (and a spectator's, under None), narration and the story."""

    version: int
    bodies: dict[int | None, str]
    lines: dict[int | None, list[str]]
    story: dict[str, Any]


def rebuild_finished(setup: Setup, rules: int, actions: list[list[Any]], chance: list[list[Any]]) -> FinishedGame:
    """In the worker process: what a finished table shows each seat and its spectators."""
    g = finished_game(setup, rules, actions, chance)
    seats: list[int | None] = [None, *range(len(g.players))]
    return FinishedGame(
        g.version, {s: seat_body(g, s) for s in seats}, {s: narrate(g, s, 0) for s in seats}, game_story(g)
    )


def seat_body(g: Game, seat: int | None) -> str:
    """The part of a state message that follows from the game alone (JSON): the seat's view, its
    actions and their menu (a spectator, seat None, gets the public view and no actions)."""
    view = g.view(seat)
    view.pop("legal", None)  # sent as `actions`, with their cards and any-time flags
    view.pop("any_time", None)
    actions: list[dict[str, Any]] = []
    if seat is not None and not g.over:  # a seat not waited on may still act at any time
        anytime = set(g.any_time(seat))
        for a in g.legal_actions(seat):
            cards = [x for x in (a.card, a.monster, *a.cards) if x >= 0]
            whim = g.rearranges(a)  # only rearranges the seat's own things: no card of use now (the page's mark)
            actions.append({"text": g.text(a), "kind": a.kind, "cards": cards, "any_time": a in anytime, "whim": whim})
    menu = build_menu(g, seat, view).to_json() if actions and seat is not None else None
    return json.dumps({"view": view, "actions": actions, "menu": menu})
