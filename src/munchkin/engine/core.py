"""The state every part of the rules shares: players, decks, piles, chance, the log."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from munchkin.cards.hooks import HOOKS, CardHook
from munchkin.engine import events as E
from munchkin.engine import vocabulary
from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.cards import CardDef
from munchkin.engine.chance import Chance
from munchkin.engine.rules import STARTING_CARDS
from munchkin.engine.state import Combat, Player

if TYPE_CHECKING:
    from munchkin.engine.decisions import Decision, Listing
    from munchkin.engine.game import Options, Setup
    from munchkin.engine.run_away import RollState

EVERYONE = -1  # a `seen_by` bitmask: every seat (and every spectator) saw the card


def card_hook(g: GameCore, card: int) -> CardHook | None:
    """The code a card's data names for what no vocabulary word says (None for most cards)."""
    name = g.cdef[card].hook
    if name is None:
        return None
    h = HOOKS.get(name)
    if vocabulary.seen is not None and isinstance(h, CardHook):
        vocabulary.used(f"{vocabulary.namespace(g.cdef[card].kind)}.hook")
    return h if isinstance(h, CardHook) else None


def fight_in(g: GameCore) -> Combat:
    """The fight in progress (a step in a fight keeps no reference to it: copies of the game share none)."""
    c = g.combat
    assert c is not None
    return c


