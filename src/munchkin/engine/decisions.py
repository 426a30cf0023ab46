"""The decisions the game waits on, one small typed record per kind.

When the flow must wait (see flow.py), the step on top hands the engine a decision: who acts
(`seats`), what the moment holds (a card drawn face-up, the monsters still to flee, the call for
help being answered), what it offers each seat (`offers`), whose own decision it is (`own`), and
why an action is not legal now (`verify`). A decision holds plain data only (seats, card numbers,
actions), is never changed once made, and so is shared by a game's copies.

The kinds, as the rulebooks have them:

- `Main`: the active player's own turn (character creation, Kick Open The Door, Look For Trouble
  or Loot The Room, the end of the turn), with everything a player may do on their own turn;
- `Drawn`: a Door drawn face-up that is neither monster nor Curse: keep it or play it;
- `Window`: a combat's response window, a round of passes for cards played on the fight;
- `Losing`: the fighters are losing: ask for help, or Run Away;
- `Help`: a player asked for help (or offered it) answers;
- `CurseWindow`: a Curse is about to strike: cards that cancel it;
- `Run`: Running Away: which monster to flee next, or escape another way;
- `Rolled`: a Run Away die was rolled: cards that answer a roll;
- `Caught`: a runner was caught: cards its text lets them play before the Bad Stuff lands;
- `Choose`, `Pick`, `LootBody`: choose a card for an effect, a Treasure under a help deal, a card
  from a dead player's body;
- `Charity`: over the hand limit at the end of the turn, give cards away;
- `Offer`: a trade or gift awaits its answer;
- `EndWindow`: before the next turn, anyone's any-time actions;
- `Before`: a choice a card or a rule offers (a monster's "before combat" choice, an Item that no
  longer fits, a die face to set), with `SidekickSex` and `DieFace` carrying what they are about;
- `Over`: the game has ended.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from munchkin.engine import actions as A
from munchkin.engine import curses, fight, legal
from munchkin.engine.actions import Action, IllegalAction
from munchkin.engine.state import (
    BEFORE,
    CAUGHT,
    CHARITY,
    CHOOSE,
    CURSE_WINDOW,
    DRAWN,
    END_WINDOW,
    HELP,
    LOOT_BODY,
    LOSING,
    MAIN,
    OFFER,
    PICK,
    ROLLED,
    RUN,
    WINDOW,
)

if TYPE_CHECKING:
    from munchkin.engine.game import Game


def unique_cards(cards: tuple[int, ...] | list[int], g: Game) -> list[int]:
    """One card per definition: identical copies make the same action."""
    if len(cards) < 2 or g.twins.isdisjoint(cards):  # most often no card with a twin in the game
        return list(cards)
    cdef = g.cdef
    seen: set[int] = set()
    out = []
    for c in cards:
        i = cdef[c].idx
        if i not in seen:
            seen.add(i)
            out.append(c)
    return out


@dataclass(slots=True)
class Decision:
    """What the engine waits for: who may act now and what the moment holds."""

    kind: ClassVar[str] = ""  # as the view and the notation name it ("main", "window", ...)
    # the fields holding card numbers (an int, a tuple of them, or an Action): a determinized
    # copy points them at the cards dealt in place of those that moved (as Step.CARDS)
    CARDS: ClassVar[tuple[str, ...]] = ()
    RULE: ClassVar[str] = ""  # what the moment allows, in the rulebook's words (for refusals)

    seats: tuple[int, ...]

    def offers(self, g: Game, seat: int) -> list[Action]:
        """The listed legal actions of `seat`, one of `seats`."""
        return []

    def rule(self) -> str:
        """What this moment allows, said when an action is refused."""
        return self.RULE

    def only(self, g: Game, seat: int) -> Action | None:
        """The one action this decision offers `seat` when it offers exactly one (no choice: the
        engine takes it), else None; what the seat may do at any time besides is no choice of it.
        It reads the seat's list, which whoever answers (an agent, a player's page) reads next: a
        search stopping at a second action would list the first ones twice (measured: more work)."""
        acts = g.legal_actions(seat)
        extra = g._any_time_cache.get(seat)
        if extra:
            acts = acts[: len(acts) - len(extra)]
        return acts[0] if len(acts) == 1 else None

    def own(self, g: Game) -> tuple[int, ...]:
        """The seats for whom this is their OWN decision (a table must not hurry them); the others
        in a window answer someone else's moment."""
        return self.seats

    def verify(self, g: Game, act: Action) -> str | None:
        """None when `act` (a well-formed action) is legal now; else the rule that forbids it. The
        seat's list is looked in when it was made already, else only the part that could hold `act`."""
        listed = g.listed(act.seat)
        if listed is None:
            listed = legal.candidates(g, act)
        if listed is None:
            listed = g.legal_actions(act.seat)
        if act in listed:
            return None
        if act.seat not in self.seats:  # a player not waited on: any-time actions only
            return legal.any_time_refusal(g, act)
        try:
            legal.verify_unlisted(g, act)  # legal actions the lists leave out: combined bribes, sales
        except IllegalAction as e:
            return str(e)
        return None

    def with_cards(self, moved: dict[int, int]) -> Decision:
        """This decision with each card that moved (a determinized copy) replaced by its new one."""
        if not self.CARDS:
            return self
        return replace(self, **{name: moved_cards(getattr(self, name), moved) for name in self.CARDS})


