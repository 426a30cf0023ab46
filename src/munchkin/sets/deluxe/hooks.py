"""Hooks for the Munchkin Deluxe cards whose effects neither the vocabulary nor the shared hook
library (`munchkin.cards.library`) can say: its monsters' specials and Bad Stuff, and a few cards
no other edition prints.

A hook that needs no decision does its work at once and returns None (or, for a Curse's or Bad
Stuff's effect, whether it did anything). One that waits on a decision returns a step, a small
record of plain data defined beside it (`Snails`, `Platycore`, ...), which the engine resumes
stage by stage.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from munchkin.cards.hooks import CardHook
from munchkin.cards.library.common import choose_option, escape_one, in_combat_window, neighbour, uniq
from munchkin.cards.loader import hook
from munchkin.engine import actions as A
from munchkin.engine import changes, characters, combat, curses, death, play, resolve, vocabulary
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.flow import Done, Frame, Out, Step
from munchkin.engine.rules import WINNING_LEVEL, as_written
from munchkin.engine.state import CHOOSE, MonsterIn

if TYPE_CHECKING:
    from munchkin.engine.game import Game
    from munchkin.engine.state import Combat, Player


# ------------------------------------------------------------------ drawn
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
                changes.gain_levels(g, q, 1, "Divine Intervention", may_win=True, declare=False)
                if q.level >= WINNING_LEVEL:
                    winners.append(q.seat)
        if winners and not g.over:  # every Cleric who reached the winning Level wins, announced once
            changes.declare_winner(g, winners)


hook("deluxe.divine_intervention")(DivineIntervention())


# ------------------------------------------------------------------ curses
class MalignMirror(CardHook):
    def only_armor(self, g: Game, p: Player) -> bool:
        return True


hook("deluxe.malign_mirror")(MalignMirror())


# ------------------------------------------------------------------ monsters
class PitBull(CardHook):
    def flee_actions(self, g: Game, p: Player, c: Combat, m: MonsterIn) -> list[Action]:
        wands = [k for k in p.items if "wand_pole_staff" in g.cdef[k].tags and (g.cdef[k].is_item or as_written(g))]
        for k in wands:  # a Wand of Dowsing
            vocabulary.used(f"{g.cdef[k].kind}.tags", "wand_pole_staff")
        return [Action(A.USE, p.seat, k, monster=m.card, flag="monster") for k in wands]

    def apply(self, g: Game, act: Action) -> None:
        escape_one(g, act, "distracting the Pit Bull", "distracted it")


hook("deluxe.pit_bull")(PitBull())


class LargeAngryChicken(CardHook):
    def extra_levels(self, g: Game, c: Combat, m: MonsterIn) -> int:
        fire = any("fire" in g.cdef[k].tags for (k, _, _) in c.side)
        if fire:
            vocabulary.used("one_shot.tags", "fire")
        for f in c.fighters():
            p = g.players[f]
            if any("fire" in g.cdef[k].tags and characters.can_use(g, p, k) for k in p.equipped):
                vocabulary.used("item.tags", "fire")
                fire = True
        return 1 if fire else 0


hook("deluxe.large_angry_chicken")(LargeAngryChicken())


class Pukachu(CardHook):
    def extra_levels(self, g: Game, c: Combat, m: MonsterIn) -> int:
        p = g.players[c.fighter]
        if c.helper >= 0 or c.side or c.bonus_used:
            return 0
        s = combat.char_strength(g, c, p)
        if as_written(g):  # "no bonuses": a penalty (a backstab, a Curse's minus) is not one
            s += 2 * sum(1 for _, v in c.backstabs if v == p.seat) - min(curses.curse_bonus(g, p), 0)
        return 1 if s == p.level else 0


hook("deluxe.pukachu")(Pukachu())


class Lawyers(CardHook):
    """Will not attack a Thief, who may swap two Treasures from the hand for two new ones."""

    def before_combat(self, g: Game, c: Combat, m: MonsterIn) -> Frame | None:
        p = g.players[c.fighter]
        if "thief" not in characters.race_names(g, p) + characters.class_names(g, p):
            return None
        treasures = [k for k in p.hand if g.cdef[k].deck == "treasure"]
        if len(treasures) < 2:
            return None
        pick = uniq(g, treasures)
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
                changes.spend(g, p, k)
            g.draw_to_hand(p, "treasure", 2)
        return Done()


hook("deluxe.lawyers")(Lawyers())


class FloatingNose(CardHook):
    def before_combat(self, g: Game, c: Combat, m: MonsterIn) -> Frame | None:
        p = g.players[c.fighter]
        bribes = uniq(g, [k for k in p.items if g.cdef[k].gold >= 200])
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
            changes.lose_card(g, g.players[self.seat], act.card, "bribing the Floating Nose")
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

    def apply(self, g: Game, act: Action) -> Frame | None:
        c = g.combat
        assert c is not None
        m = next(x for x in c.monsters if x.card == act.monster)
        g.events.append(E.Chase(act.seat, act.monster))
        return play.remove_monster(g, c, m, keep_treasure=True)


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
        return self.then(
            "chosen", resolve.choose_card(g, p.seat, p.items, "discard an Item before fighting the Tongue Demon")
        )

    def chosen(self, g: Game, k: int) -> Out:
        changes.lose_card(g, g.players[self.seat], k, "Tongue Demon")
        return Done()


hook("deluxe.tongue_demon")(TongueDemon())


class StonedGolem(CardHook):
    def before_combat(self, g: Game, c: Combat, m: MonsterIn) -> Frame | None:
        p = g.players[c.fighter]
        if "halfling" in characters.race_names(g, p):
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
        return self.then("rolled", resolve.die_roll(g, g.players[self.seat], "Snails on Speed", best=1))

    def rolled(self, g: Game, die: int) -> Out:
        self.left = max(0, die + play.die_modifier(g, g.players[self.seat]))
        return self.lose_one(g, None)

    def lose_one(self, g: Game, _: Any) -> Out:
        if self.left <= 0:
            return Done(True)
        self.left -= 1
        p = g.players[self.seat]
        opts = p.items + p.hand
        if not opts:
            return Done(True)
        return self.then("chosen", resolve.choose_card(g, p.seat, opts, "lose an Item or a card in hand to the Snails"))

    def chosen(self, g: Game, k: int) -> Out:
        changes.lose_card(g, g.players[self.seat], k, "Snails on Speed")
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
            s = neighbour(g, p.seat, (1, -1)[self.i])
            self.i += 1
            if s == p.seat or not p.items:
                continue
            return self.then(
                "chosen", resolve.choose_card(g, s, p.items, f"choose an Item {p.name} loses to the Leperchaun")
            )
        return Done(self.did)

    def chosen(self, g: Game, k: int) -> Out:
        changes.lose_card(g, g.players[self.seat], k, "Leperchaun")
        self.did = True
        return self.start(g, None)


@hook("deluxe.platycore_bad_stuff")
def platycore(g: Game, p: Player, card: int) -> Frame | bool:
    if not p.hand:  # "discard your whole hand" costs an empty hand nothing: that is the choice
        if not as_written(g):  # older rules: the Levels were lost
            changes.lose_levels(g, p, 2, "Platycore")
            return True
        return False
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
                changes.lose_card(g, p, k, "Platycore")
        else:
            changes.lose_levels(g, p, 2, "Platycore")
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
        changes.lose_card(g, p, k, "Lawyers")
    return True


@hook("deluxe.3872_orcs_bad_stuff")
def orcs(g: Game, p: Player, card: int) -> Frame:
    return Orcs(p.seat)


@dataclass(slots=True)
class Orcs(Step):
    """3,872 Orcs: roll the die; on 1 or 2 they stomp you to death, else you lose that many Levels."""

    seat: int

    def start(self, g: Game, _: Any) -> Out:
        return self.then("rolled", resolve.die_roll(g, g.players[self.seat], "3,872 Orcs", best=3))

    def rolled(self, g: Game, die: int) -> Out:
        p = g.players[self.seat]
        n = die + play.die_modifier(g, p)
        if n <= 2:
            return self.then("stomped", death.kill_player(g, p, "stomped by 3,872 Orcs"))
        changes.lose_levels(g, p, n, "3,872 Orcs")
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
                return self.then("taken", resolve.choose_card(g, q.seat, p.items, f"take an Item from {p.name}"))
        return Done(self.did)

    def taken(self, g: Game, k: int) -> Out:
        changes.move_item(g, g.players[self.seat], g.players[self.taker], k)
        if as_written(g):
            changes.curses_go_with(g, g.players[self.seat], k)  # the Chicken goes with the Headgear
        g.events.append(E.TakeItem(self.taker, self.seat, k))
        self.did = True
        return self.start(g, None)


@hook("deluxe.unspeakably_awful_indescribable_horror_bad_stuff")
def horror(g: Game, p: Player, card: int) -> bool:
    wiz = [k for k in p.classes if g.cdef[k].name == "Wizard"]
    for k in wiz:
        changes.lose_card(g, p, k, "Unspeakably Awful Indescribable Horror")
    return bool(wiz)


@hook("deluxe.hippogriff_bad_stuff")
def hippogriff(g: Game, p: Player, card: int) -> Frame:
    return Hippogriff(p.seat, card)


@dataclass(slots=True)
class Hippogriff(Step):
    """The Hippogriff: each other player, to the victim's right first, takes a Treasure of the
    victim's: one of those in play (their choice) or one unseen from the hand, as the taker chooses."""

    CARDS = ("card",)  # fields holding card numbers (see Step.CARDS)

    seat: int
    card: int = -1  # the Hippogriff
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
            if opts and hand_t and as_written(g):  # from the table, or unseen from the hand: the taker's choice
                where = ["to take a Treasure in play", "to take a Treasure unseen from the hand"]
                return self.then("source", choose_option(g, q.seat, self.card, where))
            if opts:
                return self.source(g, 0)
            self.blind(g)
        return Done(self.did)

    def source(self, g: Game, i: int) -> Out:
        if i == 0:
            p = g.players[self.seat]
            opts = [k for k in p.items if g.cdef[k].deck == "treasure"]
            return self.then("chosen", resolve.choose_card(g, self.taker, opts, f"take a Treasure from {p.name}"))
        self.blind(g)
        return self.start(g, None)

    def blind(self, g: Game) -> None:
        p = g.players[self.seat]
        k = g.pick_card(self.taker, [k for k in p.hand if g.cdef[k].deck == "treasure"])
        p.hand.remove(k)
        self.give(g, k)

    def chosen(self, g: Game, k: int) -> Out:
        p = g.players[self.seat]
        changes.remove_from_play(g, p, k)
        if as_written(g):
            changes.curses_go_with(g, p, k)  # "takes your Headgear": the Chicken On Your Head goes too
        self.give(g, k)
        return self.start(g, None)

    def give(self, g: Game, k: int) -> None:
        g.give_card(g.players[self.taker], k)
        g.events.append(E.TakeItem(self.taker, self.seat, k))
        self.did = True


