"""The observation of one seat as a fixed-length vector (issue 36): its own hand and table by card
definition, every player's public table, Levels, the fight's numbers, deck and discard sizes, and the
seats relative to it. Read from what `Game.view(seat)` shows alone (as numbers: `engine.view.seat_numbers`),
so it holds nothing the seat may not know.

CONTRACT (shared by the `rlobs` and `rlenv` helpers; keep these names and signatures):

    class Encoder:
        def __init__(self, sets: Sequence[str], players: int) -> None
            # `sets` as Setup.sets (one set or a mix), 3 <= players <= 6
        size: int                       # length of every vector this encoder makes
        definitions: list[str]          # the card definitions' ids, in feature order (identity: CardDef.idx)
        def encode(self, game: Game, seat: int) -> numpy.ndarray   # float32, shape (size,)
            # reads ONLY what game.view(seat) shows (engine.view.seat_numbers, the same public fields as
            # numbers) plus the static card table (physical card -> definition), never
            # another seat's hand, the decks' order or the RNG
        def layout(self) -> list[tuple[str, int, int]]             # (block name, start, length), for docs/rl.md

The environment appends its own features (the decision kind, the sub-choice stage) after these.

Besides the contract: `encode_view(view)` encodes a view already made (`encode` equals `game.view(seat)`
then `encode_view`, made from `seat_numbers` by `encode_numbers` at a fraction of the cost), `high`
bounds every value (all lie in [0, high]), `scalar_names(block)` names the features of a scalar block,
and `BLOCK_DOCS` says what each block holds and how it is scaled (docs/rl.md).

Seats are relative: seat block `seat0` is the observer, `seat1` the player on its left (the next to
play), and so on. A card block holds one count per card definition (cards of the same name and kind
across the sets of a mix are one definition, as `CardDef.idx` has it).
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from collections.abc import Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from munchkin.engine import decisions as D
from munchkin.engine.actions import MunchkinError
from munchkin.engine.cards import build_houses, build_table, card_version
from munchkin.engine.rules import MAX_PLAYERS, MIN_PLAYERS
from munchkin.engine.view import CombatNumbers, PlayerNumbers, SeatNumbers, seat_numbers

if TYPE_CHECKING:
    from munchkin.engine.game import Game


def _prompt_kinds() -> tuple[str, ...]:
    """Every decision kind the engine waits on (`engine.decisions`), in the order the module defines them."""
    out: list[str] = []
    todo: list[type[D.Decision]] = [D.Decision]
    while todo:
        cls = todo.pop(0)
        if cls.kind and cls.kind not in out:
            out.append(cls.kind)
        todo.extend(cls.__subclasses__())
    return tuple(out)


PROMPT_KINDS = _prompt_kinds()  # over, main, drawn, window, losing, help, curse_window, run, rolled, ...
PHASES = ("setup", "listen", "start", "kick", "door", "after", "charity", "end")  # `Game.phase` (engine/turn.py)
STAGES = tuple(D.Main.STAGES)  # the stages of the active player's own turn: create, start, door, after
OFFER_ACTIONS = ("give", "trade", "ask", "volunteer")  # what a help call or an offer awaiting an answer is

# Each seat's scalars; `house:<name>` features follow, one per House of the sets (Harry Potter).
SEAT_SCALARS = (
    "level",  # Level / 10
    "hand_size",  # cards in hand / 10
    "hand_limit",  # hand limit / 10
    "female",  # 1 for a female character
    "dead",
    "active",  # 1 for the player whose turn it is
    "to_act",  # 1 when the game waits on this seat
    "winner",
    "half_breed",
    "super_munchkin",
    "dual_role",
    "sex_changed",
    "barred_help",  # may not help until the end of their next turn
    "barred_double_sale",
    "rank_total",  # total proficiency rank / 10 (Harry Potter)
    "equipped_bonus",  # bonuses of the equipped Items they may use / 10
    "unusable_equipped",  # equipped Items they may not use (count)
    "cheats",  # Cheat! cards on their Items and Sidekicks (count)
    "sidekick_loads",  # Items their Sidekicks carry (count)
    "fighter",  # 1 for the player fighting now
    "helper",  # 1 for the player helping now
    "strength",  # combat strength in the fight / 20 (0 out of it)
)
GAME_SCALARS = (
    "over",
    "capped",  # the turn cap ended the game
    "turn",  # turn number / 100, at most 5
    "door_deck",  # cards left in the Door deck / Door cards in the game
    "treasure_deck",  # the same for Treasures
    "door_discard",  # Door discards / Door cards in the game
    "treasure_discard",
)
COMBAT_SCALARS = (
    "in_combat",
    "monsters",  # monsters in the fight / 4
    "mates",  # of them Mates / 4
    "side_strength",  # the fighters' side / 20
    "monster_strength",  # all monsters together / 20
    "winning",  # the fighters win as things stand
    "treasures",  # Treasures the monsters carry / 10
    "doppleganger",  # a Doppleganger doubles the fighter's side
)
MOMENT_SCALARS = ("die", "total", "escapes", "treasures_offered", "all_treasures")  # die/6, total/10, count/5
MOMENT_SEATS = ("victim", "runner", "dead", "asker")  # relative one-hots: a Curse's victim, ...

# What each block holds and how it is scaled (docs/rl.md reads it; `{r}` a relative seat).
BLOCK_DOCS: dict[str, str] = {
    "hand": "own hand: count per card definition",
    "seat{r}.equipped": "equipped Items, count per definition",
    "seat{r}.carried": "Items in play but not equipped (carried), count per definition",
    "seat{r}.character": "Races, Classes, Roles and Proficiencies in play",
    "seat{r}.sidekicks": "Sidekicks and Hirelings in play",
    "seat{r}.curses": "Curses kept in play",
    "seat{r}.item_enhancers": "Item Enhancers in play",
    "discards": "both discard piles (a definition belongs to one deck), count per definition",
    "fight.monsters": "monsters in the fight, count per definition (a Mate counts as its monster)",
    "fight.monster_cards": "Enhancers and one-shots played on the monsters, by definition",
    "fight.side_cards": "one-shots played for the fighters' side, by definition",
    "moment.card": "the card of the moment: a Door drawn face-up to this seat, a Curse about to strike, "
    "the monster run from, the card offering a choice",
    "moment.offered": "the cards an offer awaiting an answer gives, or a call for help offers",
    "moment.asked": "the cards a trade awaiting an answer asks in return",
    "seat{r}": "the seat's scalars (see SEAT_SCALARS): Level/10, hand size/10, hand limit/10, flags, "
    "equipped bonus/10, combat strength/20, House one-hot",
    "game": "over, capped, turn/100 (at most 5), deck and discard sizes as fractions of the deck",
    "phase": "one-hot of the turn's phase (PHASES)",
    "prompt": "one-hot of the decision the engine waits on (PROMPT_KINDS, from engine.decisions)",
    "stage": "one-hot of the stage of the active player's own turn (a `main` decision)",
    "combat": "the fight's numbers: strengths/20, monsters/4, Treasures/10, winning",
    "fight.fighters": "relative one-hot of the fighter's seat, then of the helper's",
    "moment": "Run Away die/6 and total/10, escapes, Treasures offered for help/5, all offered",
    "moment.seats": "relative one-hots: a Curse's victim, the runner, the dead player, who asks or offers",
    "moment.action": "one-hot of what awaits an answer: give, trade, ask (for help), volunteer",
}

SEAT_CARD_ZONES = ("equipped", "carried", "character", "sidekicks", "curses", "item_enhancers")

_STRENGTH = 20.0
_MAX = 5.0  # the largest a scaled scalar may get (a Level of 50, a strength of 100 are clipped to it)


class Encoder:
    """One seat's view of a game as a float32 vector of a size fixed by the sets and the player count.
    Index maps are built once here, so `encode` only adds up what the view lists. `encode` keeps, for
    each seat, its last vector and the cards and numbers it was made from (checked by content, not by
    game: any game of these sets may be encoded in any order)."""

    def __init__(self, sets: Sequence[str], players: int) -> None:
        if isinstance(sets, str) or not sets:
            raise MunchkinError(f"sets must be a list of card set names, got {sets!r}")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise MunchkinError(f"Munchkin needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")
        self.sets = tuple(sets)
        self.players = players
        self.versions = {s: card_version(s) for s in self.sets}
        defs, physical = build_table(list(self.sets), self.versions)
        idxs = sorted({d.idx for d in defs})
        feat_of_idx = {i: f for f, i in enumerate(idxs)}
        self.definitions: list[str] = [defs[i].id for i in idxs]
        self.ndefs = nd = len(idxs)
        self._card: list[int] = [feat_of_idx[defs[p].idx] for p in physical]  # physical card -> feature
        self._name: dict[str, int] = {defs[i].name.lower(): f for f, i in enumerate(idxs)}
        names = sorted(self._name, key=len, reverse=True)  # the longest first: "Orcs" inside "3,872 Orcs"
        self._names_re = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, names)) + r")(?!\w)", re.IGNORECASE)
        self.decks = {deck: sum(defs[p].deck == deck for p in physical) for deck in ("door", "treasure")}
        self.houses = sorted(build_houses(list(self.sets)))
        copies = Counter(self._card)
        # every value lies in [0, high]: a scaled scalar is clipped to _MAX; a card count is at most the
        # copies of a definition, twice in a fight (a monster and its Mate)
        self.high = max(_MAX, 2.0 * max(copies.values()))

        blocks: list[tuple[str, int]] = [("hand", nd)]
        blocks += [(f"seat{r}.{z}", nd) for r in range(players) for z in SEAT_CARD_ZONES]
        blocks += [(b, nd) for b in ("discards", "fight.monsters", "fight.monster_cards", "fight.side_cards")]
        blocks += [(b, nd) for b in ("moment.card", "moment.offered", "moment.asked")]
        self._seat_scalars = [*SEAT_SCALARS, *(f"house:{h}" for h in self.houses)]
        blocks += [(f"seat{r}", len(self._seat_scalars)) for r in range(players)]
        blocks += [("game", len(GAME_SCALARS)), ("phase", len(PHASES)), ("prompt", len(PROMPT_KINDS))]
        blocks += [("stage", len(STAGES)), ("combat", len(COMBAT_SCALARS)), ("fight.fighters", 2 * players)]
        blocks += [("moment", len(MOMENT_SCALARS)), ("moment.seats", len(MOMENT_SEATS) * players)]
        blocks += [("moment.action", len(OFFER_ACTIONS))]
        self._layout: list[tuple[str, int, int]] = []
        start = 0
        for name, n in blocks:
            self._layout.append((name, start, n))
            start += n
        self.size: int = start
        at = {name: s for name, s, _ in self._layout}
        self._at = at
        self._s0 = at["seat0"]  # the scalar blocks, from here to the end
        # each card block's table: physical card -> position in the vector (counts are gathered as
        # positions, by `map` over the view's cards, which costs less than a loop a card)
        self._tab = {name: [s + f for f in self._card] for name, s, n in self._layout if n == nd}
        # by relative seat: its card zones' tables, where its scalars start
        self._zones = [[self._tab[f"seat{r}.{z}"] for z in SEAT_CARD_ZONES] for r in range(players)]
        self._seat = [at[f"seat{r}"] for r in range(players)]
        self._house = {h: len(SEAT_SCALARS) + i for i, h in enumerate(self.houses)}
        self._phase = {p: at["phase"] + i for i, p in enumerate(PHASES)}
        self._prompt = {k: at["prompt"] + i for i, k in enumerate(PROMPT_KINDS)}
        self._stage = {s: at["stage"] + i for i, s in enumerate(STAGES)}
        self._action = {a: at["moment.action"] + i for i, a in enumerate(OFFER_ACTIONS)}
        # the fight's cards as the view names them: physical card -> the feature of its name
        self._named: list[int] = [self._name[defs[p].name.lower()] for p in physical]
        # what `encode` made last for each seat, to redo only the card blocks that changed (_Memo)
        self._memo: dict[int, _Memo] = {}
        self._g0 = at["game"]  # where the scalars after the seats' start
        self._nseat = len(self._seat_scalars)
        # each seat's row of scalars by what it shows (its numbers, whether active, waited on, a winner,
        # fighting): rows recur, a player's numbers changing now and then (kept up to _ROWS_KEPT)
        self._rows: dict[tuple[Any, ...], np.ndarray] = {}
        self._checked: object = None  # the setup of the last game `encode` found to be of these sets
        self._rel = [[(s - me) % players for s in range(players)] for me in range(players)]  # by observer
        self._fight_at = (
            at["fight.monsters"],
            at["fight.monster_cards"],
            at["fight.side_cards"],
            at["combat"] - self._g0,
            at["fight.fighters"] - self._g0,
        )

    # ------------------------------------------------------------------ contract
    def layout(self) -> list[tuple[str, int, int]]:
        """Every block as (name, start, length), in order; they tile the vector."""
        return list(self._layout)

    def scalar_names(self, block: str) -> list[str]:
        """The features of a scalar block, in order (a card block's are `definitions`)."""
        base = block.rstrip("0123456789") if block.startswith("seat") and "." not in block else block
        n = self.players
        named: dict[str, Sequence[str]] = {
            "seat": self._seat_scalars,
            "game": GAME_SCALARS,
            "phase": PHASES,
            "prompt": PROMPT_KINDS,
            "stage": STAGES,
            "combat": COMBAT_SCALARS,
            "fight.fighters": [f"{w}:seat{r}" for w in ("fighter", "helper") for r in range(n)],
            "moment": MOMENT_SCALARS,
            "moment.seats": [f"{w}:seat{r}" for w in MOMENT_SEATS for r in range(n)],
            "moment.action": OFFER_ACTIONS,
        }
        if base not in named:
            raise MunchkinError(f"{block!r} is not a scalar block of this encoding")
        return list(named[base])

    def encode(self, game: Game, seat: int, room: int = 0, copy: bool = True) -> np.ndarray:
        """The vector of what `seat` may know now, equal to `encode_view(game.view(seat))`, made from
        `engine.view.seat_numbers` (the same public fields without the view's dictionaries); `room`:
        that many more places after it, for a caller's own features (the environment's stage).
        Without `copy`, the encoder's own kept vector: the caller may write the room, must change
        nothing before it, and must not keep it past the next `encode` for this seat."""
        if game.setup is not self._checked:  # (a game's setup and cards never change: checked once)
            if tuple(game.setup.sets) != self.sets or game.card_versions != self.versions:
                raise MunchkinError(
                    f"this encoder is for the sets {list(self.sets)} (cards of today), "
                    f"not {list(game.setup.sets)} of versions {game.card_versions}"
                )
            self._checked = game.setup
        if not 0 <= seat < self.players:
            raise MunchkinError(f"seat {seat} is not one of the {self.players} seats")
        return self.encode_numbers(seat_numbers(game, seat), room, copy)

    def encode_numbers(self, view: SeatNumbers, room: int = 0, copy: bool = True) -> np.ndarray:
        """The vector of a seat's view given as numbers (`engine.view.seat_numbers`), equal to
        `encode_view` of the same moment's `Game.view(seat)`, at a fraction of the cost: no
        dictionaries, and the card blocks kept from the seat's last vector where their cards are
        the same (a table changes now and then, the discards only grow between shuffles). The
        scalars (each seat's row, kept while what it shows is unchanged, then the game's) go into the
        vector in one copy; `room` zeros follow it (`copy` as in `encode`)."""
        n = self.players
        players = view.players
        me = view.you
        if len(players) != n or not 0 <= me < n:
            raise MunchkinError(f"this encoder is for a seat of {n} players, not {len(players)} (seat {me})")
        memo = self._memo.get(me)
        if memo is None or len(memo.base) != self.size + room:
            memo = self._memo[me] = _Memo(self.size + room, n)
        base = memo.base  # the vector as last made: its card blocks and seat rows are kept
        cells = memo.cells  # the same, cell by cell (for the counts)
        g0 = self._g0
        rel = self._rel[me]  # absolute seat -> relative
        fight = view.combat
        fought = {s: (i, strength) for i, (s, strength) in enumerate(fight.fighters)} if fight else None

        tab = self._tab
        if view.hand != memo.hand:
            _add(cells, memo.hand_at, -1.0)
            memo.hand = view.hand
            memo.hand_at = list(map(tab["hand"].__getitem__, view.hand))
            _add(cells, memo.hand_at, 1.0)
        active, to_act, winners = view.active, view.to_act, view.winners
        rows = memo.rows
        for s, p in enumerate(players):
            was = rows[s]
            shown = (p, s == active, s in to_act, s in winners, fought.get(s) if fought else None)  # all it shows
            if was == shown:  # most seats, most of the time
                continue
            rows[s] = shown
            r = rel[s]
            cards = p[:6]  # equipped, carried, character, sidekicks, curses, item_enhancers
            if cards != memo.tables[s]:
                _add(cells, memo.tables_at[s], -1.0)
                at: list[int] = []
                for zone, ids in zip(self._zones[r], cards, strict=True):
                    if ids:
                        at.extend(map(zone.__getitem__, ids))
                memo.tables[s], memo.tables_at[s] = cards, at
                _add(cells, at, 1.0)
            shows = (p[6:], *shown[1:])  # the seat's numbers and marks: all its row shows
            row = self._rows.get(shows)
            if row is None:
                if len(self._rows) >= _ROWS_KEPT:
                    self._rows.clear()
                row = self._rows[shows] = np.array(self._seat_row(p, *shown[1:]), np.float32)
            b = self._seat[r]
            base[b : b + self._nseat] = row
        discards = tab["discards"]
        for i, pile in enumerate((view.door_discard, view.treasure_discard)):
            old = memo.piles[i]
            if pile == old:
                continue
            k = len(old)
            if len(pile) > k and pile[:k] == old:  # cards discarded on top: add them
                _add(cells, list(map(discards.__getitem__, pile[k:])), 1.0)
            else:
                _add(cells, list(map(discards.__getitem__, old)), -1.0)
                _add(cells, list(map(discards.__getitem__, pile)), 1.0)
            memo.piles[i] = pile

        # the game: the scalars after the seats' (every block from `game` on), written anew into the
        # vector itself, cell by cell
        base[g0 : self.size] = 0.0
        sc = cells[g0 : self.size]
        door, treasure = self.decks["door"], self.decks["treasure"]
        sc[: len(GAME_SCALARS)] = array(
            "f",
            (
                float(view.over),
                float(view.capped),
                min(view.turn / 100, _MAX),
                view.door_deck / door,
                view.treasure_deck / treasure,
                len(view.door_discard) / door,
                len(view.treasure_discard) / treasure,
            ),
        )
        for table, key in ((self._phase, view.phase), (self._prompt, view.prompt)):
            where = table.get(key)
            if where is None:
                raise MunchkinError(f"the view has a {key!r} this encoding does not know: a new phase or decision?")
            sc[where - g0] = 1.0
        cnt: list[int] = []  # the fight's and the moment's cards: few, and counted anew each time
        moment = view.moment
        if "stage" in moment:  # a `main` decision: its stage is all the moment holds
            sc[self._stage[moment["stage"]] - g0] = 1.0
        elif moment:
            self._moment_numbers(moment, rel, cnt, sc)
        if fight is not None:
            self._fight_numbers(fight, rel, cnt, sc)
        if cnt != memo.moment_at:
            _add(cells, memo.moment_at, -1.0)
            _add(cells, cnt, 1.0)
            memo.moment_at = cnt
        if room:
            base[self.size :] = 0.0  # (a caller given the kept vector may have written its room)
        return base.copy() if copy else base

    def _seat_row(
        self, p: PlayerNumbers, active: bool, to_act: bool, winner: bool, fought: tuple[int, int] | None
    ) -> list[float]:
        """A seat's scalars (`SEAT_SCALARS` and the House one-hot) as `encode_view` has them; `fought`:
        (0 the fighter or 1 the helper, combat strength) in a fight."""
        barred = p.barred
        row = [
            min(p.level / 10, _MAX),
            min(p.hand_size / 10, _MAX),
            min(p.hand_limit / 10, _MAX),
            float(p.sex == "female"),
            float(p.dead),
            float(active),
            float(to_act),
            float(winner),
            float(p.half_breed),
            float(p.super_munchkin),
            float(p.dual_role),
            float(p.sex_changed),
            float("help" in barred),
            float("double_sale" in barred),
            min(p.rank_total / 10, _MAX),
            min(max(p.equipped_bonus, 0) / 10, _MAX),
            min(p.unusable, _MAX),
            min(p.cheats, _MAX),
            min(p.sidekick_loads, _MAX),
            0.0,  # fighter, helper and strength: set by the fight
            0.0,
            0.0,
        ] + [0.0] * len(self.houses)
        if p.house:
            row[self._house[p.house.lower()]] = 1.0
        if fought is not None:
            row[_FIGHTER_AT if fought[0] == 0 else _HELPER_AT] = 1.0
            row[_STRENGTH_AT] = min(max(fought[1], 0) / _STRENGTH, _MAX)
        return row

    def _moment_seats(self, moment: dict[str, Any], rel: list[int], sc: Any, origin: int) -> None:
        """The moment's seats (relative one-hots) and a Run Away roll, into `sc`, the scalars from
        `origin` on: the same from the view's moment and from its numbers."""
        at, n = self._at, self.players
        b = at["moment.seats"] - origin
        for i, key in enumerate(MOMENT_SEATS):
            s = moment.get("seat" if key == "asker" else key)
            if s is not None:
                sc[b + i * n + rel[s]] = 1.0
        if "die" in moment:
            b = at["moment"] - origin
            sc[b] = moment["die"] / 6
            sc[b + 1] = min(max(moment["total"], 0) / 10, _MAX)
            sc[b + 2] = moment["escapes"]

    def _moment_numbers(self, moment: dict[str, Any], rel: list[int], cnt: list[int], sc: memoryview[float]) -> None:
        """The moment as `_moment` reads it from `engine.view.moment`, from `moment_numbers`: a card
        by its number, an offer's cards from its action (`deal`) by the feature of their names."""
        at, g0 = self._at, self._g0
        c = moment.get("card")
        if c is None:
            c = moment.get("monster")
        if c is not None:
            cnt.append(at["moment.card"] + self._card[c])
        self._moment_seats(moment, rel, sc, g0)
        b = at["moment"] - g0
        deal = moment.get("deal")
        if deal is None:
            return
        where = self._action.get(deal.kind)
        if where is not None:
            sc[where - g0] = 1.0
        named = self._named
        if deal.kind == "ask":  # the cards offered, then some or all of the Treasures
            offered: Sequence[int] = deal.cards
            asked: Sequence[int] = ()
            if deal.n:
                if deal.flag == "all":
                    sc[b + 4] = 1.0
                else:
                    sc[b + 3] = min(deal.n / 5, _MAX)
        elif deal.kind == "trade":  # its card for the other's cards
            offered, asked = (deal.card,), deal.cards
        elif deal.kind == "give":
            offered, asked = (deal.card,), ()
        else:
            return
        base = at["moment.offered"]
        cnt.extend(base + named[k] for k in offered)
        base = at["moment.asked"]
        cnt.extend(base + named[k] for k in asked)

    def _fight_numbers(self, fight: CombatNumbers, rel: list[int], cnt: list[int], sc: memoryview[float]) -> None:
        """The fight as `_fight` reads it from the combat breakdown, from its numbers: cards by the
        feature of their name (as the breakdown names them), seats relative."""
        named = self._named
        mon, on_mon, side, b, fb = self._fight_at  # where its blocks start (scalars: from `game` on)
        mates = treasures = 0
        own: set[int] = set()  # the monsters' own bonuses bear their names: left out, as in `_fight`
        monsters = fight.monsters
        for card, mate, _, t in monsters:
            mates += mate
            f0 = named[card]
            own.add(f0)
            cnt.append(mon + f0)
            treasures += t
        for _, _, played, _ in monsters:
            for k in played:
                f = named[k]
                if f not in own:
                    cnt.append(on_mon + f)
        for k in fight.one_shots:
            f = named[k]
            if f not in own:
                cnt.append(side + f)
        sc[b : b + _NCOMBAT] = array(
            "f",
            (  # COMBAT_SCALARS
                1.0,
                min(len(monsters) / 4, _MAX),
                min(mates / 4, _MAX),
                min(max(fight.side_strength, 0) / _STRENGTH, _MAX),
                min(max(fight.monster_strength, 0) / _STRENGTH, _MAX),
                float(fight.fighters_winning),
                min(treasures / 10, _MAX),
                float(fight.doppleganger),
            ),
        )
        n = self.players
        for i, (s, _) in enumerate(fight.fighters):  # the fighter, then the helper (their rows: `_seat_row`)
            sc[fb + i * n + rel[s]] = 1.0

    # ------------------------------------------------------------------ the work
    def encode_view(self, view: dict[str, Any]) -> np.ndarray:
        """The vector of a seat's view (`Game.view(seat)`, a seat's own, not a spectator's). Card counts
        are gathered as positions and added up at once; the scalars, which come after every card block,
        are written into a plain list copied in one go (numpy's per-call cost dominates otherwise)."""
        n = self.players
        players = view["players"]
        me = view["you"]
        if len(players) != n or me is None:
            raise MunchkinError(f"this encoder is for a seat of {n} players, not {len(players)} (seat {me})")
        at = self._at
        s0 = self._s0
        cnt: list[int] = []  # positions to add 1 to (card counts)
        sc = [0.0] * (self.size - s0)  # the scalars (every block from `seat0` on)
        rel = [(s - me) % n for s in range(n)]  # absolute seat -> relative

        tab = self._tab
        ext = cnt.extend
        ext(map(tab["hand"].__getitem__, map(_ID, view["hand"])))
        active, to_act, winners = view["active"], view["to_act"], view["winners"]
        for s, p in enumerate(players):
            r = rel[s]
            eq, ca, ch, sk, cu, ie = self._zones[r]
            unusable = bonus = 0
            if p["equipped"]:
                ext(map(eq.__getitem__, map(_ID, p["equipped"])))
                for c in p["equipped"]:
                    if c["usable"]:
                        bonus += c["bonus"]
                    else:
                        unusable += 1
            if p["carried"]:
                ext(map(ca.__getitem__, map(_ID, p["carried"])))
            for key in ("races", "classes", "roles", "proficiencies"):
                if p[key]:
                    ext(map(ch.__getitem__, map(_ID, p[key])))
            loads = 0
            if p["sidekicks"]:
                ext(map(sk.__getitem__, map(_ID, p["sidekicks"])))
                loads = sum(c["carrying"] is not None for c in p["sidekicks"])
            if p["curses"]:
                ext(map(cu.__getitem__, map(_ID, p["curses"])))
            if p["item_enhancers"]:
                ext(map(ie.__getitem__, map(_ID, p["item_enhancers"])))
            b = self._seat[r] - s0
            barred = p["barred"]
            sc[b : b + _NSEAT] = (
                min(p["level"] / 10, _MAX),
                min(p["hand_size"] / 10, _MAX),
                min(p["hand_limit"] / 10, _MAX),
                p["sex"] == "female",
                p["dead"],
                s == active,
                s in to_act,
                s in winners,
                p["half_breed"],
                p["super_munchkin"],
                p["dual_role"],
                p["sex_changed"],
                "help" in barred,
                "double_sale" in barred,
                min(p["rank_total"] / 10, _MAX),
                min(max(bonus, 0) / 10, _MAX),
                min(unusable, _MAX),
                min(len(p["cheats"]), _MAX),
                min(loads, _MAX),
                0.0,  # fighter, helper and strength: set by the fight
                0.0,
                0.0,
            )
            if p["house"]:
                sc[b + self._house[p["house"].lower()]] = 1.0
        discards = tab["discards"].__getitem__
        ext(map(discards, map(_ID, view["door_discard"])))
        ext(map(discards, map(_ID, view["treasure_discard"])))

        # the game
        b = at["game"] - s0
        door, treasure = self.decks["door"], self.decks["treasure"]
        sc[b : b + len(GAME_SCALARS)] = (
            view["over"],
            view["capped"],
            min(view["turn"] / 100, _MAX),
            view["door_deck"] / door,
            view["treasure_deck"] / treasure,
            len(view["door_discard"]) / door,
            len(view["treasure_discard"]) / treasure,
        )
        for table, key in ((self._phase, view["phase"]), (self._prompt, view["prompt"])):
            where = table.get(key)
            if where is None:
                raise MunchkinError(f"the view has a {key!r} this encoding does not know: a new phase or decision?")
            sc[where - s0] = 1.0
        moment = view["moment"]
        if "stage" in moment:  # a `main` decision: its stage is all the moment holds
            sc[self._stage[moment["stage"]] - s0] = 1.0
        elif moment:
            self._moment(moment, rel, [p["name"] for p in players], cnt, sc)
        fight = view["combat"]
        if fight:
            self._fight(fight, {p["name"]: rel[s] for s, p in enumerate(players)}, cnt, sc)

        v = np.bincount(cnt, minlength=self.size).astype(np.float32) if cnt else np.zeros(self.size, np.float32)
        v[s0:] = sc
        return v

    def _fight(self, fight: dict[str, Any], seat_of: dict[str, int], cnt: list[int], sc: list[float]) -> None:
        """The fight as the view's combat breakdown tells it: monsters and cards by name, seats by player name."""
        at, name, n, s0 = self._at, self._name, self.players, self._s0
        mon, on_mon, side = at["fight.monsters"], at["fight.monster_cards"], at["fight.side_cards"]
        mates = treasures = 0
        own: set[int] = set()  # the monsters' own bonuses bear their names (Space Vampire, Space Cowboy, the Eep's
        for m in fight["monsters"]:  # roll): no card played, and as many as the players make, so left out
            mname = m["monster"]
            if mname.endswith(_MATE):
                mates += 1
                mname = mname[: -len(_MATE)]
            f0 = name[mname.lower()]
            own.add(f0)
            cnt.append(mon + f0)
            treasures += m["treasures"]
        for m in fight["monsters"]:
            for part, _ in m["parts"][1:]:  # after its Level: Enhancers, modifiers in words, one-shots
                f = name.get(part.lower())
                if f is not None and f not in own:
                    cnt.append(on_mon + f)
        dopple = False
        for part, _ in fight["one_shots"]:
            f = name.get(part.lower())
            if f is not None:
                if f not in own:
                    cnt.append(side + f)
            elif part.startswith("Doppleganger"):
                dopple = True
        b = at["combat"] - s0
        sc[b : b + len(COMBAT_SCALARS)] = (
            1.0,
            min(len(fight["monsters"]) / 4, _MAX),
            min(mates / 4, _MAX),
            min(max(fight["side_strength"], 0) / _STRENGTH, _MAX),
            min(max(fight["monster_strength"], 0) / _STRENGTH, _MAX),
            fight["fighters_winning"],
            min(treasures / 10, _MAX),
            dopple,
        )
        b = at["fight.fighters"] - s0
        for i, f in enumerate(fight["fighters"]):  # the fighter, then the helper
            r = seat_of[f["player"]]
            sc[b + i * n + r] = 1.0
            seat = self._seat[r] - s0
            sc[seat + (_FIGHTER_AT if i == 0 else _HELPER_AT)] = 1.0
            sc[seat + _STRENGTH_AT] = min(max(f["strength"], 0) / _STRENGTH, _MAX)

    def _moment(
        self,
        moment: dict[str, Any],
        rel: list[int],
        names: list[str],
        cnt: list[int],
        sc: list[float],
        origin: int | None = None,
    ) -> None:
        """What the engine asks now (`engine.view.moment`): its card, seats, die, and an offer's cards;
        `sc` holds the scalars from `origin` on (from `seat0`'s by default)."""
        at = self._at
        s0 = self._s0 if origin is None else origin
        c = moment.get("card") or moment.get("monster")
        if c is not None:
            cnt.append(at["moment.card"] + self._card[c["id"]])
        self._moment_seats(moment, rel, sc, s0)
        b = at["moment"] - s0
        action = moment.get("action")
        if action is None:
            return
        where = self._action.get(action)
        if where is not None:
            sc[where - s0] = 1.0
        text: str = moment["text"]
        offered, asked = text, ""
        if action == "ask":  # "ask NAME for help offering X and Y and 2 treasures, you pick first"
            offered = moment.get("offer") or ""
            if offered.endswith(", you pick first") or offered.endswith(", I pick first"):
                offered = offered.rsplit(",", 1)[0]
            last = offered.rsplit(" and ", 1)[-1]
            if last == "all the treasures":
                sc[b + 4] = 1.0
            elif last.endswith(("treasure", "treasures")) and last.split(" ", 1)[0].isdigit():
                sc[b + 3] = min(int(last.split(" ", 1)[0]) / 5, _MAX)
        elif action == "trade":  # "trade X with NAME for Y"
            for who in names:
                if f" with {who} for " in text:
                    offered, asked = text.split(f" with {who} for ", 1)
                    break
        elif action == "give":  # "give X to NAME"
            offered = text.rsplit(" to ", 1)[0]
        else:
            return
        name = self._name
        for block, words in (("moment.offered", offered), ("moment.asked", asked)):
            base = at[block]
            for m in self._names_re.finditer(words):
                cnt.append(base + name[m.group(1).lower()])


class _Memo:
    """A seat's last vector (with the caller's room after it) and what its card blocks were counted
    from, by block, and what each seat's row of scalars showed."""

    __slots__ = ("base", "cells", "hand", "hand_at", "tables", "tables_at", "rows", "piles", "moment_at")

    def __init__(self, size: int, players: int) -> None:
        self.base = np.zeros(size, np.float32)  # the last vector (its scalars after the seats' written anew)
        self.cells: memoryview[float] = cast("memoryview[float]", self.base.data)  # its cells, format "f"
        self.hand: list[int] = []
        self.hand_at: list[int] = []
        self.tables: list[tuple[tuple[int, ...], ...]] = [()] * players  # each player's card zones
        self.tables_at: list[list[int]] = [[] for _ in range(players)]
        self.rows: list[tuple[Any, ...] | None] = [None] * players  # what each seat's scalars show
        self.piles: list[list[int]] = [[], []]  # the Door and Treasure discards
        self.moment_at: list[int] = []  # the fight's and the moment's cards


def _add(cells: memoryview[float], at: list[int], k: float) -> None:
    """Add `k` at each position of `at` (repeats add up), through a memoryview of the vector: a
    Python loop over its cells costs less than numpy's per-element indexing or `add.at` for the
    few to some dozens of positions a change touches (counts are small integers: exact in float32)."""
    for i in at:
        cells[i] += k


_ID = itemgetter("id")  # a view's card -> its physical number
_ROWS_KEPT = 20_000  # seat rows kept by `encode_numbers` before it forgets them all
_MATE = " (Mate)"  # how the combat breakdown names a Mate (engine/combat.py)
_NSEAT = len(SEAT_SCALARS)
_NCOMBAT = len(COMBAT_SCALARS)
_FIGHTER_AT, _HELPER_AT, _STRENGTH_AT = (SEAT_SCALARS.index(k) for k in ("fighter", "helper", "strength"))


def layout_markdown(enc: Encoder) -> str:
    """The layout as the table docs/rl.md shows: one row per kind of block (each seat's blocks on one
    row, `seat{r}` for r = 0 .. players-1), with where the first starts, the length of each, and what
    it holds and how it is scaled (`BLOCK_DOCS`)."""
    rows: dict[str, list[tuple[int, int]]] = {}
    for name, start, n in enc.layout():
        key = re.sub(r"^seat\d+", "seat{r}", name)
        rows.setdefault(key, []).append((start, n))
    out = ["| block | first at | length | blocks | what, and how it is scaled |", "|---|---:|---:|---:|---|"]
    for key, spans in rows.items():
        out.append(f"| `{key}` | {spans[0][0]} | {spans[0][1]} | {len(spans)} | {BLOCK_DOCS[key]} |")
    out.append(f"| total | | {enc.size} | {len(enc.layout())} | |")
    return "\n".join(out)
