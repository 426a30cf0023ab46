"""What happened at the table: one small record per kind of event, with its narration beside it.

An event is still the tuple `(kind, field, ...)` the engine has always appended to `Game.events`
(so `ev[0] == "kick"`, unpacking, `==` with a plain tuple, JSON and pickling all keep working),
but built by its record, `Kick(seat, card)`, whose named fields and `text(g, to)` say what it
means. `text` is the sentence the seat `to` hears (None: a spectator); hidden information stays
hidden: a face-down draw names its cards to its drawer alone, Charity's card to giver and taker,
a looted card to the looter.

A field given the default None is optional: left out of the tuple when absent (the shape of older
events), read back as None.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar, dataclass_transform

from munchkin.engine.rules import ESCAPE_ROLL

if TYPE_CHECKING:
    from munchkin.engine.game import Game


def _absent_or(i: int) -> Callable[[tuple[Any, ...]], Any]:
    """Reads an optional field: None when the tuple stops before it."""

    def get(ev: tuple[Any, ...]) -> Any:
        return ev[i] if len(ev) > i else None

    return get


@dataclass_transform()
class _EventType(type):
    """Makes each event record: its fields read by position, its constructor prefixing the kind."""

    def __new__(mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any], **kw: Any) -> _EventType:
        ns.setdefault("__slots__", ())  # a tuple and nothing more: no per-event dict
        cls = super().__new__(mcls, name, bases, ns, **kw)
        if "kind" not in ns:  # the base record itself
            return cls
        notes = ns.get("__annotations__", {})
        names = tuple(f for f, t in notes.items() if "ClassVar" not in str(t))
        optional = tuple(f for f in names if f in ns and ns[f] is None)
        if optional != names[len(names) - len(optional) :] or any(f in ns and ns[f] is not None for f in names):
            raise TypeError(f"{name}: only trailing fields may have a default, and it is None (absent)")
        for i, f in enumerate(names, 1):
            setattr(cls, f, property(_absent_or(i) if f in optional else itemgetter(i)))
        setattr(cls, "__match_args__", names)  # noqa: B010 (`match ev: case Kick(seat, card)`)
        cls._fields = names  # type: ignore[attr-defined]
        cls._required = len(names) - len(optional)  # type: ignore[attr-defined]
        if not optional and "cls" not in names:  # a constructor of exactly its fields: fast and strict
            params = ", ".join(names)
            code = (
                f"def __new__(cls, {params}):\n    return _new(cls, ({ns['kind']!r}, {params}{',' if names else ''}))"
            )
            scope: dict[str, Any] = {"_new": tuple.__new__}
            exec(code, scope)  # noqa: S102 (field names of our own records, checked identifiers)
            cls.__new__ = scope["__new__"]  # type: ignore[method-assign]
        EVENT_TYPES.setdefault(ns["kind"], []).append(cls)  # type: ignore[arg-type]
        return cls


class Event(tuple[Any, ...], metaclass=_EventType):
    """One thing that happened: the tuple (kind, fields...), with its narration."""

    kind: ClassVar[str]
    _fields: ClassVar[tuple[str, ...]] = ()
    _required: ClassVar[int] = 0

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        n = len(cls._fields)
        if kwargs or len(args) != n or n != cls._required:
            args = cls._bind(args, kwargs)
        return tuple.__new__(cls, (cls.kind, *args))

    @classmethod
    def _bind(cls, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        """The field values in order from positional and named arguments, absent optional ones left out."""
        names = cls._fields
        if len(args) > len(names):
            raise TypeError(f"{cls.__name__} takes {len(names)} fields, {len(args)} given")
        values = list(args)
        for f in names[len(args) :]:
            if f in kwargs:
                values.append(kwargs.pop(f))
            elif names.index(f) >= cls._required:
                values.append(None)
            else:
                raise TypeError(f"{cls.__name__} lacks its field {f!r}")
        if kwargs:
            raise TypeError(f"{cls.__name__} has no field {next(iter(kwargs))!r}")
        while len(values) > cls._required and values[-1] is None:
            values.pop()
        if None in values[cls._required :]:
            raise TypeError(f"{cls.__name__}: an optional field is absent before one that is present")
        return tuple(values)

    def __getnewargs__(self) -> tuple[Any, ...]:
        """Pickling and copying rebuild the record from its fields (the kind comes with the type)."""
        return tuple(self[1:])

    def text(self, g: Game, to: int | None) -> str:
        """The sentence seat `to` hears (None: a spectator); "" when nothing is said."""
        return ""


EVENT_TYPES: dict[str, list[type[Event]]] = {}  # kind -> its record types (two for a roll)


def as_event(ev: tuple[Any, ...]) -> Event | None:
    """`ev` as its record (a plain tuple of a known kind and shape is rebuilt); None if unknown."""
    if isinstance(ev, Event):
        return ev
    if not ev:
        return None
    for cls in EVENT_TYPES.get(ev[0], ()):
        if cls._required <= len(ev) - 1 <= len(cls._fields):
            return cls(*ev[1:])
    return None


def _cards(g: Game, cards: tuple[int, ...]) -> str:
    return ", ".join(g.name(x) for x in cards)


def article(noun: str) -> str:
    """`noun` with "a" or "an" before it, as it is said: "an Elf", "a Halfling", "a Unicorn"."""
    word = noun.lower()
    vowel = word[:1] in "aeiou" and not word.startswith(("uni", "use", "one", "eu"))
    return ("an " if vowel or word.startswith(("hour", "honest")) else "a ") + noun


# ------------------------------------------------------------------ the turn


class Turn(Event):
    """A player's turn begins."""

    kind = "turn"
    seat: int
    turn: int

    def text(self, g: Game, to: int | None) -> str:
        return f"--- Turn {self.turn + 1}: {g.name_of(self.seat)} ---"


