"""Plain state records: players, the combat, the prompt the engine waits on."""

from __future__ import annotations

from typing import Any


class Player:
    """One seat's character: Level, sex, cards in hand and in play."""

    __slots__ = (
        "seat",
        "name",
        "sex",
        "level",
        "hand",
        "races",
        "classes",
        "half_breed",
        "super_munchkin",
        "house",
        "roles",
        "dual_role",
        "proficiencies",
        "items",
        "equipped",
        "sidekicks",
        "carried",
        "enhancers",
        "swapped",
        "cheats",
        "curses",
        "dead",
        "reborn",
        "double_sale_used",
        "sex_changed",
        "barred",
        "received",
        "stats",
    )

    def __init__(self, seat: int, name: str, sex: str) -> None:
        self.seat = seat
        self.name = name
        self.sex = sex
        self.level = 1
        self.hand: list[int] = []
        self.races: list[int] = []
        self.classes: list[int] = []
        self.half_breed = -1
        self.super_munchkin = -1
        self.house = ""  # the House chosen at setup (Harry Potter), lower-case; kept for good
        self.roles: list[int] = []
        self.dual_role = -1
        self.proficiencies: list[int] = []
        self.items: list[int] = []  # carried Items in play (equipped or not)
        self.equipped: set[int] = set()
        self.sidekicks: list[int] = []  # Sidekicks and Hirelings in play
        self.carried: dict[int, int] = {}  # Sidekick -> the Item it carries (also among items)
        self.enhancers: dict[int, int] = {}  # Item Enhancer -> the Item it is attached to
        self.swapped: set[int] = set()  # Sidekicks whose sex a card changed
        self.cheats: dict[int, int] = {}  # Item (or Sidekick) -> the Cheat! card attached to it
        self.curses: list[int] = []  # Curses kept in play as reminders
        self.dead = False
        self.reborn = False  # died: draws a new hand at the start of their next turn
        self.double_sale_used = False
        self.sex_changed = False  # changed sex during the game (a card may count it)
        self.barred: dict[str, int] = {}  # what they may not do ("help", "double_sale") -> own turn-ends left
        self.received: set[int] = set()  # cards received this turn (may be played at once)
        self.stats: dict[str, int] = {}

    def copy(self) -> Player:
        """An independent copy: every list, set and dict of cards copied, the rest shared. (Written
        out field by field: copies of the game are made thousands of times per decision by a search.)"""
        new = object.__new__(Player)
        new.seat, new.name, new.sex, new.level, new.house = self.seat, self.name, self.sex, self.level, self.house
        new.hand, new.races, new.classes = self.hand.copy(), self.races.copy(), self.classes.copy()
        new.half_breed, new.super_munchkin, new.dual_role = self.half_breed, self.super_munchkin, self.dual_role
        new.roles, new.proficiencies = self.roles.copy(), self.proficiencies.copy()
        new.items, new.equipped, new.sidekicks = self.items.copy(), self.equipped.copy(), self.sidekicks.copy()
        new.carried, new.enhancers, new.swapped = self.carried.copy(), self.enhancers.copy(), self.swapped.copy()
        new.cheats, new.curses = self.cheats.copy(), self.curses.copy()
        new.dead, new.reborn, new.double_sale_used = self.dead, self.reborn, self.double_sale_used
        new.sex_changed, new.barred = self.sex_changed, self.barred.copy()
        new.received, new.stats = self.received.copy(), self.stats.copy()
        return new

    def share(self, other: Player) -> None:
        """Take every field of `other` as it is, sharing its lists, sets and dicts (a world's player
        reads the real one's until the world is dealt; see world.py). One field a line: an assignment
        of several at once would build and unpack a tuple."""
        self.seat = other.seat
        self.name = other.name
        self.sex = other.sex
        self.level = other.level
        self.hand = other.hand
        self.races = other.races
        self.classes = other.classes
        self.half_breed = other.half_breed
        self.super_munchkin = other.super_munchkin
        self.house = other.house
        self.roles = other.roles
        self.dual_role = other.dual_role
        self.proficiencies = other.proficiencies
        self.items = other.items
        self.equipped = other.equipped
        self.sidekicks = other.sidekicks
        self.carried = other.carried
        self.enhancers = other.enhancers
        self.swapped = other.swapped
        self.cheats = other.cheats
        self.curses = other.curses
        self.dead = other.dead
        self.reborn = other.reborn
        self.double_sale_used = other.double_sale_used
        self.sex_changed = other.sex_changed
        self.barred = other.barred
        self.received = other.received
        self.stats = other.stats

    def in_play(self) -> list[int]:
        """Every card this player has on the table."""
        out = self.races + self.classes + self.items + self.curses + self.sidekicks
        if self.enhancers:
            out += self.enhancers
        if self.roles or self.proficiencies:
            out += self.roles + self.proficiencies
        for c in (self.half_breed, self.super_munchkin, self.dual_role):
            if c >= 0:
                out.append(c)
        if self.cheats:
            out += self.cheats.values()
        return out

    def character_cards(self) -> list[int]:
        """Race, Class, Role and Proficiency cards: where abilities and Run Away bonuses come from."""
        if self.roles or self.proficiencies:
            return self.races + self.classes + self.roles + self.proficiencies
        return self.races + self.classes

    def exempt(self) -> tuple[int, ...]:
        """Items used beyond the usual limits: carried by a Sidekick, or under Cheat!."""
        if self.carried or self.cheats:
            return (*self.carried.values(), *self.cheats)
        return ()  # most characters: nothing to gather


