"""Scenario files: set a table exactly, play steps in the notation, check expectations.

The format is documented in docs/scenarios.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from munchkin.engine.actions import MunchkinError

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
TOP_KEYS = {
    "name",
    "rule",
    "description",
    "sets",
    "seed",
    "options",
    "players",
    "active",
    "door_deck",
    "treasure_deck",
    "door_discard",
    "treasure_discard",
    "rolls",
    "set_aside",
    "steps",
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
        if not 1 <= p.level <= 10:
            raise ScenarioError(f"{where}: Level must be 1 to 10")
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
        if g.rank_total(p) > p.level:
            raise ScenarioError(f"{where}: Proficiencies of total Rank {g.rank_total(p)} above Level {p.level}")
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


@dataclass
class StepReport:
    index: int
    text: str
    failures: list[str] = field(default_factory=list)


@dataclass
class ScenarioResult:
    path: str
    name: str
    failures: list[str]

    @property
    def ok(self) -> bool:
        return not self.failures


def load_scenario(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        spec = yaml.safe_load(p.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ScenarioError(f"{p}: cannot read: {exc}") from None
    if not isinstance(spec, dict):
        raise ScenarioError(f"{p}: a scenario is a mapping")
    unknown = set(spec) - TOP_KEYS
    if unknown:
        raise ScenarioError(f"{p}: unknown keys {sorted(unknown)}")
    if not isinstance(spec.get("players"), list) or not 3 <= len(spec["players"]) <= 6:
        raise ScenarioError(f"{p}: 'players' must list 3 to 6 players")
    if not isinstance(spec.get("steps", []), list):
        raise ScenarioError(f"{p}: 'steps' must be a list")
    return spec


def build_game(spec: dict[str, Any]) -> Game:
    from munchkin.engine.game import Game, Options, Setup

    raw = spec.get("options") or {}
    known = {"listen_at_the_door", "shared_victories", "turn_cap", "listen_variant"}
    if not isinstance(raw, dict) or set(raw) - known:
        raise ScenarioError(f"options: unknown keys {sorted(set(raw) - known)}; known: {sorted(known)}")
    opts = Options(**raw)
    names = [ps["name"] for ps in spec["players"]]
    sexes = [ps.get("sex", "male") for ps in spec["players"]]
    houses = [ps.get("house") for ps in spec["players"]] if any("house" in ps for ps in spec["players"]) else None
    sets = list(spec.get("sets", ["deluxe"]))
    return Game(Setup(sets, names, int(spec.get("seed", 0)), opts, sexes, spec, houses))


def zone_of(g: Game, card: int) -> str:
    """Where a card is, as a scenario names it."""
    for name, zone in (
        ("door_deck", g.door_deck),
        ("treasure_deck", g.treasure_deck),
        ("door_discard", g.door_discard),
        ("treasure_discard", g.treasure_discard),
    ):
        if card in zone:
            return name
    for p in g.players:
        if card in p.hand:
            return f"hand of {p.name}"
        if card in p.items:
            return f"{'equipped' if card in p.equipped else 'carried'} by {p.name}"
        if card in p.in_play():
            return f"in play by {p.name}"
    if g.combat is not None and card in g.combat.played:
        return "combat"
    return "limbo"


def check_expect(g: Game, exp: dict[str, Any], drawn: dict[str, int]) -> list[str]:
    """Compare the game with one step's expectations; return what differs."""
    out: list[str] = []
    for key, want in exp.items():
        if key == "combat":
            b = g.combat_breakdown()
            if not b:
                out.append("expected a combat, but there is none")
                continue
            got = {
                "fighters": b["side_strength"],
                "monsters": b["monster_strength"],
                "winning": b["fighters_winning"],
                "helper": g._name(g.combat.helper) if g.combat and g.combat.helper >= 0 else None,
                "monster_count": len(b["monsters"]),
            }
            for k, v in want.items():
                if k not in got:
                    out.append(f"combat: unknown expectation {k!r}")
                elif got[k] != v:
                    out.append(f"combat {k}: expected {v!r}, got {got[k]!r}")
        elif key == "no_combat":
            if bool(want) != (g.combat is None):
                out.append("expected no combat" if want else "expected a combat")
        elif key == "level":
            for name, v in want.items():
                lv = g.players[g.seat_of(name)].level
                if lv != v:
                    out.append(f"{name}'s Level: expected {v}, got {lv}")
        elif key == "hand_size":
            for name, v in want.items():
                n = len(g.players[g.seat_of(name)].hand)
                if n != v:
                    out.append(f"{name}'s hand: expected {v} cards, got {n}")
        elif key == "treasures_drawn":
            for name, v in want.items():
                if drawn.get(name, 0) != v:
                    out.append(f"{name} drew {drawn.get(name, 0)} Treasures, expected {v}")
        elif key == "where":
            for cname, place in want.items():
                cards = g._by_name.get(cname.lower())
                if not cards:
                    out.append(f"where: no card named {cname!r}")
                    continue
                places = [zone_of(g, c) for c in cards]
                if place not in places:
                    out.append(f"{cname}: expected in {place}, found in {', '.join(places)}")
        elif key == "winner":
            names = sorted(g._name(s) for s in g.winners)
            want_l = sorted(want) if isinstance(want, list) else [want]
            if names != want_l:
                out.append(f"winners: expected {want_l}, got {names}")
        elif key == "over":
            if g.over != bool(want):
                out.append(f"game over: expected {want}, got {g.over}")
        elif key == "dead":
            for name, v in want.items():
                d = g.players[g.seat_of(name)].dead
                if d != v:
                    out.append(f"{name} dead: expected {v}, got {d}")
        elif key == "sex":
            for name, v in want.items():
                if "'s " in name:  # "Ann's Schoolmarm": a Sidekick's sex
                    owner, kname = name.split("'s ", 1)
                    q = g.players[g.seat_of(owner)]
                    ks = [k for k in q.sidekicks if g.cdef[k].name.lower() == kname.lower()]
                    s = g.sidekick_sex(q, ks[0]) if ks else "not in play"
                else:
                    s = g.players[g.seat_of(name)].sex
                if s != v:
                    out.append(f"{name}'s sex: expected {v}, got {s}")
        elif key == "to_act":
            names = sorted(g._name(s) for s in g.to_act)
            want_l = sorted(want) if isinstance(want, list) else [want]
            if names != want_l:
                out.append(f"to act: expected {want_l}, got {names}")
        elif key == "prompt":
            if g.prompt.kind != want:
                out.append(f"prompt: expected {want}, got {g.prompt.kind}")
        elif key == "legal":
            who = want.get("for")
            seat = g.seat_of(who) if who else (g.to_act[0] if g.to_act else -1)
            texts = [g.text(a) for a in g.legal_actions(seat)] if seat >= 0 else []
            for t in want.get("includes", []):
                if t not in texts:
                    out.append(f"legal actions lack {t!r}")
            for t in want.get("excludes", []):
                if t in texts:
                    out.append(f"legal actions include {t!r}")
        elif key == "active":
            if g._name(g.active) != want:
                out.append(f"active player: expected {want}, got {g._name(g.active)}")
        else:
            out.append(f"unknown expectation {key!r}")
    return out


