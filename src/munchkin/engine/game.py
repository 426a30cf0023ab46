"""The game: setup, decks, chance, the turn sequence, and the action interface."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from munchkin.cards.schema import Card
from munchkin.engine import actions as A
from munchkin.engine import characters, legal, vocabulary
from munchkin.engine import events as E
from munchkin.engine.actions import Action, IllegalAction, MunchkinError
from munchkin.engine.any_time import AnyTime
from munchkin.engine.cards import CardDef, build_houses, build_table, card_version, house_faces, phase_words
from munchkin.engine.chance import Chance, RandomChance, RecordedChance, SeededChance, SystemChance
from munchkin.engine.core import GameCore
from munchkin.engine.decisions import Before, Decision, Listing, Window
from munchkin.engine.flow import Done, Frame, Step
from munchkin.engine.rules import HAND_LIMIT as HAND_LIMIT  # importable from here, as before
from munchkin.engine.rules import MAX_PLAYERS, MIN_PLAYERS
from munchkin.engine.rules import RULES as RULES
from munchkin.engine.rules import WINNING_LEVEL as WINNING_LEVEL
from munchkin.engine.run_away import RollState
from munchkin.engine.state import END_WINDOW, Combat, Player
from munchkin.engine.table import arrange_table
from munchkin.engine.turn import GameFlow

# The rules a save was played under (see rules.py). 2: "at any time" (issue 15): players not waited
# on act, and the window before the next turn also asks a player who may only unequip; a save without
# the number is of rules 1 and still loads (`Game.apply_stored`). 3: the card fixes of issue 18.


# The turn cap every game has unless told otherwise (Options, simulate, balance, ladder): long enough
# that bots' games end on their own (random bots take some 430 turns on average, so 400 cut them short).
TURN_CAP = 5000


@dataclass
class Options:
    """Optional rules: the Faster Play Rules and a turn cap for simulations."""

    listen_at_the_door: bool = False
    shared_victories: bool = False
    turn_cap: int = TURN_CAP
    # Listen At The Door, phase 2: "loot" (Deluxe, Star, GBU: Loot The Room draws a Treasure) or
    # "no_good" (Harry Potter: going Up to No Good draws a face-down Treasure); "" = by the sets
    listen_variant: str = ""


@dataclass
class Setup:
    """Everything needed to rebuild a game from the start."""

    sets: list[str]
    players: list[str]
    seed: int | None  # None: chance from the operating system, the game replayed from its log
    options: Options = field(default_factory=Options)
    sexes: list[str] | None = None
    scenario: dict[str, Any] | None = None
    houses: list[str | None] | None = None  # each seat's House (Harry Potter); None = drawn at random
    card_versions: dict[str, int] | None = None  # each set's cards' version; None (or a set left out): today's
    # where the cards came from when not from the built-in sets (a designer's folder: its name and hash), as
    # the caller gives it; the engine only carries it into the save, for a loader to check before a replay
    origin: dict[str, Any] | None = None


def declared_sexes(declared: list[str | None] | None, seed: int | None) -> list[str] | None:
    """Each character's sex: as its player declared it, else drawn from the table's seed
    (from the operating system's randomness when there is no seed)."""
    if not declared:
        return None
    pick: Chance = SeededChance(seed) if seed is not None else SystemChance()  # not the game's chance
    return [s if s in ("male", "female") else pick.choice(("male", "female")) for s in declared]


def house_problem(houses: list[str], faces: list[tuple[str, str]]) -> str | None:
    """Why these Houses cannot all be chosen (each player needs a House card of their own
    showing their House), or None if they can."""

    def fits(i: int, free: list[tuple[str, str]]) -> bool:
        if i == len(houses):
            return True
        return any(houses[i] in f and fits(i + 1, free[:j] + free[j + 1 :]) for j, f in enumerate(free))

    if fits(0, faces):
        return None
    counts = {h: houses.count(h) for h in dict.fromkeys(houses)}
    listed = ", ".join(f"{n} {h.title()}" for h, n in counts.items())
    return f"the {len(faces)} double-sided House cards cannot show {listed} at once"


def choose_houses(
    declared: list[str | None] | None,
    n: int,
    known: dict[str, CardDef],
    faces: list[tuple[str, str]],
    rng: Chance | random.Random,
) -> list[str]:
    """Each seat's House: as declared, else drawn at random among those a House card is left for."""
    want = list(declared or []) + [None] * (n - len(declared or []))
    if len(want) != n:
        raise MunchkinError(f"{len(want)} Houses declared for {n} players")
    chosen: list[str] = []
    for h in want:
        if h is None or h == "":
            continue
        if h.lower() not in known:
            raise MunchkinError(f"unknown House {h!r}; the Houses are {', '.join(d.name for d in known.values())}")
        chosen.append(h.lower())
    problem = house_problem(chosen, faces)
    if problem:
        raise MunchkinError(problem)
    out: list[str] = []
    for h in want:
        if h:
            out.append(h.lower())
            continue
        rest = [x.lower() for x in want[len(out) + 1 :] if x]
        options = [k for k in known if house_problem(out + [k] + rest, faces) is None]
        out.append(rng.choice(options))
    return out


def chance_entries(log: Iterable[Sequence[Any]], forced: int = 0) -> list[tuple[Any, ...]]:
    """The chance outcomes of a log (shuffles, rolls, picks) in order, leaving out its first
    `forced` rolls: a scenario's forced rolls come first and are not chance."""
    out: list[tuple[Any, ...]] = []
    for entry in log:
        if entry[0] == "roll" and forced > 0:
            forced -= 1
        elif entry[0] in ("shuffle", "roll", "pick"):
            out.append(tuple(entry))
    return out


class Game(GameCore):
    """One game of Munchkin. Drive it with `to_act`, `legal_actions`, `apply` or `play`."""

    def __init__(self, setup: Setup, chance: Chance | None = None, rules: int = RULES) -> None:
        """A new game; its chance is `chance`, else drawn from the setup's seed, else (no seed)
        from the operating system, in which case the setup is completed with what was drawn.
        `rules`: the rules it is played under (a save of older rules replays with its own)."""
        self.rules = rules
        if not MIN_PLAYERS <= len(setup.players) <= MAX_PLAYERS:
            raise MunchkinError(f"Munchkin needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(setup.players)}")
        names = [n.strip() for n in setup.players]
        if len(set(n.lower() for n in names)) != len(names) or not all(names):
            raise MunchkinError("player names must be non-empty and distinct")
        self._read_sets(setup)
        self.seeded = chance is None and setup.seed is not None  # replayable from the seed alone
        if chance is None:
            chance = SeededChance(setup.seed) if setup.seed is not None else SystemChance()
        self.chance: Chance = chance
        self.forced_rolls: list[int] = []
        sexes = setup.sexes or [self.chance.choice(("male", "female")) for _ in names]
        self.players = [Player(i, n, sexes[i]) for i, n in enumerate(names)]
        houses: list[str | None] | None = setup.houses
        if self.houses:  # each player chooses a House card before the deal
            chosen = choose_houses(setup.houses, len(names), self.houses, house_faces(list(setup.sets)), self.chance)
            for p, h in zip(self.players, chosen, strict=True):
                p.house = h
            houses = list(chosen)
        elif setup.houses and any(setup.houses):
            raise MunchkinError("Houses are chosen only in a game with Harry Potter cards")
        if not self.seeded:  # nothing to draw them again from: the setup keeps what was drawn
            self.setup = setup = replace(setup, sexes=list(sexes), houses=houses)
        self.door_deck: list[int] = [c for c in range(self.ncards) if self.cdef[c].deck == "door"]
        self.treasure_deck: list[int] = [c for c in range(self.ncards) if self.cdef[c].deck == "treasure"]
        self.door_discard: list[int] = []
        self.treasure_discard: list[int] = []
        self.log: list[tuple[Any, ...]] = []  # actions and chance outcomes, in order
        self.events: list[E.Event] = []  # what happened: typed records (events.py), each told per seat
        self.turn = 0
        self.active = 0
        self.combat: Combat | None = None
        self.over = False
        self.capped = False
        self.winners: list[int] = []
        self.version = 0
        self.decisions = 0
        self.phase = "setup"
        self.limbo: list[int] = []  # cards being resolved: a Curse in flight, Treasures drawn face-up
        self.set_aside: list[int] = []  # out of the game (a scenario that empties a deck)
        self.charity_given: dict[int, int] = {}
        self.hand_seen: dict[int, int] = {}  # who knows which card is in which hand (see give_card)
        self.hypothetical = False  # a determinized copy: its hidden cards were dealt anew, so no save replays it
        self.transferred = False  # a Transferral Potion moved this turn's fight to another player
        self.roll = RollState()
        self._empty_caches()
        self._prompt: Decision
        self.forced_at_setup = 0  # a scenario's forced rolls: the game's first rolls, not chance
        self.holding = False  # a scenario looks between the engine's own moves: none is taken alone
        self.held: Action | None = None  # the move the engine would have taken itself, while holding
        if setup.scenario is not None:
            arrange_table(self, setup.scenario)
            self.forced_at_setup = len(self.forced_rolls)
        else:
            self._shuffle_deck("door")
            self._shuffle_deck("treasure")
            for p in self.players:
                self._deal_new_hand(p)
        self._stack: list[Frame] = [GameFlow()]
        self._prompt = self._advance(None)
        self._forced_moves()

    def _empty_caches(self) -> None:
        """The caches of listed actions and of what was weighed, empty: they fill again on demand and
        hold nothing a rule reads that the state does not (digest.CACHES)."""
        self._legal_cache: dict[int, list[Action]] = {}
        self._any_time_cache: dict[int, list[Action]] = {}  # a waited seat's listed any-time actions
        self._cache_version = -1
        self._window_cache: dict[int, list[Action]] = {}
        self._window_version = -1
        self.listing: Listing | None = None
        self._sale_cache: dict[tuple[Any, ...], list[Action]] = {}
        self._exchange_cache: dict[tuple[Any, ...], list[Action]] = {}
        self._win_cache: tuple[int, Combat | None, bool] = (-1, None, False)
        self._masked_events: dict[int | None, list[E.Event]] = {}  # the events as each seat's worlds tell them

    def _read_sets(self, setup: Setup) -> None:
        """What the setup fixes for the whole game: the cards of its sets (each a number in the game),
        which rules of the sets are in play, the Houses, the phase words; never changed afterwards
        (a snapshot restores the rest: `snapshot.restore`)."""
        self.setup = setup
        self.options = setup.options
        self.card_versions = {s: (setup.card_versions or {}).get(s) or card_version(s) for s in setup.sets}
        self.defs, physical = build_table(list(setup.sets), self.card_versions)
        self.cdef: list[CardDef] = [self.defs[i] for i in physical]
        if vocabulary.seen is not None:  # the decks are dealt from each card's deck, in its copies
            for d in self.defs:
                vocabulary.used("card.deck", d.deck)
                if isinstance(d.model, Card) and d.model.copies > 1:
                    vocabulary.used("card.copies")
        self.ncards = len(self.cdef)
        copies = Counter(d.idx for d in self.cdef)  # the cards of which the game has another copy
        self.twins = frozenset(c for c, d in enumerate(self.cdef) if copies[d.idx] > 1)
        # Star Munchkin: Sidekicks may be discarded at any time (Hirelings too, in a combined game)
        self.sidekicks_discardable = any(d.kind == "sidekick" for d in self.defs)
        self.has_races = any(d.is_race for d in self.defs)  # the Good, the Bad, and the Munchkin has none
        self.has_classes = any(d.is_class for d in self.defs)  # Harry Potter has Roles instead
        self.sidekick_sexes = any(d.is_sidekick and d.sex for d in self.defs)
        self.allies = any(d.is_sidekick and d.word == "Ally" for d in self.defs)  # Harry Potter's Ally rules
        self.item_grants = any(d.is_item and d.abilities for d in self.defs)
        self.extra_big_cards = any(d.extra_big for d in self.defs)
        self.houses = build_houses(list(setup.sets))
        # every ability a card or House of these sets can give: `has_ability` asks no player for another
        self.abilities_granted = frozenset().union(*(d.abilities for d in (*self.defs, *self.houses.values())))
        self.phase_words = phase_words(list(setup.sets))
        if self.options.listen_variant not in ("", "loot", "no_good"):
            raise MunchkinError(f"listen_variant must be 'loot' or 'no_good', not {self.options.listen_variant!r}")
        self.listen_variant = self.options.listen_variant or (
            "no_good" if all(x == "harry-potter" for x in setup.sets) else "loot"
        )
        self.cards_by_name: dict[str, list[int]] = {}  # a card's name, lower-case -> its numbers in this game
        for c in range(self.ncards):
            self.cards_by_name.setdefault(self.cdef[c].name.lower(), []).append(c)

    def _may_act_off_turn(self, seat: int) -> bool:
        """A cheap test before listing a seat's any-time actions (most seats have none)."""
        p = self.players[seat]
        if p.dead:
            return False
        if p.received or p.races or p.classes or p.roles or p.proficiencies or characters.has_ability(self, p, "theft"):
            return True
        if p.sidekicks and self.sidekicks_discardable:
            return True
        cdef = self.cdef
        if any(cdef[c].is_special or legal._any_time(self, c) for c in p.hand):
            return True
        return any(c not in p.equipped and cdef[c].is_item for c in p.items)

    def _prefill(self, seat: int, acts: list[Action]) -> None:
        """Store a seat's legal actions already computed for the prompt about to open."""
        if self._cache_version != self.version:
            self._legal_cache.clear()
            self._any_time_cache.clear()
            self._cache_version = self.version
        extra = legal.any_time_extras(self, seat, acts)  # as `legal_actions` lists them
        if extra:
            self._any_time_cache[seat] = extra
            acts = acts + extra
        self._legal_cache[seat] = acts

    # ------------------------------------------------------------------ copies
    def clone(self, history: bool = True, reseed: int | None = None) -> Game:
        """An independent copy of the game at this very moment, flow included, whose further play
        never touches this one. It draws the same chance as this game would (a search may branch
        exactly); its cost grows with the table, not with the length of the game. Without `history`
        the copy's log starts empty (a copy never saved or replayed need not carry it)."""
        return self._copy(history, reseed, caches=True)

    def _copy(self, history: bool, reseed: int | None, caches: bool, events: list[E.Event] | None = None) -> Game:
        """`clone`; without `caches` the copy's cached action lists start empty (a determinized
        copy, whose cards moved, must list afresh), and none is copied only to be dropped; `events`,
        when given, are the copy's events (a determinized copy's, as its seat may know them)."""
        new = object.__new__(Game)
        d = new.__dict__
        d.update(self.__dict__)
        for k in _COPIED_PLAIN:
            if k != "events" or events is None:
                d[k] = d[k].copy()
        d["log"] = self.log.copy() if history else []
        if events is not None:
            d["events"] = events
        if caches:
            for k in _CACHES:
                d[k] = d[k].copy()
        else:
            d["_legal_cache"], d["_window_cache"], d["_any_time_cache"] = {}, {}, {}
            d["_cache_version"] = d["_window_version"] = -1
        d["players"] = [p.copy() for p in self.players]
        memo: dict[int, Any] = {}
        if self.combat is not None:
            d["combat"] = memo[id(self.combat)] = self.combat.copy(memo)
        d["chance"] = self.chance.copy() if reseed is None else SeededChance.later(reseed)
        d["_stack"] = [f.copy() for f in self._stack]
        d["roll"] = self.roll.copy()
        d["_win_cache"] = (-1, None, False)
        d["_masked_events"] = {}
        return new

    def determinize(self, observer: int | None, rng: random.Random) -> Game:
        """A copy as `observer` (None: a spectator) might imagine the game: the cards it cannot know
        dealt again at random where they could be, and chance reseeded from `rng`; its view is unchanged."""
        from munchkin.engine.determinize import determinize

        return determinize(self, observer, rng)

    # ------------------------------------------------------------------ interface
    @property
    def pending(self) -> dict[int, list[Action]]:
        """Who may act now, and each one's legal actions."""
        return {s: self.legal_actions(s) for s in self._prompt.seats}

    def deciding(self) -> tuple[int, ...]:
        """The seats among `to_act` whose OWN decision this moment is (a table must not hurry them):
        every seat waited on outside the response windows; in a combat window the fighter and the
        helper; when a die was rolled, the one Running Away; in a Curse window, the Curse's victim;
        in the window before the next turn, nobody. The others in a window answer someone else's moment."""
        if self.over:
            return ()
        return self._prompt.own(self)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now: for a seat in `to_act`, its answers to the prompt, then the
        any-time actions it may take besides; for another seat, its any-time actions only (often none).
        An agent answers with one of them; `apply` refuses others. Cached until the game moves."""
        if self._cache_version != self.version:
            self._legal_cache.clear()
            self._any_time_cache.clear()
            self._cache_version = self.version
        cached = self._legal_cache.get(seat)
        if cached is None:
            if seat in self._prompt.seats:
                cached = legal.compute_legal(self, seat)
                extra = legal.any_time_extras(self, seat, cached)  # what it may do besides answering
                if extra:
                    self._any_time_cache[seat] = extra
                    cached = cached + extra
            else:  # a seat the game does not wait on may still act at any time
                cached = legal.any_time_actions(self, seat) if 0 <= seat < len(self.players) else []
            self._legal_cache[seat] = cached
        return cached

    def listed(self, seat: int) -> list[Action] | None:
        """`legal_actions(seat)` if it was made at this version already, else None (nothing is listed)."""
        if self._cache_version != self.version:
            return None
        return self._legal_cache.get(seat)

    def is_legal(self, action: Action) -> bool:
        """Whether `action` may be applied now, checked by the rules that refuse actions rather than
        by listing every legal action (as `why_illegal`)."""
        return self.why_illegal(action) is None

    def why_illegal(self, action: Action) -> str | None:
        """None when `action` may be applied now; else why not, naming the rule (what `apply` raises)."""
        if self.over:
            return "the game is over"
        try:
            self._check_shape(action)
        except IllegalAction as e:
            return str(e)
        return self._prompt.verify(self, action)

    def any_time(self, seat: int) -> list[Action]:
        """The part of `legal_actions(seat)` that the seat may take at any time rather than as the answer
        the game waits for: all of it for a seat not in `to_act`, the extras listed last for one in it."""
        acts = self.legal_actions(seat)
        if seat not in self._prompt.seats:
            return acts
        return self._any_time_cache.get(seat, [])

    def rearranges(self, action: Action) -> bool:
        """Whether `action` only rearranges its player's own things (`legal.rearranges`: a Race or
        Class of their own discarded to no effect now, an Item equipped, given or traded), which no
        one makes on a whim and any later moment allows: since rules 6 no window waits for it, and a
        page need not mark its card as of use now. An answer a rule demands (which card to discard)
        is none."""
        if action.seat in self._prompt.seats and isinstance(self._prompt, Before):
            return False
        return legal.rearranges(self, action)

    def apply(self, action: Action) -> None:
        """Apply one action; an illegal one raises IllegalAction and changes nothing."""
        if self.over:
            raise IllegalAction("the game is over")
        if (
            type(action) is Action
            and type(action.seat) is int
            and type(action.card) is int
            and type(action.target) is int
            and type(action.monster) is int
            and type(action.n) is int
            and type(action.cards) is tuple
            and (not action.cards or all(type(c) is int for c in action.cards))
            and self._cache_version == self.version
            and action in self._legal_cache.get(action.seat, ())
        ):
            self._apply_unchecked(action)  # listed actions are well-formed and legal
            return
        self._check_shape(action)
        why = self._prompt.verify(self, action)  # the rules that refuse it: no list is made
        if why is not None:
            raise IllegalAction(why)
        self._apply_unchecked(action)

    def _check_shape(self, a: object) -> None:
        """Reject anything that is not a well-formed Action before looking at the rules."""
        if not isinstance(a, Action):
            raise IllegalAction(f"not an action: {a!r}")
        n, players = self.ncards, len(self.players)
        ok = (
            isinstance(a.kind, str)
            and a.kind in A.KINDS
            and type(a.seat) is int
            and 0 <= a.seat < players
            and type(a.card) is int
            and -1 <= a.card < n
            and type(a.target) is int
            and -1 <= a.target < players
            and type(a.monster) is int
            and -1 <= a.monster < n
            and isinstance(a.cards, tuple)
            and all(type(c) is int and 0 <= c < n for c in a.cards)
            and type(a.n) is int
            and isinstance(a.flag, str)
        )
        if not ok:
            raise IllegalAction(f"malformed action {a!r}")

    def _apply_unchecked(self, action: Action) -> None:
        prompt = self._prompt
        if vocabulary.seen is not None and action.card >= 0 and action.kind in (A.PLAY, A.EQUIP, A.GIVE):
            vocabulary.note_played(self.cdef[action.card], action.kind, action.flag)
        if action.seat not in prompt.seats:
            any_time = True
        elif type(prompt) in legal.EXTRAS_AT and action.kind != A.PASS:  # an answer, or one of the extras?
            if self._cache_version != self.version or action.seat not in self._legal_cache:
                self.legal_actions(action.seat)  # a replay applies unlisted: list them to tell
            any_time = action in self._any_time_cache.get(action.seat, ())
        else:
            any_time = False
        if action == self.held:  # taken as the engine would have: logged so, and replayed the same
            self.log.append(("forced", action))
        else:
            self.log.append(("act", action))
            self.decisions += 1
        self.held = None
        self.version += 1
        if any_time:  # taken at any time, not as the answer the game waits for: then back to it
            top = self._stack[-1]
            if type(top) is AnyTime and top.at == "answer":  # already back from one: it only hands down
                self._stack.pop()
                prompt = top.waiting  # the decision first interrupted
            self._stack.append(AnyTime(action, prompt))
            self._prompt = self._advance(None)
        elif action.kind == A.PASS and type(prompt) is Window and not self.sidekick_sexes:
            self._prompt = self._pass_in_window(action)
        else:
            self._prompt = self._advance(action)
        self._forced_moves()

    def _pass_in_window(self, action: Action) -> Decision:
        """A pass in a combat window changes nothing on the table, so the answers the other seats
        had before it still hold: the window's next round reuses them instead of listing them again.
        (Without Sidekicks of a sex no step runs between the pass and that round.)"""
        if self._window_version == self.version - 1:
            self._window_version = self.version
        step = self._stack[-1]
        out = getattr(step, step.at)(self, action)
        t = type(out)
        if out is not None and t is not Done and not isinstance(out, Step):
            return out  # type: ignore[return-value]  # the window's next round
        self._window_version = -1  # the window closed and play went on: the table may change
        if t is Done:
            self._stack.pop()
            return self._advance(out.value)  # type: ignore[union-attr]
        if out is not None:
            self._stack.append(out)  # type: ignore[arg-type]
        return self._advance(None)

    def _advance(self, value: Any) -> Decision:
        """Run the flow with `value` (the action taken) until it waits on a decision: the step on top
        of the stack runs; a step it calls goes on top; a finished one hands its value down."""
        stack = self._stack
        while True:
            step = stack[-1]
            out = getattr(step, step.at)(self, value)  # as `Step.resume`, without its call
            t = type(out)
            if t is Done:
                stack.pop()
                value = out.value  # type: ignore[union-attr]
                continue
            if out is not None:  # None: nothing to call, the step goes straight on
                if not isinstance(out, Step):
                    return out  # type: ignore[return-value]  # the game waits on this decision
                stack.append(out)
            value = None

    def _forced_moves(self) -> None:
        """Where one seat has a single legal action there is no choice: take it at once (the decision
        says whether it has exactly one: `Decision.only`)."""
        while len(self._prompt.seats) == 1 and not self.over:
            only = self._prompt.only(self, self._prompt.seats[0])
            if only is None:
                return
            if self.holding:
                self.held = only
                return
            self.log.append(("forced", only))
            self.version += 1
            self._prompt = self._advance(only)

    def hold_forced_moves(self, on: bool) -> None:
        """While on, the engine takes no move by itself (the only legal action of the only seat it
        waits on): a scenario may look between them; each is still logged as forced when taken.
        Turned off, the engine takes the moves it held at once."""
        self.holding = on
        if not on:
            self._forced_moves()

    def play(self, text: str, seat: int | None = None) -> Action:
        """Parse text for a seat (default: the only seat to act) and apply it."""
        if seat is None:
            if len(self._prompt.seats) != 1:
                raise IllegalAction("several players may act now; say which seat")
            seat = self._prompt.seats[0]
        from munchkin.engine.notation import parse

        acts = parse(self, text, seat)
        if len(acts) == 1:
            self.apply(acts[0])
        else:
            self.apply_sequence(acts)
        return acts[0]

    def apply_sequence(self, acts: list[Action]) -> None:
        """Apply several actions as one: all of them, or (on error) none, the game put back as it was."""
        before = self.clone()
        try:
            for a in acts:
                self.apply(a)
        except MunchkinError:
            self.__dict__.clear()
            self.__dict__.update(before.__dict__)
            raise

    def chance_log(self) -> list[tuple[Any, ...]]:
        """The chance outcomes so far, in order, as in the log: ("shuffle", deck, cards),
        ("roll", seat, value), ("pick", seat, card). With the setup they rebuild the game."""
        return chance_entries(self.log, self.forced_at_setup)

    def _replay_chance(self) -> Chance | None:
        """The chance for a replay of this game from its setup: None (the seed) when seeded,
        else its recorded outcomes."""
        return None if self.seeded else RecordedChance(self.chance_log(), then=SystemChance())

    @property
    def rng(self) -> random.Random:
        """The generator behind a seeded or system chance, for callers that compare its state."""
        if isinstance(self.chance, RandomChance):
            return self.chance.rng
        raise AttributeError("this game's chance is a recording, with no generator behind it")

    def text(self, action: Action) -> str:
        """The action in the game's notation as of now ("play Slimy Armor"), as the log and
        `Action`'s parser (`notation.py`) read it: what a person types and a save records."""
        from munchkin.engine.notation import action_text

        return action_text(self, action)

    # ------------------------------------------------------------------ saving
    def log_json(self) -> list[Any]:
        """The log as JSON: each action with its canonical text (as it read when taken),
        and every chance outcome: shuffled orders, die rolls, random picks."""
        return self._log_json(self._as_played()[0])

    def _log_json(self, texts: list[str]) -> list[Any]:
        out: list[Any] = []
        i = 0
        for entry in self.log:
            if entry[0] == "act":
                a: Action = entry[1]
                out.append({"act": texts[i], "seat": a.seat, "raw": list(a)})
                i += 1
            elif entry[0] == "roll":
                out.append({"roll": entry[2], "seat": entry[1]})
            elif entry[0] == "shuffle":
                order = [self.cdef[c].id for c in entry[2]]
                out.append({"shuffle": entry[1], "order": order, "cards": list(entry[2])})
            elif entry[0] == "pick":
                out.append({"pick": self.cdef[entry[2]].id, "seat": entry[1], "card": entry[2]})
        return out

    def _as_played(self, record: bool = False) -> tuple[list[str], dict[str, Any] | None]:
        """Replay from the start to read each action's text in the state it was taken in, and with
        `record` the game's record: its snapshot at the start and each move's change (snapshot.Recorder)."""
        from munchkin.engine.snapshot import Recorder

        g = Game(self.setup, self._replay_chance(), self.rules)
        recorder = Recorder(g) if record else None
        texts = []
        for entry in self.log:
            if entry[0] == "act":
                texts.append(g.text(entry[1]))
                g._apply_unchecked(entry[1])
                if recorder is not None:
                    recorder.move(g)
        return texts, None if recorder is None else recorder.record()

    def to_json(self, record: bool = True) -> str:
        """The save: the setup (sets, names, seed, options), the rules number, the log with every
        chance outcome, which `Game.from_json` replays to the same state, and (with `record`) the record
        of every move's state (snapshot.Recorder), which shows the game as it was played without its
        rules. A determinized copy has none."""
        if self.hypothetical:
            raise MunchkinError("a determinized copy is a hypothesis, not a game that was played: it has no save")
        setup = asdict(self.setup)
        setup["card_versions"] = dict(self.card_versions)  # the cards it was played with
        if setup["origin"] is None:  # dealt from the built-in sets: the save as it always was
            del setup["origin"]
        texts, moves = self._as_played(record=record)
        save = {
            "format": "munchkin-game/1",
            "rules": self.rules,
            "setup": setup,
            "log": self._log_json(texts),
            "state": self.fingerprint(),
        }
        if moves is not None:
            save["record"] = moves
        return json.dumps(save)

    @staticmethod
    def setup_from_json(data: dict[str, Any]) -> Setup:
        s = dict(data["setup"])
        s["options"] = Options(**s.get("options", {}))
        if "card_versions" not in s:  # saved before sets had versions: the first cards of every set
            s["card_versions"] = {name: 1 for name in s.get("sets", [])}
        return Setup(**s)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Load a saved game by replaying its log; checks every action, every chance
        outcome and the final state against the save. A save without a seed replays the
        chance outcomes it recorded (each checked to fit); one with a seed, from the seed."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MunchkinError(f"not a saved game: invalid JSON ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != "munchkin-game/1":
            raise MunchkinError("not a saved Munchkin game (format munchkin-game/1)")
        missing = _missing_in_save(data)
        if missing:
            raise MunchkinError(missing)
        recorded: RecordedChance | None = None
        try:
            setup = cls.setup_from_json(data)
            saved = list(data["log"])
            if setup.seed is None:
                recorded = RecordedChance(_saved_chance(setup, saved), then=SystemChance())
            rules = data.get("rules", 1)
            if not isinstance(rules, int) or not 1 <= rules <= RULES:
                raise MunchkinError(f"the save's rules are {rules!r}; this engine plays rules 1 to {RULES}")
            g = cls(setup, recorded, max(rules, 2))  # rules 1 replays as 2, with the passes it never said
        except (KeyError, TypeError, ValueError) as exc:
            raise MunchkinError(f"the save's setup is broken: {exc}") from None
        added: set[int] = set()  # log positions of the passes a save of older rules never had to say
        for i, entry in enumerate(saved):
            if not isinstance(entry, dict) or "act" not in entry:
                continue
            if "raw" not in entry:
                raise MunchkinError(f"log entry {i} ({entry.get('act')!r}) has no 'raw': the action's fields to replay")
            try:
                raw = list(entry["raw"])
                raw[5] = tuple(raw[5])  # JSON gives a list for the card tuple
                added |= g.apply_stored(Action(*raw), rules)
            except (MunchkinError, KeyError, TypeError, ValueError, IndexError) as exc:
                raise MunchkinError(f"log entry {i} ({entry.get('act')!r}) does not replay: {exc}") from None
        if recorded is not None and recorded.remaining:
            raise MunchkinError(f"the save records {recorded.remaining} chance outcomes that the game never used")
        replayed = json.loads(json.dumps(g.log_json()))
        if added:  # leave out the passes added for older rules: the rest must be the save's own log
            at = [i for i, e in enumerate(g.log) if e[0] in ("act", "roll", "shuffle", "pick")]  # as log_json
            replayed = [e for e, i in zip(replayed, at, strict=True) if i not in added]
        if len(replayed) != len(saved) or not all(map(_same_entry, replayed, saved)):
            n = next(
                (i for i, (x, y) in enumerate(zip(replayed, saved, strict=False)) if not _same_entry(x, y)),
                min(len(replayed), len(saved)),
            )
            raise MunchkinError(f"the replayed game differs from the save at log entry {n}")
        if "record" in data:  # each move's state, to show the game without its rules: one per move
            from munchkin.engine.snapshot import record_problem

            problem = record_problem(data["record"])
            moves = sum(1 for e in g.log if e[0] == "act")
            if problem is None and len(data["record"]["moves"]) != moves:
                problem = f"the save's record has {len(data['record']['moves'])} moves, its log {moves}"
            if problem:
                raise MunchkinError(problem)
        if recorded is not None:
            g.chance = recorded.then  # played through: the game goes on with fresh chance
        if "state" in data and g.fingerprint() != data["state"]:
            raise MunchkinError("the replayed game differs from the saved state")
        return g

    def apply_stored(self, action: Action, rules: int = RULES) -> set[int]:
        """Apply an action stored under `rules`. Under rules 1 (before any-time actions) the window
        before the next turn skipped a player who could only unequip, where it now asks them: such a
        player passes first, as they did then by not being asked. Returns the log positions of the
        passes so added (none under today's rules)."""
        if rules >= 2:
            self.apply(action)
            return set()
        added: set[int] = set()
        while True:
            try:
                self.apply(action)
                return added
            except IllegalAction:
                pr = self._prompt
                if pr.kind != END_WINDOW or len(added) >= len(self.players):
                    raise
                added.add(len(self.log))
                self.apply(Action(A.PASS, pr.seats[0]))

    @classmethod
    def from_log(cls, setup: Setup, log: Iterable[tuple[Any, ...]], rules: int = RULES) -> Game:
        """Rebuild a game from its setup and log (a game without a seed from the log's chance),
        under the rules it was played with."""
        log = list(log)
        chance = None
        if setup.seed is None:
            chance = RecordedChance(chance_entries(log, _forced_rolls(setup)), then=SystemChance())
        g = cls(setup, chance, rules)
        for entry in log:
            if entry[0] == "act":
                g._apply_unchecked(entry[1])
        return g

    def fingerprint(self) -> str:
        """A digest of the table (decks, piles, every hand and what each player has in play, the
        decision's kind and seats), hidden parts included: what a save records to check its
        replay. It leaves out the fight, the flow and the log; `state_digest` covers everything."""
        import hashlib

        parts: list[Any] = [
            self.turn,
            self.active,
            self.over,
            self.winners,
            self.door_deck,
            self.treasure_deck,
            self.door_discard,
            self.treasure_discard,
            self.set_aside,
            self._prompt.kind,
            list(self._prompt.seats),
        ]
        for p in self.players:
            parts.append(
                [
                    p.level,
                    p.sex,
                    p.hand,
                    p.races,
                    p.classes,
                    p.items,
                    sorted(p.equipped),
                    p.sidekicks,
                    sorted(p.carried.items()),
                    sorted(p.enhancers.items()),
                    sorted(p.swapped),
                    *_cheats_print(p),
                    p.curses,
                    p.dead,
                    p.half_breed,
                    p.super_munchkin,
                    *([p.house, p.roles, p.dual_role, p.proficiencies] if self.houses else []),
                ]
            )
        return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:16]

    def state_digest(self, history: bool = True) -> str:
        """A digest of the whole state (the flow, the fight, chance and the log included, the caches
        of listed actions left out): equal digests mean the same game (see `engine.digest`). Without
        `history`, the log and the events count by their lengths only (for a caller comparing them)."""
        from munchkin.engine.digest import state_digest

        return state_digest(self, history)

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None, moves: bool = True) -> dict[str, Any]:
        """All that one seat may know: its hand, the table, the discards; no deck order.
        `None` is a spectator: public information only. With `moves` False, the seat's legal actions
        are left out (`legal` and `any_time` empty), for a caller that lists them itself."""
        from munchkin.engine.view import seat_view

        return seat_view(self, seat, moves)


