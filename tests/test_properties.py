"""Property tests: random legal, illegal and garbage input never corrupts a game.

Each example starts a game from a random seed, fast-forwards it a random number of legal
steps (so that combats, Charity, running away and the end of the game are all reached), then
feeds it a random mix of:

- legal actions chosen by index (they must be accepted, and every invariant must hold after);
- illegal action objects: a legal action of a seat that may not act, a legal action whose card
  is one the seat does not hold, ids out of range or negative, a legal action with a value in
  a field that no legal action of its kind uses, made-up action tuples, and things that are not
  actions at all (fields of the wrong types, plain tuples, None);
- garbage text through `Game.play`: random unicode, empty strings, legal texts with a word
  changed, real card names after the wrong verb, unknown player names.

A rejected action must raise `ParseError` or `IllegalAction` (never another exception) and
leave the game exactly as it was: same `state_digest()` (the whole state: flow, fight, chance,
log and events included), `to_act`, number of events and log entries, legal actions of each seat
to act (cached and computed afresh), and a deeper digest of players, combat, prompt and random
state. An accepted one must leave every invariant intact (`invariants.violations`, each event
looked at once, as `invariants.Checker` does).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from munchkin.engine import actions as A
from munchkin.engine.actions import Action, IllegalAction, MunchkinError, ParseError
from munchkin.engine.game import Game, Options, Setup
from munchkin.engine.legal import compute_legal
from munchkin.engine.notation import VERBS, parse
from munchkin.engine.state import MonsterIn
from munchkin.invariants import Checker

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
KINDS = sorted({v for k, v in vars(A).items() if k.isupper() and isinstance(v, str)})
# Kinds whose `card` must be a card the acting seat holds (in hand or in play).
HELD_KINDS = {
    A.PLAY,
    A.EQUIP,
    A.UNEQUIP,
    A.DISCARD,
    A.GIVE,
    A.KEEP,
    A.TROUBLE,
    A.RESURRECT,
    A.BACKSTAB,
    A.SACRIFICE,
    A.SELL,
}
FLAGS = [
    "",
    "with",
    "target",
    "plain",
    "hireling",
    "double",
    "all",
    "you",
    "me",
    "both",
    "retry",
    "roll",
    "monster",
    "destroy",
    "only",
    "face",
]
FLAGS += ["x", "Roll", " "]
JUNK_WORDS = ["the", "on", "to", "for", "with", "discarding", "offering", "and", "of", "door", "zzz", "42", "-1", ","]

# No shrinking: an example replays thousands of steps, so shrinking takes minutes, and every
# failure message already names the seed, the turn, the prompt and the offending input.
# Under CI the examples are derandomized, so that a run there is reproducible.
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    derandomize=bool(os.environ.get("CI")),
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# ---------------------------------------------------------------------------- state
def _canon(v: Any) -> Any:
    """A value made comparable and JSON-friendly: sets and dicts in a fixed order."""
    if isinstance(v, (set, frozenset)):
        return sorted((_canon(x) for x in v), key=repr)
    if isinstance(v, dict):
        return sorted(((repr(k), _canon(x)) for k, x in v.items()), key=repr)
    if isinstance(v, (list, tuple)):
        return [_canon(x) for x in v]
    if isinstance(v, MonsterIn):
        return [v.card, v.base, list(v.enhancers), list(v.oneshots), v.mate_of.card if v.mate_of else None]
    return v


def _slots(obj: Any) -> list[Any]:
    return [[s, _canon(getattr(obj, s, None))] for s in type(obj).__slots__]


def deep_state(g: Game) -> str:
    """A digest of everything a rejected action must not touch (more than `fingerprint`)."""
    parts = [
        [
            g.turn,
            g.active,
            g.over,
            g.capped,
            g.winners,
            g.version,
            g.decisions,
            g.phase,
            g.door_deck,
            g.treasure_deck,
            g.door_discard,
            g.treasure_discard,
            g.limbo,
        ],
        [_canon(getattr(g, k, None)) for k in ("transferred", "forced_rolls", "charity_given", "roll")],
        [_slots(p) for p in g.players],
        _slots(g.combat) if g.combat is not None else None,
        [g.prompt.kind, list(g.prompt.seats), repr(g.prompt)],
        repr(g.rng.getstate()),
        len(g.log),
        repr(g.log[-3:]),
        len(g.events),
        repr(g.events[-5:]),
    ]
    return hashlib.sha256(json.dumps(parts, default=repr).encode()).hexdigest()


def snapshot(g: Game) -> dict[str, Any]:
    return {
        "state": g.state_digest(),
        "to_act": tuple(g.to_act),
        "events": len(g.events),
        "log": len(g.log),
        "legal": {s: list(g.legal_actions(s)) for s in g.to_act},
        # computed afresh, so that a stale cache cannot hide a change
        "fresh_legal": {s: list(compute_legal(g, s)) for s in g.to_act} if not g.over else {},
        "deep": deep_state(g),
    }


def describe(g: Game, seed: int, how: str, what: Any, seat: Any) -> str:
    return f"seed {seed}, turn {g.turn}, prompt {g.prompt.kind} {g.to_act}, {how} {what!r} as seat {seat}"


# ---------------------------------------------------------------------------- generators
def wrong_seat_action(g: Game, r: random.Random) -> Action | None:
    """A legal action of a seat to act, handed to a seat that may not act."""
    others = [s for s in range(-1, len(g.players) + 2) if s not in g.to_act]
    seats = [s for s in g.to_act if g.legal_actions(s)]
    if not seats or not others:
        return None
    a = r.choice(g.legal_actions(r.choice(seats)))
    return a._replace(seat=r.choice(others))


def unheld_card_action(g: Game, r: random.Random) -> Action | None:
    """A legal action whose card is swapped for one the seat does not hold (for a sale: one of
    the Items sold, or the Item sold at double price)."""
    cands = [a for s in g.to_act for a in g.legal_actions(s) if a.kind in HELD_KINDS and (a.card >= 0 or a.cards)]
    if not cands:
        return None
    a = r.choice(cands)
    p = g.players[a.seat]
    held = set(p.hand) | set(p.in_play())
    c = r.choice([c for c in range(g.ncards) if c not in held])
    if a.kind == A.SELL:
        if r.random() < 0.5:
            return a._replace(card=c, flag="double")
        cards = list(a.cards)
        cards[r.randrange(len(cards))] = c
        return a._replace(cards=tuple(cards))
    if a.card < 0:
        return None
    return a._replace(card=c)


FIELD_DEFAULTS: dict[str, Any] = {"card": -1, "target": -1, "monster": -1, "cards": (), "n": 0, "flag": ""}
COMBINED = (A.BERSERK, A.TURNING, A.FLIGHT)


def junk_field_action(g: Game, r: random.Random) -> Action | None:
    """A legal action (or a legal combined discard) with a value in a field that no legal
    action of its kind uses now: an unheld card, a player, a number, a flag."""
    seats = [s for s in g.to_act if g.legal_actions(s)]
    if not seats:
        return None
    legal = g.legal_actions(r.choice(seats))
    a = r.choice(legal)
    same = [b for b in legal if b.kind == a.kind]
    if a.kind in COMBINED and len(same) >= 2 and r.random() < 0.5:
        a = a._replace(cards=tuple(dict.fromkeys(b.cards[0] for b in r.sample(same, 2))))
    fields = [f for f, d in FIELD_DEFAULTS.items() if all(getattr(b, f) == d for b in same)]
    if not fields:
        return None
    field = r.choice(fields)
    p = g.players[a.seat]
    named = {b.monster for b in legal} | {b.card for b in legal} | set(b for x in legal for b in x.cards)
    if g.combat is not None:
        named |= {m.card for m in g.combat.monsters}
    pool = [c for c in range(g.ncards) if c not in p.hand and c not in p.in_play() and c not in named]
    value = {
        "card": r.choice(pool),
        "target": r.randrange(len(g.players)),
        "monster": r.choice(pool),
        "cards": (r.choice(pool),),
        "n": r.randrange(1, 4),
        "flag": r.choice(FLAGS[1:]),
    }[field]
    return a._replace(**{field: value})


def malformed_object(g: Game, r: random.Random) -> Any:
    """Not an action at all, or an Action with fields of the wrong types."""
    seat = r.choice(list(g.to_act) or [0])
    legal = g.legal_actions(seat)
    a = r.choice(legal) if legal else Action(A.PASS, seat)
    junk = r.choice([None, "1", 1.0, 2.5, True, [], {}, (1,), b"x", float("nan")])
    field = r.choice(list(Action._fields))
    return r.choice(
        [
            a._replace(**{field: junk}),
            tuple(a),
            list(a),
            None,
            [a.kind],
            {"kind": a.kind, "seat": a.seat},
            a._replace(cards=list(a.cards)),
            a._replace(cards=(junk,)),
        ]
    )


def out_of_range_action(g: Game, r: random.Random) -> Action | None:
    """A legal action (of a seat to act) with one id out of range or negative."""
    cands = [a for s in g.to_act for a in g.legal_actions(s)]
    if not cands:
        return None
    a = r.choice(cands)
    bad_card = r.choice([g.ncards, g.ncards + r.randrange(1, 10_000), -2, -r.randrange(2, 10_000), 10**12])
    bad_seat = r.choice([len(g.players), len(g.players) + r.randrange(1, 50), -2, -r.randrange(2, 50)])
    field = r.choice(["card", "target", "monster", "cards"])
    if field == "card":
        return a._replace(card=bad_card)
    if field == "target":
        return a._replace(target=bad_seat)
    if field == "monster":
        return a._replace(monster=bad_card)
    cards = list(a.cards)
    if cards and r.random() < 0.5:
        cards[r.randrange(len(cards))] = bad_card
    else:
        cards.append(bad_card)
    return a._replace(cards=tuple(cards))


def made_up_action(g: Game, r: random.Random) -> Action:
    """A random action tuple: any kind, any seat, any ids."""
    n = len(g.players)

    def cid() -> int:
        return r.choice([-1, -1, r.randrange(g.ncards), r.randrange(-5, g.ncards + 5)])

    kind = r.choice(KINDS + ["", "fly", "PLAY", "kick open the door"])
    seat = r.choice(list(g.to_act) * 3 + list(range(-1, n + 1)))
    return Action(
        kind,
        seat,
        card=cid(),
        target=r.choice([-1, r.randrange(-2, n + 2)]),
        monster=cid(),
        cards=tuple(cid() for _ in range(r.choice([0, 0, 1, 2, 3]))),
        n=r.choice([0, 0, 1, 2, 3, -1, 99]),
        flag=r.choice(FLAGS),
    )


def near_miss_text(g: Game, r: random.Random) -> str:
    """A legal text (of some seat to act) with a word changed, dropped, doubled or swapped."""
    texts = [g.text(a) for s in g.to_act for a in g.legal_actions(s)]
    if not texts:
        return "kick open the door"
    words = r.choice(texts).split(" ")
    vocab = JUNK_WORDS + list(VERBS) + [p.name for p in g.players] + r.choice(g.cdef).name.split(" ")
    i = r.randrange(len(words))
    how = r.randrange(6)
    if how == 0:
        words[i] = r.choice(vocab)
    elif how == 1 and len(words) > 1:
        del words[i]
    elif how == 2:
        words.insert(i, words[i])
    elif how == 3 and len(words) > 1:
        j = r.randrange(len(words))
        words[i], words[j] = words[j], words[i]
    elif how == 4:
        words.append(r.choice(vocab))
    else:
        words[i] = words[i][:-1] or "x"
    return " ".join(words)


def wrong_verb_text(g: Game, r: random.Random) -> str:
    """A real card name after a (probably) wrong verb, maybe with a target."""
    name = r.choice(g.cdef).name
    verb = r.choice(
        [
            "play",
            "keep",
            "equip",
            "unequip",
            "discard",
            "give",
            "sell",
            "look for trouble with",
            "charm",
            "take",
            "choose",
            "use",
            "decline",
            "sacrifice",
            "berserk discarding",
            "turn undead discarding",
            "cast flight discarding",
            "take the top door discard discarding",
            "run away from",
            "steal",
            "backstab",
        ]
    )
    text = f"{verb} {name}"
    tail = r.randrange(5)
    who = r.choice([p.name for p in g.players] + ["Nobody", "the Hireling", ""])
    if tail == 1:
        text += f" on {who}"
    elif tail == 2:
        text += f" to {who}"
    elif tail == 3:
        text += f" for {who}"
    elif tail == 4:
        text += f", {r.choice(g.cdef).name}"
    return text


def odd_text(g: Game, r: random.Random) -> str:
    """Texts near the edges of the notation: asks, sales, lists, numbers, names."""
    p = g.players[r.choice(list(g.to_act) or [0])]
    name = r.choice([q.name for q in g.players] + ["Zed", "", "ann bob", "-1"])
    mine = [g.name(c) for c in p.hand + p.in_play()] or ["Mr. Bones"]
    any_card = r.choice(g.cdef).name
    n = r.choice(["0", "1", "2", "7", "999", "-1", "all the", "1.5", "99999999999999999999"])
    return r.choice(
        [
            "",
            " ",
            "\t\n",
            "...",
            "!",
            f"ask {name} for help",
            f"ask {name} for help offering {n} treasures",
            f"ask {name} for help offering {n} treasure, i pick first",
            f"ask {name} for help offering {r.choice(mine)} and {any_card}",
            f"ask {name} for help offering {r.choice(mine)}, {r.choice(mine)}",
            f"sell {r.choice(mine)}, {r.choice(mine)}",
            f"sell {r.choice(mine)} at double price, {any_card}",
            f"sell {any_card}",
            "sell ",
            "sell , ,",
            f"berserk discarding {r.choice(mine)}, {r.choice(mine)}, {r.choice(mine)}, {r.choice(mine)}",
            f"turn undead discarding {r.choice(mine)}, {any_card}",
            f"cast flight discarding {r.choice(mine)},",
            f"give {r.choice(mine)} to {name}",
            f"give {r.choice(mine)} to the Hireling",
            f"offer to help {name}",
            f"backstab {name} discarding {r.choice(mine)}",
            f"steal {any_card} from {name} discarding {r.choice(mine)}",
            f"play {r.choice(mine)} on {any_card}",
            f"play {r.choice(mine)} with {any_card}, {any_card}",
            f"use {r.choice(mine)} roll on {name}",
            f"decline {any_card}",
            "run away from nothing",
            "PASS!!!",
            "  Kick   Open THE door.  ",
            "end the turn please",
            "accept refuse",
        ]
    )


def other_seat_text(g: Game, r: random.Random) -> tuple[str, int] | None:
    """A legal text of one seat to act, said by another seat for whom it names no legal action (a
    seat not waited on may say the very same words and mean its own any-time action: "trade Laser
    with Ann for Force Field Belt" is legal for every seat with a Laser when trades are allowed)."""
    seats = [s for s in g.to_act if g.legal_actions(s)]
    if not seats:
        return None
    s = r.choice(seats)
    text = g.text(r.choice(g.legal_actions(s)))
    others = [x for x in range(len(g.players)) if x != s and not _legal_for(g, text, x)]
    return (text, r.choice(others)) if others else None


def _legal_for(g: Game, text: str, seat: int) -> bool:
    """Whether `text` said by `seat` reads as one of that seat's legal actions."""
    try:
        acts = parse(g, text, seat)
    except (ParseError, IllegalAction):
        return False
    return len(acts) == 1 and acts[0] in g.legal_actions(seat)


# ---------------------------------------------------------------------------- driver
class Driver:
    def __init__(self, g: Game, seed: int, checker: Checker) -> None:
        self.g = g
        self.seed = seed
        self.checker = checker  # the invariants, each event looked at once
        self.accepted = 0
        self.rejected = 0

    def check_accepted(self, desc: str) -> None:
        v = self.checker.check(self.g)  # violations(g) on the events since the last check
        assert v == [], f"{desc} broke invariants: {v}"
        self.accepted += 1

    def attempt(self, how: str, what: Any, seat: Any, must_reject: bool) -> None:
        """Apply an action object (anything but a str; even a malformed one) or play a text."""
        g = self.g
        desc = describe(g, self.seed, how, what, seat)
        before = snapshot(g)
        try:
            if isinstance(what, str):
                g.play(what, seat)
            else:
                g.apply(what)
        except (ParseError, IllegalAction) as exc:
            assert str(exc), f"{desc}: error without a message"
            after = snapshot(g)
            for key in before:
                assert after[key] == before[key], (
                    f"{desc} was rejected ({type(exc).__name__}: {exc}) but changed the game's {key}"
                )
            self.rejected += 1
            return
        except MunchkinError as exc:
            raise AssertionError(
                f"{desc} raised a bare {type(exc).__name__}: {exc} (rejections must be ParseError or IllegalAction)"
            ) from exc
        except Exception as exc:
            raise AssertionError(f"{desc} raised {type(exc).__name__}: {exc}") from exc
        assert not must_reject, f"{desc} was accepted but is illegal"
        self.check_accepted(desc)

    def legal_step(self, r: random.Random) -> None:
        g = self.g
        seat = r.choice(list(g.to_act))
        legal = g.legal_actions(seat)
        assert legal, f"seed {self.seed}: seat {seat} is to act with no legal action ({g.prompt.kind})"
        a = legal[r.randrange(len(legal))]
        desc = describe(g, self.seed, "legal action", a, seat)
        try:
            g.apply(a)
        except Exception as exc:
            raise AssertionError(f"{desc} raised {exc!r}") from exc
        self.check_accepted(desc)


SETS = [
    ["deluxe"],
    ["star"],
    ["star", "deluxe"],
    ["good-bad"],
    ["good-bad", "deluxe"],
    ["harry-potter"],
    ["harry-potter", "deluxe"],
]


def new_game(seed: int, players: int, fast: bool, sets: list[str] | None = None) -> Game:
    options = Options(listen_at_the_door=fast, shared_victories=fast)
    return Game(Setup(sets or ["deluxe"], NAMES[:players], seed, options))


def fast_forward(g: Game, steps: int, r: random.Random, checker: Checker) -> None:
    """Random legal steps, with every invariant checked after each."""
    for _ in range(steps):
        if g.over:
            return
        seat = r.choice(list(g.to_act))
        legal = g.legal_actions(seat)
        a = legal[r.randrange(len(legal))]
        g.apply(a)
        v = checker.check(g)
        assert v == [], f"seed {g.setup.seed}, turn {g.turn}: {a!r} broke invariants: {v}"


STEP_KINDS = [
    "legal",
    "legal",
    "legal",
    "wrong_seat",
    "unheld_card",
    "junk_field",
    "malformed",
    "out_of_range",
    "made_up",
    "unicode_text",
    "near_miss_text",
    "wrong_verb_text",
    "odd_text",
    "other_seat_text",
]


ACTION_MAKERS: dict[str, Callable[[Game, random.Random], Action | None]] = {
    "wrong_seat": wrong_seat_action,
    "unheld_card": unheld_card_action,
    "out_of_range": out_of_range_action,
    "junk_field": junk_field_action,
}
TEXT_MAKERS: dict[str, Callable[[Game, random.Random], str]] = {
    "near_miss_text": near_miss_text,
    "wrong_verb_text": wrong_verb_text,
    "odd_text": odd_text,
}


def run_step(d: Driver, kind: str, r: random.Random, unicode_text: Callable[[], str]) -> None:
    """One step of a kind from STEP_KINDS, its random choices made by `r`."""
    g = d.g
    if kind == "legal":
        if not g.over:
            d.legal_step(r)
    elif kind in ACTION_MAKERS:
        a = ACTION_MAKERS[kind](g, r)
        if a is not None:
            d.attempt(kind, a, a.seat, must_reject=True)
    elif kind == "malformed":
        d.attempt(kind, malformed_object(g, r), None, must_reject=True)
    elif kind == "made_up":
        a = made_up_action(g, r)
        d.attempt(kind, a, a.seat, must_reject=g.over or a.seat not in g.to_act)
    elif kind == "other_seat_text":
        said = other_seat_text(g, r)
        if said is not None:
            d.attempt(kind, said[0], said[1], must_reject=said[1] not in g.to_act)
    else:
        text = unicode_text() if kind == "unicode_text" else TEXT_MAKERS[kind](g, r)
        seat = r.choice(list(g.to_act) + list(range(len(g.players))) + [None, -1, len(g.players)])
        d.attempt(kind, text, seat, must_reject=g.over or (seat is not None and seat not in g.to_act))


@SETTINGS
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.sampled_from([3, 4, 6]),
    fast=st.booleans(),
    warmup=st.integers(min_value=0, max_value=3000),
    sets=st.sampled_from(SETS),
    data=st.data(),
)
def test_random_input_never_corrupts_the_game(
    seed: int, players: int, fast: bool, warmup: int, sets: list[str], data: Any
) -> None:
    g = new_game(seed, players, fast, sets)
    checker = Checker()
    fast_forward(g, warmup, random.Random(seed), checker)
    d = Driver(g, seed, checker)
    for _ in range(data.draw(st.integers(min_value=10, max_value=60), label="steps")):
        kind = data.draw(st.sampled_from(STEP_KINDS), label="step")
        r = random.Random(data.draw(st.integers(min_value=0, max_value=2**32 - 1), label="choice"))
        run_step(d, kind, r, lambda: data.draw(st.text(max_size=40), label="text"))