class GameCore:
    """Shared state and the primitives on it; the rules build on this in layers."""

    setup: Setup
    options: Options
    defs: list[CardDef]
    cdef: list[CardDef]
    ncards: int
    twins: frozenset[int]  # the cards of which the game has another copy (the same identity)
    chance: Chance  # where every shuffle, roll and pick comes from
    forced_rolls: list[int]
    players: list[Player]
    door_deck: list[int]
    treasure_deck: list[int]
    door_discard: list[int]
    treasure_discard: list[int]
    limbo: list[int]
    sidekicks_discardable: bool
    sidekick_sexes: bool  # some Sidekick has a sex (monster bonuses against it)
    allies: bool  # Harry Potter's Allies: played at character creation, a new one in for the old
    has_races: bool  # some card of the game is a Race
    has_classes: bool  # some card of the game is a Class
    item_grants: bool  # some Item grants abilities (has_ability must look at Items)
    extra_big_cards: bool  # some card lets its owner carry more Big items
    phase_words: dict[str, str]  # the set's own names of the turn phases (Unlock the Door)
    listen_variant: str  # Listen At The Door: "loot" or "no_good" (see Options)
    houses: dict[str, CardDef]  # the Houses of the game (Harry Potter), by lower-case name
    set_aside: list[int]
    hand_seen: dict[int, int]  # card in a hand -> bitmask of the seats that know it is there
    log: list[tuple[Any, ...]]
    events: list[E.Event]  # what happened, in order: typed records (events.py), each still a tuple
    turn: int
    active: int
    combat: Combat | None
    over: bool
    capped: bool
    winners: list[int]
    version: int
    decisions: int
    phase: str
    transferred: bool
    charity_given: dict[int, int]
    roll: RollState  # the Run Away roll in progress (its face, a forced outcome, a reroll)
    _legal_cache: dict[int, list[Action]]
    _any_time_cache: dict[int, list[Action]]
    _cache_version: int
    _window_cache: dict[int, list[Action]]
    _window_version: int
    _prompt: Decision
    cards_by_name: dict[str, list[int]]
    listing: Listing | None  # what actions are being listed for (card hooks ask it): see decisions.py
    _sale_cache: dict[tuple[Any, ...], list[Action]]
    _exchange_cache: dict[tuple[Any, ...], list[Action]]
    _win_cache: tuple[int, Combat | None, bool]

    @property
    def prompt(self) -> Decision:
        """The decision the game waits on now (its `kind`, a `stage` in a window, the seats in
        `seats`): what `to_act` must answer, with one of `legal_actions(seat)`."""
        return self._prompt

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats the engine is waiting on now (several while a response window is open)."""
        return self._prompt.seats

    # ------------------------------------------------------------------ chance
    def _shuffle_deck(self, deck: str) -> None:
        cards = self.door_deck if deck == "door" else self.treasure_deck
        self.chance.shuffle(cards)
        self.log.append(("shuffle", deck, tuple(cards)))

    def roll_die(self, seat: int, why: str = "") -> int:
        """Roll the six-sided die: a forced roll from a scenario first, else the game's chance."""
        value = self.forced_rolls.pop(0) if self.forced_rolls else self.chance.roll()
        self.log.append(("roll", seat, value))
        self.events.append(E.Roll(seat, value, why))
        return value

    def pick_card(self, seat: int, cards: Sequence[int]) -> int:
        """A card taken blind from `cards` for `seat`, drawn from the game's chance and logged."""
        card = self.chance.pick(cards)
        self.log.append(("pick", seat, card))
        return card

    def draw(self, deck: str) -> int:
        """Top card of a deck, reshuffling its discards when it runs out; -1 if none left."""
        cards = self.door_deck if deck == "door" else self.treasure_deck
        if not cards:
            discard = self.door_discard if deck == "door" else self.treasure_discard
            if not discard:
                return -1
            cards.extend(discard)
            discard.clear()
            self._shuffle_deck(deck)
            self.events.append(E.Reshuffle(deck))
        return cards.pop()

    def discard(self, card: int) -> None:
        (self.door_discard if self.cdef[card].deck == "door" else self.treasure_discard).append(card)

    def draw_to_hand(self, p: Player, deck: str, n: int, face_up: bool = False) -> list[int]:
        got: list[int] = []
        if p.dead:  # the dead receive nothing, not even a draw
            return got
        for _ in range(n):
            c = self.draw(deck)
            if c < 0:
                break
            if not self.drawn_effect(p, c):
                got.append(c)
                self.give_card(p, c, EVERYONE if face_up else 0)
        if got:
            self.events.append(E.Draw(p.seat, deck, tuple(got), face_up))
        return got

    def give_card(self, p: Player, c: int, seen_by: int = 0) -> None:
        """A card goes into a hand; the dead receive nothing, so it is discarded. `seen_by` is the
        bitmask of the other seats that see which card it is (EVERYONE when it was face-up)."""
        if p.dead:
            self.discard(c)
            return
        p.hand.append(c)
        p.received.add(c)
        self.hand_seen[c] = seen_by | (1 << p.seat)

    def show_to(self, seat: int, cards: Iterable[int]) -> None:
        """`seat` is told which cards these are (named in an offer made to it): those in a hand stay
        known to it there, so a determinized copy for that seat never deals them anew."""
        for c in cards:
            if c >= 0 and c in self.hand_seen:
                self.hand_seen[c] |= 1 << seat

    def _deal_new_hand(self, p: Player) -> None:
        self.draw_to_hand(p, "door", STARTING_CARDS)
        self.draw_to_hand(p, "treasure", STARTING_CARDS)

    def name_of(self, seat: int) -> str:
        """The name of the player at `seat` (a seat out of range as "seat N", for a message about it)."""
        return self.players[seat].name if 0 <= seat < len(self.players) else f"seat {seat}"

    def name(self, card: int) -> str:
        if not 0 <= card < self.ncards:
            raise MunchkinError(f"there is no card number {card}")
        return self.cdef[card].name

    def seat_of(self, name: str) -> int:
        """The seat (from 0, in turn order) of the player named `name`, ignoring case and spaces
        around it; ParseError if no one is."""
        for p in self.players:
            if p.name.lower() == name.strip().lower():
                return p.seat
        from munchkin.engine.actions import ParseError

        raise ParseError(f"no player named {name!r}")

    def drawn_effect(self, p: Player, card: int) -> bool:
        """Cards that act as soon as they are drawn (Divine Intervention); True if used up."""
        h = card_hook(self, card)
        if h is not None and h.on_draw(self, p, card):
            if self.cdef[card].is_special:
                vocabulary.used("special.when", self.cdef[card].when)
            self.discard(card)
            return True
        return False


__all__ = ["GameCore", "MunchkinError", "card_hook", "fight_in"]