# How `clone` copies each attribute of a game; tests check that every attribute is named here.
CLONE_SHARED = frozenset(
    {
        # fixed at setup: the cards, the options, what the sets hold
        *(
            "setup",
            "options",
            "card_versions",
            "defs",
            "cdef",
            "ncards",
            "twins",
            "houses",
            "abilities_granted",
            "phase_words",
            "listen_variant",
            "cards_by_name",
        ),
        *("sidekicks_discardable", "has_races", "has_classes", "sidekick_sexes", "allies", "item_grants"),
        *("extra_big_cards", "seeded", "forced_at_setup", "hypothetical", "holding", "held", "rules"),
        # plain values
        *("turn", "active", "over", "capped", "version", "decisions", "phase", "transferred"),
        *("_cache_version", "_window_version"),
        # the sales and trades listed, keyed by everything they depend on (the Items, Races, Classes,
        # Levels they read): right for any copy, so every copy shares them (copying them was most of a clone)
        *("_sale_cache", "_exchange_cache"),
        # decisions, never changed once made (see decisions.py)
        *("_prompt", "listing"),
    }
)
CLONE_COPIED = (  # lists and dicts of plain values (card numbers, log entries, cached action lists): one level
    *("door_deck", "treasure_deck", "door_discard", "treasure_discard", "limbo", "set_aside", "forced_rolls"),
    *("winners", "log", "events", "charity_given", "hand_seen"),
    *("_legal_cache", "_any_time_cache", "_window_cache"),
)
_CACHES = ("_legal_cache", "_any_time_cache", "_window_cache")  # of this version: each copy its own
_COPIED_PLAIN = tuple(k for k in CLONE_COPIED if k != "log" and k not in _CACHES)
CLONE_REBUILT = frozenset({"players", "combat", "chance", "_stack", "roll", "_win_cache", "_masked_events"})