class MonsterIn:
    """A monster in a combat, with the enhancers and one-shots played on it."""

    __slots__ = ("card", "base", "enhancers", "oneshots", "mate_of")

    def __init__(self, card: int, mate_of: MonsterIn | None = None) -> None:
        self.card = card
        self.mate_of = mate_of
        self.base: int = mate_of.base if mate_of else card  # the card whose stats it has
        # a Mate shares its original's enhancers, whatever the order played
        self.enhancers: list[int] = mate_of.enhancers if mate_of else []
        self.oneshots: list[tuple[int, int]] = []  # (card, bonus)

    def copy(self, memo: dict[int, Any]) -> MonsterIn:
        """A copy, made once per monster in `memo`; a Mate's copy shares its original's copy's enhancers."""
        done = memo.get(id(self))
        if done is not None:
            return done  # type: ignore[no-any-return]
        new = object.__new__(MonsterIn)
        new.card, new.base = self.card, self.base
        new.mate_of = None if self.mate_of is None else self.mate_of.copy(memo)
        new.enhancers = new.mate_of.enhancers if new.mate_of is not None else self.enhancers.copy()
        new.oneshots = self.oneshots.copy()
        memo[id(self)] = new
        return new


class Combat:
    """The fight in progress: who fights, which monsters, what was played."""

    __slots__ = (
        "fighter",
        "helper",
        "monsters",
        "side",
        "berserk",
        "turning",
        "backstabs",
        "asked",
        "deal_items",
        "deal_treasures",
        "helper_first",
        "played",
        "escapes",
        "ended",
        "outcome",
        "removed",
        "charmed",
        "bonus_used",
        "doppleganger",
        "extra_levels",
        "forced_help",
        "kicked",
        "sex_bonus",
        "sex_asked",
        "rewarded",
        "house_bonus",
    )

    def __init__(self, fighter: int, kicked: bool) -> None:
        self.fighter = fighter
        self.helper = -1
        self.monsters: list[MonsterIn] = []
        self.side: list[tuple[int, int, int]] = []  # one-shots for the fighters: (card, seat played by, bonus)
        self.berserk: dict[int, int] = {}
        self.turning: dict[int, int] = {}
        self.backstabs: set[tuple[int, int]] = set()
        self.asked: set[int] = set()
        self.deal_items: tuple[int, ...] = ()
        self.deal_treasures = 0
        self.helper_first = False
        self.played: list[int] = []  # cards to discard when the combat ends
        self.escapes: set[int] = set()  # seats that escape automatically (Instant Wall)
        self.ended = False
        self.outcome = ""
        self.removed: list[tuple[int, int]] = []  # monsters taken out: (card, the Treasures it left)
        self.charmed = 0
        self.bonus_used = False  # anything but Level helped the fighters (Pukachu)
        self.doppleganger = -1
        self.extra_levels = 0
        self.forced_help = False
        self.kicked = kicked
        self.sex_bonus: set[tuple[int, str]] = set()  # (monster, sex): a bonus kept on by a Sidekick
        self.sex_asked: set[tuple[int, int]] = set()  # (monster, Sidekick) pairs already put to the owner
        self.house_bonus: dict[int, int] = {}  # seat -> strength from a House power (Slytherin's discards)
        self.rewarded = False  # the helper was promised something (Treasures, an Item, a Go Up a Level)

    def copy(self, memo: dict[int, Any]) -> Combat:
        """An independent copy; `memo` maps each copied MonsterIn's id to its copy, so that other
        things pointing at the fight's monsters (a prompt's data) can be pointed at the copies."""
        new = object.__new__(Combat)  # field by field, as Player.copy: every world of a fight copies it
        new.fighter, new.helper = self.fighter, self.helper
        new.deal_items, new.deal_treasures = self.deal_items, self.deal_treasures
        new.monsters = [m.copy(memo) for m in self.monsters]
        new.side, new.berserk, new.turning = self.side.copy(), self.berserk.copy(), self.turning.copy()
        new.backstabs, new.asked, new.played = self.backstabs.copy(), self.asked.copy(), self.played.copy()
        new.helper_first, new.escapes, new.ended = self.helper_first, self.escapes.copy(), self.ended
        new.outcome, new.removed, new.charmed = self.outcome, self.removed.copy(), self.charmed
        new.bonus_used, new.doppleganger, new.extra_levels = self.bonus_used, self.doppleganger, self.extra_levels
        new.forced_help, new.kicked, new.rewarded = self.forced_help, self.kicked, self.rewarded
        new.sex_bonus, new.sex_asked = self.sex_bonus.copy(), self.sex_asked.copy()
        new.house_bonus = self.house_bonus.copy()
        return new

    def fighters(self) -> tuple[int, ...]:
        return (self.fighter,) if self.helper < 0 else (self.fighter, self.helper)


# The kinds of decision (see decisions.py)
MAIN = "main"  # the active player's free actions on their own turn
DRAWN = "drawn"  # a face-up Door that is neither monster nor curse: keep or play
WINDOW = "window"  # combat response window: a round of passes
LOSING = "losing"  # the fighters are losing: ask for help or run away
HELP = "help"  # a player is asked for help: accept or refuse
CURSE_WINDOW = "curse_window"  # a Curse is about to apply: answers such as Wishing Ring
RUN = "run"  # running away: choose the monster, roll, or escape some other way
ROLLED = "rolled"  # a die was rolled: answers such as Loaded Die
CAUGHT = "caught"  # a runner is caught: cards played before the Bad Stuff lands (Magic Lamp)
CHOOSE = "choose"  # choose a card for an effect
LOOT_BODY = "loot_body"  # take one card from a corpse
PICK = "pick"  # pick a Treasure under a help deal
CHARITY = "charity"
OFFER = "offer"  # a trade or gift awaits its answer
END_WINDOW = "end_window"  # before the next turn: anyone's any-time actions
BEFORE = "before"  # a monster offers a choice before combat