class Capped(Event):
    """The game stops at the turn cap with no winner."""

    kind = "capped"
    turn: int

    def text(self, g: Game, to: int | None) -> str:
        return f"The game stops at the turn cap ({self.turn} turns)."


class NewCharacter(Event):
    """A dead player's new character appears at the start of the next turn."""

    kind = "new_character"
    seat: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)}'s new character appears."


class Kick(Event):
    """Kick Open The Door: the top Door card, face-up."""

    kind = "kick"
    seat: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        found = g.name(self.card) + ("" if g.name(self.card).endswith("!") else "!")
        if "kick_open_the_door" in g.phase_words:
            word = g.phase_words["kick_open_the_door"].lower().replace("unlock", "unlocks")
            return f"{g.name_of(self.seat)} {word}: {found}"
        return f"{g.name_of(self.seat)} kicks open the door: {found}"


class Trouble(Event):
    """Look For Trouble: a monster from the hand is fought."""

    kind = "trouble"
    seat: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        if "look_for_trouble" in g.phase_words:
            return f"{g.name_of(self.seat)} gets {g.phase_words['look_for_trouble'].lower()} with {g.name(self.card)}."
        return f"{g.name_of(self.seat)} looks for trouble with {g.name(self.card)}."


class Loot(Event):
    """Loot The Room: a second Door card, face-down."""

    kind = "loot"
    seat: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} loots the room."


class Keep(Event):
    """A Door drawn (kicked open) that goes into the drawer's hand; named to those who saw it."""

    kind = "keep"
    seat: int
    card: int
    face_up: bool

    def text(self, g: Game, to: int | None) -> str:
        if (self.face_up or self.seat == to) and self.card >= 0:
            return f"{g.name_of(self.seat)} keeps {g.name(self.card)} in hand."
        return f"{g.name_of(self.seat)} keeps the card in hand."


class CharityDone(Event):
    """Charity is over: the hand is within its limit (silent; marks the end of the turn's Charity)."""

    kind = "charity_done"
    seat: int
    hand: int
    limit: int


class Charity(Event):
    """Charity: a card given to the lowest-Level player; only giver and taker see which."""

    kind = "charity"
    seat: int
    target: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        shown = g.name(self.card) if to in (self.seat, self.target) else "a card"
        return f"{g.name_of(self.seat)} gives {shown} to {g.name_of(self.target)} (Charity)."


class Discard(Event):
    """A card is discarded from the hand."""

    kind = "discard"
    seat: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} discards {g.name(self.card)}."


# ------------------------------------------------------------------ cards: drawn, taken, lost


