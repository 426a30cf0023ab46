"""The fight, as steps: a monster attacks, the response windows, asking for help, then Rewards
or Running Away (engine/rewards.py, engine/run_away.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from munchkin.engine import actions as A
from munchkin.engine import changes, characters, combat, legal, play, resolve, rewards, run_away, settle, vocabulary
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import WEIGH_AGAIN, Action
from munchkin.engine.core import card_hook, fight_in
from munchkin.engine.flow import Done, Frame, Out, Step
from munchkin.engine.rules import WINNING_LEVEL, as_written, no_help_joins_whole_fight, whims_wait_not
from munchkin.engine.state import Combat, MonsterIn

if TYPE_CHECKING:
    from munchkin.engine.game import Game


@dataclass(slots=True)
class Fight(Step):
    """A monster attacks `seat`: combat from the first window to the discards. A monster that
    will not attack this character ends the fight at once (with its Treasures, if any)."""

    CARDS = ("card",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    card: int
    kicked: bool

    def start(self, g: Game, _: Any) -> Out:
        c = Combat(self.seat, self.kicked)
        g.combat = c
        p = g.players[self.seat]
        d = g.cdef[self.card]
        m = MonsterIn(self.card)
        c.monsters.append(m)
        c.played.append(self.card)
        g.events.append(E.Combat(self.seat, self.card))
        if d.wna_if is not None and characters.matches(g, p, d.wna_if, path="monster.will_not_attack.if"):
            g.events.append(E.NoAttack(self.seat, self.card))
            h = card_hook(g, self.card)
            if h is not None:
                return self.then("will_not_attack", h.before_combat(g, c, m))
            return self.will_not_attack(g, None)
        if d.flees_from is not None or d.may_pass is not None or d.bribe is not None or d.before_fight:
            return self.then("before_fight", BeforeFight(self.seat, self.card))
        return self.before_fight(g, None)

    def before_fight(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        m = next((x for x in c.monsters if x.card == self.card), None)
        h = card_hook(g, self.card)
        if h is not None and m is not None and not c.ended:
            return self.then("combat_rounds", h.before_combat(g, c, m))
        return self.combat_rounds(g, None)

    def will_not_attack(self, g: Game, _: Any) -> Out:
        d = g.cdef[self.card]
        if d.wna_treasures:
            vocabulary.used("monster.will_not_attack.treasures")
            g.draw_to_hand(g.players[self.seat], "treasure", d.wna_treasures)
        _end_combat(g, fight_in(g))
        return Done()

    def combat_rounds(self, g: Game, _: Any) -> Out:
        if not fight_in(g).ended:
            return self.then("end_combat", CombatRounds())
        return self.end_combat(g, None)

    def end_combat(self, g: Game, _: Any) -> Out:
        _end_combat(g, fight_in(g))
        return self.then("finish", settle.settle_table(g))

    def finish(self, g: Game, _: Any) -> Out:
        return Done()


@dataclass(slots=True)
class BeforeFight(Step):
    """What a monster's card does before the fight, in order: it flees from a character it fears
    (its Treasure stays), the fighter may decline to fight it or bribe it with an Item, and
    otherwise pays its toll (`before_fight` effects)."""

    CARDS = ("card",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    card: int

    def start(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        d = g.cdef[self.card]
        p = g.players[self.seat]
        if d.flees_from is not None and characters.matches(g, p, d.flees_from, path="monster.flees_from"):
            if (shared := flee_from(g, c, self.seat, self.card)) is not None:
                return self.then("done", shared)
            return Done()
        mp = d.may_pass
        if (
            mp is not None
            and (mp.if_ is None or characters.matches(g, p, mp.if_, path="monster.may_pass.if"))
            and (mp.unless is None or not characters.matches(g, p, mp.unless, path="monster.may_pass.unless"))
        ):
            acts = (Action(A.PASS, self.seat), Action(A.DECLINE, self.seat, self.card))
            return self.then("passed", D.Before((self.seat,), self.card, acts))
        return self.bribe(g, None)

    def passed(self, g: Game, act: Action) -> Out:
        if act.kind != A.DECLINE:
            return self.bribe(g, None)
        mp = g.cdef[self.card].may_pass
        assert mp is not None
        _leave(g, fight_in(g), self.card)
        g.events.append(E.WalkPast(self.seat, self.card))
        if mp.then:
            vocabulary.used("monster.may_pass.then")
            return self.then("done", resolve.run_effects(g, mp.then, g.players[self.seat], self.card))
        return Done()

    def bribe(self, g: Game, _: Any) -> Out:
        b = g.cdef[self.card].bribe
        if b is not None:
            p = g.players[self.seat]
            found = [k for k in changes.items_matching(g, p, b.which) if characters.sale_value(g, p, k) >= b.min_gold]
            vocabulary.used("monster.bribe.which")
            if b.min_gold and len(found) < len(changes.items_matching(g, p, b.which)):
                vocabulary.used("monster.bribe.min_gold")  # an Item worth too little may not bribe it
            acts = [Action(A.USE, self.seat, k, monster=self.card) for k in D.unique_cards(found, g)]
            if acts:
                acts.append(Action(A.DECLINE, self.seat, self.card))
                return self.then("bribed", D.Before((self.seat,), self.card, tuple(acts)))
        return self.toll(g, None)

    def bribed(self, g: Game, act: Action) -> Out:
        if act.kind != A.USE:
            return self.toll(g, None)
        b = g.cdef[self.card].bribe
        assert b is not None
        p = g.players[self.seat]
        changes.lose_card(g, p, act.card, f"bribing {g.cdef[self.card].name}")
        _leave(g, fight_in(g), self.card)
        g.events.append(E.Bribe(self.seat, self.card))
        if b.then:
            vocabulary.used("monster.bribe.then")
            return self.then("done", resolve.run_effects(g, b.then, p, self.card))
        return Done()

    def toll(self, g: Game, _: Any) -> Out:
        d = g.cdef[self.card]
        if d.before_fight:
            vocabulary.used("monster.before_fight")
            return self.then("done", resolve.run_effects(g, d.before_fight, g.players[self.seat], self.card))
        return Done()

    def done(self, g: Game, _: Any) -> Out:
        return Done()


def _leave(g: Game, c: Combat, card: int) -> None:
    """The monster goes without a fight (passed by, or bribed): no kill, no Treasure. One that
    joined a fight under way goes alone (to the discards at once); the fight's only one ends it."""
    m = next((x for x in c.monsters if x.card == card), None)
    if m is not None and len(c.monsters) > 1:
        play.monster_leaves(g, c, m)
        return
    c.monsters.clear()
    c.ended = True


