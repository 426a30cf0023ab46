"""Action notation: each action's canonical text, and parsing text back (docs/notation.md)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from munchkin.engine import actions as A
from munchkin.engine import characters, legal, rewards
from munchkin.engine.actions import Action, IllegalAction, MunchkinError, ParseError
from munchkin.engine.rules import WINNING_LEVEL, gifts_any_time

if TYPE_CHECKING:
    from munchkin.engine.game import Game


def _list(g: Game, cards: tuple[int, ...]) -> str:
    return ", ".join(g.name(c) for c in cards)


def action_text(g: Game, a: Action) -> str:
    """The canonical text of an action, in the rulebook's words."""
    k = a.kind
    n = g.name
    who = g.name_of
    if k == A.KICK:
        return g.phase_words.get("kick_open_the_door", "kick open the door").lower()
    if k == A.LOOT:
        return "loot the room"
    if k == A.TROUBLE:
        return f"{_trouble_words(g)} with {n(a.card)}"
    if k == A.END:
        return "end the turn"
    if k == A.READY:
        return "ready"
    if k == A.PASS:
        return "pass"
    if k == A.KEEP:
        return f"keep {n(a.card)}"
    if k == A.PLAY:
        if a.flag == "face":  # Loaded Die: the die shows this face instead
            return f"play {n(a.card)} to make it a {a.n}"
        if a.flag == "only" and a.target >= 0:  # Instant Wall for one of the two fighters
            return f"play {n(a.card)} for {who(a.target)} only"
        if a.flag in ("destroy", "sidekick") and a.cards and a.target >= 0:  # Annihilate; a Trap on a Sidekick
            return f"play {n(a.card)} on {who(a.target)}'s {n(a.cards[0])}"
        if a.flag == "on" and a.cards:  # an Item Enhancer onto one of your Items
            return f"play {n(a.card)} on {n(a.cards[0])}"
        if a.flag == "fight":  # a Steed drawn face-up, fought as a monster
            return f"fight {n(a.card)}"
        if a.flag == "swap" and len(a.cards) == 2:  # Help Me Out Here!: an Item of yours discarded first
            return f"play {n(a.card)} with {n(a.cards[0])} from {who(a.target)} discarding {n(a.cards[1])}"
        s = f"play {n(a.card)}"
        if a.flag == "with" or (a.cards and a.flag != "target"):
            s += f" with {_list(g, a.cards)}"
        if a.monster >= 0:
            s += f" on {n(a.monster)}"
        elif a.target >= 0 and (a.target != a.seat or g.cdef[a.card].is_curse):
            d = g.cdef[a.card]
            prep = "for" if d.is_one_shot else "on"
            if (
                d.is_one_shot
                and g.combat is not None
                and a.seat in g.combat.fighters()
                and a.target in g.combat.fighters()
            ):
                return s
            s += f" {prep} {who(a.target)}"
        return s
    if k == A.EQUIP:
        return f"equip {n(a.card)}"
    if k == A.UNEQUIP:
        return f"unequip {n(a.card)}"
    if k == A.DISCARD:
        return f"discard {n(a.card)}"
    if k == A.GIVE:
        if a.flag == "hireling":  # to a Sidekick or Hireling to carry
            carrier = a.cards[0] if a.cards else legal.free_carrier(g, g.players[a.seat])
            if carrier >= 0 and g.cdef[carrier].word == "Ally":  # Allies are people: "to Dobby"
                return f"give {n(a.card)} to {n(carrier)}"
            return f"give {n(a.card)} to the {n(carrier) if carrier >= 0 else 'Hireling'}"
        return f"give {n(a.card)} to {who(a.target)}"
    if k == A.SELL:
        parts = [n(c) + (" at double price" if c == a.card else "") for c in a.cards]
        return "sell " + ", ".join(parts)
    if k == A.ACCEPT:
        return "accept"
    if k == A.REFUSE:
        return "refuse"
    if k == A.ASK:
        s = f"ask {who(a.target)} for help"
        offers = [n(c) for c in a.cards]
        if a.n:
            t = "all the treasures" if a.flag == "all" else f"{a.n} treasure{'s' if a.n > 1 else ''}"
            if a.flag == "you":
                t += ", you pick first"
            elif a.flag == "me":
                t += ", I pick first"
            offers.append(t)
        if offers:
            s += " offering " + " and ".join(offers)
        return s
    if k == A.BERSERK:
        return f"berserk discarding {_list(g, a.cards)}"
    if k == A.TURNING:
        return f"turn {turned_word(g, a.seat)} discarding {_list(g, a.cards)}"
    if k == A.HOUSE:
        return f"use {g.players[a.seat].house.title()} discarding {n(a.card)}"
    if k == A.FLIGHT:
        return f"cast flight discarding {_list(g, a.cards)}"
    if k == A.CHARM:
        return f"charm {n(a.monster)}"
    if k == A.BACKSTAB:
        return f"backstab {who(a.target)} discarding {n(a.card)}"
    if k == A.STEAL:
        return f"steal {n(a.card)} from {who(a.target)} discarding {_list(g, a.cards)}"
    if k == A.RUN:
        return "run away"
    if k == A.FLEE_FROM:
        return f"run away from {n(a.monster)}"
    if k == A.SACRIFICE:
        s = f"sacrifice {n(a.card)}"
        if a.flag == "both" and g.combat is not None and g.combat.helper >= 0:
            s += f" to save {who(g.combat.helper)} too"
        return s
    if k == A.CHOOSE:
        return f"choose {a.flag}" if a.card < 0 else f"choose {n(a.card)}"
    if k == A.TAKE:
        return f"take {n(a.card)}"
    if k == A.RESURRECT:
        return f"take the top {a.flag or 'door'} discard discarding {n(a.card)}"
    if k == A.USE:
        if a.flag == "retry":
            return f"run again discarding {n(a.card)}"
        s = f"use {n(a.card)}"
        if a.flag and a.flag not in ("roll", "monster"):
            s += f" {a.flag}"
        if a.monster >= 0:
            s += f" on {n(a.monster)}"
        elif a.target >= 0:
            s += f" on {who(a.target)}"
        return s
    if k == A.TRADE:
        return f"trade {n(a.card)} with {who(a.target)} for {_list(g, a.cards)}"
    if k == A.BACK_OUT:
        return "back out of the fight"
    if k == A.VOLUNTEER:
        return f"offer to help {who(a.target)}"
    if k == A.DECLINE:
        return f"decline {n(a.card)}" if a.card >= 0 else "decline"
    return f"{k} {a}"


