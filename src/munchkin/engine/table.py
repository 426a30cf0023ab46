"""Setting a table exactly as a scenario describes it: who holds what, which cards top the decks.

A scenario's table is plain data (`Setup.scenario`, read from a file by `munchkin.scenario`), kept
in the setup so a saved game replays; the engine arranges it here, reading no file itself."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any

from munchkin.engine import characters
from munchkin.engine.rules import DIE_FACES, WINNING_LEVEL
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


def unknown_keys(found: set[str], known: set[str]) -> str:
    """The unknown keys of a mapping, each with the known key it most resembles ("did you mean"), if any."""
    said = []
    for k in sorted(found - known, key=str):
        near = difflib.get_close_matches(str(k), sorted(known), n=1, cutoff=0.6)
        said.append(f"{k!r} (did you mean {near[0]!r}?)" if near else repr(k))
    return ", ".join(said)


def no_such_card(g: Game, name: str) -> str:
    """Why a scenario's card name finds no card: the near names of the sets in play, which sets those
    are, and the likely cause for a designer (the card is in a folder not given with --set-dir)."""
    by_lower = {d.name.lower(): d.name for d in g.cdef}
    near = difflib.get_close_matches(name.strip().lower(), sorted(by_lower), n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(by_lower[n]) for n in near)}?" if near else "."
    sets = ", ".join(sorted({d.set for d in g.cdef}))
    return f"no card named {name!r} in the sets in play ({sets}){hint} Is it in a --set-dir?"


def split_set(g: Game, name: str) -> tuple[str, str | None]:
    """A card as a scenario names it: `NAME`, or `NAME (SET)` for the copies of one set in play
    (`Cheat! (deluxe)` where two sets have a Cheat!). Returns the lower-case name and the set."""
    key = name.strip().lower()
    if key.endswith(")") and " (" in key and key not in g.cards_by_name:
        base, _, rest = key.rpartition(" (")
        s = rest[:-1].strip().replace("_", "-")
        sets = {d.set for d in g.cdef}
        if s not in sets:
            raise ScenarioError(f"{name!r}: {s!r} is not a set in play (in play: {', '.join(sorted(sets))})")
        return base.strip(), s
    return key, None


def named_cards(g: Game, name: str) -> list[int]:
    """Every card of the game a scenario's name stands for (all copies; of one set with `(SET)`)."""
    key, s = split_set(g, name)
    return [c for c in g.cards_by_name.get(key, []) if s is None or g.cdef[c].set == s]


def _take(g: Game, pool: dict[str, list[int]], name: str, where: str) -> int:
    """The next copy of a named card not yet placed (the sets' order in `sets:` decides which set's
    copy comes first; `NAME (SET)` takes one of that set)."""
    try:
        key, s = split_set(g, name)
    except ScenarioError as exc:
        raise ScenarioError(f"{where}: {exc}") from None
    if key not in g.cards_by_name:
        raise ScenarioError(f"{where}: {no_such_card(g, name)}")
    left = [c for c in pool.get(key, []) if s is None or g.cdef[c].set == s]
    if not left:
        if s is not None and not any(g.cdef[c].set == s for c in g.cards_by_name[key]):
            raise ScenarioError(f"{where}: the set {s} has no card named {key!r}")
        raise ScenarioError(f"{where}: no copy of {name!r} left to place")
    pool[key].remove(left[0])
    return left[0]


def arrange_table(g: Game, spec: dict[str, Any]) -> None:
    """Place every named card where the scenario says; the rest shuffled into the decks."""
    pool: dict[str, list[int]] = {k: list(v) for k, v in g.cards_by_name.items()}
    players = spec.get("players") or []
    for i, ps in enumerate(players):
        p = g.players[i]
        where = f"player {p.name}"
        unknown = set(ps) - PLAYER_KEYS
        if unknown:
            raise ScenarioError(f"{where}: unknown keys {unknown_keys(unknown, PLAYER_KEYS)}")
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
        cheats = ps.get("cheat") or []  # a Cheat! on each Item or Sidekick named (one name, or a list)
        for under in [cheats] if isinstance(cheats, str) else cheats:
            target = [c for c in p.items + p.sidekicks if c not in p.cheats and c in named_cards(g, str(under))]
            if not target:
                raise ScenarioError(f"{where}: Cheat! is on {under}, not in play or already under one")
            p.cheats[target[0]] = _take(g, pool, "Cheat!", where)
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
    if any(r not in DIE_FACES for r in g.forced_rolls):
        raise ScenarioError("rolls must be 1 to 6")
    if spec.get("active"):
        g.active = g.seat_of(spec["active"])
