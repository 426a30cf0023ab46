"""Invariants checked after every step of a checked simulation."""

from __future__ import annotations

from collections import Counter

from munchkin.engine import characters
from munchkin.engine.game import Game
from munchkin.engine.rules import WINNING_LEVEL

# prompts in the middle of an effect (a Curse still choosing its victims' losses, a roll being
# answered): the table is put right when the effect ends, so the Rank limit is checked elsewhere
MID_EFFECT = ("before", "choose", "curse_window", "rolled", "caught", "loot_body")


def card_places(g: Game) -> Counter[int]:
    """How many places each card is in (every card must be in exactly one)."""
    seen: Counter[int] = Counter()
    for zone in (g.door_deck, g.treasure_deck, g.door_discard, g.treasure_discard, g.limbo, g.set_aside):
        seen.update(zone)
    for p in g.players:
        seen.update(p.hand)
        seen.update(set(p.in_play()))
    if g.combat is not None:
        seen.update(g.combat.played)
    return seen


def each_card_once(g: Game) -> bool:
    """Whether every card is in exactly one place (the quick test; `card_places` says where)."""
    cards = [*g.door_deck, *g.treasure_deck, *g.door_discard, *g.treasure_discard, *g.limbo, *g.set_aside]
    for p in g.players:
        cards += p.hand
        cards += set(p.in_play())
    if g.combat is not None:
        cards += g.combat.played
    return len(cards) == g.ncards and set(cards) == set(range(g.ncards))


def violations(g: Game, since: int = 0, dead: set[int] | None = None) -> list[str]:
    """Every broken invariant, in words; empty when all hold. Events before `since` are
    taken as already checked; `dead` holds the seats dead at that point (updated here)."""
    out: list[str] = []
    dead = set() if dead is None else dead
    if not each_card_once(g):
        places = card_places(g)
        for c in range(g.ncards):
            n = places.get(c, 0)
            if n != 1:
                out.append(f"card {c} ({g.name(c)}) is in {n} places")
    for p in g.players:
        if not 1 <= p.level <= WINNING_LEVEL:
            out.append(f"{p.name} is at Level {p.level}")
        if p.equipped - set(p.items):
            out.append(f"{p.name} has equipped Items not carried")
        for k, c in p.carried.items():
            if c >= 0 and c not in p.items:
                out.append(f"{p.name}'s {g.name(k)}'s Item {g.name(c)} is not among their Items")
        for it, k in p.cheats.items():
            if it not in p.items + p.sidekicks:
                out.append(f"{p.name}'s Cheat! card {g.name(it)} is not among their Items or Sidekicks")
            if g.cdef[k].name != "Cheat!":
                out.append(f"{p.name}'s Cheat! on {g.name(it)} is {g.name(k)}")
        for e, it in p.enhancers.items():
            if it not in p.items or g.cdef[it].steed:
                out.append(f"{p.name}'s {g.name(e)} is on {g.name(it)}, not an Item of theirs (or a Steed)")
        if len([k for k in p.items if g.cdef[k].steed and k not in p.cheats]) > 1 and g.prompt.kind != "before":
            out.append(f"{p.name} has more than one Steed")
        for k in p.carried:
            if k not in p.sidekicks:
                out.append(f"{p.name}'s {g.name(k)} carries an Item but is not in play")
        if (
            characters.sidekick_count(g, p) > characters.sidekick_limit(g, p)
            and not p.dead
            and g.prompt.kind != "before"
        ):
            out.append(f"{p.name} has {len(p.sidekicks)} Sidekicks in play (limit {characters.sidekick_limit(g, p)})")
        if characters.equipment_overflow(g, p) and g.prompt.kind != "before":
            out.append(f"{p.name} has equipped more than the limits allow")
        if characters.rank_total(g, p) > p.level and g.prompt.kind not in MID_EFFECT:
            out.append(f"{p.name}'s Proficiencies total Rank {characters.rank_total(g, p)}, above Level {p.level}")
        if len(p.roles) > (2 if p.dual_role >= 0 else 1) or (p.dual_role >= 0 and not p.roles):
            out.append(f"{p.name} has {len(p.roles)} Roles in play (Dual Role: {p.dual_role >= 0})")
        if len({g.cdef[c].idx for c in p.roles}) != len(p.roles):
            out.append(f"{p.name} has two copies of one Role in play")
        if g.houses and p.house not in g.houses:
            out.append(f"{p.name} has no House")
        if p.dead and (p.hand or p.items):
            out.append(f"{p.name} is dead but holds cards")
        if p.level >= WINNING_LEVEL and not g.over:
            out.append(f"{p.name} is at Level {WINNING_LEVEL} but the game goes on")
    for ev in g.events[since:]:
        if ev[0] == "level" and ev[3] >= WINNING_LEVEL and ev[2] > 0:
            why = ev[4]
            helped = why.startswith("helping") and g.options.shared_victories  # a helper's levels (Elf, Starfish)
            if not (why.startswith("killing") or why == "Divine Intervention" or "Elf" in why or helped):
                out.append(f"{g.players[ev[1]].name} reached Level 10 by {why}")
        elif ev[0] == "charity_done" and ev[2] > ev[3]:
            out.append(f"{g.players[ev[1]].name} ends Charity with {ev[2]} cards (limit {ev[3]})")
        elif ev[0] == "death":
            dead.add(ev[1])
        elif ev[0] == "new_character":
            dead.discard(ev[1])
        elif ev[0] in ("draw", "looted", "take", "charity") and (ev[2] if ev[0] == "charity" else ev[1]) in dead:
            out.append(f"{g.players[ev[1]].name} received cards while dead")
    if g.over and not g.capped and not g.winners:
        out.append("the game ended with no winner")
    return out


class Checker:
    """Checks a game after each step, looking at each event once."""

    def __init__(self) -> None:
        self.seen = 0
        self.dead: set[int] = set()

    def check(self, g: Game) -> list[str]:
        out = violations(g, self.seen, self.dead)
        self.seen = len(g.events)
        return out