def _trouble_words(g: Game) -> str:
    """Look For Trouble, or the set's own words for it ("get up to no good")."""
    w = g.phase_words.get("look_for_trouble")
    return f"get {w.lower()}" if w else "look for trouble"


TURNED = (
    ("turning", "undead", "undead"),
    ("turning_death_eater", "death_eater", "death eaters"),
    ("turning_dragon", "dragon", "dragons"),
)


def turned_word(g: Game, seat: int) -> str:
    """What a fighter turns with their discards: Undead, Death Eaters or Dragons."""
    c = g.combat
    if c is not None:
        p = g.players[seat]
        for ability, tag, word in TURNED:
            if characters.has_ability(g, p, ability) and any(tag in g.cdef[m.base].kin for m in c.monsters):
                return word
    return "undead"


# other phrasings of the same actions, read back as the canonical ones
ALIASES = (
    (r"^(?:kick open the door|unlock the door)$", "kick"),
    (r"^(?:look for trouble|get up to no good|go up to no good|up to no good) with (.+)$", "trouble"),
)


# The shapes of every action text (`action_text` and the aliases above), with each card name read
# as C, each player name as P, each whole number as N: what makes a text an action at all, legal
# now or not. A list of cards is "C, C, C".
_CL = r"C(?:, C)*"
_OFFER = r"(?:C|(?:N|all the) treasures?(?:, (?:you|i) pick first)?)"
SHAPES = tuple(
    re.compile(f"^{s}$")
    for s in (
        r"(?:kick open the door|unlock the door|loot the room|end the turn|ready|pass|accept|refuse)",
        r"(?:run away|back out of the fight|decline)",
        r"(?:look for trouble|get up to no good|go up to no good|up to no good|get [a-z' ]+) with C",
        r"(?:keep|equip|unequip|discard|take|charm|fight|decline|choose|run away from) C",
        r"choose (?:[a-z']+|N)(?: (?:[a-z']+|N))*",  # a card's worded option (Platycore)
        r"play C to make it a N",
        r"play C for P only",
        r"play C on P's C",
        rf"play C(?: with {_CL})?(?: on C| on P| for P)?",
        r"play C with C from P discarding C",
        r"give C to (?:P|C|the C|the hireling)",
        r"sell C(?: at double price)?(?:, C(?: at double price)?)*",
        rf"ask P for help(?: offering {_OFFER}(?: and {_OFFER})*)?",
        rf"(?:berserk|cast flight|turn (?:undead|death eaters|dragons|C)) discarding {_CL}",
        r"use [a-z]+ discarding C",
        r"backstab P discarding C",
        rf"steal C from P discarding {_CL}",
        r"sacrifice C(?: to save P too)?",
        r"take the top (?:door|treasure) discard discarding C",
        r"run again discarding C",
        rf"use C(?: discarding {_CL}| [a-z]+)?(?: on C| on P)?",
        rf"trade C with P for {_CL}",
        r"offer to help P",
    )
)


