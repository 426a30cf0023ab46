"""A seat's legal moves as a staged menu a person can scan: the natural moves of the moment first,
then groups (the card or power first, then its target, then its options), each choice with its
meaning in plain words. Built from the engine's public interface only; every leaf is exactly one
legal action, named by its canonical text (so typing it keeps working)."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from munchkin.engine import actions as A
from munchkin.engine import decisions as D
from munchkin.engine.actions import Action
from munchkin.engine.events import article
from munchkin.engine.game import Game
from munchkin.engine.rules import ESCAPE_ROLL

MAX_TOP = 12  # never more top-level entries than this, for any seat at any moment
MAX_STAGE = 12  # a deeper stage with more entries is split into parts
PART = 10  # entries in each part of a split stage


@dataclass
class Entry:
    """One choice in a stage: a move (one legal action) or a group that opens the next stage."""

    type: str  # "move" or "group"
    label: str  # the words on the choice within its stage
    meaning: str  # what choosing it does, in plain words
    text: str = ""  # a move: the action's canonical text
    kind: str = ""  # a move: the action kind
    cards: list[int] = field(default_factory=list)  # a move: the cards it uses
    id: str = ""  # a group: a stable key (the same group keeps it from one state to the next)
    entries: list[Entry] = field(default_factory=list)  # a group: its next stage
    alone: str = ""  # a move: its words shown out of its group (a group of one folded, a filter); "": its text

    def to_json(self) -> dict[str, Any]:
        """The entry as JSON, without the fields its type does not use."""
        if self.type == "move":
            out = {
                "type": "move",
                "label": self.label,
                "meaning": self.meaning,
                "text": self.text,
                "kind": self.kind,
                "cards": self.cards,
            }
            if self.alone:
                out["alone"] = self.alone
            return out
        return {
            "type": "group",
            "id": self.id,
            "label": self.label,
            "meaning": self.meaning,
            "entries": [e.to_json() for e in self.entries],
        }

    def moves(self) -> list[Entry]:
        """Every move under this entry (itself, for a move)."""
        if self.type == "move":
            return [self]
        return [m for e in self.entries for m in e.moves()]


@dataclass
class Menu:
    """The whole staged menu for one seat at one moment."""

    prompt: str  # the engine's prompt kind
    title: str  # what the moment asks, in words
    entries: list[Entry]

    def to_json(self) -> dict[str, Any]:
        return {"prompt": self.prompt, "title": self.title, "entries": [e.to_json() for e in self.entries]}

    def moves(self) -> list[Entry]:
        return [m for e in self.entries for m in e.moves()]

    def find(self, path: list[str]) -> tuple[list[str], list[Entry]]:
        """The stage reached by opening the groups with these ids in turn (the top level for []),
        and the part of the path that still leads somewhere (a group may be gone since)."""
        stage, kept = self.entries, []
        for gid in path:
            nxt = next((e for e in stage if e.type == "group" and e.id == gid), None)
            if nxt is None:
                break
            stage = nxt.entries
            kept.append(gid)
        return kept, stage


# the groups of the top level, in display order: (key, label, meaning)
GROUPS: dict[str, tuple[str, str]] = {
    "trouble": ("", "fight a monster from your hand instead of looting"),
    "resurrect": ("Take the top discard", "take the top discard instead of a new card, paying with a card"),
    "choose": ("Choose a card", "pick one of these cards"),
    "help": ("Ask for help", "ask another player to fight beside you, with or without a bribe"),
    "volunteer": ("Offer to help", "offer to fight beside the fighter (they may refuse)"),
    "play": ("Play a card", "play a card from your hand (or a card in play)"),
    "powers": ("Use a power", "a power of your Race, Class, Role, House or another card in play"),
    "items": ("Equip & unequip", "put Items on or take them off (only equipped Items add to your strength)"),
    "give": ("Give away", "give a card to another player"),
    "trade": ("Trade Items", "swap one of your Items for another player's"),
    "sell": ("Sell Items", "sell Items from your hand or in play: every 1,000 gold is a Level"),
    "discard": ("Discard a card in play", "give up one of your cards in play (a Race, Class or the like)"),
    "unlikely": ("Less likely moves", "legal, but rarely what you want (such as cursing yourself)"),
}
ORDER = list(GROUPS)
_GROUP_WORDS = {w.split(" ", 1)[0] for w, _ in GROUPS.values() if w} | {"Ask", "Run", "Discard", "Give"}


def _slug(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-") or "x"


def _enhancer_words(d: Any) -> str:
    """What a Monster Enhancer does to the fight, and so whom it helps: stronger is harder to beat."""
    n, t = d.strength, d.treasures
    s = f"stronger by {n} (harder to beat" if n > 0 else f"weaker by {-n} (easier to beat" if n < 0 else "(changed"
    if t:
        s += f"; {abs(t)} {'more' if t > 0 else 'fewer'} Treasure{'s' if abs(t) != 1 else ''} for killing it"
    return s + ")"


class _Ctx:
    """What the meanings need to know about the moment, read from the seat's view."""

    def __init__(self, g: Game, seat: int, view: dict[str, Any]) -> None:
        self.g, self.seat, self.view = g, seat, view
        self.prompt = g.prompt.kind
        pr = g.prompt
        self.stage = pr.stage if isinstance(pr, D.Main) else ""
        self.names = [p["name"] for p in view.get("players", [])]
        self.me = self.names[seat] if seat < len(self.names) else ""
        self.kinds: dict[int, str] = {}
        self.hand: set[int] = set()
        for c in view.get("hand", []):
            self.kinds[c["id"]] = c["kind"]
            self.hand.add(c["id"])
        for p in view.get("players", []):
            for zone in ("races", "classes", "roles", "proficiencies", "equipped", "carried", "sidekicks", "curses"):
                for c in p.get(zone) or []:
                    self.kinds[c["id"]] = c["kind"]
        combat = view.get("combat") or {}
        self.fighters = [f["player"] for f in combat.get("fighters", [])]
        self.fighter = self.me in self.fighters
        self.combat = combat
        self.monsters = [m["monster"] for m in combat.get("monsters", [])]
        self.bad_stuff = _bad_stuff(g)

    def who(self, s: int) -> str:
        if s == self.seat:
            return "yourself"
        return self.names[s] if 0 <= s < len(self.names) else f"seat {s + 1}"

    def name(self, c: int) -> str:
        return self.g.name(c)

    def score(self) -> str:
        c = self.combat
        if not c:
            return ""
        return f"{c.get('side_strength')} against {c.get('monster_strength')}"


