"""Effects of the vocabulary (Bad Stuff, Curses), Levels, losing cards, Death and looting."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from munchkin.cards.hooks import HOOKS, CardHook
from munchkin.cards.schema import Effect
from munchkin.engine import actions as A
from munchkin.engine import characters, legal
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.curses import CurseFlow, CurseWindow
from munchkin.engine.death import KillPlayer
from munchkin.engine.flow import Frame
from munchkin.engine.resolve import DieRoll, LoseGold, LoseSome, RunEffect, RunEffects, choose
from munchkin.engine.rules import WINNING_LEVEL
from munchkin.engine.settle import SettleBigItems, SettleTable, big_unsettled, unsettled
from munchkin.engine.state import Player

if TYPE_CHECKING:
    from munchkin.engine.game import Game

# character cards and the card that lets a player hold two of them
ATTACHMENTS = (("races", "half_breed"), ("classes", "super_munchkin"), ("roles", "dual_role"))


# -------------------------------------------------------------- levels
def gain_levels(g: Game, p: Player, n: int, why: str, may_win: bool = False) -> int:
    """Go up n levels; only a kill (or a card that says so) may reach Level 10."""
    if p.dead or n <= 0:
        return 0
    cap = WINNING_LEVEL if may_win else WINNING_LEVEL - 1
    new = min(p.level + n, cap)
    if new <= p.level:
        return 0
    gained = new - p.level
    p.level = new
    g.events.append(E.Level(p.seat, gained, p.level, why))
    if p.level >= WINNING_LEVEL and not g.over:
        declare_winner(g, [p.seat])
    return gained


def lose_levels(g: Game, p: Player, n: int, why: str) -> int:
    new = max(1, p.level - n)
    lost = p.level - new
    if lost:
        p.level = new
        g.events.append(E.Level(p.seat, -lost, p.level, why))
    return lost


def declare_winner(g: Game, seats: list[int]) -> None:
    g.over = True
    g.winners = sorted(set(seats))
    g.events.append(E.Win(tuple(g.winners)))


# -------------------------------------------------------------- losing cards
def remove_from_play(g: Game, p: Player, c: int) -> None:
    """Take one card off a player's table (not to a pile); keeps the table consistent."""
    if c in p.items:
        p.items.remove(c)
        p.equipped.discard(c)
        for k, it in list(p.carried.items()):
            if it == c:
                del p.carried[k]
        if p.enhancers:  # its Item Enhancers go with it
            for e, it in list(p.enhancers.items()):
                if it == c:
                    del p.enhancers[e]
                    g.discard(e)
        if c == p.cheat_item:
            p.cheat_item = -1
            if p.cheat >= 0:  # Cheat! is discarded when its Item goes
                g.discard(p.cheat)
                p.cheat = -1
    elif c in p.hand:
        p.hand.remove(c)
    elif c in p.proficiencies:
        p.proficiencies.remove(c)
    elif c in p.curses:
        p.curses.remove(c)
    elif c in p.enhancers:
        del p.enhancers[c]
    elif c in p.sidekicks:
        p.sidekicks.remove(c)
        p.swapped.discard(c)
        if c == p.cheat_item:  # a Cheat! on this Sidekick goes with it
            p.cheat_item = -1
            if p.cheat >= 0:
                g.discard(p.cheat)
                p.cheat = -1
        item = p.carried.pop(c, -1)
        if item >= 0 and item in p.items:  # a Sidekick goes with anything it carries
            remove_from_play(g, p, item)  # also lets go of a Cheat! on it
            g.discard(item)
    elif c == p.cheat:
        p.cheat = -1
        p.cheat_item = -1
    else:
        _remove_character_card(g, p, c)


def _remove_character_card(g: Game, p: Player, c: int) -> None:
    """A Race, Class or Role card leaves (its Half-Breed, Super Munchkin or Dual Role with
    the last one), or the attachment leaves (and with it all but one of the cards)."""
    for zone, attachment in ATTACHMENTS:
        cards: list[int] = getattr(p, zone)
        held: int = getattr(p, attachment)
        if c in cards:
            cards.remove(c)
            if not cards and held >= 0:
                g.discard(held)
                setattr(p, attachment, -1)
            return
        if c == held:
            setattr(p, attachment, -1)
            while len(cards) > 1:
                g.discard(cards.pop())
            return


def move_item(g: Game, p: Player, q: Player, c: int) -> None:
    """An Item changes hands on the table (gift, trade, theft): its Item Enhancers go along."""
    moving = [e for e, it in p.enhancers.items() if it == c] if p.enhancers else []
    for e in moving:
        del p.enhancers[e]
    remove_from_play(g, p, c)
    q.items.append(c)
    for e in moving:
        q.enhancers[e] = c


def lose_card(g: Game, p: Player, c: int, why: str = "") -> None:
    """A card in play or in hand goes to its discard pile (with any kept Curse tied to it)."""
    remove_from_play(g, p, c)
    g.discard(c)
    g.events.append(E.Lose(p.seat, c, why))
    for k in list(p.curses):
        h = _hook(g, k)
        if h is not None and h.leaves_with(g, p, c):
            remove_from_play(g, p, k)
            g.discard(k)
            g.events.append(E.Lose(p.seat, k, f"with {g.cdef[c].name}"))


def _hook(g: Game, card: int) -> CardHook | None:
    name = g.cdef[card].hook
    h = HOOKS.get(name) if name else None
    return h if isinstance(h, CardHook) else None


def settle_table(g: Game) -> Frame | None:
    """Whoever lost the right to something they have in play puts it right at once:
    extra Big items, a second Headgear or Complex Item equipped, a second Sidekick.
    None (nothing to run) when nobody has anything to put right, as is almost always so."""
    return SettleTable() if unsettled(g) else None


