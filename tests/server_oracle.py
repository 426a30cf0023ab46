"""An independent judge of what a seat may know, for the server's leak tests.

It reads the true game state when a message is sent and flags any card the message shows
that sits, hidden from that seat, in another hand or a deck (by id), and any card name in
its text that the seat has never been able to see.
"""

from __future__ import annotations

import re
from typing import Any

from munchkin.engine.game import Game
from munchkin.invariants import card_places

# Events that show cards face-up to everyone, by the rules: kind -> where the card (or cards) sit in the event.
PUBLIC_EVENTS: dict[str, tuple[int, ...]] = {
    "kick": (2,),
    "reveal": (2,),
    "take": (2,),
    "combat": (2,),
    "trouble": (2,),
    "play": (2,),
    "oneshot": (2, 4),
    "enhance": (2, 3),
    "join": (2,),
    "curse": (3,),
    "cancel": (2,),
    "trade": (3, 4),
    "offer": (3, 4),
    "gift": (3,),
    "bribe": (2,),
    "chase": (2,),
    "flees": (2,),
    "barred": (3,),
    "dowse": (2,),
    "resurrect": (2,),
    "slay": (2, 3),
    "kill": (3,),
    "escape": (2,),
    "caught": (2,),
    "bad_stuff": (2,),
    "lose": (2,),
    "sell": (2,),
    "run_again": (2,),
    "discard": (2,),
    "berserk": (2,),
    "turning": (2,),
    "backstab": (3,),
    "charm": (2,),
    "steal": (3,),
    "no_attack": (2,),
    "take_item": (3,),
    "remove": (2, 3),
    "mate": (2,),
    "illusion": (2, 3, 4),  # the monsters, and the Illusion card played openly (named in the narration)
    "walk_past": (2,),
    "compelled": (3,),
    "enhance_item": (2, 3),
    "sidekick_sex": (3,),
    "sex_bonus": (2, 3),
    "house_power": (3,),  # the monster discarded openly for a House power (Slytherin)
}

# Events whose narration names the card that caused them (played face-up) in so many words.
NAMED_IN_TEXT = {
    "divine": "Divine Intervention",
    "mate": "Mate",
    "out_to_lunch": "Out To Lunch",
    "friendship": "Friendship Potion",
    "wall": "Instant Wall",
    "dowse": "Wand of Dowsing",
    "transfer": "Transferral Potion",
}


RULE_WORDS = frozenset({"Death Eaters"})  # card names the narration also uses as words of the rules


def hidden_from(g: Game, seat: int | None) -> set[int]:
    """Cards this seat may not see now: the decks and every other player's hand."""
    out = set(g.door_deck) | set(g.treasure_deck)
    for p in g.players:
        if p.seat != seat:
            out.update(p.hand)
    return out


def card_ids(obj: Any) -> set[int]:
    """Every card id a message shows: card objects, and the cards each action names."""
    found: set[int] = set()
    _collect_ids(obj, found)
    return found


def _collect_ids(obj: Any, found: set[int]) -> None:
    if isinstance(obj, dict):
        if "id" in obj and "name" in obj and "deck" in obj and isinstance(obj["id"], int):
            found.add(obj["id"])
        if "cards" in obj and "text" in obj:
            found.update(x for x in obj["cards"] if isinstance(x, int))
        for v in obj.values():
            if isinstance(v, (dict, list)):  # a string or a number shows no card
                _collect_ids(v, found)
    elif isinstance(obj, list):
        for v in obj:
            if isinstance(v, (dict, list)):
                _collect_ids(v, found)


def whereabouts(g: Game, c: int) -> list[str]:
    """Every zone that holds card c (more than one would be a broken game)."""
    out = [z for z in ("door_deck", "treasure_deck", "door_discard", "treasure_discard", "limbo") if c in getattr(g, z)]
    for p in g.players:
        out += [f"{p.name}.{z}" for z in ("hand", "items", "races", "classes", "curses") if c in getattr(p, z)]
        out += [f"{p.name}.sidekicks" for k in p.sidekicks if k == c]
        out += [f"{p.name}.carried" for it in p.carried.values() if it == c]
        out += [f"{p.name}.cheats" for it in p.cheats if it == c]
        out += [f"{p.name}.enhancers" for e in p.enhancers if e == c]
    return out


