"""Carrying out an action, as steps: an answer in a combat window (a one-shot, a monster that joins
its kin, Berserking, asking for help, ...) and a free action (playing a card, equipping, selling,
giving, trading, stealing); after either, the table is settled (Big items that no longer fit).
Which actions are legal is listed in `legal.py`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from munchkin.engine import actions as A
from munchkin.engine import changes, characters, curses, fight, legal, resolve, settle, vocabulary
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.core import card_hook
from munchkin.engine.flow import Done, Frame, Out, Step
from munchkin.engine.rules import GOLD_PER_LEVEL, THEFT_ROLL, TURNING_BONUS, as_written
from munchkin.engine.state import Combat, MonsterIn, Player

if TYPE_CHECKING:
    from munchkin.engine.game import Game

TURNING_TAGS = (("turning", "undead"), ("turning_death_eater", "death_eater"), ("turning_dragon", "dragon"))
KIN_WORDS = {"undead": "Undead", "death_eater": "Death Eater", "dragon": "Dragon"}


@dataclass(slots=True)
class PlayCombatAction(Step):
    """An answer in a combat window (a one-shot or an enhancer, a monster joining its kin, Berserking,
    Turning, asking for help, volunteering, ...), then settling any Big items that no longer fit."""

    CARDS = ("act",)  # fields holding card numbers (see Step.CARDS)

    act: Action

    def start(self, g: Game, _: Any) -> Out:
        act = self.act
        c = g.combat
        assert c is not None
        p = g.players[act.seat]
        cdef = g.cdef
        k = act.kind
        if k == A.PLAY:
            d = cdef[act.card]
            h = card_hook(g, act.card)
            if h is not None and (d.is_one_shot or d.is_special) and act.flag != "plain":
                return self.then("settle", h.apply(g, act))
            if act.monster >= 0 and not d.is_monster:
                m = next(m for m in c.monsters if m.card == act.monster)
            if d.is_one_shot:
                if d.bonus:
                    vocabulary.used("one_shot.bonus")
                changes.remove_from_play(g, p, act.card)
                c.played.append(act.card)
                if act.monster >= 0:
                    m.oneshots.append((act.card, d.bonus))
                    g.events.append(E.OneShot(act.seat, act.card, -1, act.monster))
                else:
                    c.side.append((act.card, act.seat, d.bonus))
                    c.bonus_used = True
                    g.events.append(E.OneShot(act.seat, act.card, act.target, -1))
            elif d.is_enhancer:
                p.hand.remove(act.card)
                c.played.append(act.card)
                m.enhancers.append(act.card)
                g.events.append(E.Enhance(act.seat, act.card, act.monster))
            elif d.is_monster:
                p.hand.remove(act.card)
                c.played.append(act.card)
                kin = next(t for t in sorted(d.kin) if any(t in cdef[m.base].kin for m in c.monsters))
                vocabulary.used("monster.tags", kin)
                c.monsters.append(MonsterIn(act.card))
                g.events.append(E.Join(act.seat, act.card, KIN_WORDS[kin]))
                if (joins := fight.monster_joins(g, act.card)) is not None:
                    return self.then("settle", joins)
            else:
                return self.then("settle", PlayFreeAction(act))
            return self.settle(g, None)
        if k == A.BERSERK or k == A.TURNING:
            for x in act.cards:
                changes.spend(g, p, x)
                if k == A.BERSERK:
                    c.berserk[act.seat] = c.berserk.get(act.seat, 0) + 1
                else:
                    c.turning[act.seat] = c.turning.get(act.seat, 0) + TURNING_BONUS
            c.bonus_used = True
            if k == A.TURNING:  # which kind of monster is turned (Undead, Death Eaters, Dragons)
                tag = next(
                    (
                        t
                        for a, t in TURNING_TAGS
                        if characters.has_ability(g, p, a) and any(t in cdef[m.base].kin for m in c.monsters)
                    ),
                    "undead",
                )
                g.events.append(E.Turning(act.seat, act.cards, tag))
            else:
                g.events.append(E.Berserk(act.seat, act.cards))
        elif k == A.HOUSE:  # Slytherin: a monster from the hand for +2 to your own strength
            changes.spend(g, p, act.card)
            c.house_bonus[act.seat] = c.house_bonus.get(act.seat, 0) + 2
            c.bonus_used = True
            g.events.append(E.HousePower(act.seat, p.house, act.card, 2))
        elif k == A.BACKSTAB:
            changes.spend(g, p, act.card)
            c.backstabs.add((act.seat, act.target))
            g.events.append(E.Backstab(act.seat, act.target, act.card))
        elif k == A.CHARM:
            g.events.append(E.Charm(act.seat, act.monster, len(p.hand)))
            for x in list(p.hand):
                changes.spend(g, p, x)
            m = next(m for m in c.monsters if m.card == act.monster)
            if (shared := remove_monster(g, c, m, keep_treasure=True)) is not None:
                return self.then("settle", shared)
        elif k == A.ASK:
            return self.then("settle", fight.ask_for_help(g, c, act))
        elif k == A.BACK_OUT:
            c.helper, c.forced_help = -1, False
            g.events.append(E.BackOut(act.seat, c.fighter))
        elif k == A.VOLUNTEER:
            c.asked.add(act.seat)
            g.events.append(E.Volunteer(act.seat, c.fighter))
            return self.then("fighter_answers", D.Help((c.fighter,), act))
        elif k == A.DISCARD:
            changes.lose_card(g, p, act.card, "discarded")
        elif k == A.USE:
            h = card_hook(g, act.monster if act.flag == "monster" else act.card)
            if h is not None:
                return self.then("settle", h.apply(g, act))
        else:
            return self.then("settle", PlayFreeAction(act))
        return self.settle(g, None)

    def fighter_answers(self, g: Game, answer: Action) -> Out:
        """The fighter accepts or refuses the offer of help."""
        c = g.combat
        assert c is not None
        act = self.act
        if answer.kind == A.ACCEPT:
            c.helper = act.seat
            g.events.append(E.Help(act.seat, c.fighter))
            if as_written(g) and any(g.cdef[m.base].flees_from is not None for m in c.monsters):  # Grays flee
                if (shared := fight.flee_from_helper(g, c)) is not None:  # a Cyborg who volunteered
                    return self.then("settle", shared)
        else:
            g.events.append(E.RefuseOffer(c.fighter, act.seat))
        return self.settle(g, None)

    def settle(self, g: Game, _: Any) -> Out:
        return self.then("finish", settle.settle_table(g))

    def finish(self, g: Game, _: Any) -> Out:
        return Done()


@dataclass(slots=True)
class PlayFreeAction(Step):
    """An action that is not a turn step (play a card, equip, sell, give, trade, discard, steal),
    then settling any Big items that no longer fit."""

    CARDS = ("act",)  # fields holding card numbers (see Step.CARDS)

    act: Action

    def start(self, g: Game, _: Any) -> Out:
        act = self.act
        p = g.players[act.seat]
        cdef = g.cdef
        k = act.kind
        if k == A.PLAY:
            d = cdef[act.card]
            if d.is_curse and act.flag == "sidekick":  # a sex change played on a Sidekick
                p.hand.remove(act.card)
                g.limbo.append(act.card)
                answers = curses.curse_window(g, act.card, act.target)  # the owner may answer it
                return self.then("sidekick_curse_answered", answers)
            elif d.is_curse:
                p.hand.remove(act.card)
                return self.then("settle", curses.curse_flow(g, act.card, act.seat, act.target))
            elif d.is_gual:
                p.hand.remove(act.card)
                g.discard(act.card)
                q = g.players[act.target]
                changes.gain_levels(g, q, 1, d.name)
            elif d.is_race:
                play_character_card(g, p, act.card, p.races, p.half_breed >= 0)
            elif d.is_class:
                play_character_card(g, p, act.card, p.classes, p.super_munchkin >= 0)
            elif d.is_role:
                play_character_card(g, p, act.card, p.roles, p.dual_role >= 0)
            elif d.is_proficiency:
                p.hand.remove(act.card)
                p.proficiencies.append(act.card)
                g.events.append(E.Play(act.seat, act.card))
            elif d.is_item:
                p.hand.remove(act.card)
                p.items.append(act.card)
                if characters.equip_problem(g, p, act.card) is None:
                    p.equipped.add(act.card)
                g.events.append(E.Play(act.seat, act.card))
            elif d.is_sidekick:
                p.hand.remove(act.card)
                p.sidekicks.append(act.card)
                g.events.append(E.Play(act.seat, act.card))
            elif d.is_item_enhancer:
                p.hand.remove(act.card)
                p.enhancers[act.card] = act.cards[0]
                g.events.append(E.EnhanceItem(act.seat, act.card, act.cards[0]))
            else:
                h = card_hook(g, act.card)
                if h is not None:
                    return self.then("settle", h.apply(g, act))
        elif k == A.EQUIP:
            p.equipped.add(act.card)
        elif k == A.UNEQUIP:
            p.equipped.discard(act.card)
        elif k == A.DISCARD:
            changes.lose_card(g, p, act.card, "discarded")
        elif k == A.SELL:
            total = 0
            for c in act.cards:
                total += characters.sale_value(g, p, c) * (2 if c == act.card else 1)
                changes.remove_from_play(g, p, c)
                g.discard(c)
            if act.card >= 0:
                p.double_sale_used = True
            g.events.append(E.Sell(act.seat, act.cards, total, act.card if act.card >= 0 else None))
            changes.gain_levels(g, p, total // GOLD_PER_LEVEL, "selling Items")
        elif k == A.GIVE:
            if act.flag == "hireling":
                carrier = act.cards[0] if act.cards else legal.free_carrier(g, p)
                p.carried[carrier] = act.card
                p.equipped.add(act.card)
            else:
                g.events.append(E.Offer(act.seat, act.target, act.card, -1))
                g.show_to(act.target, (act.card,))
                return self.then("gift_answered", D.Offer((act.target,), act))
        elif k == A.TRADE:
            g.events.append(E.Offer(act.seat, act.target, act.card, act.cards[0]))
            return self.then("trade_answered", D.Offer((act.target,), act))
        elif k == A.STEAL:
            changes.spend(g, p, act.cards[0])
            return self.then("theft_rolled", resolve.die_roll(g, p, "theft"))
        elif k == A.USE:
            h = card_hook(g, act.card)
            if h is not None:
                return self.then("settle", h.apply(g, act))
        return self.settle(g, None)

    def sidekick_curse_answered(self, g: Game, cancelled: bool) -> Out:
        """Unless cancelled, the Curse changes the Sidekick's sex (if it is still in play)."""
        act = self.act
        q = g.players[act.target]
        kick = act.cards[0]
        g.limbo.remove(act.card)
        g.discard(act.card)
        if kick in q.sidekicks and not cancelled:
            q.swapped ^= {kick}
            g.events.append(E.SidekickSex(act.seat, act.target, kick, characters.sidekick_sex(g, q, kick)))
        return self.settle(g, None)

    def gift_answered(self, g: Game, answer: Action) -> Out:
        """The receiver accepts the Item or refuses it."""
        act = self.act
        p = g.players[act.seat]
        if answer.kind == A.ACCEPT and act.card in p.items:
            changes.move_item(g, p, g.players[act.target], act.card)
            g.events.append(E.Gift(act.seat, act.target, act.card))
        else:
            g.events.append(E.RefuseTrade(act.target, act.seat))
        return self.settle(g, None)

    def trade_answered(self, g: Game, answer: Action) -> Out:
        """The other player accepts the trade or refuses it."""
        act = self.act
        p = g.players[act.seat]
        q = g.players[act.target]
        theirs = act.cards[0]
        if answer.kind == A.ACCEPT and act.card in p.items and theirs in q.items:
            changes.move_item(g, p, q, act.card)
            changes.move_item(g, q, p, theirs)
            g.events.append(E.Trade(act.seat, act.target, act.card, theirs))
        else:
            g.events.append(E.RefuseTrade(act.target, act.seat))
        return self.settle(g, None)

    def theft_rolled(self, g: Game, rolled: int) -> Out:
        """A 4 or more steals the Item; less, and the thief is caught and loses a level."""
        act = self.act
        p = g.players[act.seat]
        q = g.players[act.target]
        roll = rolled + die_modifier(g, p)
        if roll >= THEFT_ROLL and act.card in q.items:
            changes.move_item(g, q, p, act.card)
            g.events.append(E.Steal(act.seat, act.target, act.card, True))
        else:
            g.events.append(E.Steal(act.seat, act.target, act.card, False))
            changes.lose_levels(g, p, 1, "caught stealing")
        return self.settle(g, None)

    def settle(self, g: Game, _: Any) -> Out:
        return self.then("finish", settle.settle_table(g))

    def finish(self, g: Game, _: Any) -> Out:
        return Done()