def _bad_stuff(g: Game) -> tuple[int, int] | None:
    """(victim, monster) when the card asking the choice now is a monster whose Bad Stuff is striking
    (its public event came since the fight began), so the choice is titled for what it is; else None."""
    pr = g.prompt
    if not isinstance(pr, D.Before) or pr.source < 0:
        return None
    for ev in reversed(g.events):
        if ev[0] in ("combat", "turn"):
            return None
        if ev[0] == "bad_stuff" and ev[2] == pr.source:
            return ev[1], ev[2]
    return None


def _option_words(x: _Ctx, a: Action) -> str:
    """A card's worded option as a person reads it ("to lose 2 levels" -> "Lose 2 Levels"), saying from
    whom when the chooser takes from the victim of a Bad Stuff (the Hippogriff's takers)."""
    words = a.flag.removeprefix("to ").replace(" levels", " Levels")
    if x.bad_stuff is not None and x.bad_stuff[0] != x.seat:
        victim = x.names[x.bad_stuff[0]] if x.bad_stuff[0] < len(x.names) else "them"
        words = words.replace("a Treasure in play", f"one of {victim}'s Treasures in play")
        words = words.replace("from the hand", f"from {victim}'s hand")
    return words[:1].upper() + words[1:]


def _alone(x: _Ctx, a: Action) -> str:
    """A move's words when it shows out of its group, where its canonical text would read oddly or
    could mislead ("" keeps the text): a call for help, a card given up from play, a card's option."""
    k = a.kind
    if k == A.ASK:
        return _ask_label(x, a)
    if k == A.DISCARD and a.card not in x.hand and x.prompt not in ("before", "charity", "run"):
        return f"Discard your {x.name(a.card)} (in play)"
    if k == A.CHOOSE and a.card < 0:
        return _option_words(x, a)
    return ""


