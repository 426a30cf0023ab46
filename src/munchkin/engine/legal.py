"""Legal actions for every prompt, and the checks of actions the lists leave out (what each action
does when applied is in `play.py`)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from munchkin.cards.hooks import CardHook
from munchkin.engine import actions as A
from munchkin.engine import characters, combat, fight, play, rewards
from munchkin.engine import decisions as D
from munchkin.engine.actions import Action, IllegalAction
from munchkin.engine.core import card_hook
from munchkin.engine.rules import (
    ABILITY_DISCARDS,
    GOLD_PER_LEVEL,
    TURNING_BONUS,
    WINNING_LEVEL,
    as_written,
    gifts_any_time,
    vocabulary_all_read,
    whims_wait_not,
)
from munchkin.engine.state import (
    CHARITY,
    MAIN,
    Combat,
    Player,
)

if TYPE_CHECKING:
    from munchkin.engine.game import Game

MAX_SALES = 64

# `Action(kind, seat, card, target, monster, cards, n, flag)` from all eight fields at once, built
# without the Python-level constructor a NamedTuple has: the lists below make many per decision
_action = partial(tuple.__new__, Action)


_unique = D.unique_cards  # one card per definition: identical copies make the same action


def compute_legal(g: Game, seat: int) -> list[Action]:
    """The listed legal actions of `seat` at the decision the game waits on."""
    return g._prompt.offers(g, seat)  # type: ignore[arg-type]


# ---------------------------------------------------------------- main
def main_actions(g: Game, seat: int, stage: str) -> list[Action]:
    if stage == "create":
        return creation_actions(g, g.players[seat])
    return turn_actions(g, seat, stage) + free_actions(g, seat, own_turn=True)


def turn_actions(g: Game, seat: int, stage: str) -> list[Action]:
    """What moves the turn on at `stage` (Kick Open The Door, Look For Trouble or Loot The Room, end it)."""
    p = g.players[seat]
    if stage == "start":
        out = [_action((A.KICK, seat, -1, -1, -1, (), 0, ""))]
        if characters.has_ability(g, p, "resurrection") and g.door_discard and p.hand:
            out += [Action(A.RESURRECT, seat, c) for c in _unique(p.hand, g)]
        return out
    if stage == "door":
        out = [_action((A.LOOT, seat, -1, -1, -1, (), 0, ""))]
        cdef = g.cdef
        if not (g.transferred and as_written(g)):  # after a fight passed on: Loot The Room only
            out += [Action(A.TROUBLE, seat, c) for c in _unique(p.hand, g) if cdef[c].is_monster]
        return out
    return [_action((A.END, seat, -1, -1, -1, (), 0, ""))]


def creation_actions(g: Game, p: Player) -> list[Action]:
    """Character creation: one Race, one Class (or Role, Rank-1 Proficiency), usable Items, then ready."""
    cdef = g.cdef
    out = [Action(A.READY, p.seat)]
    for c in _unique(p.hand, g):
        d = cdef[c]
        if (d.is_race and not p.races) or (d.is_class and not p.classes) or (d.is_role and not p.roles):
            out.append(Action(A.PLAY, p.seat, c))
        elif d.is_proficiency and not p.proficiencies and d.rank == 1:  # one, of Rank 1
            out.append(Action(A.PLAY, p.seat, c))
        elif d.is_item and characters.can_use(g, p, c):  # as on any turn: Big-item and Steed limits
            out += card_actions(g, p.seat, c, own_turn=True)
        elif d.is_sidekick and g.allies:  # Harry Potter: Allies too
            out += card_actions(g, p.seat, c, own_turn=True)
    out += equip_actions(g, p, unequip=True)
    return out


def equip_actions(g: Game, p: Player, unequip: bool) -> list[Action]:
    """Equip a carried Item that fits, or unequip one; identical copies make one action."""
    cdef = g.cdef
    out: list[Action] = []
    if unequip:
        out += [
            _action((A.UNEQUIP, p.seat, c, -1, -1, (), 0, ""))
            for c in _unique([c for c in p.items if c in p.equipped], g)
        ]
    free = [c for c in p.items if c not in p.equipped and cdef[c].is_item and characters.equip_problem(g, p, c) is None]
    out += [_action((A.EQUIP, p.seat, c, -1, -1, (), 0, "")) for c in _unique(free, g)]
    return out


def free_actions(g: Game, seat: int, own_turn: bool) -> list[Action]:
    """Actions out of combat: own turn (everything) or another's (any-time actions)."""
    p = g.players[seat]
    if p.dead:
        return []
    g.listing = D.FREE
    out: list[Action] = []
    for c in _unique(p.hand, g):
        if own_turn or c in p.received or _any_time(g, c):
            out += card_actions(g, seat, c, own_turn)
    return out + table_actions(g, p, own_turn)


def table_actions(g: Game, p: Player, own_turn: bool) -> list[Action]:
    """The free actions that play no card from the hand: Items equipped, given, traded, sold or
    stolen, character cards discarded, the powers of cards in play."""
    seat = p.seat
    out: list[Action] = []
    if own_turn:
        out += equip_actions(g, p, unequip=True)
        for c in p.character_cards() + discardable_sidekicks(g, p):
            out.append(_action((A.DISCARD, seat, c, -1, -1, (), 0, "")))
        out += sale_actions(g, p)
        out += power_actions(g, p)
        out += carrier_gifts(g, p)
        out += exchange_actions(g, p, gifts=True)
    else:
        fighting = g.combat.fighters() if g.combat is not None else ()
        if seat not in fighting:  # "at any time, as long as you are not in combat": equip, unequip, trade
            out += equip_actions(g, p, unequip=True)
        out += [
            _action((A.DISCARD, seat, c, -1, -1, (), 0, "")) for c in p.character_cards() + discardable_sidekicks(g, p)
        ]
        if seat not in fighting:  # "except when you or your trading partner are in combat"
            anytime = gifts_any_time(g)  # since rules 4 Items are given away at any time too (bribes)
            if anytime:
                out += carrier_gifts(g, p)  # "You cannot give a Hireling an Item to carry while you are in combat"
            trades = exchange_actions(g, p, gifts=anytime)
            out += [a for a in trades if a.target not in fighting] if fighting else trades
    if characters.has_ability(g, p, "theft") and (p.hand or p.items) and (own_turn or g.combat is None):
        out += theft_actions(g, p)  # never from anyone during a combat
    return out


