"""The fixed action catalogue (issue 36): one `Discrete(N)` for a set list and a player count, in which
an index always means the same sub-choice, and a legal engine action is taken as a short sequence of
them (see docs/rl.md, "Action catalogue").

An engine `Action(kind, seat, card, target, monster, cards, n, flag)` is read as the token sequence

    verb(kind) [card(X)] [target(seat+k)] [monster(X)] [with(X)]... [n(k)] [flag(F)] [rank(r)]

each field present only when the action sets it (X: a card definition, by identity `CardDef.idx`, so
copies and same-named cards of a mix are one token; the target as a seat relative to the actor). A
sale of several Items is `verb(sell) with(A) with(B) ...`, a help deal `verb(ask) target(k) with(Item)
n(2) flag(you)`, a theft `verb(steal) card(Item) target(k) with(paid card)`. Where two listed actions
would read the same (a card's worded option, a flag outside the list below), a `rank(r)` token tells
them apart: the r-th of them in the engine's listing. Where one action's sequence is the beginning of
another's (a one-shot for the fighter, or with more cards), `done` ends the shorter one.

The legal actions of a decision are put in a trie of these sequences (`Chooser`): the mask offers the
children of the node reached, so every index offered leads to a legal action and every listed legal
action is reached by its own sequence. A node with a single child and no action of its own is passed
through at once: no sub-choice without a choice is asked. Besides the listed actions the trie holds
the combined moves the engine accepts unlisted (`combined_moves`): help deals offering several cards,
Berserking, Turning or Flight with two or three discards, a theft paid with any card that may pay.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from munchkin.engine import actions as A
from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.cards import CardDef, build_table
from munchkin.engine.rules import MAX_PLAYERS, MIN_PLAYERS

if TYPE_CHECKING:
    from munchkin.engine.game import Game

VERBS: tuple[str, ...] = tuple(sorted(A.KINDS))  # every action kind, in a fixed order
# the flags the engine's actions carry; a flag outside it reads as "other" (a rank tells such actions apart)
FLAGS: tuple[str, ...] = (
    "all",
    "big",
    "both",
    "destroy",
    "discarding",  # "discarding X, Y": the cards themselves are `with` tokens
    "double",
    "face",
    "fight",
    "hireling",
    "me",
    "monster",
    "on",
    "only",
    "plain",
    "retry",
    "roll",
    "sidekick",
    "swap",
    "target",
    "treasure",
    "with",
    "you",
    "other",
)
N_MAX = 40  # n(0) .. n(N_MAX): a help deal's Treasures, a Loaded Die's face; beyond it a rank tells them apart
RANKS = 16  # rank(0) .. rank(RANKS - 1)

# the blocks of the catalogue, in index order (names as `layout` and `describe` give them)
BLOCKS = ("verb", "card", "target", "monster", "with", "n", "flag", "rank", "done")


def identity_key(d: CardDef) -> tuple[str, str]:
    """What makes two cards one identity (as `build_table` joins a mix): the name and the kind."""
    return (d.name.lower(), d.kind)


class Catalogue:
    """The catalogue of a set list (one set or a mix) and a player count: `size` indices, each a
    sub-choice of a fixed meaning (`describe`)."""

    def __init__(self, sets: Sequence[str], players: int) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Munchkin needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")
        self.sets = list(sets)
        self.players = players
        defs, _ = build_table(self.sets)
        ids = sorted({d.idx for d in defs})
        self.definitions: list[CardDef] = [defs[i] for i in ids]  # one per identity, in token order
        self._by_key = {identity_key(d): k for k, d in enumerate(self.definitions)}
        d = len(ids)
        sizes = (len(VERBS), d, players, d, d, N_MAX + 1, len(FLAGS), RANKS, 1)
        self.start: dict[str, int] = {}
        at = 0
        for name, n in zip(BLOCKS, sizes, strict=True):
            self.start[name] = at
            at += n
        self.lengths = dict(zip(BLOCKS, sizes, strict=True))
        self.size = at
        self.DONE = self.start["done"]
        self.no_mask = np.zeros(self.size, dtype=np.int8)  # nothing offered (copied, never written)
        self._verb = {v: self.start["verb"] + k for k, v in enumerate(VERBS)}
        self._flag = {f: self.start["flag"] + k for k, f in enumerate(FLAGS)}
        self._tables: tuple[list[CardDef], list[int]] | None = None  # the last game's card table
        self._sequences: dict[Action, tuple[int, ...]] = {}  # base sequences, for `_sequences_tok`
        self._sequences_tok: list[int] = []

    # ------------------------------------------------------------------ reading
    def layout(self) -> list[tuple[str, int, int]]:
        """The blocks: (name, first index, length)."""
        return [(b, self.start[b], self.lengths[b]) for b in BLOCKS]

    def block(self, i: int) -> tuple[str, int]:
        """The block of index `i` and its position within it."""
        if not 0 <= i < self.size:
            raise ValueError(f"action index {i} is outside the catalogue (0 to {self.size - 1})")
        for b in reversed(BLOCKS):
            if i >= self.start[b]:
                return b, i - self.start[b]
        raise AssertionError("unreachable")

    def describe(self, i: int) -> str:
        """What index `i` means, in words ("card: Slimy Armor", "target: the next seat to the left")."""
        b, k = self.block(i)
        if b == "verb":
            return f"verb: {VERBS[k]}"
        if b in ("card", "monster", "with"):
            d = self.definitions[k]
            return f"{b}: {d.name} ({d.kind}, {d.set})"
        if b == "target":
            return "target: yourself" if k == 0 else f"target: the seat {k} to your left"
        if b == "n":
            return f"n: {k}" + (" or more" if k == N_MAX else "")
        if b == "flag":
            return f"flag: {FLAGS[k]}"
        if b == "rank":
            return f"rank: the {k + 1}. of the listed actions read alike so far"
        return "done: no more to add"

    # ------------------------------------------------------------------ sequences
    def card_tokens(self, game: Game) -> list[int]:
        """Each physical card's identity position in this catalogue (for `game`'s card table)."""
        kept = self._tables
        if kept is not None and kept[0] is game.cdef:
            return kept[1]
        out: list[int] = []
        for d in game.cdef:
            k = self._by_key.get(identity_key(d))
            if k is None:
                raise MunchkinError(
                    f"card {d.name!r} ({d.set}) is not in the catalogue of {', '.join(self.sets)}: "
                    "the game was set up with other sets"
                )
            out.append(k)
        self._tables = (game.cdef, out)
        return out

    def sequence(self, action: Action, tok: list[int]) -> tuple[int, ...]:
        """The base token sequence of an action (without the rank that may tell it from another);
        `tok`: `card_tokens` of its game."""
        s = self.start
        out = [self._verb[action.kind]]
        if action.card >= 0:
            out.append(s["card"] + tok[action.card])
        if action.target >= 0:
            out.append(s["target"] + (action.target - action.seat) % self.players)
        if action.monster >= 0:
            out.append(s["monster"] + tok[action.monster])
        w = s["with"]
        out += [w + tok[c] for c in action.cards]
        if action.n:
            out.append(s["n"] + min(max(action.n, 0), N_MAX))
        f = action.flag
        if f:
            t = self._flag.get(f)
            if t is None:
                t = self._flag["discarding" if f.startswith("discarding ") else "other"]
            out.append(t)
        return tuple(out)

    def sequences(self, actions: Sequence[Action], tok: list[int]) -> list[tuple[int, ...]]:
        """The full sequence of each of a decision's actions: those that would read alike get a rank.
        Each action's base sequence is kept (the same actions come back decision after decision),
        for as long as the card table is the same."""
        kept = self._sequences
        if tok is not self._sequences_tok:
            if tok != self._sequences_tok or len(kept) > _SEQUENCES_KEPT:
                kept.clear()
            self._sequences_tok = tok
        base = []
        for a in actions:
            b = kept.get(a)
            if b is None:
                b = kept[a] = self.sequence(a, tok)
            base.append(b)
        seen: dict[tuple[int, ...], int] = {}
        for b in base:
            seen[b] = seen.get(b, 0) + 1
        if len(seen) == len(base):
            return base
        out: list[tuple[int, ...]] = []
        taken: dict[tuple[int, ...], int] = {}
        r0 = self.start["rank"]
        for b in base:
            if seen[b] == 1:
                out.append(b)
                continue
            r = taken.get(b, 0)
            if r >= RANKS:
                raise MunchkinError(f"more than {RANKS} legal actions read alike ({self.describe(b[0])}, ...)")
            taken[b] = r + 1
            out.append(b + (r0 + r,))
        return out


_SEQUENCES_KEPT = 50_000  # base sequences `sequences` keeps before it forgets them all
COMBINED = frozenset((A.ASK, A.BERSERK, A.TURNING, A.FLIGHT, A.STEAL))
MAX_OFFER = 3  # the most cards a combined help deal offers


def combined_moves(g: Game, listed: list[Action], tok: list[int]) -> list[Action]:
    """The legal moves the engine's listing leaves out (`legal.verify_unlisted`) made of the listed ones
    of one verb: a help deal offering up to MAX_OFFER of the cards listed singly, with or without one of
    the listed Treasure offers; Berserking, Turning or Flight discarding two or three of the cards listed
    singly in one action; a theft paid with any card that may pay for it. Their cards in increasing token
    order, so each has one sequence; each one checked legal (`Game.is_legal`) but the help deals, whose
    parts the listing already checked."""
    kind = listed[0].kind
    seat = listed[0].seat
    have = set(listed)
    out: list[Action] = []
    if kind == A.ASK:
        for target in dict.fromkeys(a.target for a in listed):
            mine = [a for a in listed if a.target == target]
            cards = sorted({a.cards[0] for a in mine if len(a.cards) == 1 and not a.n}, key=lambda c: tok[c])
            treasure = [(a.n, a.flag) for a in mine if a.n and not a.cards]
            for size in range(1, min(MAX_OFFER, len(cards)) + 1):
                for chosen in combinations(cards, size):
                    for n, flag in [(0, ""), *treasure]:
                        a = Action(A.ASK, seat, -1, target, -1, chosen, n, flag)
                        if a not in have:
                            out.append(a)
        return out
    if kind == A.STEAL:
        from munchkin.engine.legal import fuel

        pay = sorted({tok[c]: c for c in reversed(fuel(g, g.players[seat]))}.items())
        for card, target in dict.fromkeys((a.card, a.target) for a in listed):
            for _, c in pay:
                a = Action(A.STEAL, seat, card, target, -1, (c,), 0, "")
                if a not in have and g.is_legal(a):
                    out.append(a)
        return out
    singles = sorted({a.cards[0] for a in listed if len(a.cards) == 1}, key=lambda c: tok[c])
    for size in (2, 3):
        for chosen in combinations(singles, size):
            a = Action(kind, seat, cards=chosen)
            if g.is_legal(a):
                out.append(a)
    return out


class _Node:
    """A node of a decision's trie: its children by index, the action it ends (if any), and the
    actions still to be put below it (a verb's subtree is built when first looked into)."""

    __slots__ = ("children", "action", "pending", "verb", "depth")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.action: Action | None = None
        self.pending: list[Action] | None = None
        self.verb = ""  # on nodes with actions pending: their verb, whose combined moves are added when built
        self.depth = 1  # how many indices lead here from the root (a verb's node: 1)


class Chooser:
    """One seat's legal actions at one decision, taken index by index: `mask()` the indices offered
    now, `choose(i)` one of them (the action once complete, else None), `prefix` the indices chosen
    and passed through (not those below a node with one action, which completes at once)."""

    __slots__ = ("catalogue", "actions", "root", "node", "prefix", "tok", "game", "combined")

    def __init__(self, catalogue: Catalogue, game: Game, actions: Sequence[Action], combined: bool = True) -> None:
        if not actions:
            raise MunchkinError("no legal action to choose from")
        self.catalogue = catalogue
        self.actions = actions if isinstance(actions, list) else list(actions)  # (read, never changed)
        self.tok = catalogue.card_tokens(game)
        self.game = game
        self.combined = combined  # add the combined moves the listing leaves out (`combined_moves`)
        root = _Node()
        children = root.children
        verb = catalogue._verb
        for a in self.actions:  # the verbs now; each verb's actions are read when it is looked into
            t = verb[a.kind]
            nxt = children.get(t)
            if nxt is None:
                nxt = children[t] = _Node()
                nxt.pending = [a]
                nxt.verb = a.kind
            else:
                nxt.pending.append(a)  # type: ignore[union-attr]
        self.root = root
        self.node = root
        self.prefix: list[int] = []
        self._pass_through()

    def _kids(self, node: _Node) -> dict[int, _Node]:
        """A node's children, its pending actions put below it first."""
        pending = node.pending
        if pending is not None:
            node.pending = None
            if node.verb == A.ASK and self.combined and node.depth == 1:
                return self._by_target(node, pending)
            if node.verb in COMBINED and self.combined:
                pending = pending + combined_moves(self.game, pending, self.tok)
            elif len(pending) == 1:  # one action below: it ends here (the indices to it would only be passed
                node.action = pending[0]  # through, the action complete at once, before any observation)
                return node.children
            depth = node.depth
            for a, seq in zip(pending, self.catalogue.sequences(pending, self.tok), strict=True):
                at = node
                for t in seq[depth:]:
                    nxt = at.children.get(t)
                    if nxt is None:
                        nxt = at.children[t] = _Node()
                    at = nxt
                if at.action is None:
                    at.action = a
        return node.children

    def _by_target(self, node: _Node, pending: list[Action]) -> dict[int, _Node]:
        """The calls for help of a verb's node, put below it by whom they ask (an ASK's index after
        its verb), each target's deals and their combinations made when that target is looked into:
        the same trie as made at once, without the combinations of the targets not chosen."""
        cat = self.catalogue
        t0, n = cat.start["target"], cat.players
        for a in pending:
            t = t0 + (a.target - a.seat) % n
            nxt = node.children.get(t)
            if nxt is None:
                nxt = node.children[t] = _Node()
                nxt.pending, nxt.verb, nxt.depth = [], A.ASK, 2
            nxt.pending.append(a)  # type: ignore[union-attr]
        return node.children

    def fork(self) -> Chooser:
        """A copy at the same node, sharing the trie (to look down another branch)."""
        new = object.__new__(Chooser)
        new.catalogue, new.actions, new.root, new.node = self.catalogue, self.actions, self.root, self.node
        new.tok, new.game, new.combined = self.tok, self.game, self.combined
        new.prefix = list(self.prefix)
        return new

    def _pass_through(self) -> None:
        """Go on through nodes that offer no choice (a single child and no action of their own)."""
        node = self.node
        while True:
            kids = self._kids(node)  # (first: a node's own action may be among what it holds pending)
            if node.action is not None or len(kids) != 1:
                break
            (t, node), *_ = kids.items()
            self.prefix.append(t)
        self.node = node

    def offered(self) -> list[int]:
        """The indices offered now, in increasing order."""
        node = self.node
        kids = self._kids(node)
        out = sorted(kids)
        if node.action is not None and kids:
            out.append(self.catalogue.DONE)
        return out

    def mask(self) -> np.ndarray:
        """The mask of the indices offered now (int8, 1 = offered)."""
        m = self.catalogue.no_mask.copy()
        for i in self.offered():  # a few: one at a time costs less than numpy's fancy indexing
            m[i] = 1
        return m

    def complete(self) -> Action | None:
        """The action chosen, when the node reached ends one and offers nothing more."""
        node = self.node
        return node.action if not self._kids(node) else None

    def choose(self, i: int) -> Action | None:
        """Take index `i` (ValueError if it is not offered); the action once it is complete, else None."""
        node = self.node
        kids = self._kids(node)
        if i == self.catalogue.DONE and node.action is not None and kids:
            self.prefix.append(i)
            self.node = _Node()
            self.node.action = node.action
            return node.action
        nxt = kids.get(i)
        if nxt is None:
            offered = ", ".join(f"{k} ({self.catalogue.describe(k)})" for k in self.offered()[:8])
            raise ValueError(f"action index {i} is not offered now; offered: {offered}")
        self.prefix.append(i)
        self.node = nxt
        self._pass_through()
        return self.complete()

    def sequence_of(self, action: Action) -> list[int]:
        """The indices an agent gives to take `action` from the start of this decision (the
        passed-through ones left out); ValueError if it is not one of the listed actions."""
        out: list[int] = []
        path: list[tuple[int, _Node]] = []
        stack: list[tuple[_Node, list[tuple[int, _Node]]]] = [(self.root, path)]
        while stack:  # depth-first search for the node holding the action
            node, path = stack.pop()
            kids = self._kids(node)  # (first, as in `_pass_through`)
            if node.action == action:
                break
            stack += [(c, path + [(t, c)]) for t, c in kids.items()]
        else:
            raise ValueError(f"{action!r} is not among the listed actions")
        cur = self.root
        for t, nxt in path:
            if cur.action is not None or len(self._kids(cur)) > 1:
                out.append(t)
            cur = nxt
        if self._kids(cur):
            out.append(self.catalogue.DONE)
        return out


def catalogue_size(sets: Sequence[str], players: int) -> int:
    """N, the number of indices of the catalogue of a set list and a player count."""
    return Catalogue(sets, players).size


__all__ = ["BLOCKS", "FLAGS", "N_MAX", "RANKS", "VERBS", "Catalogue", "Chooser", "catalogue_size"]
