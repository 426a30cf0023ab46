"""Hooks for the Munchkin Deluxe cards whose effects the vocabulary cannot say."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from munchkin.cards.hooks import CardHook
from munchkin.cards.loader import hook
from munchkin.engine import actions as A
from munchkin.engine.actions import Action
from munchkin.engine.state import BEFORE, CHOOSE, MonsterIn, Prompt

if TYPE_CHECKING:
    from munchkin.engine.game import Game
    from munchkin.engine.state import Combat, Player

Flow = Generator[Any, Any, Any]  # a rule not yet written as a step: yields a Prompt or a frame to call


def _in_combat_window(g: Game) -> bool:
    return g.combat is not None and g.ctx == "window"


def _own_turn_free(g: Game, seat: int) -> bool:
    return g.combat is None and seat == g.active and g.ctx == "free"


def _spend(g: Game, seat: int, card: int) -> None:
    g.spend(g.players[seat], card)


def choose_option(g: Game, seat: int, source: int, options: list[str]) -> Flow:
    """Ask a seat to pick one of several worded options; returns its index."""
    acts = tuple(Action(A.CHOOSE, seat, -1, monster=source, flag=o) for o in options)
    act = yield Prompt(BEFORE, (seat,), (source, acts))
    return options.index(act.flag)


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

    def apply(self, g: Game, act: Action) -> Flow:
        p = g.players[act.seat]
        p.hand.remove(act.card)
        if self.kind == "race":
            p.half_breed = act.card
        elif self.kind == "role":
            p.dual_role = act.card
        else:
            p.super_munchkin = act.card
        g.events.append(("play", act.seat, act.card))
        return
        yield


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
        if self.sidekicks and g.ctx in ("free", "window"):
            kicks = p.sidekicks + [c for c in p.hand if g.cdef[c].is_sidekick]
            out += [Action(A.PLAY, seat, card, cards=(c,), flag="with") for c in _uniq(g, kicks)]
        return out

    def apply(self, g: Game, act: Action) -> Flow:
        p = g.players[act.seat]
        p.hand.remove(act.card)
        item = act.cards[0]
        p.cheat, p.cheat_item = act.card, item
        if g.cdef[item].is_sidekick:
            if item in p.hand:
                p.hand.remove(item)
                p.sidekicks.append(item)
            g.events.append(("play", act.seat, act.card))
            return
        if item in p.hand:
            p.hand.remove(item)
            p.items.append(item)
        p.equipped.add(item)
        g.events.append(("play", act.seat, act.card))
        return
        yield


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

    def apply(self, g: Game, act: Action) -> Flow:
        c = g.combat
        assert c is not None
        p = g.players[act.seat]
        p.hand.remove(act.card)
        mon = act.cards[0]
        p.hand.remove(mon)
        c.played += [act.card, mon]
        c.monsters.append(MonsterIn(mon))
        g.events.append(("join", act.seat, mon, "Wandering Monster"))
        return
        yield


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

    def apply(self, g: Game, act: Action) -> Flow:
        c = g.combat
        assert c is not None
        g.players[act.seat].hand.remove(act.card)
        orig = next(m for m in c.monsters if m.card == act.monster)
        c.monsters.append(MonsterIn(act.card, mate_of=orig))
        c.played.append(act.card)
        g.events.append(("mate", act.seat, act.monster, self.word))
        return
        yield


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

    def apply(self, g: Game, act: Action) -> Flow:
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
        g.events.append(("illusion", act.seat, act.monster, new, act.card))
        return
        yield


hook("deluxe.illusion")(Illusion())


class OutToLunch(_CombatCard):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        return [Action(A.PLAY, seat, card)] if self.legal_here(g, seat) else []

    def apply(self, g: Game, act: Action) -> Flow:
        c = g.combat
        assert c is not None
        g.players[act.seat].hand.remove(act.card)
        c.played.append(act.card)
        c.monsters.clear()
        c.ended = True
        g.events.append(("out_to_lunch", act.seat, c.fighter, act.card))
        g.draw_to_hand(g.players[c.fighter], "treasure", 2)
        return
        yield


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

    def apply(self, g: Game, act: Action) -> Flow:
        c = g.combat
        assert c is not None
        p = g.players[act.seat]
        p.hand.remove(act.card)
        c.played.append(act.card)
        q = g.players[act.target]
        it = act.cards[0]
        g.move_item(q, p, it)
        p.equipped.add(it)
        g.events.append(("take_item", act.seat, act.target, it))
        return
        yield


hook("deluxe.help_me_out_here")(HelpMeOutHere())


class DivineIntervention(CardHook):
    """Acts the moment anyone draws it, however: every Cleric goes up a level, even to win."""

    def on_draw(self, g: Any, p: Player, card: int) -> bool:
        g.events.append(("divine", p.seat, card))
        self._raise_clerics(g)
        return True

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        return [Action(A.PLAY, seat, card)]  # if it reached a hand some other way

    def apply(self, g: Game, act: Action) -> Flow:
        g.players[act.seat].hand.remove(act.card)
        g.discard(act.card)
        g.events.append(("play", act.seat, act.card))
        self._raise_clerics(g)
        return
        yield

    def _raise_clerics(self, g: Game) -> None:
        winners = []
        for q in g.players:
            if any(g.cdef[k].name == "Cleric" for k in q.classes):
                g.gain_levels(q, 1, "Divine Intervention", may_win=True)
                if q.level >= 10:
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
def _change_kind(g: Game, p: Player, card: int, kind: str) -> Flow:
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
        g.events.append(("play", p.seat, found))
    return True
    yield


@hook("deluxe.change_race")
def change_race(g: Game, p: Player, card: int) -> Flow:
    return _change_kind(g, p, card, "race")


@hook("deluxe.change_class")
def change_class(g: Game, p: Player, card: int) -> Flow:
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
def income_tax(g: Game, p: Player, card: int) -> Flow:
    if not p.items:
        return False
    c = yield g.choose_card(p.seat, p.items, "pay Income Tax")
    tax = g.cdef[c].gold
    g.lose_card(p, c, "Income Tax")
    for q in g.players:
        if q is p or q.dead:
            continue
        total = sum(g.cdef[k].gold for k in q.items)
        if total < tax or tax == 0 and not q.items:
            for k in list(q.items):
                g.lose_card(q, k, "Income Tax")
            if total < tax:
                g.lose_levels(q, 1, "Income Tax")
            continue
        paid = 0
        while paid < tax:
            k = yield g.choose_card(q.seat, q.items, f"pay {tax - paid} gold of Income Tax")
            paid += g.cdef[k].gold
            g.lose_card(q, k, "Income Tax")
    return True


def _neighbour(g: Game, seat: int, step: int) -> int:
    n = len(g.players)
    s = (seat + step) % n
    while g.players[s].dead and s != seat:
        s = (s + step) % n
    return s


@hook("deluxe.lose_two_cards")
def lose_two_cards(g: Game, p: Player, card: int) -> Flow:
    if not p.hand:
        return False
    for step in (1, -1):
        s = _neighbour(g, p.seat, step)
        if s == p.seat or not p.hand:
            continue
        k = g.pick_card(s, p.hand)
        p.hand.remove(k)
        g.give_card(g.players[s], k)
        g.events.append(("takes_from_hand", s, p.seat))
    return True
    yield


# ------------------------------------------------------------------ monsters
class PitBull(CardHook):
    def flee_actions(self, g: Game, p: Player, c: Combat, m: MonsterIn) -> list[Action]:
        return [
            Action(A.USE, p.seat, k, monster=m.card, flag="monster")
            for k in p.items
            if "wand_pole_staff" in g.cdef[k].tags
        ]

    def apply(self, g: Game, act: Action) -> Flow:
        c = g.combat
        assert c is not None
        p = g.players[act.seat]
        g.lose_card(p, act.card, "distracting the Pit Bull")
        g.events.append(("escape", act.seat, act.monster, "distracted it"))
        for m in list(c.monsters):
            if m.card == act.monster:
                c.monsters.remove(m)
        return
        yield


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

    def before_combat(self, g: Game, c: Combat, m: MonsterIn) -> Flow:
        p = g.players[c.fighter]
        if "thief" not in g.race_names(p) + g.class_names(p):
            return
        treasures = [k for k in p.hand if g.cdef[k].deck == "treasure"]
        if len(treasures) < 2:
            return
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
        act = yield Prompt(BEFORE, (p.seat,), (m.card, tuple(acts)))
        if act.kind == A.USE:
            for k in act.cards:
                g.spend(p, k)
            g.draw_to_hand(p, "treasure", 2)


hook("deluxe.lawyers")(Lawyers())


class FloatingNose(CardHook):
    def before_combat(self, g: Game, c: Combat, m: MonsterIn) -> Flow:
        p = g.players[c.fighter]
        bribes = _uniq(g, [k for k in p.items if g.cdef[k].gold >= 200])
        if not bribes:
            return
        acts = tuple([Action(A.USE, p.seat, k, monster=m.card) for k in bribes] + [Action(A.DECLINE, p.seat, m.card)])
        act = yield Prompt(BEFORE, (p.seat,), (m.card, acts))
        if act.kind == A.USE:
            g.lose_card(p, act.card, "bribing the Floating Nose")
            c.monsters.clear()
            c.ended = True
            g.events.append(("bribe", p.seat, m.card))


hook("deluxe.floating_nose")(FloatingNose())


class WannabeVampire(CardHook):
    def monster_actions(self, g: Game, seat: int, c: Combat, m: MonsterIn) -> list[Action]:
        if seat not in c.fighters():
            return []
        p = g.players[seat]
        return [Action(A.USE, seat, k, monster=m.card, flag="monster") for k in p.classes if g.cdef[k].name == "Cleric"]

    def apply(self, g: Game, act: Action) -> Flow:
        c = g.combat
        assert c is not None
        m = next(x for x in c.monsters if x.card == act.monster)
        g.events.append(("chase", act.seat, act.monster))
        g.remove_monster(c, m, keep_treasure=True)
        return
        yield


hook("deluxe.wannabe_vampire")(WannabeVampire())


class TongueDemon(CardHook):
    def before_combat(self, g: Game, c: Combat, m: MonsterIn) -> Flow:
        p = g.players[c.fighter]
        if not p.items:
            return
        k = yield g.choose_card(p.seat, p.items, "discard an Item before fighting the Tongue Demon")
        g.lose_card(p, k, "Tongue Demon")


hook("deluxe.tongue_demon")(TongueDemon())


class StonedGolem(CardHook):
    def before_combat(self, g: Game, c: Combat, m: MonsterIn) -> Flow:
        p = g.players[c.fighter]
        if "halfling" in g.race_names(p):
            return
        acts = (Action(A.PASS, p.seat), Action(A.DECLINE, p.seat, m.card))
        act = yield Prompt(BEFORE, (p.seat,), (m.card, acts))
        if act.kind == A.DECLINE:
            c.monsters.clear()
            c.ended = True
            g.events.append(("walk_past", p.seat, m.card))


hook("deluxe.stoned_golem")(StonedGolem())


# ------------------------------------------------------------------ Bad Stuff
@hook("deluxe.snails_on_speed_bad_stuff")
def snails(g: Game, p: Player, card: int) -> Flow:
    n = (yield g.die_roll(p, "Snails on Speed", best=1)) + g.die_modifier(p)
    for _ in range(max(0, n)):
        opts = p.items + p.hand
        if not opts:
            break
        k = yield g.choose_card(p.seat, opts, "lose an Item or a card in hand to the Snails")
        g.lose_card(p, k, "Snails on Speed")
    return True


@hook("deluxe.leperchaun_bad_stuff")
def leperchaun(g: Game, p: Player, card: int) -> Flow:
    did = False
    for step in (1, -1):
        s = _neighbour(g, p.seat, step)
        if s == p.seat or not p.items:
            continue
        k = yield g.choose_card(s, p.items, f"choose an Item {p.name} loses to the Leperchaun")
        g.lose_card(p, k, "Leperchaun")
        did = True
    return did


@hook("deluxe.platycore_bad_stuff")
def platycore(g: Game, p: Player, card: int) -> Flow:
    if not p.hand:
        g.lose_levels(p, 2, "Platycore")
        return True
    i = yield choose_option(g, p.seat, card, ["to discard your hand", "to lose 2 levels"])
    if i == 0:
        for k in list(p.hand):
            g.lose_card(p, k, "Platycore")
    else:
        g.lose_levels(p, 2, "Platycore")
    return True


@hook("deluxe.lawyers_bad_stuff")
def lawyers_bad(g: Game, p: Player, card: int) -> Flow:
    n = len(g.players)
    for i in range(1, n):
        q = g.players[(p.seat + i) % n]
        if q.dead or not p.hand:
            continue
        k = g.pick_card(q.seat, p.hand)
        p.hand.remove(k)
        g.give_card(q, k)
        g.events.append(("takes_from_hand", q.seat, p.seat))
    for k in list(p.hand):
        g.lose_card(p, k, "Lawyers")
    return True
    yield


@hook("deluxe.3872_orcs_bad_stuff")
def orcs(g: Game, p: Player, card: int) -> Flow:
    n = (yield g.die_roll(p, "3,872 Orcs", best=3)) + g.die_modifier(p)
    if n <= 2:
        yield g.kill_player(p, "stomped by 3,872 Orcs")
    else:
        g.lose_levels(p, n, "3,872 Orcs")
    return True


@hook("deluxe.net_troll_bad_stuff")
def net_troll(g: Game, p: Player, card: int) -> Flow:
    others = [q for q in g.players if q is not p and not q.dead]
    if not others:
        return False
    top = max(q.level for q in others)
    did = False
    for q in others:
        if q.level == top and p.items:
            k = yield g.choose_card(q.seat, p.items, f"take an Item from {p.name}")
            g.move_item(p, q, k)
            g.events.append(("take_item", q.seat, p.seat, k))
            did = True
    return did


@hook("deluxe.unspeakably_awful_indescribable_horror_bad_stuff")
def horror(g: Game, p: Player, card: int) -> Flow:
    wiz = [k for k in p.classes if g.cdef[k].name == "Wizard"]
    for k in wiz:
        g.lose_card(p, k, "Unspeakably Awful Indescribable Horror")
    return bool(wiz)
    yield


@hook("deluxe.hippogriff_bad_stuff")
def hippogriff(g: Game, p: Player, card: int) -> Flow:
    n = len(g.players)
    did = False
    for i in range(1, n):
        q = g.players[(p.seat - i) % n]
        if q.dead:
            continue
        opts = [k for k in p.items if g.cdef[k].deck == "treasure"]
        hand_t = [k for k in p.hand if g.cdef[k].deck == "treasure"]
        if not opts and not hand_t:
            break
        if opts:
            k = yield g.choose_card(q.seat, opts, f"take a Treasure from {p.name}")
            g.remove_from_play(p, k)
        else:
            k = g.pick_card(q.seat, hand_t)
            p.hand.remove(k)
        g.give_card(q, k)
        g.events.append(("take_item", q.seat, p.seat, k))
        did = True
    return did


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
        if g.ctx != "run":
            return []
        c, remaining, _ = g.ctx_data
        return [Action(A.USE, seat, card, monster=m.card) for m in remaining if g.monster_strength(c, m) <= 8]

    def apply(self, g: Game, act: Action) -> Flow:
        c = g.combat
        assert c is not None
        p = g.players[act.seat]
        g.lose_card(p, act.card, "escaping")
        g.events.append(("escape", act.seat, act.monster, "Rat on a Stick"))
        for m in list(c.monsters):
            if m.card == act.monster:
                c.monsters.remove(m)
        return
        yield


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

    def apply(self, g: Game, act: Action) -> Flow:
        c = g.combat
        assert c is not None
        d = g.cdef[act.card]
        if act.monster >= 0 and g.cdef[act.monster].hook == "deluxe.floating_nose":
            g.spend(g.players[act.seat], act.card)
            m = next(x for x in c.monsters if x.card == act.monster)
            c.extra_levels += g.cdef[m.base].levels
            g.events.append(("slay", act.seat, act.monster, act.card))
            g.remove_monster(c, m, keep_treasure=True)
            return
        yield g.do_combat_action(Action(A.PLAY, act.seat, act.card, act.target, act.monster, flag="plain"))
        _ = d


hook("deluxe.potion_of_halitosis")(Bonus())


class YuppieWater(CardHook):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        c = g.combat
        if not _in_combat_window(g) or c is None:
            return []
        if any("elf" in g.race_names(g.players[f]) for f in c.fighters()):
            return [Action(A.PLAY, seat, card, c.fighter)]
        return []

    def apply(self, g: Game, act: Action) -> Flow:
        c = g.combat
        assert c is not None
        g.remove_from_play(g.players[act.seat], act.card)
        c.played.append(act.card)
        elves = sum(1 for f in c.fighters() if "elf" in g.race_names(g.players[f]))
        c.side.append((act.card, act.seat, 2 * elves))
        g.events.append(("oneshot", act.seat, act.card, act.target, -1))
        return
        yield


hook("deluxe.yuppie_water")(YuppieWater())


class Doppleganger(CardHook):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        c = g.combat
        if not _in_combat_window(g) or c is None or c.fighter != seat or c.helper >= 0 or c.doppleganger >= 0:
            return []
        return [Action(A.PLAY, seat, card)]

    def apply(self, g: Game, act: Action) -> Flow:
        c = g.combat
        assert c is not None
        g.remove_from_play(g.players[act.seat], act.card)
        c.played.append(act.card)
        c.doppleganger = act.seat
        c.bonus_used = True
        g.events.append(("play", act.seat, act.card))
        return
        yield


hook("deluxe.doppleganger")(Doppleganger())


class FriendshipPotion(CardHook):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        return [Action(A.PLAY, seat, card)] if _in_combat_window(g) else []

    def apply(self, g: Game, act: Action) -> Flow:
        c = g.combat
        assert c is not None
        g.remove_from_play(g.players[act.seat], act.card)
        c.played.append(act.card)
        c.monsters.clear()
        c.ended = True
        g.events.append(("friendship", act.seat, act.card))
        return
        yield


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

    def apply(self, g: Game, act: Action) -> Flow:
        c = g.combat
        assert c is not None
        g.remove_from_play(g.players[act.seat], act.card)
        c.played.append(act.card)
        m = next(x for x in c.monsters if x.card == act.monster)
        keep = self.always or len([x for x in c.monsters if x is not m and x.mate_of is not m]) == 0
        g.events.append(("remove", act.seat, act.monster, act.card))
        g.remove_monster(c, m, keep_treasure=keep)
        return
        yield


hook("deluxe.magic_lamp")(RemoveOne(own_turn=True, always_treasure=False))
hook("deluxe.pollymorph_potion")(RemoveOne(own_turn=False, always_treasure=True))


class TransferralPotion(CardHook):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        c = g.combat
        if c is None or not _in_combat_window(g):
            return []
        return [Action(A.PLAY, seat, card, q.seat) for q in g.players if not q.dead and q.seat not in c.fighters()]

    def apply(self, g: Game, act: Action) -> Flow:
        c = g.combat
        assert c is not None
        g.remove_from_play(g.players[act.seat], act.card)
        c.played.append(act.card)
        g.events.append(("transfer", act.seat, c.fighter, act.target))
        c.fighter = act.target
        c.helper = -1
        c.asked = set()
        c.backstabs.clear()
        c.berserk.clear()
        c.turning.clear()
        c.doppleganger = -1
        g.transferred = True
        return
        yield


hook("deluxe.transferral_potion")(TransferralPotion())


class InstantWall(CardHook):
    """Instant Wall (Smoke Screen): both fighters escape automatically, or one of them (your choice)."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if g.ctx != "run" or g.combat is None:
            return []
        out = [Action(A.PLAY, seat, card)]
        fighters = g.combat.fighters()
        if len(fighters) > 1:
            out += [Action(A.PLAY, seat, card, f, flag="only") for f in fighters]
        return out

    def apply(self, g: Game, act: Action) -> Flow:
        c = g.combat
        assert c is not None
        g.spend(g.players[act.seat], act.card)
        for f in c.fighters():
            if act.flag != "only" or f == act.target:
                c.escapes.add(f)
        g.events.append(("wall", act.seat, act.card, act.target if act.flag == "only" else -1))
        return
        yield