# ------------------------------------------------------------------ meanings
def _pass_meaning(x: _Ctx, legal: list[Action]) -> tuple[str, str]:
    """The label and meaning of "pass", which depend on the moment."""
    k = x.prompt
    if k == "window":
        if x.fighter:
            if x.combat.get("fighters_winning"):
                return "pass", f"let the fight resolve: as it stands you win ({x.score()})"
            return "pass", f"let the fight go on: as it stands you lose ({x.score()}), then ask for help or run away"
        return "pass", "don't interfere: let the fight go on"
    if k == "curse_window":
        return "pass", "don't cancel it: let the Curse strike"
    if k == "rolled":
        return "pass", "let the roll stand"
    if k == "caught":
        return "pass", "suffer the Bad Stuff"
    if k == "end_window":
        return "pass", "nothing more before the next turn"
    if k == "before":
        decline = next((a for a in legal if a.kind == A.DECLINE and a.card >= 0), None)
        if decline is not None:
            return "pass", f"fight the {x.name(decline.card)}"
        if any(a.kind == A.PLAY and a.flag == "face" for a in legal):
            return "pass", "let the die roll stand"
        if any(a.kind == A.RESURRECT for a in legal):
            return "pass", "draw from the deck as usual"
        return "pass", "go on without choosing"
    return "pass", "do nothing now"


def _offer_words(x: _Ctx, a: Action) -> str:
    """What a call for help offers, in words: "nothing", the Items by name, the Treasures and who picks first."""
    parts = [x.name(c) for c in a.cards]
    if a.flag == "all":
        parts.append("all your Treasures")
    elif a.n:
        first = " (they pick first)" if a.flag == "you" else " (you pick first)" if a.flag == "me" else ""
        parts.append(f"{a.n} of the Treasures{first}" if a.n > 1 else f"1 Treasure{first}")
    return " and ".join(parts) or "nothing"


def _ask_label(x: _Ctx, a: Action) -> str:
    """A call for help as one says it, the same wherever it shows: "Ask Lady Pointy for help, offering nothing"."""
    return f"Ask {x.who(a.target)} for help, offering {_offer_words(x, a)}"


def _ask_meaning(x: _Ctx, a: Action, text: str) -> str:
    who = x.who(a.target)
    if not a.cards and not a.n:
        return f"ask {who} to fight beside you, offering nothing"
    if a.flag == "all":
        return f"{who} helps and takes every Treasure of the fight"
    if a.n and not a.cards:
        first = "they pick first" if a.flag == "you" else "you pick first"
        return f"{who} helps for {a.n} of the Treasures won ({first})"
    return f"{who} helps for {_offer_words(x, a)}"


def _play_meaning(x: _Ctx, a: Action, text: str) -> str:
    """What playing a card does, as far as its kind and target say."""
    card = x.name(a.card)
    kind = x.kinds.get(a.card, "")
    if a.flag == "fight":
        return f"fight {card} as a monster now"
    if a.flag == "face":
        return f"the die shows {a.n} instead"
    if a.flag == "only" and a.target >= 0:
        return f"{x.who(a.target)} escapes; the others still run"
    if a.flag in ("destroy", "sidekick") and a.cards:
        return f"{card} acts on {x.who(a.target)}'s {x.name(a.cards[0])}"
    if a.flag == "on" and a.cards:
        return f"put {card} on your {x.name(a.cards[0])}"
    monsters = bool(a.cards) and all(x.kinds.get(c) == "monster" for c in a.cards)
    if a.flag == "with" and monsters and x.prompt == "window":
        extra = ", ".join(x.name(c) for c in a.cards)
        if a.monster >= 0:
            return f"{card} with {extra}, on the {x.name(a.monster)}"
        return f"bring {extra} into the fight"
    if a.flag == "with" and a.cards:
        return f"play {card} on your {', '.join(x.name(c) for c in a.cards)}"
    if kind == "curse":
        if a.target == x.seat:
            return f"curse yourself with {card}"
        return f"curse {x.who(a.target)} with {card}" if a.target >= 0 else f"play the Curse {card}"
    if a.monster >= 0 and kind == "enhancer":
        return f"{card} makes the {x.name(a.monster)} {_enhancer_words(x.g.cdef[a.card])}"
    if a.monster >= 0 and x.prompt == "caught":
        return f"make the {x.name(a.monster)} vanish with {card} before its Bad Stuff"
    if a.monster >= 0:
        return f"use {card} on the {x.name(a.monster)}"
    if x.prompt == "curse_window":
        return f"cancel the Curse with {card}"
    if x.prompt == "run":
        return f"escape with {card} instead of rolling"
    if x.prompt == "rolled":
        return f"change the roll's outcome with {card}"
    if kind == "item":
        return f"put {card} in play (equip it if you can)"
    if kind in ("race", "class", "role", "proficiency"):
        return f"become {article(card)}" if kind in ("race", "class") else f"take {card} for your character"
    if kind == "sidekick" or kind == "hireling":
        return f"{card} joins you"
    if kind == "go_up_a_level":
        return f"go up a Level with {card}" if a.target in (-1, x.seat) else f"{x.who(a.target)} goes up a Level"
    if kind == "one_shot" and x.combat:
        if a.target >= 0 and x.who(a.target) not in x.fighters and a.target != x.seat:
            return f"use {card} for {x.who(a.target)}"
        return f"use {card} in the fight"
    if a.target >= 0 and a.target != x.seat:
        return f"play {card} on {x.who(a.target)}"
    return f"play {card} now"