def _drawn_since(g: Game, start: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for ev in g.events[start:]:
        if ev[0] == "draw" and ev[2] == "treasure":
            out[g._name(ev[1])] = out.get(g._name(ev[1]), 0) + len(ev[3])
        elif ev[0] == "take" and g.cdef[ev[2]].deck == "treasure":
            out[g._name(ev[1])] = out.get(g._name(ev[1]), 0) + 1
    return out


def run_scenario(path: str | Path) -> ScenarioResult:
    """Play a scenario file; every failed expectation is reported, with its step."""
    try:
        spec = load_scenario(path)
        g = build_game(spec)
    except (ScenarioError, MunchkinError) as exc:
        return ScenarioResult(str(path), Path(path).stem, [f"setup: {exc}"])
    name = spec.get("name", Path(path).stem)
    failures: list[str] = []
    drawn_total: dict[str, int] = {}
    forced_seen = 0
    for i, step in enumerate(spec.get("steps", []), 1):
        if not isinstance(step, dict):
            failures.append(f"step {i}: a step is a mapping")
            break
        start = len(g.events)
        step_log = len(g.log)
        forced_at = -1
        label = step.get("do") or ("everyone passes" if step.get("pass_all") else "check")
        try:
            if step.get("pass_all"):
                _pass_all(g, step.get("except"))
            elif "do" in step and (forced_at := _forced_index(g, str(step["do"]), forced_seen)) >= 0:
                pass  # the engine took it itself: it was the only legal action
            elif "do" in step:
                seat = g.seat_of(step["as"]) if "as" in step else None
                g.play(str(step["do"]), seat)
                if "error" in step:
                    failures.append(f"step {i} ({label}): expected an error containing {step['error']!r}")
        except MunchkinError as exc:
            if "error" in step and str(step["error"]).lower() in str(exc).lower():
                pass
            elif "error" in step:
                failures.append(f"step {i} ({label}): error {exc!s} does not contain {step['error']!r}")
            else:
                failures.append(f"step {i} ({label}): {exc}")
                break
        if "do" not in step:
            forced_seen = len(g.log)
        elif forced_at >= 0:
            forced_seen = forced_at + 1  # that forced move is now accounted for
        else:
            forced_seen = step_log  # moves forced by this step may be named by the next
        for k, v in _drawn_since(g, start).items():
            drawn_total[k] = drawn_total.get(k, 0) + v
        exp = step.get("expect") or {}
        drawn = drawn_total if exp.get("treasures_since_start") else _drawn_since(g, start)
        exp = {k: v for k, v in exp.items() if k != "treasures_since_start"}
        for f in check_expect(g, exp, drawn):
            failures.append(f"step {i} ({label}): {f}")
    return ScenarioResult(str(path), name, failures)


def _forced_index(g: Game, text: str, since: int) -> int:
    """Where the engine took this action itself (the only legal one) since `since`, or -1."""
    want = " ".join(text.lower().split())
    for i in range(since, len(g.log)):
        entry = g.log[i]
        if entry[0] == "forced" and g.text(entry[1]).lower() == want:
            return i
    return -1


def _pass_all(g: Game, except_names: list[str] | None = None) -> None:
    """Everyone asked passes until the current response window closes."""
    skip = {g.seat_of(n) for n in (except_names or [])}
    kind = g.prompt.kind
    for _ in range(100):
        if g.prompt.kind != kind or not g.to_act:
            return
        seats = [s for s in g.to_act if s not in skip]
        if not seats:
            return
        g.play("pass", seats[0])
    raise ScenarioError("pass_all did not close the window")