@settings(SETTINGS, max_examples=100)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.sampled_from([3, 4, 6]),
    warmup=st.integers(min_value=0, max_value=3000),
    text=st.one_of(st.text(max_size=60), st.sampled_from(["", " ", "\x00", "\u202e", "ｋｉｃｋ open the door"])),
    sets=st.sampled_from(SETS),
)
def test_unicode_text_is_rejected_cleanly(seed: int, players: int, warmup: int, text: str, sets: list[str]) -> None:
    """Any text at any seat: accepted (then invariants hold) or rejected without a trace."""
    g = new_game(seed, players, fast=False, sets=sets)
    checker = Checker()
    fast_forward(g, warmup, random.Random(seed), checker)
    d = Driver(g, seed, checker)
    for seat in [*g.to_act, None, *range(len(g.players))]:
        d.attempt("text", text, seat, must_reject=g.over or (seat is not None and seat not in g.to_act))


@settings(SETTINGS, max_examples=10)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), players=st.sampled_from([3, 4, 6]))
def test_finished_game_refuses_everything(seed: int, players: int) -> None:
    g = new_game(seed, players, fast=True)
    checker = Checker()
    fast_forward(g, 100_000, random.Random(seed), checker)
    assert g.over
    d = Driver(g, seed, checker)
    r = random.Random(seed)
    for _ in range(10):
        a = made_up_action(g, r)
        d.attempt("made_up", a, a.seat, must_reject=True)
        d.attempt("text", wrong_verb_text(g, r), r.randrange(players), must_reject=True)
        d.attempt("text", "kick open the door", g.active, must_reject=True)