def meaning_of(x: _Ctx, a: Action, text: str, legal: list[Action]) -> str:
    """The plain-words meaning of one action at this moment."""
    k = a.kind
    n = x.name
    if k == A.READY:
        return "your character is set: the rest of your hand waits for the game (the next player sets up)"
    if k == A.KICK:
        return "turn up the top Door: a monster is fought, a Curse strikes, anything else goes to your hand"
    if k == A.TROUBLE:
        return f"fight {n(a.card)} from your hand"
    if k == A.LOOT:
        return "take the top Door face-down into your hand; no fight this turn"
    if k == A.END:
        return "finish your turn (Charity first if you hold too many cards)"
    if k == A.PASS:
        return _pass_meaning(x, legal)[1]
    if k == A.KEEP:
        if x.prompt == "before":
            return f"keep {n(a.card)}; the monster gets its bonus"
        return f"put {n(a.card)} in your hand for later"
    if k == A.PLAY:
        return _play_meaning(x, a, text)
    if k == A.EQUIP:
        return f"wear or wield {n(a.card)}: its bonus counts"
    if k == A.UNEQUIP:
        return f"take off {n(a.card)}: it stays with you, its bonus does not count"
    if k == A.DISCARD:
        if x.prompt == "before":
            return f"give up {n(a.card)} to put things right"
        if x.prompt == "charity":
            return f"discard {n(a.card)} to get down to your hand limit"
        if x.prompt == "run":
            return f"let {n(a.card)} go before the roll"
        if a.card not in x.hand:
            return f"give up your {n(a.card)}: it leaves play and no longer counts"
        return f"put {n(a.card)} on the discards"
    if k == A.GIVE:
        if a.flag == "hireling":
            return f"{n(a.card)} is carried for you"
        if x.prompt == "charity":
            return f"give {n(a.card)} to {x.who(a.target)} as Charity"
        return f"give {n(a.card)} to {x.who(a.target)} for nothing in return"
    if k == A.SELL:
        return "sell these Items for Levels (1,000 gold a Level; never the winning Level)"
    if k == A.TRADE:
        return f"swap your {n(a.card)} for {x.who(a.target)}'s {', '.join(n(c) for c in a.cards)} (if they accept)"
    if k == A.ACCEPT:
        pr = x.g.prompt
        data = pr.ask if isinstance(pr, D.Help) else pr.offer if isinstance(pr, D.Offer) else None
        if x.prompt == "help":
            if isinstance(data, Action) and data.kind == A.VOLUNTEER:
                return f"let {x.who(data.seat)} fight beside you"
            if not isinstance(data, Action):
                return "fight beside them"
            who = x.who(data.seat)
            parts = [n(c) for c in data.cards]
            if data.flag == "all":
                parts.append("all the Treasures")
            elif data.n:
                first = "you pick first" if data.flag == "you" else f"{who} picks first"
                parts.append(f"{data.n} Treasure{'s' if data.n > 1 else ''} ({first})")
            return f"fight beside {who} for {' and '.join(parts) or 'nothing'}"
        if isinstance(data, Action) and data.kind == A.TRADE and data.cards:
            return f"take {x.who(data.seat)}'s {n(data.card)} for your {', '.join(n(c) for c in data.cards)}"
        if isinstance(data, Action) and data.kind == A.GIVE:
            return f"take {n(data.card)} from {x.who(data.seat)} as a gift"
        return "take the deal"
    if k == A.REFUSE:
        if x.prompt == "help":
            pr = x.g.prompt
            data = pr.ask if isinstance(pr, D.Help) else None
            if isinstance(data, Action) and data.kind == A.VOLUNTEER:
                return f"fight on without {x.who(data.seat)}"
            return "stay out of the fight"
        return "turn the offer down: everyone keeps their cards"
    if k == A.ASK:
        return _ask_meaning(x, a, text)
    if k == A.VOLUNTEER:
        return f"offer to fight beside {x.who(a.target)} (they may refuse)"
    if k == A.BACK_OUT:
        return "leave the fight you are helping in (no Treasure for you)"
    if k == A.BERSERK:
        return f"+{len(a.cards)} to your strength in this fight, discarding {len(a.cards)} card(s)"
    if k == A.TURNING:
        return "a bonus against these monsters, paid with a discard"
    if k == A.HOUSE:
        return f"+2 in this fight, discarding the monster {n(a.card)}"
    if k == A.FLIGHT:
        return "+1 to your Run Away roll, discarding a card"
    if k == A.CHARM:
        return f"discard your whole hand: {n(a.monster)} leaves the fight and you take its Treasures"
    if k == A.BACKSTAB:
        return f"−2 to {x.who(a.target)} in this fight, discarding {n(a.card)}"
    if k == A.STEAL:
        return f"try to steal {n(a.card)} from {x.who(a.target)}: a roll decides, and failing costs you"
    if k == A.RUN:
        return f"roll the die: {ESCAPE_ROLL} or more escapes, otherwise the Bad Stuff"
    if k == A.FLEE_FROM:
        return f"roll to escape the {n(a.monster)}: {ESCAPE_ROLL} or more escapes, otherwise its Bad Stuff"
    if k == A.SACRIFICE:
        return f"give up {n(a.card)} to escape without rolling"
    if k == A.CHOOSE:
        if a.card < 0:
            words = _option_words(x, a)
            said = words[0].lower() + words[1:]
            if a.monster >= 0 and x.bad_stuff is not None:
                return f"the {n(a.monster)}'s Bad Stuff: {said}"
            return f"{n(a.monster)}: {said}" if a.monster >= 0 else said
        return f"pick {n(a.card)}"
    if k == A.TAKE:
        return f"take {n(a.card)} into your hand"
    if k == A.RESURRECT:
        return f"take the top {a.flag or 'door'} discard instead, paying with {n(a.card)}"
    if k == A.USE:
        if a.flag == "retry":
            return f"roll to run away once more, discarding {n(a.card)}"
        if a.monster >= 0 and x.prompt == "before":
            return f"give up {n(a.card)} to buy off the {n(a.monster)}"
        return f"use {n(a.card)}'s power"
    if k == A.DECLINE:
        if a.card >= 0 and any(b.kind == A.PASS for b in legal):
            return f"let it pass: don't fight the {n(a.card)}"
        if a.card >= 0 and any(b.kind == A.USE and b.monster >= 0 for b in legal):
            return f"keep your Items: fight the {n(a.card)}"
        return "don't use it"
    return text