def moved_cards(x: Any, moved: dict[int, int]) -> Any:
    """A card number, a tuple of them, or an Action, with each moved card replaced."""
    t = type(x)
    if t is int:
        return moved.get(x, x)
    if t is Action:
        card, monster = moved.get(x.card, x.card), moved.get(x.monster, x.monster)
        return x._replace(card=card, monster=monster, cards=moved_cards(x.cards, moved))
    if t is tuple or t is list:
        return t([moved_cards(y, moved) for y in x])
    if isinstance(x, Decision):  # the decision an any-time action interrupted
        return x.with_cards(moved)
    return x


@dataclass(slots=True)
class Over(Decision):
    """The game has ended: nobody acts."""

    kind = "over"
    RULE = "the game is over"


@dataclass(slots=True)
class Main(Decision):
    """The active player's own turn at `stage`: "create" (character creation, before the first
    turn), "start" (before Kick Open The Door), "door" (Look For Trouble or Loot The Room), "end"."""

    kind = MAIN
    stage: str = "start"

    STAGES: ClassVar[dict[str, str]] = {
        "create": "character creation: a Race, a Class and usable Items, then ready",
        "start": "the start of the turn: Kick Open The Door, or act first",
        "door": "after the door: Look For Trouble or Loot The Room",
        "after": "the end of the turn: act, then end it",
    }

    def offers(self, g: Game, seat: int) -> list[Action]:
        if self.stage == "create":
            g.listing = None  # before the first turn: no turn's free actions yet
        return legal.main_actions(g, seat, self.stage)

    def rule(self) -> str:
        return self.STAGES.get(self.stage, "your own turn")


@dataclass(slots=True)
class Drawn(Decision):
    """A Door drawn face-up that is neither monster nor Curse: keep it, or play it at once."""

    kind = DRAWN
    RULE = "a Door drawn face-up: keep it, or play it now"
    CARDS = ("card",)
    card: int = -1

    def offers(self, g: Game, seat: int) -> list[Action]:
        card = self.card
        out = [Action(A.KEEP, seat, card)]
        g.listing = FREE  # played now as on any moment of one's own turn out of combat
        out += [a for a in legal.card_actions(g, seat, card, own_turn=True) if a.card == card]
        if g.cdef[card].steed:  # a Steed drawn face-up may be fought as a monster instead
            out.append(Action(A.PLAY, seat, card, flag="fight"))
        return out


@dataclass(slots=True)
class Window(Decision):
    """A combat's response window: each seat in turn may play on the fight, or pass."""

    kind = WINDOW
    RULE = "a combat window: play a card on the fight, or pass"

    def offers(self, g: Game, seat: int) -> list[Action]:
        return fight.legal_actions_in_window(g, seat)

    def own(self, g: Game) -> tuple[int, ...]:
        c = g.combat
        fighters = c.fighters() if c is not None else ()
        return tuple(s for s in self.seats if s in fighters)