hook("deluxe.instant_wall")(InstantWall())


class RollCard(CardHook):
    """Answers to a Run Away roll: Invisibility Potion, Flask of Glue, Loaded Die."""

    def __init__(self, which: str) -> None:
        self.which = which

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if g.ctx != "rolled":
            return []
        runner, ok = g.ctx_data
        if self.which == "invisibility" and seat == runner and not ok:
            return [Action(A.PLAY, seat, card, flag="roll")]
        if self.which == "glue" and seat != runner and ok:
            return [Action(A.PLAY, seat, card, runner, flag="roll")]
        if self.which == "loaded" and seat == runner:  # any face but the one rolled
            die = g._roll_state.get("die", 0)
            return [Action(A.PLAY, seat, card, n=f, flag="face") for f in range(1, 7) if f != die]
        return []

    def sets_die(self) -> bool:
        return self.which == "loaded"

    def apply(self, g: Game, act: Action) -> Flow:
        g.spend(g.players[act.seat], act.card)
        st = g._roll_state
        if self.which == "invisibility":
            st["escaped"] = True
        elif self.which == "glue":
            st["reroll"] = True
        else:
            st["die"] = act.n
        g.events.append(("play", act.seat, act.card))
        return
        yield


hook("deluxe.invisibility_potion")(RollCard("invisibility"))
hook("deluxe.flask_of_glue")(RollCard("glue"))
hook("deluxe.loaded_die")(RollCard("loaded"))