def power_actions(g: Game, p: Player) -> list[Action]:
    """The powers of a player's cards in play on their own turn: the actions of the hook of a Race,
    Class, Role, Proficiency (Potions) or Sidekick (a `hook` of those blocks, docs/cards.md)."""
    out: list[Action] = []
    held = (
        p.races + p.classes + p.roles + p.proficiencies + p.sidekicks
        if vocabulary_all_read(g)
        else p.roles + p.proficiencies
    )
    for c in held:
        if (h := card_hook(g, c)) is not None:
            out += h.actions(g, p.seat, c)
    return out


def may_act_any_time(g: Game) -> bool:
    """Whether the moment the game waits on lets the players it does not wait on take their
    any-time actions: every moment of a turn (its start, after the door, a fight's windows, losing,
    Running Away, Charity, the end) but character creation and the instants within a rule being
    resolved (a face-up Door to keep or play, a choice, a roll's answers, an offer, looting, a
    Curse's cancel window), after which the game is back at one of those."""
    pr = g._prompt
    t = type(pr)
    if t is D.Main:
        return pr.stage != "create"  # type: ignore[attr-defined]
    return t in (D.Window, D.Losing, D.Run, D.Charity, D.EndWindow)


def any_time_actions(g: Game, seat: int) -> list[Action]:
    """What a seat the game does not wait on may do now: what its rulebook allows at any time (a
    Curse or Trap on anyone, Go Up a Level, a Hireling, Sidekick or Ally, a Race, Class, Role or
    Proficiency discarded, a card just received), and when out of combat, trading (with a partner
    out of combat too) and changing which Items are equipped."""
    if g.over or not may_act_any_time(g):
        return []
    return free_actions(g, seat, own_turn=False)


# the kinds of move that may only rearrange a player's own things on the table (`rearranges`)
REARRANGING = frozenset((A.EQUIP, A.UNEQUIP, A.GIVE, A.TRADE, A.DISCARD))


def rearranges(g: Game, act: Action) -> bool:
    """Whether `act` only rearranges its player's own things on the table, a move no one makes on a
    whim in another's moment and which any later moment allows as well: an Item in play equipped,
    unequipped, given away (to a player or a Hireling) or traded, or a card of one's own in play (a
    Race, Class, Role, Proficiency or Sidekick) discarded to no effect now. Not a whim: a discard by
    someone in the combat (it changes the fight), one that a kept Curse leaves with (Chicken On Your
    Head), any card from the hand (Charity's gifts and discards among them). It reads the table, not
    the moment: a choice a rule demands (which Proficiency to discard) is the caller's to tell."""
    kind = act.kind
    if kind not in REARRANGING:
        return False
    p = g.players[act.seat]
    c = act.card
    if kind != A.DISCARD:
        return c in p.items
    if c not in p.character_cards() and c not in discardable_sidekicks(g, p):
        return False
    if g.combat is not None and act.seat in g.combat.fighters():
        return False
    return not any((h := card_hook(g, k)) is not None and h.leaves_with(g, p, c) for k in p.curses)


def keeps_table_waiting(g: Game, act: Action) -> bool:
    """Whether a response window waits on a seat for `act` (a move besides passing): since rules 6
    not for a whim (`rearranges`), which the seat may still take at any time without being waited on."""
    if act.kind == A.PASS:
        return False
    return not (whims_wait_not(g) and rearranges(g, act))


def free_actions_if_waited(g: Game, seat: int) -> list[Action]:
    """`free_actions(g, seat, own_turn=False)` when one of them keeps a response window waiting
    (`keeps_table_waiting`, rules 6), else []. The window before the next turn asks only such a seat,
    so the Items it could equip, give or trade (whims all, and most of the list) are listed only then."""
    p = g.players[seat]
    if p.dead:
        return []
    g.listing = D.FREE
    out: list[Action] = []
    for c in _unique(p.hand, g):  # as `free_actions` lists them
        if c in p.received or _any_time(g, c):
            out += card_actions(g, seat, c, own_turn=False)
    if any(keeps_table_waiting(g, a) for a in out) or _table_keeps_waiting(g, p):
        return out + table_actions(g, p, own_turn=False)
    return []


def _table_keeps_waiting(g: Game, p: Player) -> bool:
    """Whether `table_actions(g, p, own_turn=False)` holds a move that keeps a window waiting: only a
    discard or a theft may; its equips, gifts and trades all move an Item of `p`'s in play (`rearranges`)."""
    seat = p.seat
    for c in p.character_cards() + discardable_sidekicks(g, p):
        if keeps_table_waiting(g, _action((A.DISCARD, seat, c, -1, -1, (), 0, ""))):
            return True
    if characters.has_ability(g, p, "theft") and (p.hand or p.items) and g.combat is None:
        return bool(theft_actions(g, p))
    return False


# the decisions whose own seats may also act at any time besides answering: there an action taken
# is either an answer or one of those extras (`Game._apply_unchecked` tells them apart)
EXTRAS_AT = (D.Window, D.Losing, D.Run, D.Charity)


