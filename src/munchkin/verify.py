"""`munchkin verify`: did a fair table deal honestly? From a finished game's save, which reveals the
table's secret, recompute every shuffle, die roll and blind pick with the table's generator
(`engine.chance.FairChance`) and compare them with the outcomes the save records, after checking
that the secret is the one the table committed to (docs/server.md, "Provably fair deals")."""

from __future__ import annotations

import json
import string
from dataclasses import dataclass, field, replace
from typing import Any

from munchkin.cards.loader import origin_problem
from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.chance import FAIR_SCHEME, fair_commitment, fair_key
from munchkin.engine.fair import DrawDiffers, replay_checked
from munchkin.engine.game import Game, save_problem
from munchkin.errors import CardError

HEX = frozenset(string.hexdigits.lower())
SHOWN_CARDS = 8  # how much of a shuffled order a message quotes


class Unverifiable(Exception):
    """The file cannot be checked (not a save, no fair record, no secret yet); the message says why."""


@dataclass
class Verdict:
    """The answer: honest or not, in one line, and the facts behind it, one a line."""

    honest: bool
    summary: str
    details: list[str] = field(default_factory=list)


def _hex64(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and set(value.lower()) <= HEX


def _record(data: Any) -> dict[str, Any]:
    """The save's fair record, checked for shape; Unverifiable naming what is missing or wrong."""
    if not isinstance(data, dict) or data.get("format") != "munchkin-game/1":
        raise Unverifiable("it is not a saved Munchkin game (format munchkin-game/1)")
    fair = data.get("fair")
    if fair is None:
        raise Unverifiable(
            'the save has no fair-deal record ("fair"): its table had a chosen seed, or was made before '
            "fair deals, so there is no secret to check its draws against"
        )
    if not isinstance(fair, dict):
        raise Unverifiable("its fair-deal record is not a mapping")
    if fair.get("scheme") != FAIR_SCHEME:
        raise Unverifiable(f"its fair-deal record names the generator {fair.get('scheme')!r}, not {FAIR_SCHEME}")
    if fair.get("secret") is None:
        raise Unverifiable(
            "the save reveals no secret: a table reveals it only once its game is over, so a game still "
            "being played cannot be checked yet"
        )
    if not _hex64(fair["secret"]):
        raise Unverifiable("its secret is not 64 hexadecimal digits (256 bits)")
    if not _hex64(fair.get("commitment")):
        raise Unverifiable("its commitment is not 64 hexadecimal digits (a SHA-256 digest)")
    setup = data.get("setup")  # first, the designer folder it was dealt from: without it no set may load
    given = setup if isinstance(setup, dict) else {}
    problem = origin_problem(given.get("origin"), sets=given.get("sets"), rules=data.get("rules")) or save_problem(data)
    if problem:
        raise Unverifiable(problem)
    entropy = fair.get("entropy")
    players = data["setup"]["players"]
    if not isinstance(entropy, list) or len(entropy) != len(players):
        raise Unverifiable(f"its fair-deal record needs one entropy (or null) for each of the {len(players)} seats")
    if not all(e is None or isinstance(e, str) for e in entropy):
        raise Unverifiable("each seat's entropy in its fair-deal record must be text or null")
    declared = fair.get("declared", {})
    if not isinstance(declared, dict) or not set(declared) <= {"sexes", "houses"}:
        raise Unverifiable('its fair-deal record\'s "declared" must map sexes and houses to lists or null')
    return fair


def _recorded(log: list[Any]) -> tuple[list[tuple[Any, ...]], list[int], list[Action]]:
    """The save's chance outcomes as the game logs them, the log entry of each, and its actions."""
    outcomes: list[tuple[Any, ...]] = []
    where: list[int] = []
    actions: list[Action] = []
    for i, e in enumerate(log):
        try:
            if "shuffle" in e:
                outcomes.append(("shuffle", e["shuffle"], list(e["cards"])))
            elif "roll" in e:
                outcomes.append(("roll", e["seat"], e["roll"]))
            elif "pick" in e:
                outcomes.append(("pick", e["seat"], e["card"]))
            elif "act" in e:
                raw = list(e["raw"])
                raw[5] = tuple(raw[5])
                actions.append(Action(*raw))
                continue
            else:
                continue
        except (KeyError, TypeError, ValueError) as exc:
            raise Unverifiable(f"log entry {i} is incomplete or malformed ({exc})") from None
        where.append(i)
    return outcomes, where, actions


def _what(entry: tuple[Any, ...] | None, players: list[str]) -> str:
    """A draw in words: "a die roll for seat 2 (Cid)", "the shuffle of the door deck"."""
    if entry is None:
        return "a draw"
    kind, who = entry[0], entry[1]
    name = f"seat {who} ({players[who]})" if isinstance(who, int) and 0 <= who < len(players) else f"seat {who!r}"
    if kind == "shuffle":
        return f"the shuffle of the {who} deck"
    if kind == "roll":
        return f"a die roll for {name}"
    if kind == "pick":
        return f"a blind pick of a card for {name}"
    return f"a {kind}"


def _shown(kind: str, value: Any) -> str:
    """An outcome in words: a roll's number, a picked card's number, a shuffled order's start."""
    if value is None:
        return "nothing"
    if kind == "shuffle" and isinstance(value, list):
        head = ", ".join(str(c) for c in value[:SHOWN_CARDS])
        return f"the order {head}{', …' if len(value) > SHOWN_CARDS else ''} ({len(value)} cards)"
    if kind == "pick":
        return f"card {value}"
    return str(value)


def _differs(d: DrawDiffers, recorded: list[tuple[Any, ...]], where: list[int], players: list[str]) -> Verdict:
    """The verdict for the first draw that is not the generator's."""
    entry = recorded[d.index] if d.index < len(recorded) else None
    at = f" (log entry {where[d.index]})" if d.index < len(where) else ""
    if d.kind == "nothing":
        summary = f"NOT honest: the save records {len(recorded)} draws, but the game makes only {d.index}"
        return Verdict(False, summary, [f"draw {d.index}{at} is {_what(entry, players)}, which the game never makes"])
    if entry is None:
        summary = f"NOT honest: draw {d.index} is missing from the save"
        return Verdict(
            False, summary, [f"the game makes a {d.kind} there; the generator gives {_shown(d.kind, d.generated)}"]
        )
    if entry[0] != d.kind:
        summary = (
            f"NOT honest: draw {d.index}{at} is {_what(entry, players)} in the save, but the game draws a {d.kind}"
        )
        return Verdict(False, summary, [f"the generator gives {_shown(d.kind, d.generated)}"])
    details = [
        f"the save records {_shown(d.kind, d.recorded)}",
        f"the generator gives {_shown(d.kind, d.generated)}",
    ]
    if d.kind == "shuffle" and isinstance(d.recorded, list) and isinstance(d.generated, list):
        pos = next((k for k, (a, b) in enumerate(zip(d.recorded, d.generated)) if a != b), None)
        if pos is not None:
            details.append(f"they first differ at position {pos}: card {d.recorded[pos]} against {d.generated[pos]}")
    return Verdict(False, f"NOT honest: draw {d.index}, {_what(entry, players)}{at}, differs", details)


def verify_text(text: str) -> Verdict:
    """Check a finished fair table's save (JSON text). Raises Unverifiable when it cannot be checked."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Unverifiable(f"it is not JSON ({exc})") from None
    except RecursionError:
        raise Unverifiable("its JSON is nested too deep") from None
    fair = _record(data)
    secret = bytes.fromhex(fair["secret"])
    shown, made = fair["commitment"].lower(), fair_commitment(secret)
    if made != shown:
        return Verdict(
            False,
            "NOT honest: the commitment does not match the secret",
            [f"the table showed the commitment {shown}", f"SHA-256 of the revealed secret is {made}"],
        )
    players: list[str] = data["setup"]["players"]
    entropy = [e if isinstance(e, str) else "" for e in fair["entropy"]]
    recorded, where, actions = _recorded(data["log"])
    declared = fair.get("declared", {})
    try:
        saved = Game.setup_from_json(data)
        setup = replace(saved, sexes=declared.get("sexes"), houses=declared.get("houses"))
        rules = data.get("rules", 1)
        replayed = replay_checked(setup, actions, recorded, fair_key(secret, entropy), rules)
    except DrawDiffers as d:
        return _differs(d, recorded, where, players)
    except (MunchkinError, CardError, KeyError, TypeError, ValueError, IndexError) as exc:
        raise Unverifiable(f"its game does not replay: {exc or type(exc).__name__}") from None
    g = replayed.game
    for what, drawn, kept in (("sex", g.setup.sexes, saved.sexes), ("House", g.setup.houses, saved.houses)):
        if kept is not None and drawn != kept:
            seat = next(i for i, (a, b) in enumerate(zip(drawn or [], kept)) if a != b)
            return Verdict(
                False,
                f"NOT honest: the {what} of seat {seat} ({players[seat]}) is not the one drawn for it",
                [f"the save says {kept[seat]}, the generator draws {(drawn or [None] * len(players))[seat]}"],
            )
    for i, (mine, theirs) in enumerate(zip(g.chance_log(), recorded)):
        if list(mine[:2]) != list(theirs[:2]):  # the same outcome, drawn for someone else
            return Verdict(
                False,
                f"NOT honest: draw {i} (log entry {where[i]}) is {_what(theirs, players)} in the save",
                [f"the game makes {_what(mine, players)} there"],
            )
    if "state" in data and g.fingerprint() != data["state"]:
        return Verdict(False, "NOT verified: the save's final state is not the one its moves and draws make")
    counts = {k: sum(1 for e in recorded if e[0] == k) for k in ("shuffle", "roll", "pick")}
    details = [
        f"commitment {shown} = SHA-256 of the secret {fair['secret'].lower()}",
        *(
            f"seat {i} ({players[i]}): entropy {e!r}" if e else f"seat {i} ({players[i]}): no entropy"
            for i, e in enumerate(fair["entropy"])
        ),
        f"{counts['shuffle']} shuffles, {counts['roll']} die rolls, {counts['pick']} blind picks, "
        f"{replayed.choices} setup choices (sexes and Houses not declared)",
    ]
    if not g.over:
        details.append("the game in this save is not finished: its draws so far were checked")
    summary = (
        f"The table dealt honestly: all {replayed.draws} draws are what the generator gives for the revealed "
        "secret and everyone's entropy, and the secret is the one committed to."
    )
    return Verdict(True, summary, details)


__all__ = ["Unverifiable", "Verdict", "verify_text"]