class Draw(Event):
    """Cards drawn into a hand; face-down ones are named to their drawer alone."""

    kind = "draw"
    seat: int
    deck: str
    cards: tuple[int, ...]
    face_up: bool

    def text(self, g: Game, to: int | None) -> str:
        if self.face_up or self.seat == to:
            return f"{g.name_of(self.seat)} draws {_cards(g, self.cards)}."
        n = len(self.cards)
        return f"{g.name_of(self.seat)} draws {n} {self.deck} card{'s' if n > 1 else ''} face-down."


class Reshuffle(Event):
    """A deck ran out: its discards are shuffled into a new deck."""

    kind = "reshuffle"
    deck: str

    def text(self, g: Game, to: int | None) -> str:
        return f"The {self.deck} discards are shuffled into a new deck."


class Reveal(Event):
    """The Treasures of a kill, drawn face-up."""

    kind = "reveal"
    seat: int
    cards: tuple[int, ...]

    def text(self, g: Game, to: int | None) -> str:
        return f"Treasures drawn face-up: {_cards(g, self.cards)}."


class Take(Event):
    """A player takes a card (a Treasure of a kill shared out, a card from the discards)."""

    kind = "take"
    seat: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} takes {g.name(self.card)}."


class Resurrect(Event):
    """Resurrection: the top discard taken instead of drawing."""

    kind = "resurrect"
    seat: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} takes the top discard instead of drawing: {g.name(self.card)}."


class Dowse(Event):
    """A card taken from the discards by a card's power (a dowsing rod)."""

    kind = "dowse"
    seat: int
    card: int
    by: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} takes {g.name(self.card)} from the discards ({g.name(self.by)})."


class Lose(Event):
    """A card is lost from play or from the hand, and why."""

    kind = "lose"
    seat: int
    card: int
    why: str

    def text(self, g: Game, to: int | None) -> str:
        why = f" ({self.why})" if self.why else ""
        return f"{g.name_of(self.seat)} loses {g.name(self.card)}{why}."


class Gift(Event):
    """A card given to another player."""

    kind = "gift"
    seat: int
    target: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} gives {g.name(self.card)} to {g.name_of(self.target)}."


class TakeItem(Event):
    """A player takes an item from another."""

    kind = "take_item"
    seat: int
    target: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} takes {g.name(self.card)} from {g.name_of(self.target)}."


class TakesFromHand(Event):
    """A player takes a card blind from another's hand."""

    kind = "takes_from_hand"
    seat: int
    target: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} takes a card from {g.name_of(self.target)}'s hand."


class Sell(Event):
    """Items sold for gold (1,000 gold pieces go up a level), `doubled` the one sold at double price
    (a Halfling's power; absent in older events and sales without it)."""

    kind = "sell"
    seat: int
    cards: tuple[int, ...]
    gold: int
    doubled: int | None = None

    def text(self, g: Game, to: int | None) -> str:
        sold = f"{g.name_of(self.seat)} sells {_cards(g, self.cards)} for {self.gold} gold"
        if self.doubled is None:
            return sold + "."
        if len(self.cards) == 1:
            return sold + " (double price)."
        return sold + f" ({g.name(self.doubled)} at double price)."


class Unequip(Event):
    """An item is taken off and carried."""

    kind = "unequip"
    seat: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} unequips {g.name(self.card)}."


class Destroy(Event):
    """An item destroyed by a card."""

    kind = "destroy"
    seat: int
    target: int
    item: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        who, whose = g.name_of(self.seat), g.name_of(self.target)
        return f"{who} destroys {whose}'s {g.name(self.item)} with {g.name(self.card)}."


# ------------------------------------------------------------------ trading


class Offer(Event):
    """An offer to another player: a trade of items, or a gift when nothing is asked back."""

    kind = "offer"
    seat: int
    target: int
    card: int
    theirs: int

    def text(self, g: Game, to: int | None) -> str:
        if self.theirs >= 0:
            trade = f"{g.name(self.card)} for {g.name(self.theirs)}"
            return f"{g.name_of(self.seat)} offers {g.name_of(self.target)} a trade: {trade}."
        return f"{g.name_of(self.seat)} offers {g.name(self.card)} to {g.name_of(self.target)} as a gift."