SAVE_PARTS = {  # what a save must hold to replay, each in words for the message naming what is missing
    "setup": "the card sets, the players and the seed the game was dealt with",
    "log": "the list of actions and chance outcomes of the game",
}
SETUP_PARTS = {"sets": "the card sets in play", "players": "the players' names", "seed": "the seed, or null"}


def _missing_in_save(data: dict[str, Any]) -> str | None:
    """What a save lacks or holds in the wrong shape, in words ("the save has no setup: ..."), or None."""
    for key, what in SAVE_PARTS.items():
        if key not in data:
            return f"the save has no {key}: it needs {what}"
    setup, log = data["setup"], data["log"]
    if not isinstance(setup, dict):
        return f"the save's setup is not a mapping of {', '.join(SETUP_PARTS)} but {type(setup).__name__}"
    for key, what in SETUP_PARTS.items():
        if key not in setup:
            return f"the save's setup has no {key}: it needs {what}"
    unknown = sorted(set(setup) - {f.name for f in fields(Setup)})
    if unknown:
        return f"the save's setup has unknown keys {unknown}"
    options = setup.get("options", {})
    if not isinstance(options, dict):
        return "the save's setup options are not a mapping"
    unknown = sorted(set(options) - {f.name for f in fields(Options)})
    if unknown:
        return f"the save's setup options have unknown keys {unknown}"
    if not isinstance(log, list):
        return f"the save's log is not a list but {type(log).__name__}"
    return None


