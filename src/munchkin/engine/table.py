"""Setting a table exactly as a scenario describes it: who holds what, which cards top the decks.

A scenario's table is plain data (`Setup.scenario`, read from a file by `munchkin.scenario`), kept
in the setup so a saved game replays; the engine arranges it here, reading no file itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from munchkin.engine import characters
from munchkin.engine.rules import WINNING_LEVEL
from munchkin.errors import MunchkinError

if TYPE_CHECKING:
    from munchkin.engine.game import Game

PLAYER_KEYS = {
    "name",
    "sex",
    "level",
    "races",
    "classes",
    "half_breed",
    "super_munchkin",
    "equipped",
    "carried",
    "hand",
    "hireling",
    "sidekicks",
    "curses",
    "item_enhancers",
    "cheat",
    "house",
    "roles",
    "dual_role",
    "proficiencies",
    "allies",
}


class ScenarioError(MunchkinError):
    """A scenario file is malformed; the message names the file and the problem."""


def _take(g: Game, pool: dict[str, list[int]], name: str, where: str) -> int:
    key = name.strip().lower()
    if key not in g._by_name:
        raise ScenarioError(f"{where}: no card named {name!r} in the sets in play")
    if not pool.get(key):
        raise ScenarioError(f"{where}: no copy of {name!r} left to place")
    return pool[key].pop(0)


def arrange_table(g: Game, spec: dict[str, Any]) -> None:
    """Place every named card where the scenario says; the rest shuffled into the decks."""
    pool: dict[str, list[int]] = {k: list(v) for k, v in g._by_name.items()}
    players = spec.get("players") or []
    for i, ps in enumerate(players):
        p = g.players[i]
        where = f"player {p.name}"
        unknown = set(ps) - PLAYER_KEYS
        if unknown:
            raise ScenarioError(f"{where}: unknown keys {sorted(unknown)}")
        p.level = int(ps.get("level", 1))
        if not 1 <= p.level <= WINNING_LEVEL:
            raise ScenarioError(f"{where}: Level must be 1 to {WINNING_LEVEL}")
        p.sex = ps.get("sex", p.sex)
        for n in ps.get("races", []):
            p.races.append(_take(g, pool, n, where))
        for n in ps.get("classes", []):
            p.classes.append(_take(g, pool, n, where))
        if ps.get("half_breed"):
            p.half_breed = _take(g, pool, "Half-Breed", where)
        if ps.get("super_munchkin"):
            p.super_munchkin = _take(g, pool, "Super Munchkin", where)
        for key, zone, kind in (("roles", p.roles, "role"), ("proficiencies", p.proficiencies, "proficiency")):
            for n in ps.get(key, []):
                zone.append(_take(g, pool, n, where))
                if g.cdef[zone[-1]].kind != kind:
                    raise ScenarioError(f"{where}: {n} is not a {kind.title()}")
        if ps.get("dual_role"):
            p.dual_role = _take(g, pool, "Dual Role", where)
        if characters.rank_total(g, p) > p.level:
            raise ScenarioError(
                f"{where}: Proficiencies of total Rank {characters.rank_total(g, p)} above Level {p.level}"
            )
        for n in ps.get("equipped", []):
            c = _take(g, pool, n, where)
            p.items.append(c)
            p.equipped.add(c)
        for n in ps.get("carried", []):
            p.items.append(_take(g, pool, n, where))
        for n in ps.get("hand", []):
            p.hand.append(_take(g, pool, n, where))
        sidekicks: list[Any] = list(ps.get("sidekicks") or []) + list(ps.get("allies") or [])
        if ps.get("hireling"):  # Deluxe's shorthand: `hireling: true`, or the Item it carries
            sidekicks.append({"Hireling": ps["hireling"]} if isinstance(ps["hireling"], str) else "Hireling")
        for entry in sidekicks:  # a name, or {name: the Item it carries}
            name, item_name = next(iter(entry.items())) if isinstance(entry, dict) else (entry, None)
            k = _take(g, pool, str(name), where)
            if not g.cdef[k].is_sidekick:
                raise ScenarioError(f"{where}: {name} is not a Sidekick or Hireling")
            p.sidekicks.append(k)
            if item_name:
                item = _take(g, pool, str(item_name), where)
                p.items.append(item)
                p.equipped.add(item)
                p.carried[k] = item
        for n in ps.get("curses", []):
            p.curses.append(_take(g, pool, n, where))
        for entry in ps.get("item_enhancers") or []:  # {Item Enhancer: the Item of theirs it is on}
            if not isinstance(entry, dict) or len(entry) != 1:
                raise ScenarioError(f"{where}: item_enhancers lists {{Item Enhancer: Item}} pairs")
            ename, iname = next(iter(entry.items()))
            e = _take(g, pool, str(ename), where)
            if not g.cdef[e].is_item_enhancer:
                raise ScenarioError(f"{where}: {ename} is not an Item Enhancer")
            on = [c for c in p.items if g.cdef[c].name.lower() == str(iname).lower()]
            if not on:
                raise ScenarioError(f"{where}: {ename} is on {iname}, which is not among their Items")
            p.enhancers[e] = on[0]
        if ps.get("cheat"):  # Cheat! on one of their Items or Sidekicks, named
            target = [c for c in p.items + p.sidekicks if g.cdef[c].name.lower() == str(ps["cheat"]).lower()]
            if not target:
                raise ScenarioError(f"{where}: Cheat! is on {ps['cheat']}, which they do not have in play")
            p.cheat, p.cheat_item = _take(g, pool, "Cheat!", where), target[0]
    placed_top: dict[str, list[int]] = {}
    for deck in ("door_deck", "treasure_deck", "door_discard", "treasure_discard"):
        placed_top[deck] = [_take(g, pool, n, deck) for n in spec.get(deck, [])]
    used = {c for cs in (placed_top.values()) for c in cs}
    for p in g.players:
        used.update(p.hand)
        used.update(p.in_play())
    aside = spec.get("set_aside") or []
    if not isinstance(aside, list) or set(aside) - {"door", "treasure"}:
        raise ScenarioError("set_aside lists decks, 'door' and/or 'treasure'")
    for deck in aside:  # every card of that deck not placed leaves the game (an empty deck)
        out = [c for c in range(g.ncards) if g.cdef[c].deck == deck and c not in used]
        g.set_aside += out
        used.update(out)
    g.door_deck = [c for c in range(g.ncards) if g.cdef[c].deck == "door" and c not in used]
    g.treasure_deck = [c for c in range(g.ncards) if g.cdef[c].deck == "treasure" and c not in used]
    g._shuffle_deck("door")
    g._shuffle_deck("treasure")
    # the named top cards: the first listed is drawn first (top = end of list)
    g.door_deck += list(reversed(placed_top["door_deck"]))
    g.treasure_deck += list(reversed(placed_top["treasure_deck"]))
    g.door_discard = placed_top["door_discard"]
    g.treasure_discard = placed_top["treasure_discard"]
    for c in g.door_discard + g.treasure_discard:
        if g.cdef[c].deck != ("door" if c in g.door_discard else "treasure"):
            raise ScenarioError(f"{g.name(c)} is not a card of that discard pile")
    g.forced_rolls = [int(r) for r in spec.get("rolls", [])]
    if any(not 1 <= r <= 6 for r in g.forced_rolls):
        raise ScenarioError("rolls must be 1 to 6")
    if spec.get("active"):
        g.active = g.seat_of(spec["active"])