def any_time_extras(g: Game, seat: int, offered: list[Action]) -> list[Action]:
    """The any-time actions of a seat the game waits on that its decision does not offer (a
    bystander in a combat window trades or equips; a fighter Running Away plays a Curse): taken,
    they come before the answer, which is asked for again."""
    t = type(g._prompt)
    if t not in EXTRAS_AT:
        return []
    # rules 4: "Play a new Class or Race card (at any time)" on your own turn, so also when told to
    # ask for help or Run Away in your own fight, and the fight is weighed again
    own = seat == g.active and (t is D.Losing or t is D.Run) and gifts_any_time(g)
    if not g.players[seat].items and not g._may_act_off_turn(seat) and not own:
        return []
    listing = g.listing
    mine = set(offered)
    out = [a for a in free_actions(g, seat, own_turn=False) if a not in mine]
    if own:
        p, cdef = g.players[seat], g.cdef
        for c in _unique(p.hand, g):
            d = cdef[c]
            if d.is_race or d.is_class or d.is_role or d.is_proficiency:
                out += [a for a in card_actions(g, seat, c, own_turn=True) if a not in mine]
    g.listing = listing  # the decision's own listing stays what card hooks see
    return out


# why an Item may not change hands now, when one side is in the combat (the rulebooks' Trading)
IN_COMBAT_RULE = {
    A.TRADE: "you may trade at any time except when you or your trading partner are in combat",
    A.GIVE: (
        "Items change hands (given, traded or handed to a Hireling) only when neither side is in combat "
        "(no giving during combat)"
    ),
}


def any_time_refusal(g: Game, act: Action) -> str:
    """Why a seat the game does not wait on may not take `act` now, naming the rule."""
    name = g.name_of(act.seat)
    who = ", ".join(g.players[s].name for s in g._prompt.seats) or "nobody"
    fighting = g.combat.fighters() if g.combat is not None else ()
    if not may_act_any_time(g):
        return f"{name} may not act now; waiting on {who} ({g._prompt.rule()})"
    exchange = act.kind == A.TRADE or (act.kind == A.GIVE and gifts_any_time(g))
    if exchange and (act.seat in fighting or act.target in fighting):
        them = name if act.seat in fighting else g.name_of(act.target)
        return f"not legal now: {them} is in the combat, and {IN_COMBAT_RULE[act.kind]}"
    if act.kind in (A.EQUIP, A.UNEQUIP) and act.seat in fighting:
        return f"no {act.kind}ping during combat: {name} is in the combat (Items change only out of combat)"
    if act.kind in (A.SELL, A.GIVE, A.KICK, A.LOOT, A.TROUBLE, A.END):
        return f"{name} may not act now; waiting on {who}: that is for one's own turn"
    return f"{name} may not act now; waiting on {who}: a player not waited on may take any-time actions only"


def may_play_sidekick(g: Game, p: Player) -> bool:
    """Room for one more Sidekick; with Harry Potter's Allies a new one may also come in for
    the old, which is then discarded (the player choosing which goes)."""
    return characters.sidekick_count(g, p) < characters.sidekick_limit(g, p) or bool(g.allies and p.sidekicks)


def fuel(g: Game, p: Player) -> list[int]:
    """Cards that may be discarded to power an ability: any in the hand or in play, but not
    Curses kept as reminders (nor the cards attached to others: Cheat!, Half-Breed, ...)."""
    if p.sidekicks or p.enhancers or p.races or p.classes or p.roles or p.proficiencies:
        return p.hand + p.items + list(p.enhancers) + p.sidekicks + p.character_cards()
    return p.hand + p.items


def free_carrier(g: Game, p: Player) -> int:
    """The Sidekick (or Hireling) that can carry an Item and has none yet; -1 if none."""
    return next((k for k in p.sidekicks if g.cdef[k].carries and k not in p.carried), -1)


def discardable_sidekicks(g: Game, p: Player) -> list[int]:
    """Star Munchkin: Sidekicks may be discarded at any time (Deluxe says nothing of Hirelings)."""
    return p.sidekicks if g.sidekicks_discardable else []


def charity_recipients(g: Game, p: Player) -> list[int]:
    """Lowest-Level living players other than the giver; empty when the giver is lowest."""
    alive = [q for q in g.players if not q.dead]
    low = min(q.level for q in alive)
    if p.level <= low:
        return []
    return [q.seat for q in alive if q.level == low and q.seat != p.seat]


def carrier_gifts(g: Game, p: Player) -> list[Action]:
    """Items handed to a Hireling (Sidekick, Ally) that can carry one and carries none yet: on one's
    own turn, and since rules 4 at any time out of combat ("You cannot give a Hireling an Item to
    carry while you are in combat, however")."""
    cdef = g.cdef
    out: list[Action] = []
    carriers = [k for k in p.sidekicks if cdef[k].carries and k not in p.carried]
    exempt = p.exempt() if carriers else ()
    for k in carriers:  # the Sidekick is named only when two could take the Item
        named = (k,) if len(carriers) > 1 else ()
        fits = [c for c in p.items if c not in exempt and (c not in p.equipped or cdef[c].big)]
        for c in _unique([c for c in fits if not cdef[c].steed], g):
            out.append(Action(A.GIVE, p.seat, c, flag="hireling", cards=named))
    return out


def exchange_actions(g: Game, p: Player, gifts: bool) -> list[Action]:
    """Gifts and trades of Items on the table (the trades kept by partner). Gifts are listed on the
    giver's own turn and, since rules 4, at any time out of combat: "You may also give Items away
    without a trade, to bribe other players" (the caller leaves out partners in combat)."""
    if not p.items:  # nothing to give or trade
        return []
    cdef = g.cdef
    out: list[Action] = []
    if gifts:
        mine = [c for c in _unique(p.items, g) if cdef[c].is_item]
        for q in g.players:
            if q is not p and not q.dead:
                for c in mine:
                    if cdef[c].steed and not characters.steed_room(g, q):
                        continue
                    if not cdef[c].big or characters.may_carry_big(g, q):
                        out.append(_action((A.GIVE, p.seat, c, q.seat, -1, (), 0, "")))
    return out + trade_actions(g, p)