def paths(obj: Any, c: int, at: str = "") -> list[str]:
    """Where in a message card c is shown."""
    found: list[str] = []
    if isinstance(obj, dict):
        if obj.get("id") == c and "name" in obj:
            found.append(at)
        if "cards" in obj and "text" in obj and c in obj["cards"]:
            found.append(f"{at} ({obj['text']!r})")
        for k, v in obj.items():
            found += paths(v, c, f"{at}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            found += paths(v, c, f"{at}[{i}]")
    return found


class Oracle:
    """Checks every message to a seat (None: a spectator) against the game as it truly is."""

    def __init__(self, g: Game) -> None:
        # Race and Class names are also rule words ("every Cleric goes up a level"), and so are the kinds of
        # monster a Cleric turns ("turns the Death Eaters"): the id check covers those cards.
        names = sorted(
            {d.name for d in g.cdef if d.kind not in ("race", "class") and d.name not in RULE_WORDS},
            key=len,
            reverse=True,
        )
        self.pattern = re.compile("|".join(r"(?<![\w'])" + re.escape(n) + r"(?![\w'])" for n in names))
        self.seen: dict[int | None, set[str]] = {}
        self.seen_ids: dict[int | None, set[int]] = {}  # the cards behind `seen`
        self.all_ids = frozenset(range(g.ncards))
        self.events_seen = 0
        self.public_names: set[str] = set()
        self.private: dict[int | None, set[str]] = {}  # what one seat alone was shown
        self.messages = 0
        self.lines = 0
        self.problems: list[str] = []

    def _update(self, g: Game, seat: int | None) -> set[int]:
        for ev in g.events[self.events_seen :]:
            for i in PUBLIC_EVENTS.get(ev[0], ()):
                shown = ev[i] if isinstance(ev[i], tuple) else (ev[i],)
                self.public_names.update(g.cdef[c].name for c in shown if isinstance(c, int) and c >= 0)
            if ev[0] in NAMED_IN_TEXT:  # events whose wording names the card played openly
                self.public_names.add(NAMED_IN_TEXT[ev[0]])
            if ev[0] == "level" and isinstance(ev[4], str):  # a level from a card played openly
                self.public_names.add(ev[4])
            if ev[0] == "cancel" and isinstance(ev[3], str):  # a Curse cancelled by a card played (or in play) openly
                self.public_names.add(ev[3])
            if ev[0] == "lose" and isinstance(ev[3], str) and ev[3]:  # a loss to a card played openly
                self.public_names.add(ev[3].removeprefix("with "))  # (Income Tax's victims, say)
            if ev[0] == "draw":  # face-up: everyone; face-down: the one who draws
                drawn = {g.cdef[c].name for c in ev[3]}
                if ev[4]:
                    self.public_names |= drawn
                else:
                    self.private.setdefault(ev[1], set()).update(drawn)
            if ev[0] == "keep":  # a Door kept: everyone saw it when face-up, else the drawer alone
                kept = g.cdef[ev[2]].name
                if ev[3]:
                    self.public_names.add(kept)
                else:
                    self.private.setdefault(ev[1], set()).add(kept)
            if ev[0] == "looted":  # the looter knows what it took
                self.private.setdefault(ev[1], set()).add(g.cdef[ev[3]].name)
            if ev[0] == "charity":  # giver and taker know the card
                for s in (ev[1], ev[2]):
                    self.private.setdefault(s, set()).add(g.cdef[ev[3]].name)
        self.events_seen = len(g.events)
        hidden = hidden_from(g, seat)
        seen_ids = self.seen_ids.setdefault(seat, set())
        newly = self.all_ids - hidden - seen_ids
        seen_ids |= newly
        self.seen.setdefault(seat, set()).update(g.cdef[c].name for c in newly)
        return hidden

    def check(self, g: Game, seat: int | None, msg: dict[str, Any]) -> None:
        self.messages += 1
        hidden = self._update(g, seat)
        who = "spectator" if seat is None else f"seat {seat}"
        leaked = card_ids(msg) & hidden
        if leaked:
            broken = [f"{g.cdef[c].name} (#{c})" for c, n in card_places(g).items() if n != 1]
            if broken:
                self.problems.append(f"the game itself is broken: cards in several places {broken}")
            what = [f"{g.cdef[c].name} (#{c}) in {whereabouts(g, c)}, shown at {paths(msg, c)}" for c in sorted(leaked)]
            self.problems.append(f"{who} was shown hidden cards {what} in a {msg.get('type')} message")
        if msg.get("type") != "state":
            return
        for line in msg.get("chat") or []:  # a whisper goes to its speaker's seat and its recipient's, no other
            if line["to"] is not None and (seat is None or seat not in (line["from"], line["to"])):
                self.problems.append(
                    f"{who} was sent a whisper from seat {line['from']} to seat {line['to']}: {line['text']!r}"
                )
        view = msg["view"]
        if not isinstance(view["door_deck"], int) or not isinstance(view["treasure_deck"], int):
            self.problems.append(f"{who} was shown a deck's contents")
        if seat is None and (view["hand"] or msg["actions"]):
            self.problems.append("a spectator was shown a hand or actions")
        if seat is not None and seat not in view["to_act"] and any(not a["any_time"] for a in msg["actions"]):
            self.problems.append(f"{who} was shown answers while not to act (only any-time actions may be)")
        known = self.seen[seat] | self.public_names | self.private.get(seat, set())
        texts = list(msg["log"]) + [a["text"] for a in msg["actions"]]
        fight = msg.get("last_fight")  # a fight over: its lines and outcome say no more than the narration
        if fight is not None:
            texts += [*fight["lines"], fight["outcome"]]
        self.lines += len(msg["log"])
        for t in texts:
            for m in self.pattern.finditer(t):
                if m.group(0) not in known:
                    self.problems.append(f"{who} read the name of a card it never could see: {m.group(0)!r} in {t!r}")