# ------------------------------------------------------------------ one-shots
class Bonus(CardHook):
    """A plain +N one-shot with an extra use (Potion of Halitosis on the Floating Nose)."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        c = g.combat
        if not in_combat_window(g) or c is None:
            return []
        out = [Action(A.PLAY, seat, card, c.fighter)]
        out += [Action(A.PLAY, seat, card, monster=m.card) for m in c.monsters]
        return out

    def apply(self, g: Game, act: Action) -> Frame | None:
        c = g.combat
        assert c is not None
        d = g.cdef[act.card]
        if act.monster >= 0 and g.cdef[act.monster].hook == "deluxe.floating_nose":
            changes.spend(g, g.players[act.seat], act.card)
            m = next(x for x in c.monsters if x.card == act.monster)
            c.extra_levels += g.cdef[m.base].levels
            g.events.append(E.Slay(act.seat, act.monster, act.card))
            return play.remove_monster(g, c, m, keep_treasure=True)
        _ = d
        return play.do_combat_action(g, Action(A.PLAY, act.seat, act.card, act.target, act.monster, flag="plain"))


hook("deluxe.potion_of_halitosis")(Bonus())


class YuppieWater(CardHook):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        c = g.combat
        if not in_combat_window(g) or c is None:
            return []
        if any("elf" in characters.race_names(g, g.players[f]) for f in c.fighters()):
            return [Action(A.PLAY, seat, card, c.fighter)]
        return []

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        changes.remove_from_play(g, g.players[act.seat], act.card)
        c.played.append(act.card)
        elves = sum(1 for f in c.fighters() if "elf" in characters.race_names(g, g.players[f]))
        c.side.append((act.card, act.seat, 2 * elves))
        g.events.append(E.OneShot(act.seat, act.card, act.target, -1))


hook("deluxe.yuppie_water")(YuppieWater())


_ = CHOOSE