def not_an_action(g: Game, text: str) -> str | None:
    """Why `text` is no action of the notation in this game (None: it is one, legal now or not):
    an unknown verb, a card or player name the game does not have, words in no action's shape."""
    t = _norm(text)
    if not t:
        return "it is empty"
    if t.split(" ", 1)[0] not in VERBS:
        return f"no action starts with {t.split(' ', 1)[0]!r} (they start with {', '.join(VERBS)})"
    named = [(n, "C") for n in [*g.cards_by_name, *g.houses]] + [
        (p.name.lower(), "P") for p in g.players
    ]  # a House is a card
    named += [(n.rstrip("."), k) for n, k in named if n.endswith(".")]  # a text's last "." is dropped
    names = sorted(named, key=lambda x: -len(x[0]))
    pattern = "|".join(re.escape(n) for n, _ in names)
    kinds = dict(names)
    shape = re.sub(rf"(?<![\w])(?:{pattern})(?![\w])", lambda m: kinds[m.group(0)], t)
    shape = re.sub(r"(?<![\w])\d+(?![\w])", "N", shape)
    if any(sh.match(shape) for sh in SHAPES):
        return None
    return f"it has the shape {shape!r}, which no action has (C: a card's name, P: a player's, N: a number)"


def _norm(text: str) -> str:
    text = text.strip().lower().replace("’", "'")
    text = re.sub(r"\s+", " ", text)
    return text.rstrip(".").rstrip()  # "!" belongs to names such as Cheat!


VERBS = (
    "kick",
    "look",
    "loot",
    "end",
    "pass",
    "play",
    "keep",
    "equip",
    "unequip",
    "discard",
    "give",
    "sell",
    "accept",
    "refuse",
    "ask",
    "berserk",
    "turn",
    "cast",
    "charm",
    "backstab",
    "steal",
    "run",
    "sacrifice",
    "choose",
    "take",
    "use",
    "decline",
    "offer",
    "trade",
    "back",
    "ready",
    "fight",
    "unlock",
    "get",
    "go",
    "up",
)


