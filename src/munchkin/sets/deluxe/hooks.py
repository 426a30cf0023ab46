"""Hooks for the Munchkin Deluxe cards whose effects the vocabulary cannot say.

A hook that needs no decision does its work at once and returns None (or, for a Curse's or Bad
Stuff's effect, whether it did anything). One that waits on a decision returns a step, a small
record of plain data defined beside it (`IncomeTax`, `Snails`, ...), which the engine resumes
stage by stage.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from munchkin.cards.hooks import CardHook
from munchkin.cards.loader import hook
from munchkin.engine import actions as A
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.flow import Done, Frame, Out, Step
from munchkin.engine.rules import WINNING_LEVEL
from munchkin.engine.state import CHOOSE, MonsterIn

if TYPE_CHECKING:
    from munchkin.engine.game import Game
    from munchkin.engine.state import Combat, Player


def _in_combat_window(g: Game) -> bool:
    return g.combat is not None and g.listing is D.IN_WINDOW


def _own_turn_free(g: Game, seat: int) -> bool:
    return g.combat is None and seat == g.active and g.listing is D.FREE


def _spend(g: Game, seat: int, card: int) -> None:
    g.spend(g.players[seat], card)


def choose_option(g: Game, seat: int, source: int, options: list[str]) -> Frame:
    """Ask a seat to pick one of several worded options; returns its index."""
    return ChooseOption(seat, source, tuple(options))


@dataclass(slots=True)
class ChooseOption(Step):
    """A card's choice between worded options (Platycore: your hand or 2 Levels): the index chosen."""

    CARDS = ("source",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    source: int
    options: tuple[str, ...]

    def start(self, g: Game, _: Any) -> Out:
        acts = tuple(Action(A.CHOOSE, self.seat, -1, monster=self.source, flag=o) for o in self.options)
        return self.then("chosen", D.Before((self.seat,), self.source, tuple(acts)))

    def chosen(self, g: Game, act: Action) -> Out:
        return Done(self.options.index(act.flag))


# ------------------------------------------------------------------ character cards
class _Attachment(CardHook):
    """Half-Breed / Super Munchkin / Dual Role: attach to a Race / Class / Role in play."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        p = g.players[seat]
        if seat != g.active and card not in p.received:
            return []
        if self.kind == "race":
            ok = bool(p.races) and p.half_breed < 0
        elif self.kind == "role":
            ok = bool(p.roles) and p.dual_role < 0
        else:
            ok = bool(p.classes) and p.super_munchkin < 0
        return [Action(A.PLAY, seat, card)] if ok else []

    def apply(self, g: Game, act: Action) -> None:
        p = g.players[act.seat]
        p.hand.remove(act.card)
        if self.kind == "race":
            p.half_breed = act.card
        elif self.kind == "role":
            p.dual_role = act.card
        else:
            p.super_munchkin = act.card
        g.events.append(E.Play(act.seat, act.card))


hook("deluxe.half_breed")(_Attachment("race"))
hook("deluxe.super_munchkin")(_Attachment("class"))


class Cheat(CardHook):
    """Attach to an Item (on your own turn, out of combat). With `sidekicks` (the Good, the Bad,
    and the Munchkin) it may instead go on a Sidekick, at any time: one more Sidekick in play."""

    def __init__(self, sidekicks: bool = False) -> None:
        self.sidekicks = sidekicks

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        p = g.players[seat]
        if p.cheat >= 0:
            return []
        out: list[Action] = []
        if _own_turn_free(g, seat):
            items = [c for c in p.items] + [c for c in p.hand if g.cdef[c].is_item]
            out += [Action(A.PLAY, seat, card, cards=(c,), flag="with") for c in _uniq(g, items)]
        if self.sidekicks and (g.listing is D.FREE or g.listing is D.IN_WINDOW):
            kicks = p.sidekicks + [c for c in p.hand if g.cdef[c].is_sidekick]
            out += [Action(A.PLAY, seat, card, cards=(c,), flag="with") for c in _uniq(g, kicks)]
        return out

    def apply(self, g: Game, act: Action) -> None:
        p = g.players[act.seat]
        p.hand.remove(act.card)
        item = act.cards[0]
        p.cheat, p.cheat_item = act.card, item
        if g.cdef[item].is_sidekick:
            if item in p.hand:
                p.hand.remove(item)
                p.sidekicks.append(item)
            g.events.append(E.Play(act.seat, act.card))
            return
        if item in p.hand:
            p.hand.remove(item)
            p.items.append(item)
        p.equipped.add(item)
        g.events.append(E.Play(act.seat, act.card))


hook("deluxe.cheat")(Cheat())


# ------------------------------------------------------------------ combat specials
class _CombatCard(CardHook):
    """Base for cards played into any combat by anyone."""

    def legal_here(self, g: Game, seat: int) -> bool:
        return _in_combat_window(g)


class WanderingMonster(_CombatCard):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if not self.legal_here(g, seat):
            return []
        p = g.players[seat]
        mons = [c for c in p.hand if g.cdef[c].is_monster]
        return [Action(A.PLAY, seat, card, cards=(m,), flag="with") for m in _uniq(g, mons)]

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        p = g.players[act.seat]
        p.hand.remove(act.card)
        mon = act.cards[0]
        p.hand.remove(mon)
        c.played += [act.card, mon]
        c.monsters.append(MonsterIn(mon))
        g.events.append(E.Join(act.seat, mon, "Wandering Monster"))


hook("deluxe.wandering_monster")(WanderingMonster())


def _uniq(g: Game, cards: list[int]) -> list[int]:
    seen: set[int] = set()
    out = []
    for c in cards:
        if g.cdef[c].idx not in seen:
            seen.add(g.cdef[c].idx)
            out.append(c)
    return out


class Mate(_CombatCard):
    """Mate (Deluxe) and ...And Its Clone (Star): a copy that shares every enhancer."""

    def __init__(self, word: str = "Mate", run_penalty: int = 1) -> None:
        self.word = word
        self.penalty = run_penalty

    def run_penalty(self) -> int:
        return self.penalty

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if not self.legal_here(g, seat):
            return []
        c = g.combat
        assert c is not None
        return [Action(A.PLAY, seat, card, monster=m.card) for m in c.monsters if m.mate_of is None]

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        g.players[act.seat].hand.remove(act.card)
        orig = next(m for m in c.monsters if m.card == act.monster)
        c.monsters.append(MonsterIn(act.card, mate_of=orig))
        c.played.append(act.card)
        g.events.append(E.Mate(act.seat, act.monster, self.word))


hook("deluxe.mate")(Mate())


class Illusion(_CombatCard):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if not self.legal_here(g, seat):
            return []
        c = g.combat
        assert c is not None
        p = g.players[seat]
        mons = _uniq(g, [k for k in p.hand if g.cdef[k].is_monster])
        return [
            Action(A.PLAY, seat, card, monster=m.card, cards=(k,), flag="with")
            for m in c.monsters
            if m.mate_of is None
            for k in mons
        ]

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        p = g.players[act.seat]
        p.hand.remove(act.card)
        new = act.cards[0]
        p.hand.remove(new)
        old = next(m for m in c.monsters if m.card == act.monster)
        for m in list(c.monsters):
            if m is old or m.mate_of is old:
                c.monsters.remove(m)
        c.monsters.append(MonsterIn(new))
        c.played += [act.card, new]
        g.events.append(E.Illusion(act.seat, act.monster, new, act.card))


hook("deluxe.illusion")(Illusion())


class OutToLunch(_CombatCard):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        return [Action(A.PLAY, seat, card)] if self.legal_here(g, seat) else []

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        g.players[act.seat].hand.remove(act.card)
        c.played.append(act.card)
        c.monsters.clear()
        c.ended = True
        g.events.append(E.OutToLunch(act.seat, c.fighter, act.card))
        g.draw_to_hand(g.players[c.fighter], "treasure", 2)


hook("deluxe.out_to_lunch")(OutToLunch())


class HelpMeOutHere(_CombatCard):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        c = g.combat
        if not self.legal_here(g, seat) or c is None or seat != c.fighter or g.fighters_win(c):
            return []
        out = []
        p = g.players[seat]
        for q in g.players:
            if q is p or q.dead:
                continue
            for it in q.items:
                if g.cdef[it].is_item and self._would_win(g, c, p, it):
                    out.append(Action(A.PLAY, seat, card, target=q.seat, cards=(it,), flag="with"))
        return out

    def _would_win(self, g: Game, c: Combat, p: Player, it: int) -> bool:
        if g.equip_problem(p, it) is not None:
            return False
        p.items.append(it)
        p.equipped.add(it)
        try:
            return g.fighters_win_now(c)
        finally:
            p.items.remove(it)
            p.equipped.discard(it)

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        p = g.players[act.seat]
        p.hand.remove(act.card)
        c.played.append(act.card)
        q = g.players[act.target]
        it = act.cards[0]
        g.move_item(q, p, it)
        p.equipped.add(it)
        g.events.append(E.TakeItem(act.seat, act.target, it))


hook("deluxe.help_me_out_here")(HelpMeOutHere())


class DivineIntervention(CardHook):
    """Acts the moment anyone draws it, however: every Cleric goes up a level, even to win."""

    def on_draw(self, g: Any, p: Player, card: int) -> bool:
        g.events.append(E.Divine(p.seat, card))
        self._raise_clerics(g)
        return True

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        return [Action(A.PLAY, seat, card)]  # if it reached a hand some other way

    def apply(self, g: Game, act: Action) -> None:
        g.players[act.seat].hand.remove(act.card)
        g.discard(act.card)
        g.events.append(E.Play(act.seat, act.card))
        self._raise_clerics(g)

    def _raise_clerics(self, g: Game) -> None:
        winners = []
        for q in g.players:
            if any(g.cdef[k].name == "Cleric" for k in q.classes):
                g.gain_levels(q, 1, "Divine Intervention", may_win=True)
                if q.level >= WINNING_LEVEL:
                    winners.append(q.seat)
        if winners:
            g.declare_winner(winners)


hook("deluxe.divine_intervention")(DivineIntervention())


# ------------------------------------------------------------------ enhancers
class Baby(CardHook):
    def enhancer_floor(self) -> bool:
        return True


hook("deluxe.baby")(Baby())


# ------------------------------------------------------------------ curses
def _change_kind(g: Game, p: Player, card: int, kind: str) -> bool:
    zone = p.races if kind == "race" else p.classes
    if not zone:
        return False
    found = -1
    for k in reversed(g.door_discard):
        d = g.cdef[k]
        if d.is_race if kind == "race" else d.is_class:
            found = k
            break
    for k in list(zone):
        g.lose_card(p, k, g.cdef[card].name)
    if found >= 0:
        g.door_discard.remove(found)
        zone.append(found)
        g.events.append(E.Play(p.seat, found))
    return True


@hook("deluxe.change_race")
def change_race(g: Game, p: Player, card: int) -> bool:
    return _change_kind(g, p, card, "race")


@hook("deluxe.change_class")
def change_class(g: Game, p: Player, card: int) -> bool:
    return _change_kind(g, p, card, "class")


class MalignMirror(CardHook):
    def only_armor(self, g: Game, p: Player) -> bool:
        return True


hook("deluxe.malign_mirror")(MalignMirror())


class Chicken(CardHook):
    def die_modifier(self, g: Game, p: Player) -> int:
        return -1

    def leaves_with(self, g: Game, p: Player, lost: int) -> bool:
        return g.cdef[lost].slot == "headgear"  # any Curse or Bad Stuff that takes the Headgear


hook("deluxe.chicken_on_your_head")(Chicken())


@hook("deluxe.income_tax")
def income_tax(g: Game, p: Player, card: int) -> Frame | bool:
    if not p.items:
        return False
    return IncomeTax(p.seat)


@dataclass(slots=True)
class IncomeTax(Step):
    """Income Tax: the victim discards an Item; every other player pays as much in Items, or loses
    them all and a Level if they cannot."""

    seat: int
    tax: int = 0
    i: int = 0  # the next player to pay
    payer: int = -1
    paid: int = 0

    def start(self, g: Game, _: Any) -> Out:
        p = g.players[self.seat]
        return self.then("taxed", g.choose_card(p.seat, p.items, "pay Income Tax"))

    def taxed(self, g: Game, c: int) -> Out:
        self.tax = g.cdef[c].gold
        g.lose_card(g.players[self.seat], c, "Income Tax")
        return self.next_payer(g, None)

    def next_payer(self, g: Game, _: Any) -> Out:
        tax = self.tax
        while self.i < len(g.players):
            q = g.players[self.i]
            self.i += 1
            if q.seat == self.seat or q.dead:
                continue
            total = sum(g.cdef[k].gold for k in q.items)
            if total < tax or tax == 0 and not q.items:
                for k in list(q.items):
                    g.lose_card(q, k, "Income Tax")
                if total < tax:
                    g.lose_levels(q, 1, "Income Tax")
                continue
            self.payer, self.paid = q.seat, 0
            return self.pay(g, None)
        return Done(True)

    def pay(self, g: Game, _: Any) -> Out:
        if self.paid >= self.tax:
            return self.next_payer(g, None)
        q = g.players[self.payer]
        return self.then("one_paid", g.choose_card(q.seat, q.items, f"pay {self.tax - self.paid} gold of Income Tax"))

    def one_paid(self, g: Game, k: int) -> Out:
        self.paid += g.cdef[k].gold
        g.lose_card(g.players[self.payer], k, "Income Tax")
        return self.pay(g, None)


def _neighbour(g: Game, seat: int, step: int) -> int:
    n = len(g.players)
    s = (seat + step) % n
    while g.players[s].dead and s != seat:
        s = (s + step) % n
    return s


@hook("deluxe.lose_two_cards")
def lose_two_cards(g: Game, p: Player, card: int) -> bool:
    if not p.hand:
        return False
    for step in (1, -1):
        s = _neighbour(g, p.seat, step)
        if s == p.seat or not p.hand:
            continue
        k = g.pick_card(s, p.hand)
        p.hand.remove(k)
        g.give_card(g.players[s], k)
        g.events.append(E.TakesFromHand(s, p.seat))
    return True


# ------------------------------------------------------------------ monsters
class PitBull(CardHook):
    def flee_actions(self, g: Game, p: Player, c: Combat, m: MonsterIn) -> list[Action]:
        return [
            Action(A.USE, p.seat, k, monster=m.card, flag="monster")
            for k in p.items
            if "wand_pole_staff" in g.cdef[k].tags
        ]

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        p = g.players[act.seat]
        g.lose_card(p, act.card, "distracting the Pit Bull")
        g.events.append(E.Escape(act.seat, act.monster, "distracted it"))
        for m in list(c.monsters):
            if m.card == act.monster:
                c.monsters.remove(m)


hook("deluxe.pit_bull")(PitBull())


class LargeAngryChicken(CardHook):
    def extra_levels(self, g: Game, c: Combat, m: MonsterIn) -> int:
        fire = any("fire" in g.cdef[k].tags for (k, _, _) in c.side)
        for f in c.fighters():
            p = g.players[f]
            fire = fire or any("fire" in g.cdef[k].tags and g.can_use(p, k) for k in p.equipped)
        return 1 if fire else 0


hook("deluxe.large_angry_chicken")(LargeAngryChicken())


class Pukachu(CardHook):
    def extra_levels(self, g: Game, c: Combat, m: MonsterIn) -> int:
        p = g.players[c.fighter]
        if c.helper >= 0 or c.side or c.bonus_used:
            return 0
        return 1 if g.char_strength(c, p) == p.level else 0


hook("deluxe.pukachu")(Pukachu())


class Lawyers(CardHook):
    """Will not attack a Thief, who may swap two Treasures from the hand for two new ones."""

    def before_combat(self, g: Game, c: Combat, m: MonsterIn) -> Frame | None:
        p = g.players[c.fighter]
        if "thief" not in g.race_names(p) + g.class_names(p):
            return None
        treasures = [k for k in p.hand if g.cdef[k].deck == "treasure"]
        if len(treasures) < 2:
            return None
        pick = _uniq(g, treasures)
        pairs = [(a, b) for i, a in enumerate(treasures) for b in treasures[i + 1 :] if a in pick or b in pick]
        seen = set()
        acts = []
        for a, b in pairs:
            key = tuple(sorted((g.cdef[a].idx, g.cdef[b].idx)))
            if key in seen:
                continue
            seen.add(key)
            acts.append(Action(A.USE, p.seat, m.card, cards=(a, b), flag=f"discarding {g.name(a)}, {g.name(b)}"))
        acts.append(Action(A.DECLINE, p.seat, m.card))
        return LawyersSwap(p.seat, m.card, tuple(acts))


@dataclass(slots=True)
class LawyersSwap(Step):
    """The Lawyers' Thief may discard two Treasures from the hand to draw two new ones."""

    CARDS = ("monster", "acts")  # fields holding card numbers (see Step.CARDS)

    seat: int
    monster: int
    acts: tuple[Action, ...]

    def start(self, g: Game, _: Any) -> Out:
        return self.then("answered", D.Before((self.seat,), self.monster, tuple(self.acts)))

    def answered(self, g: Game, act: Action) -> Out:
        if act.kind == A.USE:
            p = g.players[self.seat]
            for k in act.cards:
                g.spend(p, k)
            g.draw_to_hand(p, "treasure", 2)
        return Done()


hook("deluxe.lawyers")(Lawyers())


class FloatingNose(CardHook):
    def before_combat(self, g: Game, c: Combat, m: MonsterIn) -> Frame | None:
        p = g.players[c.fighter]
        bribes = _uniq(g, [k for k in p.items if g.cdef[k].gold >= 200])
        if not bribes:
            return None
        acts = tuple([Action(A.USE, p.seat, k, monster=m.card) for k in bribes] + [Action(A.DECLINE, p.seat, m.card)])
        return NoseBribe(p.seat, m.card, acts)


@dataclass(slots=True)
class NoseBribe(Step):
    """The Floating Nose: the fighter may bribe it with an Item worth 200 Gold or more."""

    CARDS = ("monster", "acts")  # fields holding card numbers (see Step.CARDS)

    seat: int
    monster: int
    acts: tuple[Action, ...]

    def start(self, g: Game, _: Any) -> Out:
        return self.then("answered", D.Before((self.seat,), self.monster, tuple(self.acts)))

    def answered(self, g: Game, act: Action) -> Out:
        if act.kind == A.USE:
            c = g.combat
            assert c is not None
            g.lose_card(g.players[self.seat], act.card, "bribing the Floating Nose")
            c.monsters.clear()
            c.ended = True
            g.events.append(E.Bribe(self.seat, self.monster))
        return Done()


hook("deluxe.floating_nose")(FloatingNose())


class WannabeVampire(CardHook):
    def monster_actions(self, g: Game, seat: int, c: Combat, m: MonsterIn) -> list[Action]:
        if seat not in c.fighters():
            return []
        p = g.players[seat]
        return [Action(A.USE, seat, k, monster=m.card, flag="monster") for k in p.classes if g.cdef[k].name == "Cleric"]

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        m = next(x for x in c.monsters if x.card == act.monster)
        g.events.append(E.Chase(act.seat, act.monster))
        g.remove_monster(c, m, keep_treasure=True)


hook("deluxe.wannabe_vampire")(WannabeVampire())


class TongueDemon(CardHook):
    def before_combat(self, g: Game, c: Combat, m: MonsterIn) -> Frame | None:
        p = g.players[c.fighter]
        if not p.items:
            return None
        return TongueDemonToll(p.seat)


@dataclass(slots=True)
class TongueDemonToll(Step):
    """The Tongue Demon: the fighter discards an Item before the fight."""

    seat: int

    def start(self, g: Game, _: Any) -> Out:
        p = g.players[self.seat]
        return self.then("chosen", g.choose_card(p.seat, p.items, "discard an Item before fighting the Tongue Demon"))

    def chosen(self, g: Game, k: int) -> Out:
        g.lose_card(g.players[self.seat], k, "Tongue Demon")
        return Done()


hook("deluxe.tongue_demon")(TongueDemon())


class StonedGolem(CardHook):
    def before_combat(self, g: Game, c: Combat, m: MonsterIn) -> Frame | None:
        p = g.players[c.fighter]
        if "halfling" in g.race_names(p):
            return None
        return GolemWalkPast(p.seat, m.card)


@dataclass(slots=True)
class GolemWalkPast(Step):
    """The Stoned Golem: anyone but a Halfling may simply walk past it."""

    CARDS = ("monster",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    monster: int

    def start(self, g: Game, _: Any) -> Out:
        acts = (Action(A.PASS, self.seat), Action(A.DECLINE, self.seat, self.monster))
        return self.then("answered", D.Before((self.seat,), self.monster, tuple(acts)))

    def answered(self, g: Game, act: Action) -> Out:
        if act.kind == A.DECLINE:
            c = g.combat
            assert c is not None
            c.monsters.clear()
            c.ended = True
            g.events.append(E.WalkPast(self.seat, self.monster))
        return Done()


hook("deluxe.stoned_golem")(StonedGolem())


# ------------------------------------------------------------------ Bad Stuff
@hook("deluxe.snails_on_speed_bad_stuff")
def snails(g: Game, p: Player, card: int) -> Frame:
    return Snails(p.seat)


@dataclass(slots=True)
class Snails(Step):
    """Snails on Speed: roll the die; lose that many Items or cards in hand, of your choice."""

    seat: int
    left: int = 0  # how many more to lose

    def start(self, g: Game, _: Any) -> Out:
        return self.then("rolled", g.die_roll(g.players[self.seat], "Snails on Speed", best=1))

    def rolled(self, g: Game, die: int) -> Out:
        self.left = max(0, die + g.die_modifier(g.players[self.seat]))
        return self.lose_one(g, None)

    def lose_one(self, g: Game, _: Any) -> Out:
        if self.left <= 0:
            return Done(True)
        self.left -= 1
        p = g.players[self.seat]
        opts = p.items + p.hand
        if not opts:
            return Done(True)
        return self.then("chosen", g.choose_card(p.seat, opts, "lose an Item or a card in hand to the Snails"))

    def chosen(self, g: Game, k: int) -> Out:
        g.lose_card(g.players[self.seat], k, "Snails on Speed")
        return self.lose_one(g, None)


@hook("deluxe.leperchaun_bad_stuff")
def leperchaun(g: Game, p: Player, card: int) -> Frame:
    return Leperchaun(p.seat)


@dataclass(slots=True)
class Leperchaun(Step):
    """The Leperchaun: each neighbour in turn (left, then right) picks an Item the victim loses."""

    seat: int
    i: int = 0  # which neighbour next: 0 the left one, 1 the right one
    did: bool = False

    def start(self, g: Game, _: Any) -> Out:
        p = g.players[self.seat]
        while self.i < 2:
            s = _neighbour(g, p.seat, (1, -1)[self.i])
            self.i += 1
            if s == p.seat or not p.items:
                continue
            return self.then("chosen", g.choose_card(s, p.items, f"choose an Item {p.name} loses to the Leperchaun"))
        return Done(self.did)

    def chosen(self, g: Game, k: int) -> Out:
        g.lose_card(g.players[self.seat], k, "Leperchaun")
        self.did = True
        return self.start(g, None)


@hook("deluxe.platycore_bad_stuff")
def platycore(g: Game, p: Player, card: int) -> Frame | bool:
    if not p.hand:
        g.lose_levels(p, 2, "Platycore")
        return True
    return Platycore(p.seat, card)


@dataclass(slots=True)
class Platycore(Step):
    """The Platycore: discard your whole hand, or lose 2 Levels (your choice)."""

    CARDS = ("card",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    card: int

    def start(self, g: Game, _: Any) -> Out:
        return self.then("chosen", choose_option(g, self.seat, self.card, ["to discard your hand", "to lose 2 levels"]))

    def chosen(self, g: Game, i: int) -> Out:
        p = g.players[self.seat]
        if i == 0:
            for k in list(p.hand):
                g.lose_card(p, k, "Platycore")
        else:
            g.lose_levels(p, 2, "Platycore")
        return Done(True)


@hook("deluxe.lawyers_bad_stuff")
def lawyers_bad(g: Game, p: Player, card: int) -> bool:
    n = len(g.players)
    for i in range(1, n):
        q = g.players[(p.seat + i) % n]
        if q.dead or not p.hand:
            continue
        k = g.pick_card(q.seat, p.hand)
        p.hand.remove(k)
        g.give_card(q, k)
        g.events.append(E.TakesFromHand(q.seat, p.seat))
    for k in list(p.hand):
        g.lose_card(p, k, "Lawyers")
    return True


@hook("deluxe.3872_orcs_bad_stuff")
def orcs(g: Game, p: Player, card: int) -> Frame:
    return Orcs(p.seat)


@dataclass(slots=True)
class Orcs(Step):
    """3,872 Orcs: roll the die; on 1 or 2 they stomp you to death, else you lose that many Levels."""

    seat: int

    def start(self, g: Game, _: Any) -> Out:
        return self.then("rolled", g.die_roll(g.players[self.seat], "3,872 Orcs", best=3))

    def rolled(self, g: Game, die: int) -> Out:
        p = g.players[self.seat]
        n = die + g.die_modifier(p)
        if n <= 2:
            return self.then("stomped", g.kill_player(p, "stomped by 3,872 Orcs"))
        g.lose_levels(p, n, "3,872 Orcs")
        return Done(True)

    def stomped(self, g: Game, _: Any) -> Out:
        return Done(True)


@hook("deluxe.net_troll_bad_stuff")
def net_troll(g: Game, p: Player, card: int) -> Frame | bool:
    others = tuple(q.seat for q in g.players if q is not p and not q.dead)
    if not others:
        return False
    return NetTroll(p.seat, others, max(g.players[s].level for s in others))


@dataclass(slots=True)
class NetTroll(Step):
    """The Net Troll: each player of the highest Level (the victim aside) takes an Item of the victim's."""

    seat: int
    others: tuple[int, ...]  # the other living players, in seat order
    top: int  # their highest Level when the Bad Stuff struck
    i: int = 0  # the next of them
    taker: int = -1
    did: bool = False

    def start(self, g: Game, _: Any) -> Out:
        p = g.players[self.seat]
        while self.i < len(self.others):
            q = g.players[self.others[self.i]]
            self.i += 1
            if q.level == self.top and p.items:
                self.taker = q.seat
                return self.then("taken", g.choose_card(q.seat, p.items, f"take an Item from {p.name}"))
        return Done(self.did)

    def taken(self, g: Game, k: int) -> Out:
        g.move_item(g.players[self.seat], g.players[self.taker], k)
        g.events.append(E.TakeItem(self.taker, self.seat, k))
        self.did = True
        return self.start(g, None)


@hook("deluxe.unspeakably_awful_indescribable_horror_bad_stuff")
def horror(g: Game, p: Player, card: int) -> bool:
    wiz = [k for k in p.classes if g.cdef[k].name == "Wizard"]
    for k in wiz:
        g.lose_card(p, k, "Unspeakably Awful Indescribable Horror")
    return bool(wiz)


@hook("deluxe.hippogriff_bad_stuff")
def hippogriff(g: Game, p: Player, card: int) -> Frame:
    return Hippogriff(p.seat)


@dataclass(slots=True)
class Hippogriff(Step):
    """The Hippogriff: each other player, to the victim's right first, takes a Treasure of the
    victim's (chosen from those in play, else drawn blind from the hand)."""

    seat: int
    i: int = 1  # how many seats to the right the next taker sits
    taker: int = -1
    did: bool = False

    def start(self, g: Game, _: Any) -> Out:
        p = g.players[self.seat]
        n = len(g.players)
        while self.i < n:
            q = g.players[(p.seat - self.i) % n]
            self.i += 1
            if q.dead:
                continue
            opts = [k for k in p.items if g.cdef[k].deck == "treasure"]
            hand_t = [k for k in p.hand if g.cdef[k].deck == "treasure"]
            if not opts and not hand_t:
                break
            self.taker = q.seat
            if opts:
                return self.then("chosen", g.choose_card(q.seat, opts, f"take a Treasure from {p.name}"))
            k = g.pick_card(q.seat, hand_t)
            p.hand.remove(k)
            self.give(g, k)
        return Done(self.did)

    def chosen(self, g: Game, k: int) -> Out:
        g.remove_from_play(g.players[self.seat], k)
        self.give(g, k)
        return self.start(g, None)

    def give(self, g: Game, k: int) -> None:
        g.give_card(g.players[self.taker], k)
        g.events.append(E.TakeItem(self.taker, self.seat, k))
        self.did = True


# ------------------------------------------------------------------ Items
class SandalsOfProtection(CardHook):
    def stops_drawn_curses(self, g: Game, p: Player) -> bool:
        return True


class KneepadsOfAllure(CardHook):
    def compels_help(self, g: Game, p: Player, helper: Player) -> bool:
        return helper.level < p.level  # a lower-Level player


class TubaOfCharm(CardHook):
    def on_escape(self, g: Game, p: Player) -> None:
        g.draw_to_hand(p, "treasure", 1)


hook("deluxe.sandals_of_protection")(SandalsOfProtection())
hook("deluxe.kneepads_of_allure")(KneepadsOfAllure())
hook("deluxe.tuba_of_charm")(TubaOfCharm())


class RatOnAStick(CardHook):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        run, c = g.listing, g.combat
        if not isinstance(run, D.Run) or c is None:
            return []
        remaining = [m for m in c.monsters if m.card in run.monsters]
        return [Action(A.USE, seat, card, monster=m.card) for m in remaining if g.monster_strength(c, m) <= 8]

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        p = g.players[act.seat]
        g.lose_card(p, act.card, "escaping")
        g.events.append(E.Escape(act.seat, act.monster, "Rat on a Stick"))
        for m in list(c.monsters):
            if m.card == act.monster:
                c.monsters.remove(m)


hook("deluxe.rat_on_a_stick")(RatOnAStick())


# ------------------------------------------------------------------ one-shots
class Bonus(CardHook):
    """A plain +N one-shot with an extra use (Potion of Halitosis on the Floating Nose)."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        c = g.combat
        if not _in_combat_window(g) or c is None:
            return []
        out = [Action(A.PLAY, seat, card, c.fighter)]
        out += [Action(A.PLAY, seat, card, monster=m.card) for m in c.monsters]
        return out

    def apply(self, g: Game, act: Action) -> Frame | None:
        c = g.combat
        assert c is not None
        d = g.cdef[act.card]
        if act.monster >= 0 and g.cdef[act.monster].hook == "deluxe.floating_nose":
            g.spend(g.players[act.seat], act.card)
            m = next(x for x in c.monsters if x.card == act.monster)
            c.extra_levels += g.cdef[m.base].levels
            g.events.append(E.Slay(act.seat, act.monster, act.card))
            g.remove_monster(c, m, keep_treasure=True)
            return None
        _ = d
        return g.do_combat_action(Action(A.PLAY, act.seat, act.card, act.target, act.monster, flag="plain"))


hook("deluxe.potion_of_halitosis")(Bonus())


class YuppieWater(CardHook):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        c = g.combat
        if not _in_combat_window(g) or c is None:
            return []
        if any("elf" in g.race_names(g.players[f]) for f in c.fighters()):
            return [Action(A.PLAY, seat, card, c.fighter)]
        return []

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        g.remove_from_play(g.players[act.seat], act.card)
        c.played.append(act.card)
        elves = sum(1 for f in c.fighters() if "elf" in g.race_names(g.players[f]))
        c.side.append((act.card, act.seat, 2 * elves))
        g.events.append(E.OneShot(act.seat, act.card, act.target, -1))


hook("deluxe.yuppie_water")(YuppieWater())


class Doppleganger(CardHook):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        c = g.combat
        if not _in_combat_window(g) or c is None or c.fighter != seat or c.helper >= 0 or c.doppleganger >= 0:
            return []
        return [Action(A.PLAY, seat, card)]

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        g.remove_from_play(g.players[act.seat], act.card)
        c.played.append(act.card)
        c.doppleganger = act.seat
        c.bonus_used = True
        g.events.append(E.Play(act.seat, act.card))


hook("deluxe.doppleganger")(Doppleganger())


class FriendshipPotion(CardHook):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        return [Action(A.PLAY, seat, card)] if _in_combat_window(g) else []

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        g.remove_from_play(g.players[act.seat], act.card)
        c.played.append(act.card)
        c.monsters.clear()
        c.ended = True
        g.events.append(E.Friendship(act.seat, act.card))


hook("deluxe.friendship_potion")(FriendshipPotion())


class RemoveOne(CardHook):
    """Magic Lamp (own turn; Treasure if it was the last monster) and Pollymorph Potion."""

    def __init__(self, own_turn: bool, always_treasure: bool) -> None:
        self.own_turn = own_turn
        self.always = always_treasure

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        c = g.combat
        if c is None or not _in_combat_window(g) or (self.own_turn and seat != g.active):
            return []
        return [Action(A.PLAY, seat, card, monster=m.card) for m in c.monsters if m.mate_of is None]

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        g.remove_from_play(g.players[act.seat], act.card)
        c.played.append(act.card)
        m = next(x for x in c.monsters if x.card == act.monster)
        keep = self.always or len([x for x in c.monsters if x is not m and x.mate_of is not m]) == 0
        g.events.append(E.Remove(act.seat, act.monster, act.card))
        g.remove_monster(c, m, keep_treasure=keep)


hook("deluxe.magic_lamp")(RemoveOne(own_turn=True, always_treasure=False))
hook("deluxe.pollymorph_potion")(RemoveOne(own_turn=False, always_treasure=True))


class TransferralPotion(CardHook):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        c = g.combat
        if c is None or not _in_combat_window(g):
            return []
        return [Action(A.PLAY, seat, card, q.seat) for q in g.players if not q.dead and q.seat not in c.fighters()]

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        g.remove_from_play(g.players[act.seat], act.card)
        c.played.append(act.card)
        g.events.append(E.Transfer(act.seat, c.fighter, act.target))
        c.fighter = act.target
        c.helper = -1
        c.asked = set()
        c.backstabs.clear()
        c.berserk.clear()
        c.turning.clear()
        c.doppleganger = -1
        g.transferred = True


hook("deluxe.transferral_potion")(TransferralPotion())


class InstantWall(CardHook):
    """Instant Wall (Smoke Screen): both fighters escape automatically, or one of them (your choice)."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if not isinstance(g.listing, D.Run) or g.combat is None:
            return []
        out = [Action(A.PLAY, seat, card)]
        fighters = g.combat.fighters()
        if len(fighters) > 1:
            out += [Action(A.PLAY, seat, card, f, flag="only") for f in fighters]
        return out

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        g.spend(g.players[act.seat], act.card)
        for f in c.fighters():
            if act.flag != "only" or f == act.target:
                c.escapes.add(f)
        g.events.append(E.Wall(act.seat, act.card, act.target if act.flag == "only" else -1))


hook("deluxe.instant_wall")(InstantWall())


class RollCard(CardHook):
    """Answers to a Run Away roll: Invisibility Potion, Flask of Glue, Loaded Die."""

    def __init__(self, which: str) -> None:
        self.which = which

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        rolled = g.listing
        if not isinstance(rolled, D.Rolled):
            return []
        runner, ok = rolled.runner, rolled.ok
        if self.which == "invisibility" and seat == runner and not ok:
            return [Action(A.PLAY, seat, card, flag="roll")]
        if self.which == "glue" and seat != runner and ok:
            return [Action(A.PLAY, seat, card, runner, flag="roll")]
        if self.which == "loaded" and seat == runner:  # any face but the one rolled
            die = g.roll.die
            return [Action(A.PLAY, seat, card, n=f, flag="face") for f in range(1, 7) if f != die]
        return []

    def sets_die(self) -> bool:
        return self.which == "loaded"

    def apply(self, g: Game, act: Action) -> None:
        g.spend(g.players[act.seat], act.card)
        roll = g.roll
        if self.which == "invisibility":
            roll.escaped = True
        elif self.which == "glue":
            roll.reroll = True
        else:
            roll.die = act.n
        g.events.append(E.Play(act.seat, act.card))


hook("deluxe.invisibility_potion")(RollCard("invisibility"))
hook("deluxe.flask_of_glue")(RollCard("glue"))
hook("deluxe.loaded_die")(RollCard("loaded"))


class WandOfDowsing(CardHook):
    """Wand of Dowsing (Salvage Scanner): at any time, any one card from the discards."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if not (g.listing is D.FREE or g.listing is D.IN_WINDOW) or not (g.door_discard or g.treasure_discard):
            return []
        return [Action(A.PLAY, seat, card)]

    def apply(self, g: Game, act: Action) -> Frame:
        return Dowse(act.seat, act.card)


@dataclass(slots=True)
class Dowse(Step):
    """Wand of Dowsing: take any one card from the discards."""

    CARDS = ("card",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    card: int

    def start(self, g: Game, _: Any) -> Out:
        g.remove_from_play(g.players[self.seat], self.card)
        g.limbo.append(self.card)
        pool = g.door_discard + g.treasure_discard
        return self.then("chosen", g.choose_card(self.seat, pool, "take a card from the discards"))

    def chosen(self, g: Game, k: int) -> Out:
        (g.door_discard if k in g.door_discard else g.treasure_discard).remove(k)
        g.limbo.remove(self.card)
        g.discard(self.card)
        g.give_card(g.players[self.seat], k)
        g.events.append(E.Dowse(self.seat, k, self.card))
        return Done()


hook("deluxe.wand_of_dowsing")(WandOfDowsing())


class WishingRing(CardHook):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if isinstance(g.listing, D.CurseWindow):
            return []
        out = []
        for q in g.players:
            for k in q.curses:
                out.append(Action(A.PLAY, seat, card, monster=k))
        return out

    def apply(self, g: Game, act: Action) -> None:
        g.spend(g.players[act.seat], act.card)
        for q in g.players:
            if act.monster in q.curses:
                g.lose_card(q, act.monster, g.cdef[act.card].name)


hook("deluxe.wishing_ring")(WishingRing())


# ------------------------------------------------------------------ other Treasures
class LevelCard(CardHook):
    """Go Up a Level cards with a condition, and Steal a Level."""

    def __init__(self, which: str) -> None:
        self.which = which

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        out = []
        for q in g.players:
            if q.dead:
                continue
            if self.which == "steal":
                if q.seat != seat and g.players[seat].level < WINNING_LEVEL - 1:
                    out.append(Action(A.PLAY, seat, card, q.seat))
            elif self.which in ("kill_hireling", "kill_sidekick"):
                if g.players[seat].level < WINNING_LEVEL - 1 and q.sidekicks:  # name the Sidekick when there are two
                    many = len(q.sidekicks) > 1
                    out += [Action(A.PLAY, seat, card, q.seat, monster=k if many else -1) for k in q.sidekicks]
            elif self.which == "whine":
                top = max(x.level for x in g.players)
                if q.level < top and q.level < WINNING_LEVEL - 1:
                    out.append(Action(A.PLAY, seat, card, q.seat))
        return out

    def apply(self, g: Game, act: Action) -> None:
        p = g.players[act.seat]
        q = g.players[act.target]
        p.hand.remove(act.card)
        g.discard(act.card)
        g.events.append(E.Play(act.seat, act.card))
        if self.which == "steal":
            if g.lose_levels(q, 1, g.cdef[act.card].name):
                g.gain_levels(p, 1, g.cdef[act.card].name)
        elif self.which == "kill_hireling":
            # the target owns the Sidekick (or Hireling); the player of the card gains the Level
            g.lose_card(q, act.monster if act.monster >= 0 else q.sidekicks[0], g.cdef[act.card].name)
            g.gain_levels(p, 1, g.cdef[act.card].name)
        elif self.which == "kill_sidekick":
            # the Good, the Bad, and the Munchkin: a Sidekick killed leaves its Items to its owner
            k = act.monster if act.monster >= 0 else q.sidekicks[0]
            q.carried.pop(k, None)
            g.lose_card(q, k, g.cdef[act.card].name)
            g.gain_levels(p, 1, g.cdef[act.card].name)
        else:
            g.gain_levels(q, 1, g.cdef[act.card].name)


hook("deluxe.steal_a_level")(LevelCard("steal"))
hook("deluxe.kill_the_hireling")(LevelCard("kill_hireling"))
hook("deluxe.whine_at_the_gm")(LevelCard("whine"))


class Hoard(CardHook):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        return [Action(A.PLAY, seat, card)] if g.combat is None else []

    def apply(self, g: Game, act: Action) -> None:
        p = g.players[act.seat]
        p.hand.remove(act.card)
        g.discard(act.card)
        g.events.append(E.Play(act.seat, act.card))
        g.draw_to_hand(p, "treasure", 3)


hook("deluxe.hoard")(Hoard())

_ = CHOOSE
