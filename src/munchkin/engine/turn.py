"""The game and its turns, as steps: character creation, then each player's turn in order
(Kick Open The Door, then Look For Trouble or Loot The Room, then Charity), until someone wins."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from munchkin.engine import actions as A
from munchkin.engine import characters, curses, fight, legal, play
from munchkin.engine import decisions as D
from munchkin.engine import events as E
from munchkin.engine.actions import Action
from munchkin.engine.core import EVERYONE
from munchkin.engine.flow import Done, Out, Step
from munchkin.engine.rules import as_written, whims_wait_not

if TYPE_CHECKING:
    from munchkin.engine.game import Game


@dataclass(slots=True)
class GameFlow(Step):
    """The whole game: character creation (unless a scenario set the table), then turns in
    seat order until someone wins or the turn cap stops the game."""

    def start(self, g: Game, _: Any) -> Out:
        if g.setup.scenario is None:
            return self.then("next_turn", CharacterCreation())
        return self.next_turn(g, None)

    def next_turn(self, g: Game, _: Any) -> Out:
        return self.then("turn_over", TakeTurn(g.active))

    def turn_over(self, g: Game, _: Any) -> Out:
        if g.over:
            return self.game_over(g, None)
        g.turn += 1
        if g.turn >= g.options.turn_cap:
            g.over, g.capped = True, True
            g.events.append(E.Capped(g.turn))
            return self.game_over(g, None)
        g.active = (g.active + 1) % len(g.players)
        return self.next_turn(g, None)

    def game_over(self, g: Game, _: Any) -> Out:
        """A finished game waits for ever; `apply` refuses every action first."""
        return self.then("game_over", D.Over(()))


@dataclass(slots=True)
class CharacterCreation(Step):
    """Before the first turn each player in turn may play a Race, a Class and usable Items, then
    says ready."""

    i: int = 0  # how many players have said ready

    def start(self, g: Game, _: Any) -> Out:
        g.phase = "setup"
        return self.ask(g, None)

    def ask(self, g: Game, _: Any) -> Out:
        if self.i >= len(g.players):
            return Done()
        seat = (g.active + self.i) % len(g.players)
        return self.then("answer", D.Main((seat,), "create"))

    def answer(self, g: Game, act: Action) -> Out:
        if act.kind == A.READY:
            self.i += 1
            return self.ask(g, None)
        return self.then("ask", play.do_free_action(g, act))


@dataclass(slots=True)
class TakeTurn(Step):
    """One player's turn: the start of the turn, Kick Open The Door, Look For Trouble or Loot
    The Room if no monster was fought, free actions after, Charity, and the window before the
    next turn."""

    seat: int
    fought: bool = False  # a fight took place this turn (so no Look For Trouble, no looting)

    def start(self, g: Game, _: Any) -> Out:
        p = g.players[self.seat]
        g.events.append(E.Turn(p.seat, g.turn))
        for q in g.players:
            q.received.clear()
            if q.dead:  # the new character appears when the next player begins a turn
                q.dead = False
                g.events.append(E.NewCharacter(q.seat))
        p.double_sale_used = False
        g.transferred = False  # a fight passed on to another player is of the turn it was fought in
        if p.reborn:
            p.reborn = False
            g._deal_new_hand(p)
        if g.options.listen_at_the_door:
            g.phase = "listen"
            g.draw_to_hand(p, "door", 1)
        g.phase = "start"
        return self.then("kick_open_the_door", Main(self.seat, "start"))

    def kick_open_the_door(self, g: Game, act: Action) -> Out:
        p = g.players[self.seat]
        if g.over:
            return Done()
        if p.dead:  # killed before the door was opened (a Curse of their own): the turn is over
            g.phase = "end"
            return self.then("finish", EndWindow())
        card = play._resurrect(g, p, "door", act.card) if act.kind == A.RESURRECT else g.draw("door")
        g.phase = "kick"
        if card >= 0:
            g.events.append(E.Kick(p.seat, card))
            d = g.cdef[card]
            if g.drawn_effect(p, card):
                pass
            elif d.is_monster:
                self.fought = True
                g.transferred = False
                return self.then("after_kicked_fight", fight.fight(g, p.seat, card, kicked=True))
            elif d.is_curse:
                return self.then("after_kick", curses.curse_flow(g, card, p.seat, p.seat, face_up_draw=True))
            else:
                g.give_card(p, card, EVERYONE)  # kicked open face-up
                if d.steed or legal._playable_now(g, p.seat, card):
                    return self.then("after_drawn_choice", DrawnChoice(p.seat, card))
                g.events.append(E.Keep(p.seat, card, True))
        return self.after_kick(g, None)

    def after_kicked_fight(self, g: Game, _: Any) -> Out:
        self.fought = not g.transferred  # a Transferral Potion gave the fight to someone else
        return self.after_kick(g, None)

    def after_drawn_choice(self, g: Game, fought: bool) -> Out:
        self.fought = fought
        return self.after_kick(g, None)

    def after_kick(self, g: Game, _: Any) -> Out:
        if g.over:
            return Done()
        if not self.fought and not g.players[self.seat].dead:
            g.phase = "door"
            return self.then("look_for_trouble_or_loot", Main(self.seat, "door"))
        return self.after_door(g, None)

    def look_for_trouble_or_loot(self, g: Game, act: Action) -> Out:
        p = g.players[self.seat]
        if g.over:
            return Done()
        if act.kind == A.TROUBLE:
            p.hand.remove(act.card)
            g.events.append(E.Trouble(p.seat, act.card))
            if g.options.listen_at_the_door and g.listen_variant == "no_good":
                g.draw_to_hand(p, "treasure", 1)  # as this book words it: Up to No Good draws a Treasure
            return self.then("after_trouble", fight.fight(g, p.seat, act.card, kicked=False))
        if act.kind == A.LOOT:
            deck = "treasure" if g.options.listen_at_the_door and g.listen_variant == "loot" else "door"
            g.events.append(E.Loot(p.seat))  # told before the card it draws
            g.draw_to_hand(p, deck, 1)
        return self.after_door(g, None)

    def after_trouble(self, g: Game, _: Any) -> Out:
        """A fight Looked For and passed on to another player: the player may still Loot The Room."""
        if g.transferred and as_written(g) and not g.over and not g.players[self.seat].dead:
            g.phase = "door"
            return self.then("look_for_trouble_or_loot", Main(self.seat, "door"))
        return self.after_door(g, None)

    def after_door(self, g: Game, _: Any) -> Out:
        if g.over:
            return Done()
        if not g.players[self.seat].dead:
            g.phase = "after"
            return self.then("charity", Main(self.seat, "after"))
        g.phase = "end"
        return self.then("finish", EndWindow())

    def charity(self, g: Game, _: Any) -> Out:
        if g.over:
            return Done()
        g.phase = "charity"
        return self.then("end_window", Charity(self.seat))

    def end_window(self, g: Game, _: Any) -> Out:
        g.phase = "end"
        return self.then("finish", EndWindow())

    def finish(self, g: Game, _: Any) -> Out:
        p = g.players[self.seat]
        if p.barred:  # "until the end of your next turn": one more of their turns has ended
            for what in list(p.barred):
                p.barred[what] -= 1
                if p.barred[what] <= 0:
                    del p.barred[what]
        return Done()


@dataclass(slots=True)
class Main(Step):
    """The active player's free actions at one stage of the turn; done with (and handing back)
    the action that moves the turn on, or any action after which the player is dead or the game over."""

    seat: int
    stage: str  # start, door or after
    act: Action | None = None

    CARDS = ("act",)

    def start(self, g: Game, _: Any) -> Out:
        return self.then("answer", D.Main((self.seat,), self.stage))

    def answer(self, g: Game, act: Action) -> Out:
        if act.kind in (A.KICK, A.TROUBLE, A.LOOT, A.END, A.RESURRECT):
            return Done(act)
        self.act = act
        return self.then("after_free_action", play.do_free_action(g, act))

    def after_free_action(self, g: Game, _: Any) -> Out:
        if g.over or g.players[self.seat].dead:
            return Done(self.act)
        return self.start(g, None)


@dataclass(slots=True)
class DrawnChoice(Step):
    """A face-up Door that is neither monster nor Curse: keep it or play it; a Steed may instead be
    fought as a monster. Done with True if a fight took place."""

    seat: int
    card: int

    CARDS = ("card",)

    def start(self, g: Game, _: Any) -> Out:
        return self.then("answer", D.Drawn((self.seat,), self.card))

    def answer(self, g: Game, act: Action) -> Out:
        p = g.players[self.seat]
        if act.kind == A.PLAY and act.flag == "fight":
            p.hand.remove(self.card)
            p.received.discard(self.card)
            g.transferred = False
            return self.then("fought", fight.fight(g, p.seat, self.card, kicked=True))
        if act.kind == A.PLAY:
            return self.then("kept", play.do_free_action(g, act))
        if act.kind == A.KEEP:
            g.events.append(E.Keep(p.seat, self.card, True))  # drawn face-up: everyone saw which card
        return Done(False)

    def fought(self, g: Game, _: Any) -> Out:
        return Done(not g.transferred)

    def kept(self, g: Game, _: Any) -> Out:
        return Done(False)


@dataclass(slots=True)
class Charity(Step):
    """Charity: down to the hand limit, giving the excess to the lowest-Level players (or
    discarding it when you are the lowest)."""

    seat: int

    def start(self, g: Game, _: Any) -> Out:
        g.charity_given = {}
        return self.check(g, None)

    def check(self, g: Game, _: Any) -> Out:
        p = g.players[self.seat]
        if len(p.hand) > characters.hand_limit(g, p):
            return self.then("answer", D.Charity((self.seat,)))
        g.events.append(E.CharityDone(p.seat, len(p.hand), characters.hand_limit(g, p)))
        return Done()

    def answer(self, g: Game, act: Action) -> Out:
        p = g.players[self.seat]
        if act.kind == A.GIVE:
            p.hand.remove(act.card)
            q = g.players[act.target]
            g.give_card(q, act.card, 1 << p.seat)  # the giver knows what they gave
            g.charity_given[act.target] = g.charity_given.get(act.target, 0) + 1
            g.events.append(E.Charity(p.seat, act.target, act.card))
        elif act.kind == A.DISCARD:
            p.hand.remove(act.card)
            g.discard(act.card)
            g.events.append(E.Discard(p.seat, act.card))
        else:
            return self.then("after_free_action", play.do_free_action(g, act))
        return self.check(g, None)

    def after_free_action(self, g: Game, _: Any) -> Out:
        if g.over:
            return Done()
        return self.check(g, None)


@dataclass(slots=True)
class EndWindow(Step):
    """Before the next turn, each other player in turn order may use any-time actions, until they pass.
    Since rules 6 a player whose only moves rearrange their own things is not asked (they may still
    take those moves at any time, `legal.keeps_table_waiting`)."""

    i: int = 1  # the seat after the active player's, counted from it

    def start(self, g: Game, _: Any) -> Out:
        return self.look(g, None)

    def look(self, g: Game, _: Any) -> Out:
        n = len(g.players)
        while self.i <= n:
            seat = (g.active + self.i) % n
            if seat != g.active and not g.over and g._may_act_off_turn(seat):
                if whims_wait_not(g):  # only a seat with more than whims is asked: its whims listed only then
                    acts = legal.free_actions_if_waited(g, seat)
                else:
                    acts = legal.free_actions(g, seat, own_turn=False)
                if acts:
                    g._prefill(seat, [Action(A.PASS, seat), *acts])
                    return self.then("answer", D.EndWindow((seat,)))
            if g.over:
                return Done()
            self.i += 1
        return Done()

    def answer(self, g: Game, act: Action) -> Out:
        if act.kind == A.PASS:
            self.i += 1
            return self.look(g, None)
        return self.then("look", play.do_free_action(g, act))
