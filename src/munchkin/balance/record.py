"""What one finished game says about balance: a plain record read from the game's events.

A `GameRecord` holds only plain data (card ids, counts, Levels), so tests can write one by hand
and a worker can fold thousands into a `Tally` without keeping any game. Seats are in turn order:
seat 0 takes the first turn.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from munchkin.engine import actions as A

if TYPE_CHECKING:
    from munchkin.engine.game import Game

# the actions that play a card from the hand or use one in play: counted as its plays
PLAYED = frozenset({A.PLAY, A.USE, A.TROUBLE})
# the kinds of card whose holders' win rate the report gives (a House is chosen, not drawn)
CHARACTER_KINDS = ("race", "class", "role", "house", "steed", "sidekick")


@dataclass(frozen=True)
class CardInfo:
    """How the report names a card: the same for every game of a set list."""

    name: str
    set: str
    deck: str
    kind: str
    provenance: str
    level: int = 0  # a monster's Level


@dataclass
class MonsterRecord:
    """One monster's fights in one game."""

    fought: int = 0
    killed_alone: int = 0
    killed_helped: int = 0
    escaped: int = 0  # a fighter Ran Away from it
    caught: int = 0  # a fighter failed to Run Away from it
    deaths: int = 0  # its Bad Stuff killed the fighter
    other_end: int = 0  # bribed, chased, charmed, sent away by a card: the fight ended without a kill


@dataclass
class GameRecord:
    """One game, as the balance report counts it."""

    players: int
    turns: int
    decisions: int
    winners: list[int]
    capped: bool
    levels: list[list[int]] = field(default_factory=list)  # each round's start: every seat's Level
    final_levels: list[int] = field(default_factory=list)
    drawn: list[set[str]] = field(default_factory=list)  # by seat: the card ids it drew
    played: list[Counter[str]] = field(default_factory=list)  # by seat: the card ids it played, how often
    held: list[set[str]] = field(default_factory=list)  # by seat: Races, Classes, ... it had in play
    monsters: dict[str, MonsterRecord] = field(default_factory=dict)
    help: Counter[str] = field(default_factory=Counter)  # asked, given, refused, ..., their cost
    curses: Counter[str] = field(default_factory=Counter)  # played, on_leader, on_self, face_up, cancelled
    cards: dict[str, CardInfo] = field(default_factory=dict)  # every card id named above

    @classmethod
    def empty(cls, players: int, turns: int = 0, winners: list[int] | None = None) -> GameRecord:
        """A record with a slot per seat (for tests and for the extraction below)."""
        return cls(
            players,
            turns,
            0,
            list(winners or []),
            not winners,
            drawn=[set() for _ in range(players)],
            played=[Counter() for _ in range(players)],
            held=[set() for _ in range(players)],
        )


def _info(d: Any) -> CardInfo:
    return CardInfo(d.name, d.set, d.deck, _info_kind(d), d.provenance, d.level)