class Trade(Event):
    """Two players trade items."""

    kind = "trade"
    seat: int
    target: int
    card: int
    theirs: int

    def text(self, g: Game, to: int | None) -> str:
        who, to_whom = g.name_of(self.seat), g.name_of(self.target)
        return f"{who} trades {g.name(self.card)} to {to_whom} for {g.name(self.theirs)}."


class RefuseTrade(Event):
    """An offer of a trade or gift is turned down."""

    kind = "refuse_trade"
    seat: int
    offerer: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} turns down {g.name_of(self.offerer)}'s offer."


class Steal(Event):
    """The Thief tries to steal an item (the card paid is narrated as lost)."""

    kind = "steal"
    seat: int
    target: int
    card: int
    ok: bool

    def text(self, g: Game, to: int | None) -> str:
        ok = "steals" if self.ok else "fails to steal"
        return f"{g.name_of(self.seat)} {ok} {g.name(self.card)} from {g.name_of(self.target)}."


# ------------------------------------------------------------------ Levels and the end


class Level(Event):
    """A player goes up or loses Levels (`change` is signed), and why."""

    kind = "level"
    seat: int
    change: int
    level: int
    why: str

    def text(self, g: Game, to: int | None) -> str:
        verb = "goes up" if self.change > 0 else "loses"
        amount = f"{abs(self.change)} level{'s' if abs(self.change) > 1 else ''}"
        return f"{g.name_of(self.seat)} {verb} {amount} ({self.why}) and is now Level {self.level}."


class Win(Event):
    """The game is won (by more than one with shared victories)."""

    kind = "win"
    seats: tuple[int, ...]

    def text(self, g: Game, to: int | None) -> str:
        who = " and ".join(g.name_of(s) for s in self.seats)
        return f"{who} win{'s' if len(self.seats) == 1 else ''} the game!"


class Divine(Event):
    """Divine Intervention is drawn: every Cleric goes up a level."""

    kind = "divine"
    seat: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} draws Divine Intervention: every Cleric goes up a level."


class Death(Event):
    """A player dies, and why."""

    kind = "death"
    seat: int
    why: str

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} dies ({self.why})."


class Looted(Event):
    """A card looted from a dead player's body; only the looter sees which."""

    kind = "looted"
    seat: int
    dead: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        shown = g.name(self.card) if to == self.seat else "a card"
        return f"{g.name_of(self.seat)} loots {shown} from {g.name_of(self.dead)}'s body."


class Sex(Event):
    """A player's sex changes."""

    kind = "sex"
    seat: int
    sex: str

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} is now {self.sex}."


# ------------------------------------------------------------------ cards played


class Play(Event):
    """A card is played (into play, or for its effect)."""

    kind = "play"
    seat: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} plays {g.name(self.card)}."


class OneShot(Event):
    """A one-shot card played on a monster, a player or the fighters."""

    kind = "oneshot"
    seat: int
    card: int
    target: int
    monster: int

    def text(self, g: Game, to: int | None) -> str:
        if self.monster >= 0:
            on = g.name(self.monster)
        else:
            on = g.name_of(self.target) if self.target >= 0 else "the fighters"
        return f"{g.name_of(self.seat)} plays {g.name(self.card)} on {on}."


class Enhance(Event):
    """A monster enhancer played on a monster."""

    kind = "enhance"
    seat: int
    card: int
    monster: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} plays {g.name(self.card)} on {g.name(self.monster)}."


class EnhanceItem(Event):
    """An item enhancer put on an item."""

    kind = "enhance_item"
    seat: int
    card: int
    item: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} puts {g.name(self.card)} on {g.name(self.item)}."


class SidekickSex(Event):
    """A card changes the sex of a player's Sidekick."""

    kind = "sidekick_sex"
    seat: int
    target: int
    sidekick: int
    sex: str

    def text(self, g: Game, to: int | None) -> str:
        return (
            f"{g.name_of(self.seat)} changes the sex of {g.name_of(self.target)}'s {g.name(self.sidekick)}:"
            f" now {self.sex}."
        )