def trade_actions(g: Game, p: Player) -> list[Action]:
    """One Item of yours for one of another player's (both out of combat). The trades with each
    partner are kept by all they read (both players' Items and room for Big items): the table changes
    a player or two at a time, and the trades between the others still hold."""
    out: list[Action] = []
    kept = g._exchange_cache
    if len(kept) > 512:
        kept.clear()
    cdef = g.cdef
    room_p, seat, TRADE = _big_room(g, p), p.seat, A.TRADE
    mine_key = (seat, room_p, *p.items)
    mine: list[tuple[int, int]] | None = None  # made at the first partner not kept
    for q in g.players:
        if q is p or q.dead or not q.items:
            continue
        room_q, them = _big_room(g, q), q.seat
        key = (mine_key, them, room_q, *q.items)
        pair = kept.get(key)
        if pair is None:
            if mine is None:
                mine = [(c, cdef[c].big) for c in _unique(p.items, g) if cdef[c].is_item]
            pair = []
            for theirs in _unique([k for k in q.items if cdef[k].is_item], g):
                tb, got = cdef[theirs].big, (theirs,)
                for c, cb in mine:
                    # after the swap each side may carry one Big item (Dwarves: any number)
                    if tb and room_p + cb < 1 or cb and room_q + tb < 1:
                        continue
                    pair.append(_action((TRADE, seat, c, them, -1, got, 0, "")))
            kept[key] = pair
        out += pair
    return out


def _big_room(g: Game, p: Player) -> int:
    """How many more Big items this character may carry (a large number for a Dwarf)."""
    return (
        99
        if characters.has_ability(g, p, "carry_any_big")
        else characters.big_allowance(g, p) - characters.big_count(g, p)
    )


def _any_time(g: Game, c: int) -> bool:
    d = g.cdef[c]
    # "at any time": Curses, Go Up a Level, Sidekicks, any-time cards, and the cards that cancel a
    # Curse "whether it is just being played or already lingering on a player" (Wishing Ring)
    return (
        d.is_curse
        or d.is_gual
        or d.is_sidekick
        or ((d.is_special or d.is_one_shot) and d.when == "any")
        or (d.is_one_shot and d.when == "curse" and as_written(g))
    )


def card_actions(g: Game, seat: int, c: int, own_turn: bool) -> list[Action]:
    """Ways to play one card from the hand outside combat."""
    p = g.players[seat]
    d = g.cdef[c]
    if d.is_race:
        return [_action((A.PLAY, seat, c, -1, -1, (), 0, ""))] if can_play_race(g, p, c) else []
    if d.is_class:
        return [_action((A.PLAY, seat, c, -1, -1, (), 0, ""))] if can_play_class(g, p, c) else []
    if d.is_role:
        return [_action((A.PLAY, seat, c, -1, -1, (), 0, ""))] if can_play_role(g, p, c) else []
    if d.is_proficiency:
        return [_action((A.PLAY, seat, c, -1, -1, (), 0, ""))] if can_play_proficiency(g, p, c) else []
    if d.is_item:
        if d.steed:
            return [_action((A.PLAY, seat, c, -1, -1, (), 0, ""))] if characters.steed_room(g, p) else []
        return [_action((A.PLAY, seat, c, -1, -1, (), 0, ""))] if (not d.big or characters.may_carry_big(g, p)) else []
    if d.is_sidekick:  # any time, even in combat, while there is room for one more
        return [_action((A.PLAY, seat, c, -1, -1, (), 0, ""))] if may_play_sidekick(g, p) else []
    if d.is_item_enhancer:  # on your own turn, out of combat, onto an Item of yours (not a Steed)
        if not own_turn or g.combat is not None or seat != g.active:
            return []
        cdef = g.cdef
        targets = _unique([k for k in p.items if cdef[k].is_item and not cdef[k].steed], g)
        return [Action(A.PLAY, seat, c, cards=(k,), flag="on") for k in targets]
    if d.is_curse:
        return curse_targets(g, seat, c)
    if d.is_gual:
        return [
            _action((A.PLAY, seat, c, q.seat, -1, (), 0, ""))
            for q in g.players
            if not q.dead and q.level < WINNING_LEVEL - 1
        ]
    h = card_hook(g, c)
    if h is not None and (d.is_special or d.is_one_shot):
        return h.actions(g, seat, c)
    return []


def curse_targets(g: Game, seat: int, c: int) -> list[Action]:
    """A Curse (Trap) on any player; one that changes sex also on any Sidekick in play."""
    out = [_action((A.PLAY, seat, c, q.seat, -1, (), 0, "")) for q in g.players if not q.dead]
    if g.cdef[c].changes_sex:
        cdef = g.cdef
        for q in g.players:
            for k in q.sidekicks:
                if cdef[k].sex and not q.dead:
                    out.append(Action(A.PLAY, seat, c, q.seat, cards=(k,), flag="sidekick"))
    return out


def can_play_race(g: Game, p: Player, c: int) -> bool:
    if any(g.cdef[r].idx == g.cdef[c].idx for r in p.races):
        return False
    return True  # a new Race replaces the old one (or joins it under Half-Breed)


def can_play_class(g: Game, p: Player, c: int) -> bool:
    return not any(g.cdef[r].idx == g.cdef[c].idx for r in p.classes)


def can_play_role(g: Game, p: Player, c: int) -> bool:
    """Never two of one Role; a new Role replaces the old (or joins it under Dual Role)."""
    return not any(g.cdef[r].idx == g.cdef[c].idx for r in p.roles)