def save_problem(data: Any) -> str | None:
    """Why parsed JSON is not a `munchkin-game/1` save that `Game.from_json` could replay, in words, or
    None. Cheap, since nothing is replayed, so a server can check a stored save before serving it."""
    if not isinstance(data, dict) or data.get("format") != "munchkin-game/1":
        return "not a saved Munchkin game (format munchkin-game/1)"
    missing = _missing_in_save(data)
    if missing:
        return missing
    setup, log = data["setup"], data["log"]
    if not isinstance(setup["sets"], list) or not all(isinstance(s, str) for s in setup["sets"]):
        return "the save's setup sets are not a list of set names"
    if not isinstance(setup["players"], list) or not all(isinstance(p, str) for p in setup["players"]):
        return "the save's setup players are not a list of names"
    if setup["seed"] is not None and type(setup["seed"]) is not int:
        return "the save's setup seed is neither a whole number nor null"
    if not isinstance(setup.get("origin") or {}, dict):
        return "the save's setup origin is not a mapping"
    rules = data.get("rules", 1)
    if type(rules) is not int or not 1 <= rules <= RULES:
        return f"the save's rules are not a whole number from 1 to {RULES}"
    if "state" in data and not isinstance(data["state"], str):
        return "the save's state is not a fingerprint string"
    for i, entry in enumerate(log):
        if not isinstance(entry, dict):
            return f"log entry {i} is not a mapping"
        raw = entry.get("raw")
        if "act" in entry and not (
            isinstance(raw, list) and 6 <= len(raw) <= len(Action._fields) and isinstance(raw[5], list)
        ):
            return f"log entry {i} has no 'raw' list of the action's fields"
    try:
        s = Game.setup_from_json(data)
        if s.seed is None:
            _saved_chance(s, log)
    except (MunchkinError, KeyError, TypeError, ValueError) as exc:
        return f"the save's setup is broken: {exc}"
    return None