# ------------------------------------------------------------------ staging
def _unlikely(x: _Ctx, a: Action) -> bool:
    """Legal but rarely sensible: a Curse on yourself, wrecking your own Item, a monster into your own fight,
    giving up a Race, Class or other card of your own in play to no effect now (`Game.rearranges`), which
    is easily taken for discarding a card from the hand."""
    kind = x.kinds.get(a.card, "")
    if a.kind == A.DISCARD and a.card not in x.hand and x.g.rearranges(a):
        return True
    if a.kind == A.PLAY:
        if kind == "curse" and a.target == x.seat:
            return True
        if a.flag == "destroy" and a.target == x.seat:
            return True
        monsters = bool(a.cards) and all(x.kinds.get(c) == "monster" for c in a.cards)
        if x.prompt == "window" and x.fighter and a.flag == "with" and monsters and a.monster < 0:
            return True  # another monster into your own fight
    return False


def _place(x: _Ctx, a: Action, text: str) -> tuple[str, list[tuple[str, str, str]], str]:
    """Where a move goes: its top-level group ("" for the natural moves), the steps below the group
    (each a key, its label and its meaning), and the move's own label within the last stage."""
    k = a.kind
    n = x.name
    if _unlikely(x, a):
        own = a.kind == A.DISCARD and a.card not in x.hand  # a card given up from play, not the hand
        return "unlikely", [], f"Discard your {n(a.card)} (in play)" if own else text
    if k in (A.READY, A.KICK, A.LOOT, A.END, A.PASS, A.KEEP, A.ACCEPT, A.REFUSE, A.RUN, A.FLEE_FROM, A.DECLINE):
        return "", [], text
    if k == A.PLAY and a.flag == "fight":
        return "", [], text
    if k == A.PLAY and x.prompt == "drawn":  # one way to play it: a move; several: a group of them
        card = n(a.card)
        rest = text[len(f"play {card}") :].strip() if text.startswith(f"play {card}") else text
        return "", [(f"drawn-{_slug(card)}", f"Play {card}", f"where or how to play {card}")], rest or "play it"
    if k == A.CHOOSE and a.card < 0:
        return "", [], _option_words(x, a)
    if k in (A.SACRIFICE, A.TAKE, A.BACK_OUT):
        return "", [], text
    if k == A.CHOOSE:
        return "choose", [], n(a.card)
    if k == A.TROUBLE:
        return "trouble", [], n(a.card)
    if k == A.RESURRECT:
        return "resurrect", [], f"paying with {n(a.card)}"
    if k == A.ASK:
        who = x.who(a.target)
        steps = [(f"ask-{a.target}", f"Ask {who}", f"ask {who} to help: offering nothing, Treasures or an Item")]
        if a.cards:
            steps.append(("items", "offering an Item", f"one of your Items for {who}'s help"))
        elif a.n and a.flag != "all":
            steps.append(("treasures", "offering some Treasures", "a number of the Treasures won, and who picks first"))
        return "help", steps, _ask_label(x, a)
    if k == A.VOLUNTEER:
        return ("volunteer" if not x.fighter else "help"), [], text
    if k == A.PLAY:
        card = n(a.card)
        rest = text[len(f"play {card}") :].strip() if text.startswith(f"play {card}") else text
        if a.flag == "face":
            return "", [(f"card-{a.card}", card, "choose the face the die shows")], rest or text
        return "play", [(f"card-{_slug(card)}", card, f"where or how to play {card}")], rest or "play it"
    if k in (A.BERSERK, A.TURNING, A.FLIGHT, A.HOUSE):
        head = text.split(" discarding ", 1)[0]
        rest = text.split(" discarding ", 1)[1] if " discarding " in text else text
        group = "" if x.prompt == "run" and k == A.FLIGHT else "powers"
        return group, [(_slug(head), head[0].upper() + head[1:], "choose what to discard for it")], f"discarding {rest}"
    if k == A.CHARM:
        return "powers", [("charm", "Charm a monster", "discard your hand to send a monster away")], n(a.monster)
    if k == A.BACKSTAB:
        steps = [("backstab", "Backstab", "−2 to a fighter, paid with a discard")]
        return (
            "powers",
            steps + [(f"t-{a.target}", x.who(a.target), "choose the card to discard")],
            f"discarding {n(a.card)}",
        )
    if k == A.STEAL:
        what = f"{n(a.card)} from {x.who(a.target)}"
        steps = [("steal", "Steal an Item", "try to take another player's Item, paid with a discard")]
        steps.append((_slug(what), what, "choose the card to discard"))
        return "powers", steps, f"discarding {', '.join(map(n, a.cards))}"
    if k == A.USE:
        if a.flag == "retry":
            return (
                "",
                [("retry", "Run again", "roll once more, discarding a card of your choice")],
                f"discarding {n(a.card)}",
            )
        if x.prompt == "before":
            return "", [], text
        card = n(a.card)
        rest = text[len(f"use {card}") :].strip() if text.startswith(f"use {card}") else text
        return "powers", [(f"use-{_slug(card)}", card, f"how to use {card}")], rest or text
    if k in (A.EQUIP, A.UNEQUIP):
        return ("" if x.prompt == "before" else "items"), [], text
    if k == A.GIVE:
        if x.prompt == "before":
            return "", [], text
        if a.flag == "hireling":
            return "give", [(f"card-{_slug(n(a.card))}", n(a.card), f"who carries {n(a.card)}")], text
        group = "" if x.prompt == "charity" else "give"
        steps = [("give", "Give away", "give cards to the lowest-Level player")] if group == "" else []
        return (
            group,
            steps + [(f"card-{_slug(n(a.card))}", n(a.card), f"who gets {n(a.card)}")],
            f"to {x.who(a.target)}",
        )
    if k == A.TRADE:
        mine = n(a.card)
        return (
            "trade",
            [(f"mine-{_slug(mine)}", f"your {mine}", f"what to ask for your {mine}")],
            f"for {x.who(a.target)}'s {', '.join(map(n, a.cards))}",
        )
    if k == A.SELL:
        if x.prompt == "before":
            return "", [("sell", "Sell Items", "sell Items to put things right")], text[5:]
        first = n(a.cards[0]) if a.cards else "Items"
        return "sell", [(f"first-{_slug(first)}", f"{first}, …", f"sales that include {first}")], text[5:]
    if k == A.DISCARD:
        if x.prompt in ("before", "charity", "run"):
            steps = [("discard", "Discard from your hand", "discard cards to get down to your hand limit")]
            return "", steps if x.prompt == "charity" else [], text
        return "discard", [], _alone(x, a) or n(a.card)
    return "", [], text