@dataclass(slots=True)
class Losing(Decision):
    """The fighters cannot win as things stand: the main fighter asks for help or Runs Away."""

    kind = LOSING
    RULE = "the fighters are losing: ask for help, or Run Away"

    def offers(self, g: Game, seat: int) -> list[Action]:
        c = g.combat
        assert c is not None
        return legal.losing_actions(g, c)


@dataclass(slots=True)
class Help(Decision):
    """A call for help (`ask`: the asker's offer) or an offer to help (a volunteer) is answered."""

    kind = HELP
    RULE = "a call for help: accept or refuse"
    CARDS = ("ask",)
    ask: Action = Action(A.PASS, -1)

    def offers(self, g: Game, seat: int) -> list[Action]:
        return [Action(A.ACCEPT, seat), Action(A.REFUSE, seat)]


@dataclass(slots=True)
class CurseWindow(Decision):
    """A Curse (`card`) is about to strike `victim`: cards that cancel it may be played."""

    kind = CURSE_WINDOW
    RULE = "a Curse is about to strike: cancel it, or pass"
    CARDS = ("card",)
    card: int = -1
    victim: int = -1

    def offers(self, g: Game, seat: int) -> list[Action]:
        g.listing = self
        return [Action(A.PASS, seat)] + [
            Action(A.PLAY, seat, c) for c in unique_cards(curses.curse_cancellers(g, seat), g)
        ]

    def own(self, g: Game) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s == self.victim)


@dataclass(slots=True)
class Run(Decision):
    """Running Away: which of the `monsters` still to flee comes next, or another way out; the
    Flight spell has used `flight_used` cards for a bonus of `flight_bonus` to each roll."""

    kind = RUN
    RULE = "Running Away: the monster to flee next, or another way out"
    CARDS = ("monsters",)
    monsters: tuple[int, ...] = ()
    flight_used: int = 0
    flight_bonus: int = 0

    def offers(self, g: Game, seat: int) -> list[Action]:
        return legal.run_actions(g, seat, self)


@dataclass(slots=True)
class Rolled(Decision):
    """The Run Away die of `runner`, fleeing `monster`, shows `die` for a `total`: it escapes when
    `ok`. Cards that answer a roll may be played (`retried`: the runner's own reroll is used)."""

    kind = ROLLED
    RULE = "a Run Away roll: answer it with a card, or pass"
    CARDS = ("monster",)
    runner: int = -1
    monster: int = -1
    die: int = 0
    total: int = 0
    ok: bool = False
    retried: bool = False

    def offers(self, g: Game, seat: int) -> list[Action]:
        return legal.rolled_actions(g, seat, self)

    def own(self, g: Game) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s == self.runner)


@dataclass(slots=True)
class Caught(Decision):
    """`runner` failed to Run Away from `monster` (a roll that failed, or an escape the monster does
    not allow): before its Bad Stuff lands, the runner may play a card whose text allows it even
    then (Magic Lamp: "even after a failed Run Away roll"), or pass and suffer it."""

    kind = CAUGHT
    RULE = "caught by a monster: play a card before its Bad Stuff, or pass"
    CARDS = ("monster",)
    runner: int = -1
    monster: int = -1

    def offers(self, g: Game, seat: int) -> list[Action]:
        return legal.caught_actions(g, seat, self)


@dataclass(slots=True)
class Choose(Decision):
    """Choose one of `options` (cards) for an effect, `why` saying which."""

    kind = CHOOSE
    RULE = "choose one of the cards offered"
    CARDS = ("options",)
    options: tuple[int, ...] = ()
    why: str = ""

    def offers(self, g: Game, seat: int) -> list[Action]:
        return [Action(A.CHOOSE, seat, c) for c in unique_cards(self.options, g)]


