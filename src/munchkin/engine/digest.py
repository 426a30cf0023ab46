"""A digest of a game's whole state, to prove that something changed nothing.

`Game.fingerprint()` digests the table (decks, piles, hands, what each player has in play) and is
what a save records, so its shape stays as saves have it. `state_digest` covers everything a game
is: every attribute of the game and of each player, the fight and its monsters, the limbo, the
flow's stack of steps and the decision waited on, the chance (a generator's state, a recording's
position), the log and the events. Only the caches of listed actions are left out (they are
rebuilt on demand and change no rule) and what was fixed at setup and never changes (the cards'
definitions, the options). Tests that mean "the game is unchanged" compare this.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from munchkin.engine.chance import FairChance, RandomChance, RecordedChance

if TYPE_CHECKING:
    from munchkin.engine.game import Game

# rebuilt on demand from the state (see Game.legal_actions): not part of what a game is
CACHES = frozenset(
    {
        "_legal_cache",
        "_any_time_cache",
        "_cache_version",
        "_window_cache",
        "_window_version",
        "_sale_cache",
        "_exchange_cache",
        "_win_cache",
        "_masked_events",
        "listing",  # what the last listing was for: set afresh by each listing
    }
)
# fixed at setup from the sets and the options (the setup itself is digested)
FIXED = frozenset(
    {"defs", "cdef", "twins", "cards_by_name", "houses", "abilities_granted", "phase_words", "options", "card_versions"}
)


def plain(x: Any) -> Any:
    """What the JSON encoder cannot write itself, in a canonical shape: a set sorted, a generator as
    its state, a chance as its kind and where it stands, a record as its type's name and its fields
    (slots and dict). Lists, tuples (Actions and events among them) and dicts (keys sorted) it writes."""
    t = type(x)
    if t is set or t is frozenset:
        return ["set", sorted(x, key=repr)]
    if isinstance(x, random.Random):
        return ["rng", x.getstate()[1]]
    if isinstance(x, RandomChance):
        rng = x.__dict__.get("rng")  # a later-seeded chance makes its generator on first use
        return [t.__name__, rng if rng is not None else ["seed", x.__dict__.get("seed")]]
    if isinstance(x, RecordedChance):
        return [t.__name__, x.pos, len(x.outcomes), x.then]
    if isinstance(x, FairChance):  # its key as a digest of it: equal keys, equal digests
        return [t.__name__, x.draws, x.choices, x.key_digest()]
    fields: dict[str, Any] = {}
    for cls in t.__mro__:
        for n in getattr(cls, "__slots__", ()):
            if n not in fields and hasattr(x, n):
                fields[n] = getattr(x, n)
    if hasattr(x, "__dict__"):
        fields.update(vars(x))
    if not fields and not hasattr(x, "__slots__"):
        raise TypeError(f"the state digest cannot read a {t.__name__}")
    return [t.__name__, fields]


HISTORY = ("log", "events")


def state_parts(g: Game, history: bool = True) -> dict[str, Any]:
    """Every part of the state by attribute name (caches and what setup fixed left out); the setup
    names the cards' versions the game plays with (a loaded save names them, a new game may not).
    Without `history` the log and the events are left out (only how many there are is kept): a
    caller comparing them itself need not pay for digesting a long game's history."""
    parts = {name: v for name, v in vars(g).items() if name not in CACHES and name not in FIXED}
    if not history:
        for name in HISTORY:
            parts[name] = len(parts[name])
    parts["setup"] = replace(g.setup, card_versions=dict(g.card_versions))
    return parts


def state_digest(g: Game, history: bool = True) -> str:
    """A digest of the whole state: equal digests mean equal games, the flow and chance included
    (without `history`, the log and events by their lengths only)."""
    text = json.dumps(state_parts(g, history), separators=(",", ":"), sort_keys=True, default=plain)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


__all__ = ["CACHES", "FIXED", "plain", "state_digest", "state_parts"]
