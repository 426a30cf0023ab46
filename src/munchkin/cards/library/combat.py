"""Cards played on a fight: more or other monsters, ending it, removing a monster, passing it on.

They may be played in any combat's window (some only by the fighter, or on their own turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from munchkin.cards.hooks import CardHook, hook
from munchkin.cards.library.common import in_combat_window, uniq
from munchkin.engine import actions as A
from munchkin.engine import changes, characters, combat, fight, play
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.rules import as_written
from munchkin.engine.state import MonsterIn

if TYPE_CHECKING:
    from munchkin.engine.flow import Frame
    from munchkin.engine.game import Game
    from munchkin.engine.state import Combat, Player


class CombatCard(CardHook):
    """Base for cards played into any combat by anyone."""

    def legal_here(self, g: Game, seat: int) -> bool:
        return in_combat_window(g)


class WanderingMonster(CombatCard):
    """Wandering Monster: anyone adds a monster from their hand to any fight."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if not self.legal_here(g, seat):
            return []
        p = g.players[seat]
        mons = [c for c in p.hand if g.cdef[c].is_monster]
        return [Action(A.PLAY, seat, card, cards=(m,), flag="with") for m in uniq(g, mons)]

    def apply(self, g: Game, act: Action) -> Frame | None:
        c = g.combat
        assert c is not None
        p = g.players[act.seat]
        p.hand.remove(act.card)
        mon = act.cards[0]
        p.hand.remove(mon)
        c.played += [act.card, mon]
        c.monsters.append(MonsterIn(mon))
        g.events.append(E.Join(act.seat, mon, "Wandering Monster"))
        return fight.monster_joins(g, mon)  # what it does before a fight, it does as it joins


class Mate(CombatCard):
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


class Illusion(CombatCard):
    """Illusion: a monster in the fight (with its Mate) is replaced by one from the player's hand."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        if not self.legal_here(g, seat):
            return []
        c = g.combat
        assert c is not None
        p = g.players[seat]
        mons = uniq(g, [k for k in p.hand if g.cdef[k].is_monster])
        return [
            Action(A.PLAY, seat, card, monster=m.card, cards=(k,), flag="with")
            for m in c.monsters
            if m.mate_of is None
            for k in mons
        ]

    def apply(self, g: Game, act: Action) -> Frame | None:
        c = g.combat
        assert c is not None
        p = g.players[act.seat]
        p.hand.remove(act.card)
        new = act.cards[0]
        p.hand.remove(new)
        play.monster_leaves(g, c, next(m for m in c.monsters if m.card == act.monster))  # discarded at once
        c.monsters.append(MonsterIn(new))
        c.played += [act.card, new]
        g.events.append(E.Illusion(act.seat, act.monster, new, act.card))
        return fight.monster_joins(g, new)


class OutToLunch(CombatCard):
    """Out To Lunch: the monsters leave the fight, and the fighter draws two face-down Treasures."""

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


class HelpMeOutHere(CombatCard):
    """Help Me Out Here!: the fighter takes another player's Item that would win the fight, and wears
    it, first discarding an Item of their own if they choose (to make room for it)."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        c = g.combat
        fighting = c.fighters() if c is not None and as_written(g) else (c.fighter,) if c is not None else ()
        if not self.legal_here(g, seat) or c is None or seat not in fighting or combat.fighters_win(g, c):
            return []  # "while you are in combat": the fighter or the helper
        out = []
        p = g.players[seat]
        for q in g.players:
            if q is p or q.dead:
                continue
            items = [k for k in q.items if g.cdef[k].is_item]
            for it in uniq(g, items) if as_written(g) else items:
                if self._would_win(g, c, p, it, -1):
                    out.append(Action(A.PLAY, seat, card, target=q.seat, cards=(it,), flag="with"))
                    continue
                for own in uniq(g, [k for k in p.items if g.cdef[k].is_item]) if as_written(g) else ():
                    if self._would_win(g, c, p, it, own):
                        out.append(Action(A.PLAY, seat, card, target=q.seat, cards=(it, own), flag="swap"))
        return out

    def _would_win(self, g: Game, c: Combat, p: Player, it: int, own: int) -> bool:
        """Would `p` win wearing `it` (with their own Item `own` discarded first, unless -1)?"""
        at = p.items.index(own) if own >= 0 else -1
        worn = own in p.equipped
        if own >= 0:
            p.items.remove(own)
            p.equipped.discard(own)
        try:
            if characters.equip_problem(g, p, it) is not None:
                return False
            p.items.append(it)
            p.equipped.add(it)
            try:
                return combat.fighters_win_now(g, c)
            finally:
                p.items.remove(it)
                p.equipped.discard(it)
        finally:
            if own >= 0:
                p.items.insert(at, own)
                if worn:
                    p.equipped.add(own)

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        p = g.players[act.seat]
        p.hand.remove(act.card)
        c.played.append(act.card)
        q = g.players[act.target]
        it = act.cards[0]
        if act.flag == "swap":  # their own Item goes first, to make room
            changes.lose_card(g, p, act.cards[1], f"discarded for {g.cdef[act.card].name}")
        changes.move_item(g, q, p, it)
        p.equipped.add(it)
        g.events.append(E.TakeItem(act.seat, act.target, it))


