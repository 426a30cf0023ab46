"""What changes a character, as functions of the game: Levels gained and lost (and the win), a card
leaving the table or the hand, an Item changing hands, a card spent to pay for an ability."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from munchkin.engine import changes, characters, vocabulary
from munchkin.engine import events as E
from munchkin.engine.core import card_hook
from munchkin.engine.rules import WINNING_LEVEL, as_written
from munchkin.engine.state import Player

if TYPE_CHECKING:
    from munchkin.engine.game import Game

# character cards and the card that lets a player hold two of them
ATTACHMENTS = (("races", "half_breed"), ("classes", "super_munchkin"), ("roles", "dual_role"))


# -------------------------------------------------------------- levels
def gain_levels(g: Game, p: Player, n: int, why: str, may_win: bool = False, declare: bool = True) -> int:
    """Go up n levels; only a kill (or a card that says so) may reach Level 10, which wins (unless
    `declare` is False: the caller declares the winners, several reaching it at once)."""
    if p.dead or n <= 0:
        return 0
    cap = WINNING_LEVEL if may_win else WINNING_LEVEL - 1
    new = min(p.level + n, cap)
    if new <= p.level:
        return 0
    gained = new - p.level
    p.level = new
    g.events.append(E.Level(p.seat, gained, p.level, why))
    if p.level >= WINNING_LEVEL and not g.over and declare:
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
        if c in p.cheats:  # Cheat! is discarded when its Item goes
            g.discard(p.cheats.pop(c))
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
        if c in p.cheats:  # a Cheat! on this Sidekick goes with it
            g.discard(p.cheats.pop(c))
        item = p.carried.pop(c, -1)
        if item >= 0 and item in p.items:  # a Sidekick goes with anything it carries
            remove_from_play(g, p, item)  # also lets go of a Cheat! on it
            g.discard(item)
    elif c in p.cheats.values():
        del p.cheats[next(it for it, k in p.cheats.items() if k == c)]
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
    curses_go_with(g, p, c)


def curses_go_with(g: Game, p: Player, c: int) -> None:
    """The kept Curses tied to a card that `p` just lost go with it (Chicken On Your Head)."""
    for k in list(p.curses):
        h = card_hook(g, k)
        if h is not None and h.leaves_with(g, p, c):
            remove_from_play(g, p, k)
            g.discard(k)
            g.events.append(E.Lose(p.seat, k, f"with {g.cdef[c].name}"))


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
    if which == "below_waist":  # worn there: equipped
        if "below_waist" in d.tags:
            vocabulary.used("item.tags", "below_waist")
        return "below_waist" in d.tags and (c in p.equipped or not as_written(g))
    if which in ("headgear", "armor", "footgear", "hands"):
        return d.slot == which and c in p.equipped
    if which == "footgear_in_play":  # worn or only carried
        return d.slot == "footgear" and (c in p.equipped or as_written(g))
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
        vocabulary.used("item_filter", "biggest_bonus")
    if "biggest_bonus" in whiches and not as_written(g):  # older rules: any Item, unequipped at 0
        if not p.items:
            return []
        best = max(characters.item_bonus(g, p, c) if c in p.equipped else 0 for c in p.items)
        return [c for c in p.items if (characters.item_bonus(g, p, c) if c in p.equipped else 0) == best]
    if "biggest_bonus" in whiches:  # the Item that gives the largest bonus: equipped, of use to them
        bonus = {c: characters.item_bonus(g, p, c) for c in p.items if c in p.equipped and characters.can_use(g, p, c)}
        best = max(bonus.values(), default=0)
        return [c for c, b in bonus.items() if b == best] if best > 0 else []
    found = [c for c in p.items if any(item_matches(g, p, c, w) for w in whiches)]
    if vocabulary.seen is not None:
        for w in whiches:
            if any(item_matches(g, p, c, w) for c in p.items):
                vocabulary.used("item_filter", w)
    return found


def neighbour(g: Game, seat: int, step: int) -> int:
    """The next living player from `seat`, to the left (step 1) or the right (step -1)."""
    n = len(g.players)
    s = (seat + step) % n
    while g.players[s].dead and s != seat:
        s = (s + step) % n
    return s


def seat_order(g: Game) -> list[int]:
    n = len(g.players)
    return [(g.active + i) % n for i in range(n)]


def spend(g: Game, p: Player, card: int) -> None:
    """Discard a card from hand or play to pay for an ability or to use it."""
    changes.remove_from_play(g, p, card)
    g.discard(card)