@dataclass(slots=True)
class LootBody(Decision):
    """Looting the body of `dead`: take one of its `cards`."""

    kind = LOOT_BODY
    RULE = "looting a body: take one of its cards"
    CARDS = ("cards",)
    dead: int = -1
    cards: tuple[int, ...] = ()

    def offers(self, g: Game, seat: int) -> list[Action]:
        return [Action(A.TAKE, seat, c) for c in unique_cards(self.cards, g)]


@dataclass(slots=True)
class Pick(Decision):
    """Under a help deal, pick one of the Treasures drawn (`cards`)."""

    kind = PICK
    RULE = "pick one of the Treasures drawn, under the help deal"
    CARDS = ("cards",)
    cards: tuple[int, ...] = ()

    def offers(self, g: Game, seat: int) -> list[Action]:
        return [Action(A.TAKE, seat, c) for c in unique_cards(self.cards, g)]


@dataclass(slots=True)
class Charity(Decision):
    """Over the hand limit at the end of the turn: give the extra cards to the lowest-Level
    players (or discard them when you are the lowest), or play or sell them first."""

    kind = CHARITY
    RULE = "Charity: give away (or play, or sell) the cards over the hand limit"

    def offers(self, g: Game, seat: int) -> list[Action]:
        return legal.charity_actions(g, seat)


@dataclass(slots=True)
class Offer(Decision):
    """A trade or a gift (`offer`) awaits its answer."""

    kind = OFFER
    RULE = "an offer: accept or refuse"
    CARDS = ("offer",)
    offer: Action = Action(A.PASS, -1)

    def offers(self, g: Game, seat: int) -> list[Action]:
        return [Action(A.ACCEPT, seat), Action(A.REFUSE, seat)]


@dataclass(slots=True)
class EndWindow(Decision):
    """Before the next turn: anyone's any-time actions, or pass."""

    kind = END_WINDOW
    RULE = "before the next turn: any-time actions, or pass"

    def offers(self, g: Game, seat: int) -> list[Action]:
        return [Action(A.PASS, seat)] + legal.free_actions(g, seat, own_turn=False)

    def own(self, g: Game) -> tuple[int, ...]:
        return ()


@dataclass(slots=True)
class Before(Decision):
    """A choice that a card or a rule offers (`options`, whole actions), `source` the card that
    asks (-1: a rule, e.g. an Item that no longer fits)."""

    kind = BEFORE
    RULE = "a choice a card or a rule offers"
    CARDS: ClassVar[tuple[str, ...]] = ("source", "options")
    source: int = -1
    options: tuple[Action, ...] = ()

    def offers(self, g: Game, seat: int) -> list[Action]:
        return list(self.options)


@dataclass(slots=True)
class SidekickSex(Before):
    """Before a fight whose monster has a bonus against one sex (`bonus`), the fighter may change
    the sex of their Sidekick `card`."""

    CARDS = ("source", "options", "card")
    card: int = -1
    bonus: int = 0


@dataclass(slots=True)
class DieFace(Before):
    """A card sets a die (`why`, rolled `value`): the face to set it to, `best` the one that helps."""

    why: str = ""
    value: int = 0
    best: int = 0


@dataclass(slots=True)
class FreeActions:
    """Listing actions out of combat (a main turn, the end window, Charity): what card hooks are
    asked for when `g.listing` is this."""


FREE = FreeActions()

# What the engine is listing actions for, which card hooks ask (`g.listing`): out of combat
# (FREE), a combat window (IN_WINDOW), a Curse window, a Run Away, a roll answered (the decision).
Listing = FreeActions | Decision

IN_WINDOW = Window(())


__all__ = [
    "FREE",
    "IN_WINDOW",
    "Before",
    "Caught",
    "Charity",
    "Choose",
    "CurseWindow",
    "Decision",
    "DieFace",
    "Drawn",
    "EndWindow",
    "FreeActions",
    "Help",
    "Listing",
    "LootBody",
    "Losing",
    "Main",
    "Offer",
    "Over",
    "Pick",
    "Rolled",
    "Run",
    "SidekickSex",
    "Window",
]