class WandOfDowsing(CardHook):
    """Wand of Dowsing (Salvage Scanner): at any time, any one card from the discards."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if g.ctx not in ("free", "window") or not (g.door_discard or g.treasure_discard):
            return []
        return [Action(A.PLAY, seat, card)]

    def apply(self, g: Game, act: Action) -> Flow:
        p = g.players[act.seat]
        g.remove_from_play(p, act.card)
        g.limbo.append(act.card)
        pool = g.door_discard + g.treasure_discard
        k = yield g.choose_card(act.seat, pool, "take a card from the discards")
        (g.door_discard if k in g.door_discard else g.treasure_discard).remove(k)
        g.limbo.remove(act.card)
        g.discard(act.card)
        g.give_card(p, k)
        g.events.append(("dowse", act.seat, k, act.card))


hook("deluxe.wand_of_dowsing")(WandOfDowsing())


class WishingRing(CardHook):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if g.ctx == "curse_window":
            return []
        out = []
        for q in g.players:
            for k in q.curses:
                out.append(Action(A.PLAY, seat, card, monster=k))
        return out

    def apply(self, g: Game, act: Action) -> Flow:
        g.spend(g.players[act.seat], act.card)
        for q in g.players:
            if act.monster in q.curses:
                g.lose_card(q, act.monster, g.cdef[act.card].name)
        return
        yield


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
                if q.seat != seat and g.players[seat].level < 9:
                    out.append(Action(A.PLAY, seat, card, q.seat))
            elif self.which in ("kill_hireling", "kill_sidekick"):
                if g.players[seat].level < 9 and q.sidekicks:  # name the Sidekick when there are two
                    many = len(q.sidekicks) > 1
                    out += [Action(A.PLAY, seat, card, q.seat, monster=k if many else -1) for k in q.sidekicks]
            elif self.which == "whine":
                top = max(x.level for x in g.players)
                if q.level < top and q.level < 9:
                    out.append(Action(A.PLAY, seat, card, q.seat))
        return out

    def apply(self, g: Game, act: Action) -> Flow:
        p = g.players[act.seat]
        q = g.players[act.target]
        p.hand.remove(act.card)
        g.discard(act.card)
        g.events.append(("play", act.seat, act.card))
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
        return
        yield


hook("deluxe.steal_a_level")(LevelCard("steal"))
hook("deluxe.kill_the_hireling")(LevelCard("kill_hireling"))
hook("deluxe.whine_at_the_gm")(LevelCard("whine"))


class Hoard(CardHook):
    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        return [Action(A.PLAY, seat, card)] if g.combat is None else []

    def apply(self, g: Game, act: Action) -> Flow:
        p = g.players[act.seat]
        p.hand.remove(act.card)
        g.discard(act.card)
        g.events.append(("play", act.seat, act.card))
        g.draw_to_hand(p, "treasure", 3)
        return
        yield


hook("deluxe.hoard")(Hoard())

_ = CHOOSE