class Baby(CardHook):
    """Baby: a monster enhancer that never takes a monster below Level 1 or 1 Treasure."""

    def enhancer_floor(self) -> bool:
        return True


class Doppleganger(CardHook):
    """Doppleganger: the fighter alone, with no helper, doubles their combat strength."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        c = g.combat
        if not in_combat_window(g) or c is None or c.fighter != seat or c.helper >= 0 or c.doppleganger >= 0:
            return []
        return [Action(A.PLAY, seat, card)]

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        changes.remove_from_play(g, g.players[act.seat], act.card)
        c.played.append(act.card)
        c.doppleganger = act.seat
        c.bonus_used = True
        g.events.append(E.Play(act.seat, act.card))


class FriendshipPotion(CardHook):
    """Friendship Potion: every monster leaves the fight, with no Treasure and no Level."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        return [Action(A.PLAY, seat, card)] if in_combat_window(g) else []

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        changes.remove_from_play(g, g.players[act.seat], act.card)
        c.played.append(act.card)
        c.monsters.clear()
        c.ended = True
        g.events.append(E.Friendship(act.seat, act.card))


class RemoveOne(CardHook):
    """Magic Lamp (own turn; Treasure if it was the last monster) and Pollymorph Potion."""

    def __init__(self, own_turn: bool, always_treasure: bool) -> None:
        self.own_turn = own_turn
        self.always = always_treasure

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        c = g.combat
        if c is None or (self.own_turn and (seat != g.active or (seat != c.fighter and as_written(g)))):
            return []  # "only on your own turn", "during your combat": not once the fight passed on
        caught = g.listing
        if self.own_turn and isinstance(caught, D.Caught):  # "even after a failed Run Away roll"
            return [Action(A.PLAY, seat, card, monster=m.card) for m in c.monsters if m.card == caught.monster]
        if not in_combat_window(g):
            return []
        return [Action(A.PLAY, seat, card, monster=m.card) for m in c.monsters if m.mate_of is None]

    def apply(self, g: Game, act: Action) -> Frame | None:
        c = g.combat
        assert c is not None
        changes.remove_from_play(g, g.players[act.seat], act.card)
        c.played.append(act.card)
        m = next(x for x in c.monsters if x.card == act.monster)
        keep = self.always or len([x for x in c.monsters if x is not m and x.mate_of is not m]) == 0
        g.events.append(E.Remove(act.seat, act.monster, act.card))
        return play.remove_monster(g, c, m, keep_treasure=keep)  # its Treasure shared if the fight ends


class TransferralPotion(CardHook):
    """Transferral Potion: the fight passes to a player not in it, who fights alone."""

    def actions(self, g: Game, seat: int, card: int) -> list[Action]:
        c = g.combat
        if c is None or not in_combat_window(g):
            return []
        return [Action(A.PLAY, seat, card, q.seat) for q in g.players if not q.dead and q.seat not in c.fighters()]

    def apply(self, g: Game, act: Action) -> None:
        c = g.combat
        assert c is not None
        changes.remove_from_play(g, g.players[act.seat], act.card)
        c.played.append(act.card)
        g.events.append(E.Transfer(act.seat, c.fighter, act.target))
        c.fighter = act.target
        c.helper = -1
        c.asked = set()
        if as_written(g):  # the old helper's deal and a Sidekick's kept bonus went with the old fighter
            c.deal_items, c.deal_treasures, c.rewarded, c.helper_first = (), 0, False, False
            c.forced_help = False
            c.sex_bonus, c.sex_asked = set(), set()
        c.backstabs.clear()
        c.berserk.clear()
        c.turning.clear()
        c.doppleganger = -1
        g.transferred = True


hook("library.add_monster")(WanderingMonster())
hook("library.copy_monster")(Mate())
hook("library.replace_monster")(Illusion())
hook("library.monsters_leave_with_treasure")(OutToLunch())
hook("library.force_help")(HelpMeOutHere())
hook("library.monster_level_floor")(Baby())
hook("library.double_combat_strength")(Doppleganger())
hook("library.discard_all_monsters")(FriendshipPotion())
hook("library.remove_monster_own_turn")(RemoveOne(own_turn=True, always_treasure=False))
hook("library.remove_monster_keep_treasure")(RemoveOne(own_turn=False, always_treasure=True))
hook("library.pass_the_fight")(TransferralPotion())