def can_play_proficiency(g: Game, p: Player, c: int) -> bool:
    """Any number of Proficiencies while their total Rank is at most the Level."""
    cdef = g.cdef
    if any(cdef[r].idx == cdef[c].idx for r in p.proficiencies):
        return False
    return characters.rank_total(g, p) + cdef[c].rank <= p.level


def sale_actions(g: Game, p: Player) -> list[Action]:
    """Each sale where every Item counts (removing any one would cost a level)."""
    room = WINNING_LEVEL - 1 - p.level
    if room <= 0:
        return []
    cdef = g.cdef
    items = [c for c in characters.sellable(g, p) if cdef[c].gold > 0]
    double = characters.has_ability(g, p, "double_sale") and not p.double_sale_used and "double_sale" not in p.barred
    key = (p.seat, room, double, tuple(items), tuple(p.enhancers.items()))
    hit = g._sale_cache.get(key)
    if hit is not None:
        return hit
    out = _sales(g, p, items, room, double, {c: characters.sale_value(g, p, c) for c in items})
    if len(g._sale_cache) > 256:
        g._sale_cache.clear()
    g._sale_cache[key] = out
    return out


def _sales(
    g: Game, p: Player, items: list[int], room: int, double: bool, gold: dict[int, int], prune: bool = True
) -> list[Action]:
    """The sales where each Item counts, found adding Items in order of worth (`prune`: stop where
    even every Item left could not make a Level; a test compares it with the search that does not)."""
    cdef = g.cdef
    total = sum(gold[c] for c in items)
    best = max((gold[c] for c in items), default=0)
    if total + (best if double else 0) < GOLD_PER_LEVEL:
        return []
    items.sort(key=lambda c: (-gold[c], cdef[c].idx))
    out: list[Action] = []
    seen: set[tuple[Any, ...]] = set()
    n = len(items)
    rest = [0] * (n + 1)  # the gold of items[j:], to stop where no sale can be reached any more
    for j in range(n - 1, -1, -1):
        rest[j] = rest[j + 1] + gold[items[j]]
    seat, SELL = p.seat, A.SELL

    def rec(i: int, chosen: list[int], t: int, dbl: int) -> None:
        if len(out) >= MAX_SALES:
            return
        lv = min(t // GOLD_PER_LEVEL, room)  # the Levels this sale buys
        if lv >= 1:
            for k in chosen:  # each Item counts: without any one of them, a Level fewer
                if min((t - (2 * gold[k] if k == dbl else gold[k])) // GOLD_PER_LEVEL, room) >= lv:
                    return
            key = (tuple(sorted(cdef[k].idx for k in chosen)), cdef[dbl].idx if dbl >= 0 else -1)
            if key not in seen:
                seen.add(key)
                out.append(_action((SELL, seat, dbl, -1, -1, tuple(chosen), 0, "double" if dbl >= 0 else "")))
            return
        # the most still to come: every item left, the dearest (the first, items being sorted) twice
        if prune and i < n and t + rest[i] + (gold[items[i]] if double and dbl < 0 else 0) < GOLD_PER_LEVEL:
            return
        for j in range(i, n):
            k = items[j]
            more = chosen + [k]
            rec(j + 1, more, t + gold[k], dbl)
            if double and dbl < 0:
                rec(j + 1, more, t + 2 * gold[k], k)

    rec(0, [], 0, -1)
    rec = None  # type: ignore[assignment]  # it held itself through its closure: a cycle otherwise
    return out


def theft_actions(g: Game, p: Player) -> list[Action]:
    out = []
    cdef = g.cdef
    # three listed; any other card of `fuel` is accepted (verify_unlisted)
    pay = _unique(fuel(g, p) if as_written(g) else p.hand + p.items, g)
    for q in g.players:
        if q is p or q.dead:
            continue
        for c in _unique([k for k in q.items if not cdef[k].big and not cdef[k].steed], g):
            for d in pay[:3]:
                out.append(_action((A.STEAL, p.seat, c, q.seat, -1, (d,), 0, "")))
    return out


def charity_actions(g: Game, seat: int) -> list[Action]:
    p = g.players[seat]
    out: list[Action] = []
    rec = charity_recipients(g, p)
    if len(rec) > 1:  # divided as evenly as possible: next card to one who has fewest so far
        given = g.charity_given
        low = min(given.get(r, 0) for r in rec)
        rec = [r for r in rec if given.get(r, 0) == low]
    for c in _unique(p.hand, g):
        if rec:
            out += [Action(A.GIVE, seat, c, r) for r in rec]
        else:
            out.append(Action(A.DISCARD, seat, c))
    return out + _charity_plays(g, p)


def _charity_plays(g: Game, p: Player) -> list[Action]:
    """Of the free actions of one's own turn, the plays of cards from the hand and the sales (in
    the order `free_actions` lists them), listing none of the rest (trades, gifts, thefts, ...)."""
    if p.dead:
        return []
    g.listing = D.FREE
    seat = p.seat
    out: list[Action] = []
    for c in _unique(p.hand, g):
        out += card_actions(g, seat, c, True)
    out += sale_actions(g, p)
    out += power_actions(g, p)
    return [a for a in out if a.kind == A.SELL or (a.kind == A.PLAY and a.card in p.hand)]


# ---------------------------------------------------------------- combat
def window_actions(g: Game, seat: int) -> list[Action]:
    c = g.combat
    p = g.players[seat]
    out = [_action((A.PASS, seat, -1, -1, -1, (), 0, ""))]
    if c is None or p.dead:
        return out
    cdef = g.cdef
    fighters = c.fighters()
    is_fighter = seat in fighters
    if not is_fighter and not _may_answer_combat(g, p, c):
        return out
    g.listing = D.IN_WINDOW
    carried_one_shots = [k for k in p.items if cdef[k].is_one_shot]
    for k in _unique(p.hand + carried_one_shots, g):
        d = cdef[k]
        if d.is_one_shot:
            if d.when not in ("combat", "curse", "any"):  # Curse cancellers and any-time cards too
                continue
            h = card_hook(g, k)
            if h is not None:
                out += h.actions(g, seat, k)
            elif d.bonus and (
                d.usable_if is None
                or not vocabulary_all_read(g)
                or characters.matches(g, p, d.usable_if, path="one_shot.usable_if")
            ):
                out.append(_action((A.PLAY, seat, k, c.fighter, -1, (), 0, "")))
                for m in c.monsters:
                    out.append(_action((A.PLAY, seat, k, -1, m.card, (), 0, "")))
        elif d.is_enhancer:
            for m in c.monsters:
                out.append(_action((A.PLAY, seat, k, -1, m.card, (), 0, "")))
        elif d.is_curse:  # any player, any time
            out += curse_targets(g, seat, k)
        elif d.is_gual:  # on yourself or anyone, any time, never the winning level
            out += [
                _action((A.PLAY, seat, k, q.seat, -1, (), 0, ""))
                for q in g.players
                if not q.dead and q.level < WINNING_LEVEL - 1
            ]
        elif d.is_sidekick:
            if may_play_sidekick(g, p):
                out.append(_action((A.PLAY, seat, k, -1, -1, (), 0, "")))
        elif d.is_monster:
            if d.kin and any(d.kin & cdef[m.base].kin for m in c.monsters):  # joins its own kind
                out.append(_action((A.PLAY, seat, k, -1, -1, (), 0, "")))
        elif d.is_special:
            h = card_hook(g, k)
            if h is not None:
                out += h.actions(g, seat, k)
        elif (d.is_race or d.is_class or d.is_role or d.is_proficiency) and (
            seat == g.active or (k in p.received and (d.is_role or d.is_proficiency))
        ):  # any time on your own turn; a Role or Proficiency also as soon as you get it
            out += card_actions(g, seat, k, own_turn=True)
    for m in c.monsters:
        h = card_hook(g, m.card)
        if h is not None:
            out += h.monster_actions(g, seat, c, m)
    backstab = characters.has_ability(g, p, "backstab")
    berserk = is_fighter and characters.has_ability(g, p, "berserk") and c.berserk.get(seat, 0) < ABILITY_DISCARDS
    turning = is_fighter and c.turning.get(seat, 0) < ABILITY_DISCARDS * TURNING_BONUS and turns_any(g, p, c)
    discards = _unique(fuel(g, p), g) if backstab or berserk or turning else []  # what powers pay with
    if backstab and discards:
        for f in fighters:
            if f != seat and (seat, f) not in c.backstabs:
                for x in discards:
                    out.append(_action((A.BACKSTAB, seat, x, f, -1, (), 0, "")))
    if is_fighter:
        if berserk:
            out += [Action(A.BERSERK, seat, cards=(d,)) for d in discards]
        if turning:
            out += [Action(A.TURNING, seat, cards=(d,)) for d in discards]
        if characters.has_ability(g, p, "monster_discard_bonus") and seat not in c.house_bonus:
            monsters = _unique([k for k in p.hand if cdef[k].is_monster], g)
            out += [Action(A.HOUSE, seat, k) for k in monsters]
        if characters.has_ability(g, p, "charm_spell") and len(p.hand) >= 3:
            out += [Action(A.CHARM, seat, monster=m.card) for m in c.monsters]
        if seat == c.fighter and not combat.fighters_win(g, c):
            out += ask_actions(g, c)
        if seat == c.helper and c.forced_help and fight.for_the_win(g, c):
            out.append(Action(A.BACK_OUT, seat))
    elif seat in fight.help_candidates(g, c) and not combat.fighters_win(g, c):
        out.append(Action(A.VOLUNTEER, seat, target=c.fighter))
    # any time, even in combat
    out += [_action((A.DISCARD, seat, k, -1, -1, (), 0, "")) for k in p.character_cards() + discardable_sidekicks(g, p)]
    return out


def turns_any(g: Game, p: Player, c: Combat) -> bool:
    """May this fighter turn a monster in the fight (a Cleric's Undead, a Death Eater, a Dragon)?"""
    cdef = g.cdef
    for ability, tag in play.TURNING_TAGS:
        if characters.has_ability(g, p, ability) and any(tag in cdef[m.base].kin for m in c.monsters):
            return True
    return False


def _may_answer_combat(g: Game, p: Player, c: Combat) -> bool:
    """A cheap test: could this non-fighter do anything in the combat at all?"""
    cdef = g.cdef
    for k in p.hand:
        d = cdef[k]
        if not d.is_race and not d.is_class and not d.is_item and not d.is_monster:
            return True
        if d.is_monster and d.kin:
            return True
    if p.races or p.classes or p.roles or p.proficiencies or discardable_sidekicks(g, p):
        return True
    if any(cdef[k].is_one_shot for k in p.items):
        return True
    if c.helper < 0 and not combat.fighters_win(g, c):
        return True  # may offer to help
    return characters.has_ability(g, p, "backstab") or any(
        (h := card_hook(g, m.base)) is not None and type(h).monster_actions is not CardHook.monster_actions
        for m in c.monsters
    )


def ask_actions(g: Game, c: Combat) -> list[Action]:
    out: list[Action] = []
    n = sum(rewards.monster_treasures(g, c, m) for m in c.monsters)
    p = g.players[c.fighter]
    for h in fight.help_candidates(g, c):
        out.append(_action((A.ASK, c.fighter, -1, h, -1, (), 0, "")))
        for k in range(1, n + 1):
            if k == n:
                out.append(_action((A.ASK, c.fighter, -1, h, -1, (), k, "all")))
            else:
                out.append(_action((A.ASK, c.fighter, -1, h, -1, (), k, "you")))
                out.append(_action((A.ASK, c.fighter, -1, h, -1, (), k, "me")))
        for it in _unique(p.items, g):
            if g.cdef[it].is_item:
                out.append(_action((A.ASK, c.fighter, -1, h, -1, (it,), 0, "")))
        if g.players[h].level < WINNING_LEVEL - 1:
            for k in _unique([k for k in p.hand if g.cdef[k].is_gual], g):
                out.append(_action((A.ASK, c.fighter, -1, h, -1, (k,), 0, "")))
    return out


def losing_actions(g: Game, c: Combat) -> list[Action]:
    return [Action(A.RUN, c.fighter)] + ask_actions(g, c)


# ---------------------------------------------------------------- running
def run_actions(g: Game, seat: int, run: D.Run) -> list[Action]:
    """Running Away: a monster to flee next, or another way out (a Sidekick, the Flight spell, a card)."""
    c = g.combat
    assert c is not None
    remaining = [m for m in c.monsters if m.card in run.monsters]
    p = g.players[seat]
    g.listing = run
    out = [Action(A.FLEE_FROM, seat, monster=m.card) for m in remaining]
    for k in [] if combat.no_sidekicks(g, c) else p.sidekicks:  # instead of rolling: escape every monster
        out.append(Action(A.SACRIFICE, seat, k))
        if c.helper >= 0 and seat == c.fighter:
            out.append(Action(A.SACRIFICE, seat, k, flag="both"))
    for k in _unique([k for k in p.items if g.cdef[k].steed and g.cdef[k].run_away < 0], g):
        out.append(Action(A.DISCARD, seat, k))  # a Steed that slows you may be let go before the roll
    if characters.has_ability(g, p, "flight_spell") and run.flight_used < ABILITY_DISCARDS:
        out += [Action(A.FLIGHT, seat, cards=(d,)) for d in _unique(fuel(g, p), g)]
    for m in remaining:
        h = card_hook(g, m.card)
        if h is not None:
            out += h.flee_actions(g, p, c, m)
    for k in _unique(p.hand, g):
        d = g.cdef[k]
        if d.is_one_shot and d.when == "run_away":
            h = card_hook(g, k)
            if h is not None:
                out += h.actions(g, seat, k)
    for k in p.items:
        h = card_hook(g, k)
        if h is not None and (k in p.equipped or (h.works_carried() and as_written(g))):
            out += h.actions(g, seat, k)
    return out


def rolled_actions(g: Game, seat: int, rolled: D.Rolled) -> list[Action]:
    """Answers to a Run Away roll: pass, the runner's own reroll, cards played on the roll."""
    p = g.players[seat]
    out = [Action(A.PASS, seat)]
    if p.dead:
        return out
    g.listing = rolled
    if (
        seat == rolled.runner
        and not rolled.ok
        and not rolled.retried
        and characters.has_ability(g, p, "retry_run_away")
    ):
        out += [Action(A.USE, seat, d, flag="retry") for d in _unique(fuel(g, p), g)]
    for k in _unique(p.hand, g):
        d = g.cdef[k]
        if d.is_one_shot and d.when in ("after_roll", "run_away"):
            h = card_hook(g, k)
            if h is not None:
                face = as_written(g)  # a Loaded Die answers a Run Away roll too
                out += [a for a in h.actions(g, seat, k) if a.flag.startswith("roll") or (face and a.flag == "face")]
    return out


def caught_actions(g: Game, seat: int, caught: D.Caught) -> list[Action]:
    """Before a caught runner's Bad Stuff: pass, or a one-shot whose hook answers this moment
    (it is asked with `g.listing` set to the decision) on the monster that caught them."""
    p = g.players[seat]
    out = [Action(A.PASS, seat)]
    if p.dead or seat != caught.runner:
        return out
    g.listing = caught
    for k in _unique(p.hand, g):
        if g.cdef[k].is_one_shot and (h := card_hook(g, k)) is not None:
            out += [a for a in h.actions(g, seat, k) if a.card == k and a.monster == caught.monster]
    return out


def _playable_now(g: Game, seat: int, card: int) -> bool:
    g.listing = D.FREE  # a Door kicked open face-up, played at once as on one's own turn
    return bool([a for a in card_actions(g, seat, card, own_turn=True) if a.card == card])


# ---------------------------------------------------------------- narrowed
def candidates(g: Game, act: Action) -> list[Action] | None:
    """The actions `g.legal_actions(act.seat)` lists that share `act`'s kind and card, found without
    listing the rest (a card from the hand: only that card's ways to be played); None where no
    narrower search is known, and the caller lists everything."""
    pr = g._prompt
    seat = act.seat
    if seat in pr.seats:
        t = type(pr)
        if t is D.Main and pr.stage != "create":  # type: ignore[attr-defined]
            out = [a for a in turn_actions(g, seat, pr.stage) if a.kind == act.kind]  # type: ignore[attr-defined]
            return out + _free_candidates(g, seat, True, act)
        if t is D.EndWindow:
            return [Action(A.PASS, seat)] if act.kind == A.PASS else _free_candidates(g, seat, False, act)
        return None
    if g.over or not may_act_any_time(g):
        return []
    return _free_candidates(g, seat, False, act)


def _free_candidates(g: Game, seat: int, own_turn: bool, act: Action) -> list[Action]:
    """The part of `free_actions` that could be `act`."""
    p = g.players[seat]
    if p.dead:
        return []
    g.listing = D.FREE
    c = act.card
    if c in p.hand and act.kind != A.SELL:  # played from the hand (Items are sold from it too)
        # only the first of identical copies is listed
        cdef = g.cdef
        first = next(k for k in p.hand if cdef[k].idx == cdef[c].idx)
        if first != c or not (own_turn or c in p.received or _any_time(g, c)):
            return []
        out = card_actions(g, seat, c, own_turn)
    else:
        out = table_actions(g, p, own_turn)
    return [a for a in out if a.kind == act.kind and a.card == c]


# ---------------------------------------------------------------- unlisted
def verify_unlisted(g: Game, act: Action) -> None:
    """Accept legal actions that the lists leave out (combined bribes, wasteful sales);
    otherwise raise IllegalAction with the reason."""
    pr = g._prompt
    legal = g.legal_actions(act.seat)
    unused = {
        A.ASK: ("card", "monster"),
        A.SELL: ("target", "monster", "n"),
        A.BERSERK: ("card", "target", "monster", "n", "flag"),
        A.TURNING: ("card", "target", "monster", "n", "flag"),
        A.FLIGHT: ("card", "target", "monster", "n", "flag"),
    }.get(act.kind, ())
    defaults = Action(act.kind, act.seat)
    for name in unused:
        if getattr(act, name) != getattr(defaults, name):
            raise IllegalAction(f"malformed {act.kind} action: {name} must not be set")
    if (
        act.kind == A.SELL
        and (act.flag not in ("", "double") or (act.card >= 0) != (act.flag == "double"))
        or (act.kind == A.SELL and act.card >= 0 and act.card not in act.cards)
    ):
        raise IllegalAction("malformed sale: the flag is 'double' exactly when one sold Item is at double price")
    if act.kind == A.ASK and any(a.kind == A.ASK and a.target == act.target for a in legal):
        p = g.players[act.seat]
        c = g.combat
        assert c is not None
        n = sum(rewards.monster_treasures(g, c, m) for m in c.monsters)
        if not 0 <= act.n <= n:
            raise IllegalAction(f"the monsters are worth {n} Treasures, not {act.n}")
        for it in act.cards:
            if not (it in p.items and g.cdef[it].is_item) and not (it in p.hand and g.cdef[it].is_gual):
                raise IllegalAction(f"{p.name} can offer carried Items and Go Up a Level cards, not {g.name(it)}")
        if len(set(act.cards)) != len(act.cards):
            raise IllegalAction("an Item is offered twice")
        if act.flag not in ("", "you", "me", "all"):
            raise IllegalAction("the pick order must be 'you pick first' or 'I pick first'")
        return
    if (
        act.kind == A.SELL
        and any(a.kind == A.SELL for a in legal)
        or (act.kind == A.SELL and pr.kind in (MAIN, CHARITY))
    ):
        p = g.players[act.seat]
        if g.combat is not None:
            raise IllegalAction("no selling during combat")
        sellable = set(characters.sellable(g, p))
        for x in act.cards:
            if x not in sellable:
                raise IllegalAction(f"{p.name} cannot sell {g.name(x)}")
        if len(set(act.cards)) != len(act.cards):
            raise IllegalAction("an Item is listed twice")
        if act.card >= 0:
            if not characters.has_ability(g, p, "double_sale"):
                raise IllegalAction(
                    f"{p.name} has no power to sell an Item at double price (a Halfling or a Trader has)"
                )
            if p.double_sale_used:
                raise IllegalAction(f"{p.name} has already sold an Item at double price this turn")
            if "double_sale" in p.barred:
                raise IllegalAction(f"{p.name} may not sell at double price until the end of their next turn")
        total = sum(characters.sale_value(g, p, x) * (2 if x == act.card else 1) for x in act.cards)
        if total < GOLD_PER_LEVEL:
            raise IllegalAction(f"the Items are worth {total} gold; a level costs {GOLD_PER_LEVEL:,}")
        if p.level >= WINNING_LEVEL - 1:
            raise IllegalAction(f"you may not sell Items to go to Level {WINNING_LEVEL}")
        return
    if act.kind in (A.BERSERK, A.TURNING, A.FLIGHT) and len(act.cards) > 1:
        singles = {a.cards[0] for a in legal if a.kind == act.kind}
        cdef = g.cdef
        p = g.players[act.seat]
        for x in act.cards:
            if x not in singles and not any(cdef[s].idx == cdef[x].idx for s in singles):
                raise IllegalAction(f"{g.name(x)} cannot be discarded for that now")
        if len(set(act.cards)) != len(act.cards):
            raise IllegalAction("a card is listed twice")
        fought = g.combat
        used = 0
        if fought is not None and act.kind == A.BERSERK:
            used = fought.berserk.get(act.seat, 0)
        elif fought is not None and act.kind == A.TURNING:
            used = fought.turning.get(act.seat, 0) // TURNING_BONUS
        elif act.kind == A.FLIGHT and isinstance(pr, D.Run):
            used = pr.flight_used
        if used + len(act.cards) > ABILITY_DISCARDS:
            raise IllegalAction("at most three cards may be discarded for that")  # ABILITY_DISCARDS
        usable = fuel(g, p)
        for k in act.cards:
            if k not in usable:
                raise IllegalAction(f"{p.name} has no {g.name(k)} to discard")
        return
    steals = [a for a in legal if a.kind == A.STEAL and (a.card, a.target) == (act.card, act.target)]
    if act.kind == A.STEAL and steals and as_written(g):
        p = g.players[act.seat]  # a theft paid with a card the list leaves out: any card that powers an ability
        if len(act.cards) != 1 or act.cards[0] not in fuel(g, p) or act.monster >= 0 or act.n or act.flag:
            raise IllegalAction(f"a theft is paid with one card {p.name} has in hand or in play")
        return
    from munchkin.engine.notation import explain

    raise IllegalAction(explain(g, act))  # type: ignore[arg-type]