@dataclass(slots=True)
class MonsterJoins(Step):
    """A monster joins a fight under way (Wandering Monster, an Illusion, its kin from a hand): what
    its card does before a fight happens now, for it alone: it will not attack the fighter (it
    leaves, its Treasures to them), it flees from them, they may pass it or bribe it, it takes its
    toll; then its own rule before combat (the Eep's die)."""

    CARDS = ("card",)  # fields holding card numbers (see Step.CARDS)

    card: int

    def start(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        d = g.cdef[self.card]
        p = g.players[c.fighter]
        m = next((x for x in c.monsters if x.card == self.card), None)
        if m is None:
            return Done()
        if d.wna_if is not None and characters.matches(g, p, d.wna_if, path="monster.will_not_attack.if"):
            g.events.append(E.NoAttack(c.fighter, self.card))
            play.monster_leaves(g, c, m)
            if not c.monsters:  # it replaced the fight's only monster (an Illusion): nothing to fight
                c.ended = True
            if d.wna_treasures:
                vocabulary.used("monster.will_not_attack.treasures")
                g.draw_to_hand(p, "treasure", d.wna_treasures)
            return Done()
        if d.no_help and c.helper >= 0 and no_help_joins_whole_fight(g):
            send_helper_away(g, c, self.card)
        if d.flees_from is not None or d.may_pass is not None or d.bribe is not None or d.before_fight:
            return self.then("own_rule", BeforeFight(c.fighter, self.card))
        return self.own_rule(g, None)

    def own_rule(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        m = next((x for x in c.monsters if x.card == self.card), None)
        h = card_hook(g, self.card)
        if h is not None and m is not None and not c.ended:
            return self.then("done", h.before_combat(g, c, m))
        return Done()

    def done(self, g: Game, _: Any) -> Out:
        return Done()


def send_helper_away(g: Game, c: Combat, card: int) -> None:
    """A monster nobody may help against joined: "any special abilities ... apply to the entire fight",
    so the helper leaves it and the deal they were promised is off (rules 7)."""
    g.events.append(E.HelperSentAway(c.helper, c.fighter, card))
    c.helper, c.forced_help, c.helper_first, c.rewarded = -1, False, False, False
    c.deal_items, c.deal_treasures = (), 0


def monster_joins(g: Game, card: int) -> Frame | None:
    """The rules a monster's card has before a fight, run when it joins one under way."""
    return MonsterJoins(card) if as_written(g) else None


def flee_from(g: Game, c: Combat, seat: int, card: int) -> Frame | None:
    """A monster that fears this fighter flees: out of the fight, its Treasure kept for the fighters
    (the step that shares it out under a help deal, if the fight ends so)."""
    m = next((x for x in c.monsters if x.card == card), None)
    if m is not None:
        g.events.append(E.Flees(seat, card))
        return play.remove_monster(g, c, m, keep_treasure=True)
    return None


def flee_from_helper(g: Game, c: Combat) -> Frame | None:
    """A helper joins: the monsters that flee from such a character go (Grays from a Cyborg); the
    step sharing out their Treasure if none is left."""
    hp = g.players[c.helper]
    shared = None
    for m in list(c.monsters):
        cond = g.cdef[m.base].flees_from
        if cond is not None and m in c.monsters and characters.matches(g, hp, cond, path="monster.flees_from"):
            shared = flee_from(g, c, hp.seat, m.card) or shared
    return shared


@dataclass(slots=True)
class CombatRounds(Step):
    """Rounds of the fight: a response window after each change, then the fighters win, ask for
    help (a new round if someone accepts), or Run Away."""

    changed: bool = True  # the last round changed the fight: open a window again

    def start(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        if c.ended or g.over:
            return Done()
        if self.changed:
            return self.then("decide", CombatWindow())
        return self.decide(g, None)

    def decide(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        self.changed = False
        if c.ended or g.over:
            return Done()
        if not c.monsters:
            return Done()
        if combat.fighters_win(g, c):
            return self.then("finish", rewards.WinCombat())
        if help_candidates(g, c):
            return self.then("losing", D.Losing((c.fighter,)))
        return self.then("finish", run_away.RunAwayAll())

    def losing(self, g: Game, act: Action) -> Out:
        if act is WEIGH_AGAIN:  # the fight changed while the fighter was told to ask or run
            return self.again(g)
        if act.kind == A.ASK:
            return self.then("asked", AskForHelp(act))
        return self.then("finish", run_away.RunAwayAll())

    def reweighs(self, g: Game) -> bool:  # type: ignore[override]
        return self.at == "losing"

    def again(self, g: Game) -> Out:
        """The fight changed before anyone ran: everyone may answer the change, then it is weighed again."""
        self.changed = True
        return self.start(g, None)

    def asked(self, g: Game, changed: bool) -> Out:
        self.changed = changed
        return self.start(g, None)

    def finish(self, g: Game, value: Any) -> Out:
        if value is WEIGH_AGAIN:  # the Run Away was called off before anyone ran (`RunAway.reweighs`)
            return self.again(g)
        return Done()


@dataclass(slots=True)
class CombatWindow(Step):
    """A round of passes: it closes once everyone who could answer the last change has passed (since
    rules 6 a seat with only whims to play is not asked: `waits_on`)."""

    order: tuple[int, ...] = ()  # the seats in turn order, from the active player
    passed: set[int] = field(default_factory=set)

    def start(self, g: Game, _: Any) -> Out:
        self.order = tuple(changes.seat_order(g))
        return self.look(g, None)

    def look(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        if c.ended or g.over:
            return Done()
        if g.sidekick_sexes:
            return self.then("ask", SidekickSexCheck())
        return self.ask(g, None)

    def ask(self, g: Game, _: Any) -> Out:
        passed = self.passed
        seats = tuple(s for s in self.order if s not in passed and waits_on(g, s))
        if not seats:
            return Done()
        return self.then("answer", D.Window(seats))

    def answer(self, g: Game, act: Action) -> Out:
        if act.kind == A.PASS:
            self.passed.add(act.seat)
            return self.look(g, None)
        return self.then("after_action", play.do_combat_action(g, act))

    def reask(self, g: Game, waiting: D.Decision) -> D.Decision:  # type: ignore[override]
        """Someone acted at any time during the window (a Curse on the fighter, say): the table
        changed, so everyone who could answer may do so again."""
        self.passed = set()
        seats = tuple(s for s in self.order if waits_on(g, s))
        return D.Window(seats) if seats else waiting

    def after_action(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        self.passed = set()
        if g.players[c.fighter].dead:  # killed mid-fight (a deadly Curse): the fight is over
            c.ended = True
            g.events.append(E.CombatOver(c.fighter))
        elif c.helper >= 0 and g.players[c.helper].dead:
            c.helper, c.forced_help = -1, False
        return self.look(g, None)


@dataclass(slots=True)
class SidekickSexCheck(Step):
    """A monster with a bonus against a sex faces a fighter's Sidekick of that sex: its owner
    discards the Sidekick at once, or the bonus counts for the rest of the fight."""

    CARDS = ("monsters", "kept")  # fields holding card numbers (see Step.CARDS)

    monsters: tuple[tuple[int, int], ...] = ()  # (card, base) of each monster as the check began
    i: int = 0  # the monster looked at
    j: int = 0  # its modifier looked at
    fighters: tuple[int, ...] = ()  # the fighters as that modifier's look began
    fi: int = -1  # the fighter looked at (-1: the modifier's look has not begun)
    kept: list[int] | None = None  # that fighter's Sidekicks as their look began (None: not begun)
    ki: int = 0  # the next of those Sidekicks to look at

    def start(self, g: Game, _: Any) -> Out:
        if not g.sidekick_sexes:
            return Done()
        self.monsters = tuple((m.card, m.base) for m in fight_in(g).monsters)
        return self.look(g, None)

    def look(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        cdef = g.cdef
        while self.i < len(self.monsters):
            card, base = self.monsters[self.i]
            mods = cdef[base].modifiers
            while self.j < len(mods):
                mod = mods[self.j]
                cond = mod.if_
                if self.fi < 0:
                    if (
                        mod.value <= 0
                        or cond.sex is None
                        or (card, cond.sex) in c.sex_bonus
                        or any(v is not None for k, v in vars(cond).items() if k != "sex")
                    ):  # only a bonus against a sex alone looks at Sidekicks
                        self.j += 1
                        continue
                    self.fighters = c.fighters()
                    self.fi = 0
                while self.fi < len(self.fighters):
                    f = self.fighters[self.fi]
                    q = g.players[f]
                    if self.kept is None:
                        if q.sex == cond.sex or (card, cond.sex) in c.sex_bonus:
                            self.fi += 1
                            continue  # the bonus counts anyway
                        self.kept = list(q.sidekicks)
                        self.ki = 0
                    while self.ki < len(self.kept):
                        k = self.kept[self.ki]
                        self.ki += 1
                        if characters.sidekick_sex(g, q, k) != cond.sex or (card, k) in c.sex_asked:
                            continue
                        c.sex_asked.add((card, k))
                        acts = (Action(A.KEEP, f, k), Action(A.DISCARD, f, k))
                        return self.then("answer", D.SidekickSex((f,), k, tuple(acts), card, mod.value))
                    self.kept = None
                    self.fi += 1
                self.fi = -1
                self.j += 1
            self.j = 0
            self.i += 1
        return Done()

    def answer(self, g: Game, act: Action) -> Out:
        card, base = self.monsters[self.i]
        mod = g.cdef[base].modifiers[self.j]
        f = self.fighters[self.fi]
        assert self.kept is not None
        k = self.kept[self.ki - 1]
        if act.kind == A.DISCARD:
            changes.lose_card(g, g.players[f], k, f"discarded before {g.cdef[base].name}")
        else:
            sex = mod.if_.sex
            assert sex is not None  # only a bonus against a sex asks
            fight_in(g).sex_bonus.add((card, sex))
            g.events.append(E.SexBonus(f, k, card, mod.value))
            self.kept = None  # this fighter's bonus counts: on to the next fighter
            self.fi += 1
        return self.look(g, None)


@dataclass(slots=True)
class AskForHelp(Step):
    """Ask one player for help; they accept or refuse (an Item may compel them). Done with True
    if the fight changed."""

    CARDS = ("act",)  # fields holding card numbers (see Step.CARDS)

    act: Action

    def start(self, g: Game, _: Any) -> Out:
        c = fight_in(g)
        act = self.act
        helper = act.target
        c.asked.add(helper)
        g.events.append(E.Ask(c.fighter, helper, act.cards, act.n, act.flag))
        if (by := compels_help(g, c, helper)) >= 0:
            c.helper, c.forced_help = helper, True
            g.events.append(E.Compelled(helper, c.fighter, by))
            return Done(True)  # no reward may be demanded
        g.show_to(helper, act.cards)  # a bribe named to the one asked
        return self.then("answer", D.Help((helper,), act))

    def answer(self, g: Game, answer: Action) -> Out:
        c = fight_in(g)
        act = self.act
        helper = act.target
        if answer.kind == A.ACCEPT:
            c.helper = helper
            p = g.players[c.fighter]
            c.deal_items = tuple(k for k in act.cards if k in p.items)
            c.deal_treasures = act.n
            c.rewarded = bool(act.n or act.cards)
            c.helper_first = act.flag == "you"
            g.events.append(E.Help(helper, c.fighter))
            shared = None  # the step sharing out the Treasure of monsters that fled the helper, if any
            if any(g.cdef[m.base].flees_from is not None for m in c.monsters):
                shared = flee_from_helper(g, c)
            for k in act.cards:  # cards from the hand promised to the helper are played on them now
                if k in p.hand and g.cdef[k].is_gual:
                    p.hand.remove(k)
                    g.discard(k)
                    changes.gain_levels(g, g.players[helper], 1, g.cdef[k].name)
            if shared is not None:
                return self.then("changed", shared)
            return Done(True)
        g.events.append(E.Refuse(helper, c.fighter))
        return Done(False)

    def changed(self, g: Game, _: Any) -> Out:
        return Done(True)


# -------------------------------------------------------------- the fight
def fight(g: Game, seat: int, card: int, kicked: bool) -> Frame:
    """A monster attacks `seat`: combat from the first window to the discards."""
    return Fight(seat, card, kicked)


def _combat_rounds(g: Game, c: Combat) -> Frame:
    """Rounds of the fight until the fighters win or Run Away."""
    return CombatRounds()


def combat_window(g: Game, c: Combat) -> Frame:
    """A round of passes: it closes once everyone who could answer the last change has passed."""
    return CombatWindow()


def legal_actions_in_window(g: Game, seat: int) -> list[Action]:
    """Legal answers of a seat in a combat window (cached like legal_actions)."""
    if g._window_version != g.version:
        g._window_cache.clear()
        g._window_version = g.version
    cached = g._window_cache.get(seat)
    if cached is None:
        cached = g._window_cache[seat] = legal.window_actions(g, seat)
    return cached


def waits_on(g: Game, seat: int) -> bool:
    """Whether a combat window waits on `seat`: it has an answer besides passing, and since rules 6
    one that is not only a whim (`legal.keeps_table_waiting`: a bystander discarding their own Race)."""
    acts = legal_actions_in_window(g, seat)
    if len(acts) < 2:
        return False
    return not whims_wait_not(g) or any(legal.keeps_table_waiting(g, a) for a in acts)


def _end_combat(g: Game, c: Combat) -> None:
    for f in c.fighters():  # "your next combat" Curses are spent
        p = g.players[f]
        for k in list(p.curses):
            if g.cdef[k].duration == "next_combat":
                changes.lose_card(g, p, k, "spent")
    for k in c.played:
        g.discard(k)
    c.played.clear()
    c.monsters.clear()
    c.ended = True
    g.combat = None


# -------------------------------------------------------------- help
def help_candidates(g: Game, c: Combat) -> list[int]:
    if c.helper >= 0 or (c.doppleganger >= 0 and as_written(g)):
        return []  # a Doppleganger's fight is fought alone
    if any(g.cdef[m.base].no_help for m in c.monsters):
        vocabulary.used("monster.no_help")
        return []
    return [
        q.seat
        for q in g.players
        if q.seat != c.fighter and not q.dead and q.seat not in c.asked and "help" not in q.barred
    ]


def for_the_win(g: Game, c: Combat) -> bool:
    """Would killing these monsters give the fighter the winning level?"""
    p = g.players[c.fighter]
    return p.level + sum(g.cdef[m.base].levels for m in c.monsters) >= WINNING_LEVEL


def compels_help(g: Game, c: Combat, helper: int) -> int:
    """The Item that compels this player's help (Kneepads of Allure, Sheriff's Badge), or -1:
    the asked player cannot refuse, except in a fight for the win, which compelled help never is."""
    p, q = g.players[c.fighter], g.players[helper]
    if for_the_win(g, c):
        return -1
    for k in p.equipped:
        if (h := card_hook(g, k)) is not None and h.compels_help(g, p, q) and characters.can_use(g, p, k):
            return k
    return -1


def ask_for_help(g: Game, c: Combat, act: Action) -> Frame:
    """Ask one player; they accept or refuse. Returns True if the fight changed."""
    return AskForHelp(act)
