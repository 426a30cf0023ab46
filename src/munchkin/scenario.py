"""Scenario files: set a table exactly, play steps in the notation, check expectations.

The format is documented in docs/scenarios.md.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from munchkin.engine import characters, combat
from munchkin.engine.notation import not_an_action
from munchkin.engine.rules import MAX_PLAYERS, MIN_PLAYERS, RULES
from munchkin.engine.table import PLAYER_KEYS as PLAYER_KEYS  # a scenario's table is set by the engine
from munchkin.engine.table import ScenarioError, named_cards, no_such_card
from munchkin.engine.table import arrange_table as arrange_table
from munchkin.engine.table import unknown_keys as _unknown_keys
from munchkin.engine.view import narrate
from munchkin.errors import CardError, MunchkinError

if TYPE_CHECKING:
    from munchkin.engine.game import Game

TOP_KEYS = {
    "name",
    "rule",
    "description",
    "sets",
    "seed",
    "rules",
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
STEP_KEYS = {"do", "as", "stop", "pass_all", "except", "error", "expect"}  # docs/scenarios.md, Steps
OPTION_KEYS = {"listen_at_the_door", "shared_victories", "turn_cap", "listen_variant"}
EXPECT_KEYS = {  # docs/scenarios.md, Expectations
    "combat",
    "no_combat",
    "level",
    "hand_size",
    "treasures_drawn",
    "treasures_since_start",
    "where",
    "winner",
    "over",
    "dead",
    "sex",
    "to_act",
    "prompt",
    "legal",
    "sees",
    "hears",
    "forced",
    "rolls_left",
    "active",
}
COMBAT_KEYS = {"fighters", "monsters", "winning", "helper", "monster_count"}
LEGAL_KEYS = {"for", "includes", "excludes"}
SHOWN_MOVES = 12  # legal moves listed per seat where a failure says where the game stands; the rest counted


@dataclass
class StepReport:
    index: int
    text: str
    failures: list[str] = field(default_factory=list)


@dataclass
class ScenarioResult:
    """A scenario's verdict: every failed check, where the game stood after each failing step (by step
    number), and with `trace` the state after every step."""

    path: str
    name: str
    failures: list[str]
    stands: dict[int, list[str]] = field(default_factory=dict)
    trace: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def report(self) -> list[str]:
        """The failures, each failing step's followed by where the game stood after it (indented)."""
        out: list[str] = []
        for i, f in enumerate(self.failures):
            out.append(f)
            step = _step_of(f)
            if step in self.stands and _step_of(self.failures[i + 1] if i + 1 < len(self.failures) else "") != step:
                out += ["  " + line for line in self.stands[step]]
        return out


def _step_of(failure: str) -> int:
    """The step number a failure names (`step 3 (...): ...`), or 0."""
    head = failure.split(" ", 2)
    return int(head[1]) if len(head) > 1 and head[0] == "step" and head[1].isdigit() else 0


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
        raise ScenarioError(f"{p}: unknown keys {_unknown_keys(unknown, TOP_KEYS)}")
    if not isinstance(spec.get("players"), list) or not MIN_PLAYERS <= len(spec["players"]) <= MAX_PLAYERS:
        raise ScenarioError(f"{p}: 'players' must list 3 to 6 players")
    if not isinstance(spec.get("steps", []), list):
        raise ScenarioError(f"{p}: 'steps' must be a list")
    for i, ps in enumerate(spec["players"], 1):
        if not isinstance(ps, dict) or "name" not in ps:
            raise ScenarioError(f"{p}: player {i}: a mapping with at least a `name`")
        if set(ps) - PLAYER_KEYS:
            raise ScenarioError(f"{p}: player {ps['name']}: unknown keys {_unknown_keys(set(ps), PLAYER_KEYS)}")
    options = spec.get("options") or {}
    if not isinstance(options, dict) or set(options) - OPTION_KEYS:
        what = _unknown_keys(set(options), OPTION_KEYS) if isinstance(options, dict) else "not a mapping"
        raise ScenarioError(f"{p}: options: unknown keys {what}; known: {', '.join(sorted(OPTION_KEYS))}")
    for i, step in enumerate(spec.get("steps") or [], 1):  # a mistyped key would check nothing and pass
        if isinstance(step, dict) and set(step) - STEP_KEYS:
            raise ScenarioError(
                f"{p}: step {i}: unknown keys {_unknown_keys(set(step), STEP_KEYS)}; a step takes "
                f"{', '.join(sorted(STEP_KEYS))}"
            )
        if isinstance(step, dict) and (wrong := _expect_keys(step.get("expect"))):
            raise ScenarioError(f"{p}: step {i}: {wrong}")
    return spec