class Curse(Event):
    """A Curse (or a Trap, or the like) strikes: drawn face-up, or played by a player."""

    kind = "curse"
    by: int
    victim: int
    card: int
    face_up: bool

    def text(self, g: Game, to: int | None) -> str:
        card, victim = g.name(self.card), g.name_of(self.victim)
        if self.face_up:
            return f"{card} strikes {victim}."
        word = g.cdef[self.card].word
        if word == "Curse":
            return f"{g.name_of(self.by)} curses {victim} with {card}."
        return f"{g.name_of(self.by)} plays the {word} {card} on {victim}."


class Cancel(Event):
    """A Curse is cancelled, by the named card."""

    kind = "cancel"
    seat: int
    card: int
    by: str

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name(self.card)} is cancelled by {self.by}."


class Face(Event):
    """A card sets the die to a face of the player's choice."""

    kind = "face"
    seat: int
    card: int
    value: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} plays {g.name(self.card)}: the die shows {self.value}."


class HousePower(Event):
    """A House power used (Slytherin: a monster from the hand discarded for a bonus)."""

    kind = "house_power"
    seat: int
    house: str
    card: int
    bonus: int

    def text(self, g: Game, to: int | None) -> str:
        power = f"the {self.house.title()} power"
        return f"{g.name_of(self.seat)} uses {power}, discarding {g.name(self.card)}: +{self.bonus}."


class Brew(Event):
    """A Potions card turns two cards from the hand into a Treasure (also marks its use this turn)."""

    kind = "brew"
    seat: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} uses {g.name(self.card)}: two cards from the hand for a Treasure."


# ------------------------------------------------------------------ the fight


class Combat(Event):
    """A fight begins with a monster."""

    kind = "combat"
    seat: int
    monster: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} fights {g.name(self.monster)}."


class NoAttack(Event):
    """A monster will not attack this player: no fight."""

    kind = "no_attack"
    seat: int
    monster: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name(self.monster)} will not attack {g.name_of(self.seat)}."


class CombatOver(Event):
    """Every monster has left: the combat ends."""

    kind = "combat_over"
    seat: int

    def text(self, g: Game, to: int | None) -> str:
        return "The combat ends with no monster left."


class Join(Event):
    """A monster joins the fight (a Wandering Monster, or one of a kin), sent by a player."""

    kind = "join"
    seat: int
    card: int
    why: str

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name(self.card)} joins the fight ({self.why}), sent by {g.name_of(self.seat)}."


class Mate(Event):
    """A monster is given a Mate (or the like)."""

    kind = "mate"
    seat: int
    monster: int
    word: str

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} gives {g.name(self.monster)} {article(self.word)}."


class Illusion(Event):
    """Illusion: a monster from the hand replaces one in the fight."""

    kind = "illusion"
    seat: int
    monster: int
    new: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)}'s {g.name(self.card)} replaces {g.name(self.monster)} with {g.name(self.new)}."


class SexBonus(Event):
    """A Sidekick's sex is kept, so a card's bonus against that sex counts."""

    kind = "sex_bonus"
    seat: int
    sidekick: int
    card: int
    value: int

    def text(self, g: Game, to: int | None) -> str:
        return (
            f"{g.name_of(self.seat)} keeps {g.name(self.sidekick)}, so {g.name(self.card)} gets its {self.value:+d}"
            " against that sex."
        )


class Ask(Event):
    """The fighter asks a player for help, with the reward offered."""

    kind = "ask"
    seat: int
    helper: int
    cards: tuple[int, ...]
    n: int
    flag: str

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} asks {g.name_of(self.helper)} for help."


class Compelled(Event):
    """A helper cannot refuse to help (by a card; older events name none: Kneepads of Allure)."""

    kind = "compelled"
    seat: int
    fighter: int
    by: int | None = None

    def text(self, g: Game, to: int | None) -> str:
        by = g.name(self.by) if self.by is not None else "Kneepads of Allure"
        return f"{g.name_of(self.seat)} cannot refuse to help {g.name_of(self.fighter)} ({by})."


class Help(Event):
    """A player helps the fighter."""

    kind = "help"
    seat: int
    fighter: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} helps {g.name_of(self.fighter)}."


class Refuse(Event):
    """A player asked for help refuses."""

    kind = "refuse"
    seat: int
    fighter: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} refuses to help."


class Volunteer(Event):
    """A player offers to help the fighter."""

    kind = "volunteer"
    seat: int
    fighter: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} offers to help {g.name_of(self.fighter)}."