def record_game(g: Game) -> GameRecord:
    """Read a finished (or capped) game's events into a record."""
    n = len(g.players)
    rec = GameRecord.empty(n, g.turn, list(g.winners))
    rec.capped = bool(g.capped)
    rec.decisions = g.decisions
    cdef = g.cdef
    ids: dict[int, str] = {}

    def cid(card: int) -> str:
        """The card's id, noting its face for the report."""
        k = ids.get(card)
        if k is None:
            d = cdef[card]
            k = ids[card] = d.id
            if k not in rec.cards:
                rec.cards[k] = _info(d)
        return k

    spare = MonsterRecord()  # counts for a card killed as a monster that is none (a Mate's copy)
    fightable: set[int] = set()  # cards that began a fight or joined one (a Steed kicked open is fought)

    def monster(card: int) -> MonsterRecord:
        if not cdef[card].is_monster and card not in fightable:
            return spare
        k = cid(card)
        m = rec.monsters.get(k)
        if m is None:
            m = rec.monsters[k] = MonsterRecord()
        return m

    def hold(seat: int, card: int) -> None:
        if 0 <= seat < n and card >= 0 and _info_kind(cdef[card]) in CHARACTER_KINDS:
            rec.held[seat].add(cid(card))

    change = [0] * n
    for ev in g.events:
        if ev[0] == "level":
            change[ev[1]] += ev[2]
    level = [p.level - change[p.seat] for p in g.players]  # the Levels the game began with (a scenario's may differ)
    fight: list[int] = []  # the monsters of the fight going on
    bad: dict[int, int] = {}  # seat -> the monster whose Bad Stuff just struck it
    prev = ""  # the kind of the event before this one (help right after an offer: the offer taken)
    for ev in g.events:
        kind = ev[0]
        if kind == "turn":
            seat, turn = ev[1], ev[2]
            if turn % n == 0 and seat == 0:
                rec.levels.append(list(level))
            bad.clear()
        elif kind == "level":
            level[ev[1]] = ev[3]
        elif kind == "draw":
            for c in ev[3]:
                rec.drawn[ev[1]].add(cid(c))
        elif kind in ("kick", "take", "looted", "resurrect", "dowse"):
            seat, card = ev[1], ev[3] if kind == "looted" else ev[2]
            if 0 <= seat < n and card >= 0:
                rec.drawn[seat].add(cid(card))
        elif kind == "play":
            hold(ev[1], ev[2])
        elif kind in ("slay", "remove"):
            monster(ev[2]).other_end += 1
        elif kind in ("friendship", "out_to_lunch"):
            for mc in fight:
                monster(mc).other_end += 1
        elif kind == "cancel":
            rec.curses["cancelled"] += 1
        elif kind == "curse":
            by, victim, card, face_up = ev[1], ev[2], ev[3], ev[4]
            if face_up or by < 0:
                rec.curses["face_up"] += 1
            else:
                rec.curses["played"] += 1
                top = max(level)
                rec.curses["on_leader"] += level[victim] == top
                rec.curses["on_self"] += victim == by
                rec.curses["on_lower"] += level[victim] < level[by]
        elif kind == "illusion":
            fightable.add(ev[3])
            monster(ev[3]).fought += 1
            fight.append(ev[3])
        elif kind == "combat":
            fightable.add(ev[2])
            fight = [ev[2]]
            monster(ev[2]).fought += 1
        elif kind == "join":
            fightable.add(ev[2])
            monster(ev[2]).fought += 1
            fight.append(ev[2])
        elif kind == "kill":
            helped = ev[2] >= 0
            for mc in ev[3]:
                m = monster(mc)
                if helped:
                    m.killed_helped += 1
                else:
                    m.killed_alone += 1
        elif kind in ("bribe", "chase", "walk_past", "charm", "flees"):
            mcs = [ev[2]] if ev[2] >= 0 else fight
            for mc in mcs:
                if mc >= 0:
                    monster(mc).other_end += 1
            if kind == "bribe":
                rec.help["monster_bribes"] += 1
        elif kind == "escape":
            for mc in fight if ev[2] < 0 else [ev[2]]:
                monster(mc).escaped += 1
        elif kind == "caught":
            monster(ev[2]).caught += 1
        elif kind == "bad_stuff":
            bad[ev[1]] = ev[2]
        elif kind == "death":
            if ev[1] in bad:
                monster(bad.pop(ev[1])).deaths += 1
        elif kind == "combat_over":
            fight = []
            bad.clear()
        elif kind == "ask":
            rec.help["asked"] += 1
            rec.help["promised_treasures"] += ev[4]
            rec.help["promised_cards"] += len(ev[3])
        elif kind == "help":
            rec.help["given"] += 1
            if prev == "volunteer":
                rec.help["offer_taken"] += 1
        elif kind == "refuse":
            rec.help["refused"] += 1
        elif kind == "compelled":
            rec.help["compelled"] += 1
        elif kind == "volunteer":
            rec.help["volunteered"] += 1
        elif kind == "refuse_offer":
            rec.help["offer_refused"] += 1
        elif kind == "back_out":
            rec.help["backed_out"] += 1
        elif kind in ("trade", "gift", "take_item"):
            taker, card = (ev[1], ev[3]) if kind == "take_item" else (ev[2], ev[3])
            hold(taker, card)
            if kind == "trade":
                hold(ev[1], ev[4])
        prev = kind
    for entry in g.log:  # what each seat played, as the actions it chose say (not every play has an event)
        act = entry[1] if entry[0] in ("act", "forced") else None
        if act is None or act.kind not in PLAYED or act.card < 0 or not 0 <= act.seat < n:
            continue
        if act.flag != "retry":  # a card discarded to run again is fuel, not played
            rec.played[act.seat][cid(act.card)] += 1
    for p in g.players:
        for c in (*p.races, *p.classes, *p.roles, *p.sidekicks, *p.items):
            hold(p.seat, c)
        if p.house and p.house in g.houses:
            h = g.houses[p.house]
            rec.held[p.seat].add(h.id)
            rec.cards.setdefault(h.id, CardInfo(h.name, h.set, "", "house", h.provenance))
    rec.final_levels = [p.level for p in g.players]
    return rec


def _info_kind(d: Any) -> str:
    if getattr(d, "steed", False):
        return "steed"
    if d.is_sidekick:
        return "sidekick"
    return str(d.kind)