def _expect_keys(exp: Any) -> str:
    """What is wrong with the keys of a step's `expect` (and of its `combat`, `legal`, `sees` and
    `hears` mappings), with the key each unknown one resembles; "" when nothing is."""
    if exp is None:
        return ""
    if not isinstance(exp, dict):
        return "expect: a mapping of checks"
    if set(exp) - EXPECT_KEYS:
        return f"expect: unknown keys {_unknown_keys(set(exp), EXPECT_KEYS)}"
    for key, known in (("combat", COMBAT_KEYS), ("legal", LEGAL_KEYS)):
        want = exp.get(key)
        if key in exp and (not isinstance(want, dict) or set(want) - known):
            what = _unknown_keys(set(want), known) if isinstance(want, dict) else "not a mapping"
            return f"expect: {key}: unknown keys {what}; known: {', '.join(sorted(known))}"
    for key in ("sees", "hears"):
        if key in exp and not isinstance(exp[key], dict):
            return f"expect: {key}: a mapping of names to {{includes: [...], excludes: [...]}}"
        for name, want in (exp.get(key) or {}).items():
            if isinstance(want, dict) and set(want) - {"includes", "excludes"}:
                return f"expect: {key} {name}: unknown keys {_unknown_keys(set(want), {'includes', 'excludes'})}"
    return ""


def build_game(spec: dict[str, Any]) -> Game:
    from munchkin.engine.game import Game, Options, Setup

    raw = spec.get("options") or {}
    if not isinstance(raw, dict) or set(raw) - OPTION_KEYS:
        what = _unknown_keys(set(raw), OPTION_KEYS) if isinstance(raw, dict) else "not a mapping"
        raise ScenarioError(f"options: unknown keys {what}; known: {', '.join(sorted(OPTION_KEYS))}")
    opts = Options(**raw)
    names = [ps["name"] for ps in spec["players"]]
    sexes = [ps.get("sex", "male") for ps in spec["players"]]
    houses = [ps.get("house") for ps in spec["players"]] if any("house" in ps for ps in spec["players"]) else None
    sets = list(spec.get("sets", ["deluxe"]))
    rules = spec.get("rules", RULES)  # a scenario of a rule that later rules changed keeps the older ones
    if type(rules) is not int or not 2 <= rules <= RULES:
        raise ScenarioError(f"rules: a whole number from 2 to {RULES}, not {rules!r}")
    try:
        return Game(Setup(sets, names, int(spec.get("seed", 0)), opts, sexes, spec, houses), rules=rules)
    except CardError as exc:
        if str(exc).startswith("unknown set"):  # a designer's folder is a set only when given
            raise ScenarioError(f"sets: {exc}. Is it a --set-dir folder?") from None
        raise


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


def _seat(g: Game, name: str) -> int | None:
    """A player's seat by name; `spectator` is someone at no seat (None)."""
    return None if name.lower() == "spectator" else g.seat_of(name)


def _includes_excludes(want: Any, what: str) -> tuple[list[str], list[str], list[str]]:
    """The `includes` and `excludes` lists of an expectation, and what is wrong with its shape."""
    if not isinstance(want, dict) or set(want) - {"includes", "excludes"}:
        return [], [], [f"{what}: a mapping with `includes` and/or `excludes` lists"]
    inc, exc = want.get("includes", []), want.get("excludes", [])
    if not isinstance(inc, list) or not isinstance(exc, list):
        return [], [], [f"{what}: `includes` and `excludes` are lists"]
    return [str(x) for x in inc], [str(x) for x in exc], []


def _card_names(view: Any) -> set[str]:
    """The names of every card a seat's view shows (its hand, each table, the piles, the fight)."""
    out: set[str] = set()
    if isinstance(view, dict):
        if isinstance(view.get("name"), str) and "kind" in view and "deck" in view:
            out.add(view["name"].lower())
        for v in view.values():
            out |= _card_names(v)
    elif isinstance(view, list):
        for v in view:
            out |= _card_names(v)
    return out


@dataclass
class StepMarks:
    """Where a step began, for the expectations about what happened during it."""

    events: int = 0  # index of the step's first event
    log: int = 0  # index of the step's first log entry
    rolls: int = 0  # scripted rolls left when the scenario began