class RefuseOffer(Event):
    """The fighter refuses a player's offer of help."""

    kind = "refuse_offer"
    seat: int
    helper: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} refuses {g.name_of(self.helper)}'s help."


class BackOut(Event):
    """A helper backs out of a fight that would win the game for the fighter."""

    kind = "back_out"
    seat: int
    fighter: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} backs out of {g.name_of(self.fighter)}'s fight for the win."


class HelperSentAway(Event):
    """A monster nobody may help against joins the fight: the helper leaves it, their deal void."""

    kind = "helper_sent_away"
    seat: int
    fighter: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return (
            f"Nobody may help against {g.name(self.card)}: {g.name_of(self.seat)} leaves "
            f"{g.name_of(self.fighter)}'s fight, and their deal is off."
        )


class Transfer(Event):
    """Transferral Potion: another player takes the fighter's place."""

    kind = "transfer"
    seat: int
    fighter: int
    target: int

    def text(self, g: Game, to: int | None) -> str:
        return (
            f"{g.name_of(self.seat)}'s Transferral Potion puts {g.name_of(self.target)}"
            f" in {g.name_of(self.fighter)}'s place in the fight."
        )


class Berserk(Event):
    """The Warrior berserks, discarding cards for a bonus."""

    kind = "berserk"
    seat: int
    cards: tuple[int, ...]

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} berserks, discarding {_cards(g, self.cards)}."


TURNED = {"undead": "the undead", "death_eater": "the Death Eaters", "dragon": "the Dragons"}


class Turning(Event):
    """The Cleric turns a kind of monster, discarding cards for a bonus."""

    kind = "turning"
    seat: int
    cards: tuple[int, ...]
    tag: str

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} turns {TURNED[self.tag]}, discarding {_cards(g, self.cards)}."


class Backstab(Event):
    """The Thief backstabs a player in a fight, discarding a card."""

    kind = "backstab"
    seat: int
    target: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} backstabs {g.name_of(self.target)}, discarding {g.name(self.card)}."


class Charm(Event):
    """The Wizard discards the whole hand to charm a monster away."""

    kind = "charm"
    seat: int
    monster: int
    hand: int

    def text(self, g: Game, to: int | None) -> str:
        who = g.name_of(self.seat)
        return f"{who} discards the whole hand ({self.hand} cards) to charm {g.name(self.monster)} away."


class Slay(Event):
    """A monster killed outright by a card."""

    kind = "slay"
    seat: int
    monster: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} kills {g.name(self.monster)} outright with {g.name(self.card)}."


class Remove(Event):
    """A monster removed from the fight by a card."""

    kind = "remove"
    seat: int
    monster: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} removes {g.name(self.monster)} from the fight with {g.name(self.card)}."


class Friendship(Event):
    """A card makes every monster leave the fight."""

    kind = "friendship"
    seat: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} plays {g.name(self.card)}: every monster leaves the fight."


class OutToLunch(Event):
    """Out to Lunch: the monsters leave and the fighter draws 2 Treasures."""

    kind = "out_to_lunch"
    seat: int
    fighter: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return (
            f"{g.name_of(self.seat)} plays {g.name(self.card)}: the monsters leave and {g.name_of(self.fighter)}"
            " draws 2 Treasures."
        )


class Bribe(Event):
    """A monster is bribed to go away."""

    kind = "bribe"
    seat: int
    monster: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} bribes {g.name(self.monster)} to go away."


class Flees(Event):
    """A monster flees from a player: it leaves the fight, its Treasure stays."""

    kind = "flees"
    seat: int
    monster: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name(self.monster)} flees from {g.name_of(self.seat)}, leaving its Treasure."


class Barred(Event):
    """A player may not help, or sell at double price, until the end of their next turn."""

    kind = "barred"
    seat: int
    what: str
    card: int

    def text(self, g: Game, to: int | None) -> str:
        doing = "help anyone" if self.what == "help" else "sell an Item at double price"
        by = f" ({g.name(self.card)})" if self.card >= 0 else ""
        return f"{g.name_of(self.seat)} may not {doing} until the end of their next turn{by}."