def parse(g: Game, text: str, seat: int) -> list[Action]:
    """Read an action for `seat`; a comma list of discards becomes one action.

    Returns a list with one action, or several for shorthand that means several steps.
    Raises ParseError for text outside the notation, IllegalAction for illegal actions.
    """
    t = _norm(text)
    if not t:
        raise ParseError("empty action")
    verb = t.split(" ", 1)[0]
    if verb not in VERBS:
        raise ParseError(f"unknown action {text.strip()!r}: it must start with one of {', '.join(VERBS)}")
    listed = g.legal_actions(seat)
    if seat not in g.to_act and not listed:  # not waited on, and no any-time action either
        who = ", ".join(g.name_of(s) for s in g.to_act) or "nobody"
        raise IllegalAction(f"{g.name_of(seat)} may not act now; waiting on {who}")
    for a in listed:
        if _norm(action_text(g, a)) == t:
            return [a]
    for pattern, kind in ALIASES:  # Unlock the Door = Kick Open the Door; Up to No Good = Look For Trouble
        m = re.fullmatch(pattern, t)
        if m:
            want = action_text(g, Action(A.KICK, seat)) if kind == "kick" else f"{_trouble_words(g)} with {m.group(1)}"
            for a in listed:
                if _norm(action_text(g, a)) == _norm(want):
                    return [a]
    # shorthand and unlisted forms
    m = re.fullmatch(r"(berserk|turn undead|turn death eaters|turn dragons|cast flight) discarding (.+)", t)
    if m:
        kind = {"berserk": A.BERSERK, "cast flight": A.FLIGHT}.get(m.group(1), A.TURNING)
        if kind == A.TURNING and m.group(1) != f"turn {turned_word(g, seat)}":
            raise IllegalAction(f"{t!r} is not legal now: {g.name_of(seat)} has no {m.group(1)[5:]} to turn here")
        cards = _cards_of(g, seat, m.group(2), zones="discardable")
        a = Action(kind, seat, cards=tuple(cards))
        legal.verify_unlisted(g, a) if a not in listed else None
        return [a]
    m = re.fullmatch(r"sell (.+)", t)
    if m:
        names = [s.strip() for s in m.group(1).split(",")]
        sold: list[int] = []
        dbl = -1
        for s in names:
            d = s.endswith(" at double price")
            s = s.removesuffix(" at double price")
            c = _card_of(g, seat, s, "sellable", exclude=sold)
            sold.append(c)
            if d:
                dbl = c
        a = Action(A.SELL, seat, dbl, cards=tuple(sold), flag="double" if dbl >= 0 else "")
        # a listed sale of the same Items with the same one at double price (not merely some one)
        doubled = g.cdef[dbl].idx if dbl >= 0 else -1
        for b in listed:
            if b.kind == A.SELL and sorted(g.cdef[c].idx for c in b.cards) == sorted(g.cdef[c].idx for c in sold):
                if (g.cdef[b.card].idx if b.card >= 0 else -1) == doubled:
                    return [b]
        legal.verify_unlisted(g, a)
        return [a]
    m = re.fullmatch(r"steal (.+) from (.+?) discarding (.+)", t)
    if m:  # a theft paid with a card the list leaves out (any card that powers an ability)
        steals = [a for a in listed if a.kind == A.STEAL and _norm(g.name(a.card)) == m.group(1)]
        steals = [a for a in steals if _norm(g.name_of(a.target)) == m.group(2)]
        if steals:
            paid = _card_of(g, seat, m.group(3), "discardable")
            a = Action(A.STEAL, seat, steals[0].card, steals[0].target, cards=(paid,))
            legal.verify_unlisted(g, a)
            return [a]
    m = re.fullmatch(r"ask (.+?) for help(?: offering (.+))?", t)
    if m:
        target = g.seat_of(m.group(1))
        offered: list[int] = []
        n, flag = 0, ""
        if m.group(2):
            for part in re.split(r" and |, (?!you pick|i pick)", m.group(2)):
                part = part.strip()
                tm = re.fullmatch(r"(\d+|all the) treasures?(?:, (you|i) pick first)?", part)
                if tm:
                    if tm.group(1) == "all the":
                        fight = g.combat
                        n = sum(rewards.monster_treasures(g, fight, x) for x in fight.monsters) if fight else 0
                        flag = "all"
                    else:
                        n = int(tm.group(1))
                        flag = {"you": "you", "i": "me", None: "you"}[tm.group(2)]
                else:
                    offered.append(_card_of(g, seat, part, "offer", exclude=offered))
        a = Action(A.ASK, seat, target=target, cards=tuple(offered), n=n, flag=flag)
        if a in listed:
            return [a]
        legal.verify_unlisted(g, a)
        return [a]
    raise IllegalAction(_explain_text(g, seat, t, listed))


def _zone(g: Game, seat: int, zones: str) -> list[int]:
    p = g.players[seat]
    if zones == "discardable":
        return legal.fuel(g, p)
    if zones == "sellable":
        return characters.sellable(g, p)
    if zones == "items":
        return list(p.items)
    if zones == "offer":
        return list(p.items) + [c for c in p.hand if g.cdef[c].is_gual]
    return p.hand + p.in_play()


def _card_of(g: Game, seat: int, name: str, zones: str, exclude: list[int] | None = None) -> int:
    cands = [c for c in _zone(g, seat, zones) if g.cdef[c].name.lower() == name.strip() and c not in (exclude or [])]
    if not cands:
        if name.strip() not in g.cards_by_name:
            raise ParseError(f"no card is named {name.strip()!r}")
        raise IllegalAction(f"{g.name_of(seat)} has no {name.strip()!r} to use for that")
    return cands[0]


def _cards_of(g: Game, seat: int, names: str, zones: str) -> list[int]:
    out: list[int] = []
    for s in names.split(","):
        out.append(_card_of(g, seat, s, zones, exclude=out))
    return out