def do_combat_action(g: Game, act: Action) -> Frame:
    """Apply an answer in a combat window, then settle any Big items that no longer fit."""
    return PlayCombatAction(act)


def do_free_action(g: Game, act: Action) -> Frame:
    """Apply an action that is not a turn step: play, equip, sell, give, discard, steal."""
    return PlayFreeAction(act)


def monster_leaves(g: Game, c: Combat, m: MonsterIn) -> list[MonsterIn]:
    """A monster leaves the fight before it ends (with its Mate): its card, its enhancers and the
    one-shots played on it go to the discards at once, not when the fight ends."""
    gone = [x for x in c.monsters if x is m or x.mate_of is m]
    for x in gone:
        c.monsters.remove(x)
        if not as_written(g):  # older rules: its cards stayed in the fight until it ended
            continue
        for k in [x.card, *(x.enhancers if x.mate_of is None else ()), *(k for k, _ in x.oneshots)]:
            if k in c.played:
                c.played.remove(k)
                g.discard(k)
    return gone


def remove_monster(g: Game, c: Combat, m: MonsterIn, keep_treasure: bool) -> Frame | None:
    """Take a monster out of the fight without killing it (no level for it). The Treasure it leaves
    (its own with its enhancers', a Mate's as much) goes to the players when the fight ends so:
    drawn face-down by a lone fighter, or shared under the help deal (the step returned)."""
    from munchkin.engine import rewards  # rewards builds on this module: imported when used

    gone = [x for x in c.monsters if x is m or x.mate_of is m]
    if as_written(g):
        kept = {x.card: rewards.monster_treasures(g, c, x) if keep_treasure else 0 for x in gone}
    else:  # older rules: the printed Treasures of each card taken out
        kept = {x.card: g.cdef[x.card].treasures if keep_treasure else 0 for x in gone}
    for x in monster_leaves(g, c, m):
        c.removed.append((x.card, kept[x.card]))
    if not c.monsters:
        c.ended = True
        g.events.append(E.CombatOver(c.fighter))
        p = g.players[c.fighter]
        if c.extra_levels:
            changes.gain_levels(g, p, c.extra_levels, "killing a monster", may_win=True)
        n = sum(k for _, k in c.removed)
        if n and not g.over:
            if c.helper >= 0 and as_written(g):
                return rewards.CollectTreasures(n)
            g.draw_to_hand(p, "treasure", n)
    return None


def play_character_card(g: Game, p: Player, card: int, zone: list[int], attached: bool) -> None:
    """A Race, Class or Role replaces the one in play, or joins it under Half-Breed, Super
    Munchkin or Dual Role (which hold two at most)."""
    p.hand.remove(card)
    if zone and not attached:
        for r in list(zone):
            changes.lose_card(g, p, r, "replaced")
    elif len(zone) >= 2:
        changes.lose_card(g, p, zone[0], "replaced")
    zone.append(card)
    g.events.append(E.Play(p.seat, card))


def die_modifier(g: Game, p: Player) -> int:
    total = 0
    for k in p.curses:
        h = card_hook(g, k)
        if h is not None:
            total += h.die_modifier(g, p)
    return total


def _resurrect(g: Game, p: Player, deck: str, pay: int) -> int:
    """Cleric: take the top discard instead of drawing face-up, then discard a card."""
    pile = g.door_discard if deck == "door" else g.treasure_discard
    card = pile.pop() if pile else g.draw(deck)
    changes.spend(g, p, pay)
    g.events.append(E.Resurrect(p.seat, card))
    return card


__all__ = ["KIN_WORDS", "TURNING_TAGS", "PlayCombatAction", "PlayFreeAction"]
