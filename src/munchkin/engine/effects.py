"""Effects of the vocabulary (Bad Stuff, Curses), Levels, losing cards, Death and looting."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from munchkin.cards.hooks import CardHook
from munchkin.cards.loader import HOOKS
from munchkin.cards.schema import Effect
from munchkin.engine import actions as A
from munchkin.engine.actions import Action
from munchkin.engine.characters import CharacterMixin
from munchkin.engine.flow import is_frame
from munchkin.engine.state import BEFORE, CHOOSE, CURSE_WINDOW, LOOT_BODY, Player, Prompt

Flow = Generator[Any, Any, Any]  # a rule not yet written as a step: yields a Prompt or a frame to call
WIN = 10
# character cards and the card that lets a player hold two of them
ATTACHMENTS = (("races", "half_breed"), ("classes", "super_munchkin"), ("roles", "dual_role"))


class EffectsMixin(CharacterMixin):
    """Mixed into Game: everything that changes Levels or takes cards away."""

    # -------------------------------------------------------------- levels
    def gain_levels(self, p: Player, n: int, why: str, may_win: bool = False) -> int:
        """Go up n levels; only a kill (or a card that says so) may reach Level 10."""
        if p.dead or n <= 0:
            return 0
        cap = WIN if may_win else WIN - 1
        new = min(p.level + n, cap)
        if new <= p.level:
            return 0
        gained = new - p.level
        p.level = new
        self.events.append(("level", p.seat, gained, p.level, why))
        if p.level >= WIN and not self.over:
            self.declare_winner([p.seat])
        return gained

    def lose_levels(self, p: Player, n: int, why: str) -> int:
        new = max(1, p.level - n)
        lost = p.level - new
        if lost:
            p.level = new
            self.events.append(("level", p.seat, -lost, p.level, why))
        return lost

    def declare_winner(self, seats: list[int]) -> None:
        self.over = True
        self.winners = sorted(set(seats))
        self.events.append(("win", tuple(self.winners)))

    # -------------------------------------------------------------- losing cards
    def remove_from_play(self, p: Player, c: int) -> None:
        """Take one card off a player's table (not to a pile); keeps the table consistent."""
        if c in p.items:
            p.items.remove(c)
            p.equipped.discard(c)
            for k, it in list(p.carried.items()):
                if it == c:
                    del p.carried[k]
            if p.enhancers:  # its Item Enhancers go with it
                for e, it in list(p.enhancers.items()):
                    if it == c:
                        del p.enhancers[e]
                        self.discard(e)
            if c == p.cheat_item:
                p.cheat_item = -1
                if p.cheat >= 0:  # Cheat! is discarded when its Item goes
                    self.discard(p.cheat)
                    p.cheat = -1
        elif c in p.hand:
            p.hand.remove(c)
        elif c in p.proficiencies:
            p.proficiencies.remove(c)
        elif c in p.curses:
            p.curses.remove(c)
        elif c in p.enhancers:
            del p.enhancers[c]
        elif c in p.sidekicks:
            p.sidekicks.remove(c)
            p.swapped.discard(c)
            if c == p.cheat_item:  # a Cheat! on this Sidekick goes with it
                p.cheat_item = -1
                if p.cheat >= 0:
                    self.discard(p.cheat)
                    p.cheat = -1
            item = p.carried.pop(c, -1)
            if item >= 0 and item in p.items:  # a Sidekick goes with anything it carries
                self.remove_from_play(p, item)  # also lets go of a Cheat! on it
                self.discard(item)
        elif c == p.cheat:
            p.cheat = -1
            p.cheat_item = -1
        else:
            self._remove_character_card(p, c)

    def _remove_character_card(self, p: Player, c: int) -> None:
        """A Race, Class or Role card leaves (its Half-Breed, Super Munchkin or Dual Role with
        the last one), or the attachment leaves (and with it all but one of the cards)."""
        for zone, attachment in ATTACHMENTS:
            cards: list[int] = getattr(p, zone)
            held: int = getattr(p, attachment)
            if c in cards:
                cards.remove(c)
                if not cards and held >= 0:
                    self.discard(held)
                    setattr(p, attachment, -1)
                return
            if c == held:
                setattr(p, attachment, -1)
                while len(cards) > 1:
                    self.discard(cards.pop())
                return

    def move_item(self, p: Player, q: Player, c: int) -> None:
        """An Item changes hands on the table (gift, trade, theft): its Item Enhancers go along."""
        moving = [e for e, it in p.enhancers.items() if it == c] if p.enhancers else []
        for e in moving:
            del p.enhancers[e]
        self.remove_from_play(p, c)
        q.items.append(c)
        for e in moving:
            q.enhancers[e] = c

    def lose_card(self, p: Player, c: int, why: str = "") -> None:
        """A card in play or in hand goes to its discard pile (with any kept Curse tied to it)."""
        self.remove_from_play(p, c)
        self.discard(c)
        self.events.append(("lose", p.seat, c, why))
        for k in list(p.curses):
            h = self._hook(k)
            if h is not None and h.leaves_with(self, p, c):
                self.remove_from_play(p, k)
                self.discard(k)
                self.events.append(("lose", p.seat, k, f"with {self.cdef[c].name}"))

    def _hook(self, card: int) -> CardHook | None:
        name = self.cdef[card].hook
        h = HOOKS.get(name) if name else None
        return h if isinstance(h, CardHook) else None

    def settle_table(self) -> Flow:
        """Whoever lost the right to something they have in play puts it right at once:
        extra Big items, a second Headgear or Complex Item equipped, a second Sidekick."""
        yield self.settle_big_items()
        for p in self.players:
            if p.dead:
                continue
            while p.proficiencies and self.rank_total(p) > p.level:  # Level fell below the total Rank
                acts = tuple(Action(A.DISCARD, p.seat, k) for k in dict.fromkeys(p.proficiencies))
                act = yield Prompt(BEFORE, (p.seat,), (-1, acts))
                self.lose_card(p, act.card, f"total Rank above Level {p.level}")
            while len(p.sidekicks) > 1 and self.sidekick_count(p) > self.sidekick_limit(p):
                acts = tuple(Action(A.DISCARD, p.seat, k) for k in p.sidekicks)
                act = yield Prompt(BEFORE, (p.seat,), (-1, acts + self.corrections(p, "two_sidekicks")))
                if act.kind == A.DISCARD:
                    self.lose_card(p, act.card, f"one {self.cdef[act.card].word} only")
                else:
                    yield self.do_free_action(act)
            while len(p.items) > 1 and len(steeds := [k for k in self.steeds(p) if k != p.cheat_item]) > 1:
                acts = tuple(Action(A.DISCARD, p.seat, k) for k in steeds)
                act = yield Prompt(BEFORE, (p.seat,), (-1, acts))
                self.lose_card(p, act.card, "one Steed only")
            while len(p.equipped) > 1 and (over := self.equipment_overflow(p)):
                need = "equip_any_complex" if any(self.cdef[k].complex for k in over) else "extra_headgear"
                acts = tuple(Action(A.UNEQUIP, p.seat, k) for k in over)
                act = yield Prompt(BEFORE, (p.seat,), (-1, acts + self.corrections(p, need)))
                if act.kind == A.UNEQUIP:
                    p.equipped.discard(act.card)
                    self.events.append(("unequip", p.seat, act.card))
                else:
                    yield self.do_free_action(act)

    def corrections(self, p: Player, ability: str) -> tuple[Action, ...]:
        """Cards in hand that would "correct the problem immediately": a Class, Race or Sidekick
        giving back the lost right, where it may be played now."""
        cdef = self.cdef
        out: list[Action] = []
        for c in dict.fromkeys(p.hand):
            if ability in cdef[c].abilities:
                own = p.seat == self.active  # a Race or Class on your own turn, a Sidekick any time
                if cdef[c].is_sidekick or own:
                    out += [a for a in self.card_actions(p.seat, c, own_turn=own) if a.kind == A.PLAY]
        return tuple(out)

    def settle_big_items(self) -> Flow:
        """Whoever lost the right to several Big items puts it right at once: sells the extras
        (on their own turn, out of combat), or gives them to the lowest-Level player(s) who can
        carry them, or discards them if nobody can."""
        for p in self.players:
            if len(p.items) < 2:
                continue
            while not p.dead and self.big_count(p) > self.big_allowance(p) and not self.has_ability(p, "carry_any_big"):
                cdef = self.cdef
                exempt = p.exempt()
                bigs = [c for c in p.items if cdef[c].big and c not in exempt]
                takers = [q for q in self.players if q is not p and not q.dead and self.may_carry_big(q)]
                acts: list[Action] = []
                if takers:
                    low = min(q.level for q in takers)
                    acts += [
                        Action(A.GIVE, p.seat, c, q.seat, flag="big") for c in bigs for q in takers if q.level == low
                    ]
                else:
                    acts += [Action(A.DISCARD, p.seat, c) for c in bigs]
                if p.seat == self.active and self.combat is None:
                    acts += [a for a in self.sale_actions(p) if any(cdef[c].big for c in a.cards)]
                act = yield Prompt(BEFORE, (p.seat,), (-1, tuple(acts)))
                if act.kind == A.GIVE:
                    self.move_item(p, self.players[act.target], act.card)
                    self.events.append(("gift", p.seat, act.target, act.card))
                elif act.kind == A.DISCARD:
                    self.lose_card(p, act.card, "one Big item only")
                else:
                    yield self.do_free_action(act)

    def item_matches(self, p: Player, c: int, which: str) -> bool:
        d = self.cdef[c]
        if which == "any":
            return True
        if which == "big":  # a Steed is big for Traps and thieves (not for the Big-item limit)
            return d.big or d.steed
        if which == "small":
            return not d.big and not d.steed
        if which == "steed":
            return d.steed
        if which == "below_waist":
            return "below_waist" in d.tags
        if which in ("headgear", "armor", "footgear", "hands"):
            return d.slot == which and c in p.equipped
        if which == "complex":
            return d.complex
        if which == "simple":
            return not d.complex
        if which == "laser":
            return d.laser
        return False

    def items_matching(self, p: Player, which: Any) -> list[int]:
        whiches = [which] if isinstance(which, str) else which
        if "biggest_bonus" in whiches:
            if not p.items:
                return []
            best = max(self.item_bonus(p, c) if c in p.equipped else 0 for c in p.items)
            return [c for c in p.items if (self.item_bonus(p, c) if c in p.equipped else 0) == best]
        return [c for c in p.items if any(self.item_matches(p, c, w) for w in whiches)]

    def choose_card(self, seat: int, options: Sequence[int], why: str) -> Flow:
        """Ask a seat to choose one card among options (returns it); no prompt if only one."""
        opts = list(dict.fromkeys(options))
        if not opts:
            return -1
        if len(opts) == 1:
            return opts[0]
        act = yield Prompt(CHOOSE, (seat,), (tuple(opts), why))
        return act.card

    # -------------------------------------------------------------- effects
    def run_effects(self, effects: Sequence[Effect], p: Player, source: int) -> Flow:
        """Apply a list of vocabulary effects to one character, in order."""
        for e in effects:
            if p.dead:
                return
            if e.if_ is not None and not self.matches(p, e.if_):
                if e.otherwise:
                    yield self.run_effects(e.otherwise, p, source)
                continue
            did = yield self.run_effect(e, p, source)
            if not did and e.otherwise:
                yield self.run_effects(e.otherwise, p, source)

    def run_effect(self, e: Effect, p: Player, source: int) -> Flow:
        why = self.cdef[source].name if source >= 0 else ""
        if e.lose_levels is not None:
            return self.lose_levels(p, e.lose_levels, why) > 0
        if e.gain_levels is not None:
            return self.gain_levels(p, e.gain_levels, why) > 0
        if e.die:
            yield self.kill_player(p, why)
            return True
        if e.lose_items is not None:
            li = e.lose_items
            found = self.items_matching(p, li.which)
            if not found:
                return False
            if li.count == "all":
                for c in found:
                    self.lose_card(p, c, why)
            else:
                for _ in range(li.count):
                    found = self.items_matching(p, li.which)
                    if not found:
                        break
                    c = yield self.choose_card(p.seat, found, f"lose an Item to {why}")
                    self.lose_card(p, c, why)
            return True
        if e.discard_hand:
            if not p.hand:
                return False
            for c in list(p.hand):
                self.lose_card(p, c, why)
            return True
        if e.lose_race is not None:
            return (yield self.lose_some(p, p.races, e.lose_race, "a Race", why))
        if e.lose_class is not None:
            return (yield self.lose_some(p, p.classes, e.lose_class, "a Class", why))
        if e.lose_role is not None:
            return (yield self.lose_some(p, p.roles, e.lose_role, "a Role", why))
        if e.lose_proficiency is not None:
            return (yield self.lose_some(p, p.proficiencies, e.lose_proficiency, "a Proficiency", why))
        if e.level_becomes is not None:
            if e.level_becomes == "lowest":
                target = min(q.level for q in self.players)
            else:
                target = int(e.level_becomes)
            if target < p.level:
                return self.lose_levels(p, p.level - target, why) > 0
            return False
        if e.lose_gold is not None:
            yield self.lose_gold(p, e.lose_gold, why)
            return True
        if e.change_sex:
            p.sex = "female" if p.sex == "male" else "male"
            self.events.append(("sex", p.seat, p.sex))
            return True
        if e.next_combat_bonus is not None:
            return True  # counted while the Curse is kept (see curse_bonus)
        if e.draw_treasures is not None:
            return bool(self.draw_to_hand(p, "treasure", e.draw_treasures))
        if e.draw_doors is not None:
            return bool(self.draw_to_hand(p, "door", e.draw_doors))
        if e.lose_sidekick is not None:
            return (yield self.lose_some(p, p.sidekicks, e.lose_sidekick, "a Sidekick", why))
        if e.hook is not None:
            out = HOOKS[e.hook](self, p, source)
            if is_frame(out):
                out = yield out
            return out is not False
        return False

    def die_roll(self, p: Player, why: str, best: int = 6) -> Flow:
        """A roll of p's own: p may answer it with a card that sets the die (Loaded Die).
        `best` is the face that serves p best here (for the bots)."""
        value = self.roll_die(p.seat, why)
        setters = [k for k in dict.fromkeys(p.hand) if (h := self._hook(k)) is not None and h.sets_die()]
        if not setters or p.dead:
            return value
        acts = [Action(A.PASS, p.seat)]
        seen: set[int] = set()
        for k in setters:
            if self.cdef[k].idx not in seen:
                seen.add(self.cdef[k].idx)
                acts += [Action(A.PLAY, p.seat, k, n=f, flag="face") for f in range(1, 7) if f != value]
        act = yield Prompt(BEFORE, (p.seat,), (setters[0], tuple(acts), (why, value, best)))
        if act.kind == A.PLAY:
            self.remove_from_play(p, act.card)
            self.discard(act.card)
            value = act.n
            self.events.append(("face", p.seat, act.card, value))
        return value

    def lose_some(self, p: Player, cards: list[int], how: str, what: str, why: str) -> Flow:
        """Lose `all` of these cards, or `one` of the victim's choice; False if there are none."""
        if not cards:
            return False
        if how == "all" or len(cards) == 1:
            for c in list(cards):
                self.lose_card(p, c, why)
        else:
            c = yield self.choose_card(p.seat, cards, f"lose {what} to {why}")
            self.lose_card(p, c, why)
        return True

    def lose_gold(self, p: Player, amount: int, why: str) -> Flow:
        """Lose Items worth at least `amount` (the victim chooses); all of them if short."""
        items = [c for c in p.items]
        total = sum(self.sale_value(p, c) for c in items)  # an Item with its Item Enhancers
        if total <= amount:
            for c in items:
                self.lose_card(p, c, why)
            return
        paid = 0
        while paid < amount:
            opts = [c for c in p.items]
            c = yield self.choose_card(p.seat, opts, f"pay {amount - paid} more gold to {why}")
            paid += self.sale_value(p, c)
            self.lose_card(p, c, why)

    # -------------------------------------------------------------- curses
    def curse_bonus(self, p: Player) -> int:
        """Combat bonuses from Curses the character keeps for their next combat."""
        total = 0
        for c in p.curses:
            for e in self.cdef[c].effects:
                if e.next_combat_bonus is not None:
                    total += e.next_combat_bonus
        return total

    def curse_flow(self, card: int, by: int, victim: int, face_up_draw: bool = False) -> Flow:
        """A Curse is played (or drawn face-up): answers first, then it applies if it can."""
        d = self.cdef[card]
        p = self.players[victim]
        self.events.append(("curse", by, victim, card, face_up_draw))
        self.limbo.append(card)
        cancelled = False
        if face_up_draw and (guard := self.curse_guard(p)) >= 0:
            self.events.append(("cancel", victim, card, self.cdef[guard].name))
            cancelled = True
        if not cancelled:
            cancelled = yield self.curse_window(card, victim)
        if cancelled or p.dead:
            self.limbo.remove(card)
            self.discard(card)
            return
        fn = HOOKS.get(d.hook) if d.hook else None
        if fn is not None and (isinstance(fn, CardHook) or not callable(fn)):
            fn = None  # a passive hook: the engine asks it while the Curse is kept
        self.limbo.remove(card)
        if d.duration != "once":
            p.curses.append(card)  # kept in play: applies now where it can, and while kept
        else:
            self.limbo.append(card)  # resolving; discarded once done
        if fn is not None:
            out = fn(self, p, card)
            if is_frame(out):
                yield out
        else:
            yield self.run_effects([e for e in d.effects if e.next_combat_bonus is None], p, card)
        if d.duration == "once":
            self.limbo.remove(card)
            self.discard(card)
        yield self.settle_table()

    def curse_guard(self, p: Player) -> int:
        """The equipped Item (Sandals of Protection) or Proficiency (Occlumency) that stops the
        Curses its owner draws face-up; -1 if none."""
        cards = list(p.equipped) + p.proficiencies if p.proficiencies else p.equipped
        return next((c for c in cards if (h := self._hook(c)) is not None and h.stops_drawn_curses(self, p)), -1)

    def curse_window(self, card: int, victim: int) -> Flow:
        """Anyone holding a card that cancels a Curse may answer; returns True if cancelled."""
        passed: set[int] = set()
        while True:
            seats = tuple(s for s in self.seat_order() if s not in passed and self.curse_cancellers(s))
            if not seats:
                return False
            act = yield Prompt(CURSE_WINDOW, seats, (card, victim))
            if act.kind == A.PASS:
                passed.add(act.seat)
                continue
            q = self.players[act.seat]
            self.remove_from_play(q, act.card)
            self.discard(act.card)
            self.events.append(("cancel", act.seat, card, self.cdef[act.card].name))
            return True

    def curse_cancellers(self, seat: int) -> list[int]:
        p = self.players[seat]
        if p.dead:
            return []
        cdef = self.cdef
        return [c for c in p.hand + p.items if cdef[c].when == "curse" and cdef[c].is_one_shot]

    def seat_order(self) -> list[int]:
        n = len(self.players)
        return [(self.active + i) % n for i in range(n)]

    # -------------------------------------------------------------- death
    def kill_player(self, p: Player, why: str) -> Flow:
        """Death: lose all your stuff but Race, Class, Role, Proficiencies, Level, Curses, Super
        Munchkin, Half-Breed, Dual Role (and the House, which is no card in play)."""
        if p.dead:
            return
        self.events.append(("death", p.seat, why))
        # each Item apart from its Item Enhancers and Cheat!: separate picks
        corpse = list(p.hand) + list(p.items) + list(p.enhancers) + list(p.sidekicks)
        if p.cheat >= 0:
            corpse.append(p.cheat)
        p.hand.clear()
        p.items.clear()
        p.equipped.clear()
        p.sidekicks.clear()
        p.carried.clear()
        p.enhancers.clear()
        p.swapped.clear()
        p.cheat = p.cheat_item = -1
        p.dead = True
        p.reborn = True
        self.limbo.extend(corpse)
        # looters by Level, highest first; ties broken by the die
        others = [q for q in self.players if q is not p and not q.dead]
        rolls = {}
        levels = sorted({q.level for q in others}, reverse=True)
        order: list[Player] = []
        for lv in levels:
            tied = [q for q in others if q.level == lv]
            if len(tied) > 1:
                for q in tied:
                    rolls[q.seat] = yield self.die_roll(q, "loot order")
                tied.sort(key=lambda q: -rolls[q.seat])
            order.extend(tied)
        for q in order:
            if not corpse:
                break
            if len(corpse) == 1:
                c = corpse[0]
            else:
                act = yield Prompt(LOOT_BODY, (q.seat,), (p.seat, tuple(corpse)))
                c = act.card
            corpse.remove(c)
            self.limbo.remove(c)
            q.hand.append(c)
            q.received.add(c)
            self.events.append(("looted", q.seat, p.seat, c))
        for c in corpse:
            self.limbo.remove(c)
            self.discard(c)