def _split(entries: list[Entry], parent: str) -> list[Entry]:
    """A stage longer than MAX_STAGE, cut into parts of PART entries (each part a group)."""
    if len(entries) > MAX_STAGE and all(e.type == "move" for e in entries):
        entries = sorted(entries, key=lambda e: e.label.lower())
    while len(entries) > MAX_STAGE:
        parts = [entries[i : i + PART] for i in range(0, len(entries), PART)]
        entries = [
            Entry(
                "group",
                f"{p[0].label} … {p[-1].label}" if len(p) > 1 else p[0].label,
                f"{len(_moves(p))} of the choices, in order of name"
                if all(e.type == "move" for e in p)
                else "more choices",
                id=f"{parent}/part-{_slug(p[0].label)}",
                entries=p,
            )
            for p in parts
        ]
    return entries


def _moves(entries: list[Entry]) -> list[Entry]:
    return [m for e in entries for m in e.moves()]


def _tidy(entries: list[Entry], parent: str) -> list[Entry]:
    """Fold a group of one entry into that entry, and split long stages, all the way down."""
    out: list[Entry] = []
    for e in entries:
        if e.type == "group":
            e.entries = _tidy(e.entries, e.id)
            if len(e.entries) == 1 and e.id != "unlikely":  # a less likely move stays apart
                only = e.entries[0]
                if only.type == "move":
                    only.label = only.alone or only.text
                else:  # keep the folded group's words: "Give away: Rat on a Stick"
                    only.label = f"{e.label}: {only.label}"
                out.append(only)
                continue
        out.append(e)
    return _split(out, parent)