def corrections(g: Game, p: Player, ability: str) -> tuple[Action, ...]:
    """Cards in hand that would "correct the problem immediately": a Class, Race or Sidekick
    giving back the lost right, where it may be played now."""
    cdef = g.cdef
    out: list[Action] = []
    for c in dict.fromkeys(p.hand):
        if ability in cdef[c].abilities:
            own = p.seat == g.active  # a Race or Class on your own turn, a Sidekick any time
            if cdef[c].is_sidekick or own:
                out += [a for a in legal.card_actions(g, p.seat, c, own_turn=own) if a.kind == A.PLAY]
    return tuple(out)


def settle_big_items(g: Game) -> Frame | None:
    """Whoever lost the right to several Big items puts it right at once: sells the extras
    (on their own turn, out of combat), or gives them to the lowest-Level player(s) who can
    carry them, or discards them if nobody can. None when nobody carries too many."""
    return SettleBigItems() if big_unsettled(g) else None


def item_matches(g: Game, p: Player, c: int, which: str) -> bool:
    d = g.cdef[c]
    if which == "any":
        return True
    if which == "big":  # a Steed is big for Traps and thieves (not for the Big-item limit)
        return d.big or d.steed
    if which == "small":
        return not d.big and not d.steed
    if which == "steed":
        return d.steed
    if which == "below_waist":
        return "below_waist" in d.tags
    if which in ("headgear", "armor", "footgear", "hands"):
        return d.slot == which and c in p.equipped
    if which == "complex":
        return d.complex
    if which == "simple":
        return not d.complex
    if which == "laser":
        return d.laser
    return False


def items_matching(g: Game, p: Player, which: Any) -> list[int]:
    whiches = [which] if isinstance(which, str) else which
    if "biggest_bonus" in whiches:
        if not p.items:
            return []
        best = max(characters.item_bonus(g, p, c) if c in p.equipped else 0 for c in p.items)
        return [c for c in p.items if (characters.item_bonus(g, p, c) if c in p.equipped else 0) == best]
    return [c for c in p.items if any(item_matches(g, p, c, w) for w in whiches)]


def choose_card(g: Game, seat: int, options: Sequence[int], why: str) -> Frame:
    """Ask a seat to choose one card among options (returns it); no prompt if only one."""
    return choose(seat, options, why)


# -------------------------------------------------------------- effects
def run_effects(g: Game, effects: Sequence[Effect], p: Player, source: int) -> Frame:
    """Apply a list of vocabulary effects to one character, in order."""
    return RunEffects(tuple(effects), p.seat, source)  # Effects are immutable card data


def run_effect(g: Game, e: Effect, p: Player, source: int) -> Frame:
    """Apply one vocabulary effect to one character; returns whether it acted on anything."""
    return RunEffect(e, p.seat, source)  # an Effect is immutable card data


def die_roll(g: Game, p: Player, why: str, best: int = 6) -> Frame:
    """A roll of p's own: p may answer it with a card that sets the die (Loaded Die).
    `best` is the face that serves p best here (for the bots)."""
    return DieRoll(p.seat, why, best)


def lose_some(g: Game, p: Player, cards: list[int], how: str, what: str, why: str) -> Frame:
    """Lose `all` of these cards, or `one` of the victim's choice; False if there are none.
    (The step starts at once, so it may take the cards as they stand now.)"""
    return LoseSome(p.seat, tuple(cards), how, what, why)


def lose_gold(g: Game, p: Player, amount: int, why: str) -> Frame:
    """Lose Items worth at least `amount` (the victim chooses); all of them if short."""
    return LoseGold(p.seat, amount, why)


# -------------------------------------------------------------- curses
def curse_bonus(g: Game, p: Player) -> int:
    """Combat bonuses from Curses the character keeps for their next combat."""
    total = 0
    for c in p.curses:
        for e in g.cdef[c].effects:
            if e.next_combat_bonus is not None:
                total += e.next_combat_bonus
    return total


def curse_flow(g: Game, card: int, by: int, victim: int, face_up_draw: bool = False) -> Frame:
    """A Curse is played (or drawn face-up): answers first, then it applies if it can."""
    return CurseFlow(card, by, victim, face_up_draw)


def curse_guard(g: Game, p: Player) -> int:
    """The equipped Item (Sandals of Protection) or Proficiency (Occlumency) that stops the
    Curses its owner draws face-up; -1 if none."""
    cards = list(p.equipped) + p.proficiencies if p.proficiencies else p.equipped
    return next((c for c in cards if (h := _hook(g, c)) is not None and h.stops_drawn_curses(g, p)), -1)


def curse_window(g: Game, card: int, victim: int) -> Frame:
    """Anyone holding a card that cancels a Curse may answer; returns True if cancelled."""
    return CurseWindow(card, victim)


def curse_cancellers(g: Game, seat: int) -> list[int]:
    p = g.players[seat]
    if p.dead:
        return []
    cdef = g.cdef
    return [c for c in p.hand + p.items if cdef[c].when == "curse" and cdef[c].is_one_shot]


def seat_order(g: Game) -> list[int]:
    n = len(g.players)
    return [(g.active + i) % n for i in range(n)]


# -------------------------------------------------------------- death
def kill_player(g: Game, p: Player, why: str) -> Frame | None:
    """Death: lose all your stuff but Race, Class, Role, Proficiencies, Level, Curses, Super
    Munchkin, Half-Breed, Dual Role (and the House, which is no card in play); the others
    loot the body. None (nothing happens) for a character already dead."""
    return None if p.dead else KillPlayer(p.seat, why)