def check_expect(g: Game, exp: dict[str, Any], drawn: dict[str, int], marks: StepMarks | None = None) -> list[str]:
    """Compare the game with one step's expectations; return what differs."""
    out: list[str] = []
    marks = marks or StepMarks(len(g.events), len(g.log), len(g.forced_rolls))
    for key, want in exp.items():
        if key == "combat":
            b = combat.combat_breakdown(g)
            if not b:
                out.append("expected a combat, but there is none")
                continue
            got = {
                "fighters": b["side_strength"],
                "monsters": b["monster_strength"],
                "winning": b["fighters_winning"],
                "helper": g.name_of(g.combat.helper) if g.combat and g.combat.helper >= 0 else None,
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
                try:
                    cards = named_cards(g, cname)
                except ScenarioError as wrong:
                    out.append(f"where: {wrong}")
                    continue
                if not cards:
                    out.append(f"where: {no_such_card(g, str(cname))}")
                    continue
                places = [zone_of(g, c) for c in cards]
                if place not in places:
                    out.append(f"{cname}: expected in {place}, found in {', '.join(places)}")
        elif key == "winner":
            names = sorted(g.name_of(s) for s in g.winners)
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
                    s = characters.sidekick_sex(g, q, ks[0]) if ks else "not in play"
                else:
                    s = g.players[g.seat_of(name)].sex
                if s != v:
                    out.append(f"{name}'s sex: expected {v}, got {s}")
        elif key == "to_act":
            names = sorted(g.name_of(s) for s in g.to_act)
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
                    why = not_an_action(g, t)
                    out.append(f"legal actions lack {t!r}" + (f", which is not an action: {why}" if why else ""))
            for t in want.get("excludes", []):
                if (why := not_an_action(g, t)) is not None:
                    out.append(f"legal excludes {t!r}, which is not an action: {why}")
                elif t in texts:
                    out.append(f"legal actions include {t!r}")
        elif key == "sees":
            for name, cards in want.items() if isinstance(want, dict) else []:
                inc, exc, bad = _includes_excludes(cards, f"sees {name}")
                out += bad
                shown = _card_names(g.view(_seat(g, name)))
                for c in inc + exc:
                    if c.lower() not in g.cards_by_name:
                        out.append(f"sees {name}: {no_such_card(g, c)}")
                known = g.cards_by_name
                out += [f"{name} does not see {c}" for c in inc if c.lower() in known and c.lower() not in shown]
                out += [f"{name} sees {c}" for c in exc if c.lower() in shown]
        elif key == "hears":
            for name, texts in want.items() if isinstance(want, dict) else []:
                inc, exc, bad = _includes_excludes(texts, f"hears {name}")
                out += bad
                said = narrate(g, _seat(g, name), marks.events)
                whole = "\n".join(said).lower()
                for t in inc:
                    if t.lower() not in whole:
                        out.append(f"{name} did not hear {t!r} in this step; heard: {' | '.join(said) or 'nothing'}")
                for t in exc:
                    if t.lower() in whole:
                        where = next((s for s in said if t.lower() in s.lower()), "across two sentences")
                        out.append(f"{name} heard {t!r}: {where}")
        elif key == "forced":
            taken = [g.text(e[1]) for e in g.log[marks.log :] if e[0] == "forced"]
            for t in [want] if isinstance(want, str) else list(want):
                if " ".join(str(t).lower().split()) not in [x.lower() for x in taken]:
                    out.append(f"the engine did not take {t!r} by itself in this step; it took {taken or 'nothing'}")
        elif key == "rolls_left":
            if len(g.forced_rolls) != want:
                used = marks.rolls - len(g.forced_rolls)
                out.append(f"rolls left: expected {want}, got {len(g.forced_rolls)} ({used} used in this scenario)")
        elif key == "active":
            if g.name_of(g.active) != want:
                out.append(f"active player: expected {want}, got {g.name_of(g.active)}")
        else:
            out.append(f"unknown expectation {key!r}")
    return out


def _moves(g: Game, seat: int) -> str:
    """A seat's legal moves in canonical texts (`|` between them: a text may hold a comma), the first
    SHOWN_MOVES of them and how many more."""
    texts = list(dict.fromkeys(g.text(a) for a in g.legal_actions(seat)))
    more = f" | and {len(texts) - SHOWN_MOVES} more" if len(texts) > SHOWN_MOVES else ""
    return " | ".join(texts[:SHOWN_MOVES]) + more if texts else "nothing"


def where_it_stands(g: Game) -> list[str]:
    """Where the game stands, as a failed check shows it: the prompt with what the moment allows, who
    is to act, and each one's legal moves; a scenario's author sees why a check or a `do` missed."""
    if g.over:
        return [f"the game is over; winners: {', '.join(g.name_of(s) for s in g.winners) or 'nobody'}"]
    rule = g.prompt.rule()
    lines = [f"prompt: {g.prompt.kind}" + (f" ({rule})" if rule else "")]
    lines.append(f"to act: {', '.join(g.name_of(s) for s in g.to_act) or 'nobody'}")
    lines += [f"{g.name_of(s)} may: {_moves(g, s)}" for s in g.to_act]
    return lines


def step_state(g: Game, start: int) -> list[str]:
    """The state `munchkin scenario --trace` prints after a step: whose turn and its phase, where the
    game stands, each player's Level, hand size and cards in play, the fight's numbers, and the
    narration since event `start` as a spectator hears it (no hidden card is named)."""
    lines = [f"turn {g.turn + 1}: {g.name_of(g.active)}'s turn, phase {g.phase}"]
    lines += where_it_stands(g)
    for p in g.players:
        cards = [g.cdef[c].name + (" (equipped)" if c in p.equipped else "") for c in p.in_play()]
        dead = ", dead" if p.dead else ""
        lines.append(
            f"{p.name}: Level {p.level}, {len(p.hand)} in hand{dead}; in play: {', '.join(cards) or 'nothing'}"
        )
    b = combat.combat_breakdown(g)
    if b:
        side = ", ".join(f"{f['player']} {f['strength']}" for f in b["fighters"])
        foes = ", ".join(f"{m['monster']} {m['strength']}" for m in b["monsters"])
        lead = "the fighters win" if b["fighters_winning"] else "the monsters win"
        lines.append(
            f"combat: {side} (side {b['side_strength']}) against {foes} (monsters {b['monster_strength']}); {lead} now"
        )
    lines += [f"> {line}" for line in narrate(g, None, start)]
    return lines


def _drawn_since(g: Game, start: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for ev in g.events[start:]:
        if ev[0] == "draw" and ev[2] == "treasure":
            out[g.name_of(ev[1])] = out.get(g.name_of(ev[1]), 0) + len(ev[3])
        elif ev[0] == "take" and g.cdef[ev[2]].deck == "treasure":
            out[g.name_of(ev[1])] = out.get(g.name_of(ev[1]), 0) + 1
    return out


def run_scenario(path: str | Path, trace: bool = False) -> ScenarioResult:
    """Play a scenario file; every failed expectation is reported, with its step and where the game
    stood after it. `trace`: also keep the state after every step (`ScenarioResult.trace`)."""
    try:
        spec = load_scenario(path)
        g = build_game(spec)
    except (ScenarioError, MunchkinError) as exc:
        return ScenarioResult(str(path), Path(path).stem, [f"setup: {exc}"])
    name = spec.get("name", Path(path).stem)
    failures: list[str] = []
    drawn_total: dict[str, int] = {}
    forced_seen = 0
    rolls_at_start = len(g.forced_rolls)
    stands: dict[int, list[str]] = {}
    lines: list[str] = []
    if trace:
        lines += ["the table as set (with the engine's own first moves):", *("  " + x for x in step_state(g, 0))]
    for i, step in enumerate(spec.get("steps", []), 1):
        if not isinstance(step, dict):
            failures.append(f"step {i}: a step is a mapping")
            break
        # what happened "in this step": since the previous step, or for the first since the table was
        # set (the engine's own first moves included: an empty-handed player's kick, say)
        start = len(g.events) if i > 1 else 0
        step_log = len(g.log) if i > 1 else 0
        forced_at = -1
        label = step.get("do") or ("everyone passes" if step.get("pass_all") else "check")
        failed = len(failures)
        try:
            acts = "do" in step or step.get("pass_all")
            if acts and g.held is not None and not _names_held(g, step):
                g.hold_forced_moves(False)  # the moves held by the previous step's `stop` are taken now
            if acts:
                g.holding = bool(step.get("stop"))  # `stop`: after this step the engine takes no move alone
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
                failures.append(f"step {i} ({label}): {_unknown_card(g, exc)}")
                stands[i] = where_it_stands(g)
                if trace:
                    lines += [f"after step {i} ({label}), which stopped the scenario:"]
                    lines += ["  " + x for x in step_state(g, start)]
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
        for f in check_expect(g, exp, drawn, StepMarks(start, step_log, rolls_at_start)):
            failures.append(f"step {i} ({label}): {f}")
        if len(failures) > failed:
            stands[i] = where_it_stands(g)
        if trace:
            lines += [f"after step {i} ({label}):", *("  " + x for x in step_state(g, start))]
    return ScenarioResult(str(path), name, failures, stands, lines)


def _unknown_card(g: Game, exc: MunchkinError) -> str:
    """A refused `do`'s error; one naming a card no set in play has says which sets are in play, the
    near names, and asks whether the card is in a --set-dir folder."""
    said = str(exc)
    head = "no card is named "
    if not said.startswith(head):
        return said
    try:
        name = ast.literal_eval(said[len(head) :])
    except (ValueError, SyntaxError):
        return said
    return no_such_card(g, str(name))


def _names_held(g: Game, step: dict[str, Any]) -> bool:
    """Whether the step's `do` is the move the engine holds (it is then taken as that move)."""
    return "do" in step and g.held is not None and " ".join(str(step["do"]).lower().split()) == g.text(g.held).lower()


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