def _same_entry(replayed: Any, saved: Any) -> bool:
    """A replayed log entry matches a saved one on the keys the saved one has (saves written
    before card numbers were recorded have fewer keys), its kind included."""
    if not isinstance(saved, dict) or not isinstance(replayed, dict) or not replayed:
        return replayed == saved
    if next(iter(replayed)) not in saved:
        return False
    return all(k in replayed and replayed[k] == v for k, v in saved.items())


def _saved_chance(setup: Setup, saved: list[Any]) -> list[tuple[Any, ...]]:
    """The chance outcomes a save without a seed recorded, in the log's own shape."""
    if not setup.sexes:
        raise MunchkinError("a save without a seed must name every player's sex in its setup")
    if build_houses(list(setup.sets)) and not (setup.houses and all(setup.houses)):
        raise MunchkinError("a save without a seed must name every player's House in its setup")
    out: list[tuple[Any, ...]] = []
    for i, e in enumerate(saved):
        if not isinstance(e, dict):
            continue
        try:
            if "shuffle" in e:
                out.append(("shuffle", e["shuffle"], e["cards"]))
            elif "roll" in e:
                out.append(("roll", e["seat"], e["roll"]))
            elif "pick" in e:
                out.append(("pick", e["seat"], e["card"]))
        except KeyError as exc:
            raise MunchkinError(f"log entry {i} lacks {exc}, which a save without a seed needs") from None
    return chance_entries(out, _forced_rolls(setup))


def _forced_rolls(setup: Setup) -> int:
    """How many rolls a setup's scenario forces (the game's first rolls)."""
    rolls = (setup.scenario or {}).get("rolls", []) if isinstance(setup.scenario, dict) else []
    return len(rolls) if isinstance(rolls, list) else 0


def _cheats_print(p: Player) -> list[Any]:
    """A player's Cheat! cards for the fingerprint: one (or none) as the card and its Item, as
    fingerprints had them when a player could hold only one; several as sorted pairs."""
    if len(p.cheats) > 1:
        return [sorted(p.cheats.items())]
    item, card = next(iter(p.cheats.items()), (-1, -1))
    return [card, item]