def title_of(x: _Ctx) -> str:
    """What the moment asks of the seat, in words."""
    k = x.prompt
    if k == "before":
        return _before_title(x)
    if k == "choose":
        why = x.g.prompt.why if isinstance(x.g.prompt, D.Choose) else ""
        return f"Choose a card: {why}" if why else "Choose a card"
    if k == "main":
        return {
            "create": "Set up your character: play a Race, a Class and Items from your hand, then say ready",
            "start": "Your turn: Kick Open The Door when you are ready",
            "door": "No monster came out: Look For Trouble or Loot The Room",
            "after": "Your turn: end it when you are ready",
        }.get(x.stage, "Your turn")
    return {
        "drawn": "A card drawn face-up: keep it or play it",
        "window": "Your fight: fight on, ask for help, or play a card" if x.fighter else "A fight: interfere or not",
        "losing": "You are losing: ask for help or run away",
        "help": "Asked for help: accept or refuse",
        "curse_window": "A Curse is about to strike: cancel it or let it",
        "run": "Running away: which monster first, or another way out",
        "rolled": "A die was rolled: answer it or let it stand",
        "caught": "Caught: a card before the Bad Stuff, or suffer it",
        "choose": "Choose a card",
        "loot_body": "Loot a body: take one card",
        "pick": "Share the Treasure: pick one card",
        "charity": "Charity: get down to your hand limit",
        "offer": "An offer for you: accept or refuse",
        "end_window": "Before the next turn: any-time moves, or pass",
        "before": "Before the fight: choose",
    }.get(k, "Your move")


def _before_title(x: _Ctx) -> str:
    """The title of a choice a card or rule offers: a Bad Stuff's after the fight, naming whose it strikes."""
    if x.bad_stuff is None:
        return "Before the fight: choose"
    victim, monster = x.bad_stuff
    whose = "" if victim == x.seat else f" on {x.names[victim] if victim < len(x.names) else 'another player'}"
    return f"After the fight: the {x.name(monster)}'s Bad Stuff{whose}, choose"


def _arrange(g: Game, x: _Ctx, acts: list[Action], legal: list[Action], prefix: str) -> list[Entry]:
    """The entries of these moves: the natural ones first, then the groups in display order; every
    group id starts with `prefix` (so the any-time group's ids never meet the answers')."""
    natural: list[Entry] = []
    groups: dict[str, Entry] = {}
    seen: set[str] = set()
    for a in acts:
        text = g.text(a)
        if text in seen:
            continue
        seen.add(text)
        cards = [c for c in (a.card, a.monster, *a.cards) if c >= 0]
        group, steps, label = _place(x, a, text)
        if a.kind == A.PASS:
            label = _pass_meaning(x, legal)[0]
        move = Entry("move", label, meaning_of(x, a, text, legal), text=text, kind=a.kind, cards=cards)
        move.alone = _alone(x, a)
        if group:
            if group not in groups:
                words, mean = GROUPS[group]
                if group == "trouble":
                    words = text.split(" with ", 1)[0]
                    words = words[0].upper() + words[1:]
                groups[group] = Entry("group", words, mean, id=prefix + group)
            stage = groups[group]
        else:
            stage = None
        parent = stage.id if stage is not None else prefix.rstrip("/")
        holder = stage.entries if stage is not None else natural
        for key, words, mean in steps:
            gid = f"{parent}/{key}" if parent else key
            found = next((e for e in holder if e.type == "group" and e.id == gid), None)
            if found is None:
                found = Entry("group", words, mean, id=gid)
                holder.append(found)
            holder, parent = found.entries, gid
        holder.append(move)
    _mean_groups(list(groups.values()) + natural)
    return natural + [groups[k] for k in ORDER if k in groups]