class Chase(Event):
    """A monster is chased away."""

    kind = "chase"
    seat: int
    monster: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} chases {g.name(self.monster)} away (booga booga!)."


class WalkPast(Event):
    """The player waves and walks past a monster."""

    kind = "walk_past"
    seat: int
    monster: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} waves and walks past {g.name(self.monster)}."


class Wall(Event):
    """A card lets one player (or, -1 or absent, every fighter) escape."""

    kind = "wall"
    seat: int
    card: int
    escaper: int | None = None

    def text(self, g: Game, to: int | None) -> str:
        if self.escaper is not None and self.escaper >= 0:
            return f"{g.name_of(self.seat)} plays {g.name(self.card)}: {g.name_of(self.escaper)} escapes."
        return f"{g.name_of(self.seat)} plays {g.name(self.card)}: the fighters escape."


class Kill(Event):
    """The fighter (and helper, -1 if none) kill the monsters."""

    kind = "kill"
    seat: int
    helper: int
    monsters: tuple[int, ...]

    def text(self, g: Game, to: int | None) -> str:
        helped = self.helper >= 0
        who = g.name_of(self.seat) + (" and " + g.name_of(self.helper) if helped else "")
        return f"{who} kill{'' if helped else 's'} {_cards(g, self.monsters)}."


# ------------------------------------------------------------------ Running Away


class Lost(Event):
    """The fighters cannot win and must Run Away."""

    kind = "lost"
    seat: int
    helper: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} cannot win and must Run Away."


class WeighAgain(Event):
    """A change made at any time turned a fight already weighed (rules 4): it is weighed again."""

    kind = "weigh_again"
    seat: int

    def text(self, g: Game, to: int | None) -> str:
        return f"The fight has changed before anyone ran: {g.name_of(self.seat)}'s fight is weighed again."


class Roll(Event):
    """A roll of the die, and what for."""

    kind = "roll"
    seat: int
    value: int
    why: str

    def text(self, g: Game, to: int | None) -> str:
        why = f" ({self.why})" if self.why else ""
        return f"{g.name_of(self.seat)} rolls a {self.value}{why}."


class RunAwayRoll(Event):
    """A Run Away roll, with each modifier and its source and the total (5 or more escapes);
    `again` is True for a second roll of the same Run Away (after a card or power called for it)."""

    kind = "roll"
    seat: int
    value: int
    why: str
    modifiers: tuple[tuple[str, int], ...]
    total: int
    again: bool | None = None

    def text(self, g: Game, to: int | None) -> str:
        mods = "".join(f" {v:+d} ({src})" for src, v in self.modifiers)
        sum_ = f"{mods} = {self.total}" if mods else ""
        verdict = (
            "enough to escape" if self.total >= ESCAPE_ROLL else f"not enough to escape ({ESCAPE_ROLL} or more needed)"
        )
        if self.again:
            return f"{g.name_of(self.seat)} rolls again to {self.why}: {self.value}{sum_}, {verdict}."
        return f"{g.name_of(self.seat)} rolls a {self.value}{sum_} to {self.why}: {verdict}."


class RunAgain(Event):
    """A runner whose first Run Away roll failed discards a card to roll once more (a Halfling's power)."""

    kind = "run_again"
    seat: int
    card: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name_of(self.seat)} discards {g.name(self.card)} to Run Away again."


class Escape(Event):
    """A player escapes (from a monster, or -1: the whole fight), and how."""

    kind = "escape"
    seat: int
    monster: int
    how: str

    def text(self, g: Game, to: int | None) -> str:
        how = f" ({self.how})" if self.how else ""
        what = f" from {g.name(self.monster)}" if self.monster >= 0 else ""
        return f"{g.name_of(self.seat)} escapes{what}{how}."


class Caught(Event):
    """A monster catches a player who failed to Run Away."""

    kind = "caught"
    seat: int
    monster: int

    def text(self, g: Game, to: int | None) -> str:
        return f"{g.name(self.monster)} catches {g.name_of(self.seat)}!"


class BadStuff(Event):
    """A monster's Bad Stuff strikes a player."""

    kind = "bad_stuff"
    seat: int
    monster: int

    def text(self, g: Game, to: int | None) -> str:
        return f"Bad Stuff from {g.name(self.monster)} for {g.name_of(self.seat)}."