def _explain_text(g: Game, seat: int, t: str, listed: list[Action]) -> str:
    """Why a well-formed text is not legal now, as precisely as we can tell."""
    verb = t.split(" ", 1)[0]
    same = [action_text(g, a) for a in listed if action_text(g, a).split(" ", 1)[0] == verb]
    # a card name that nobody's card has (the longest known name after the verb)
    rest = t.split(" ", 1)[1] if " " in t else ""
    house = rest.split(" ", 1)[0]
    if verb == "use" and house in g.houses:  # a House power: "use slytherin discarding ..."
        p = g.players[seat]
        if p.house != house:
            return f"{p.name} is no {house.title()}"
        if g.combat is None or seat not in g.combat.fighters():
            return f"only a fighter (or the helper) may use the {house.title()} power, in combat"
        if seat in g.combat.house_bonus:
            return f"the {house.title()} power is used once per combat"
        return f"{t!r} is not legal now: the {house.title()} power discards a monster from the hand"
    name = _longest_name(g, rest)
    if verb in ("play", "keep", "equip", "unequip", "discard", "give", "choose", "take", "use", "charm"):
        if name is None:
            word = re.split(r" (?:on|for|to|with) ", rest)[0]
            return f"no card is named {word!r}"
        p = g.players[seat]
        mine = [c for c in p.hand + p.in_play() if g.cdef[c].name.lower() == name]
        if not mine and verb in ("play", "equip", "unequip", "discard", "give", "keep"):
            return f"{p.name} has no {g.cdef[g.cards_by_name[name][0]].name}"
        if verb == "play" and mine and g.cdef[mine[0]].is_gual:  # never the winning Level
            after = rest[len(name) :].strip()
            q = next((x for x in g.players if after == f"on {x.name.lower()}"), p if not after else None)
            if q is not None and q.level >= WINNING_LEVEL - 1:
                return (
                    f"{t!r} is not legal now: a Go Up a Level card never gives the winning Level "
                    f"(Level {WINNING_LEVEL}), and {q.name} is Level {q.level}"
                )
    fighting = g.combat.fighters() if g.combat is not None else ()
    exchange = verb == "trade" or (verb == "give" and gifts_any_time(g))
    if exchange and fighting:  # the partner: "trade X with NAME for Y", "give X to NAME"
        between = " with {} for " if verb == "trade" else " to {} "
        partner = next((q for q in g.players if between.format(q.name.lower()) in f" {rest} "), None)
        if seat in fighting or (partner is not None and partner.seat in fighting):
            them = g.name_of(seat) if seat in fighting else partner.name  # type: ignore[union-attr]
            return f"{t!r} is not legal now: {them} is in the combat, and {legal.IN_COMBAT_RULE[verb]}"
    if verb in ("equip", "unequip") and seat in fighting:
        return f"no {verb}ping during combat: {g.name_of(seat)} is in the combat (Items change only out of combat)"
    if g.combat is not None and (verb == "sell" or (verb == "give" and not exchange)):
        return f"no {verb[:-1] if verb.endswith('e') else verb}ing during combat"
    if same:
        return f"{t!r} is not legal now; legal {verb} actions: " + "; ".join(same[:12])
    moment = g.prompt.rule()
    if seat not in g.to_act:  # not waited on: its any-time actions only
        who = ", ".join(g.name_of(s) for s in g.to_act) or "nobody"
        return (
            f"{t!r} is not legal now: the game waits on {who} ({moment}); {g.name_of(seat)} may take any-time "
            "actions only: " + "; ".join(action_text(g, a) for a in listed[:12])
        )
    return f"{t!r} is not legal now ({moment}); legal actions: " + "; ".join(action_text(g, a) for a in listed[:12])


def _longest_name(g: Game, rest: str) -> str | None:
    """The longest card name that the text starts with, if any."""
    best = None
    for name in g.cards_by_name:
        if (
            rest.startswith(name)
            and (len(rest) == len(name) or rest[len(name)] in " ,")
            and (best is None or len(name) > len(best))
        ):
            best = name
    return best


def explain(g: Game, a: Action) -> str:
    """Why an action object is not legal now."""
    if a.seat not in g.to_act:
        return f"{g.name_of(a.seat)} may not act now"
    try:
        t = _norm(action_text(g, a))
    except (IndexError, KeyError, TypeError, MunchkinError):
        return f"malformed action {a!r}"
    return _explain_text(g, a.seat, t, g.legal_actions(a.seat))


__all__ = ["action_text", "parse", "explain", "not_an_action", "ParseError", "IllegalAction"]