def _fit(top: list[Entry], room: int) -> list[Entry]:
    """A top level of at most `room` entries: cards to pick from in parts by name, else the natural
    moves first and what does not fit in "More moves"."""
    if len(top) > room and all(e.type == "move" for e in top):
        top = _split(top, "")
    if len(top) > room:
        rest = top[room - 1 :]
        top = top[: room - 1] + [
            Entry("group", "More moves", "other moves at this moment", id="more", entries=_split(rest, "more"))
        ]
    return top


ANY_TIME = "any-time"  # the id of the group of what a seat may do at any time, besides answering


def build_menu(g: Game, seat: int, view: dict[str, Any] | None = None) -> Menu:
    """The staged menu of this seat's legal moves now (an empty one when it may not act): the answers
    to what the game asks it, then a short "Any time" group of what it may do besides (a Curse, a
    trade, an Item); a seat not waited on gets only those, under a title that says so."""
    legal = g.legal_actions(seat) if not g.over and 0 <= seat < len(g.players) else []
    extra = set(g.any_time(seat)) if legal else set()
    answers = [a for a in legal if a not in extra]
    if view is None:
        view = g.view(seat)
    x = _Ctx(g, seat, view)
    top = _tidy(_arrange(g, x, answers, legal, ""), "")
    while len(top) == 1 and top[0].type == "group":  # one group alone: show its stage at once
        top = top[0].entries
    xa = copy.copy(x)
    xa.prompt, xa.stage = "", ""  # a move made at any time means the same whatever the game asks others
    if not answers:  # not waited on: only the moves of any time, under their own title
        anytime = _tidy(_arrange(g, xa, legal, legal, ""), "")
        while len(anytime) == 1 and anytime[0].type == "group":
            anytime = anytime[0].entries
        waiting = ", ".join(x.names[s] for s in g.to_act if s < len(x.names)) or "nobody"
        title = f"Waiting on {waiting}. At any time you may:" if anytime else title_of(x)
        return Menu(x.prompt, title, _fit(anytime, MAX_TOP))
    if not extra:
        return Menu(x.prompt, title_of(x), _fit(top, MAX_TOP))
    said = {g.text(a) for a in answers}  # a copy of a card can make an answer's very text: listed once
    rest = [a for a in legal if a in extra and g.text(a) not in said]
    if not rest:
        return Menu(x.prompt, title_of(x), _fit(top, MAX_TOP))
    inner = _tidy(_arrange(g, xa, rest, legal, ANY_TIME + "/"), ANY_TIME)
    group = Entry(
        "group",
        "Any time",
        "moves you may make at any time, besides answering: "
        + ", ".join(_lead_lower(e) for e in inner[:4])
        + (", …" if len(inner) > 4 else ""),
        id=ANY_TIME,
        entries=_split(inner, ANY_TIME),
    )
    return Menu(x.prompt, title_of(x), _fit(top, MAX_TOP - 1) + [group])


def _lead_lower(e: Entry) -> str:
    """An entry's label inside a sentence: a group's word lower-cased ("Play a card" -> "play a card"),
    card and player names kept as written ("play Lose 1 Small Item on Ann")."""
    label = e.label
    if e.type == "group" and label[:1].isupper() and label.split(" ", 1)[0] in _GROUP_WORDS:
        return label[:1].lower() + label[1:]
    return label


def _mean_groups(entries: list[Entry]) -> None:
    """Give every group without a meaning one: how many choices it holds."""
    for e in entries:
        if e.type == "group":
            _mean_groups(e.entries)
            if not e.meaning:
                e.meaning = f"{len(e.moves())} choices"


__all__ = ["ANY_TIME", "Entry", "Menu", "build_menu", "meaning_of", "MAX_TOP"]
