"""`HeuristicAgent`: the entry points, and how each decision reaches the part that handles it.

`act(obs)` judges on the observation's world (the hidden cards dealt anew), so the rules of thumb read
only what the seat may know; `choose(game, seat, legal)` does the same on a game it is given (a
search bot's rollouts call it on their worlds). Each kind of decision has a handler `_on_<kind>`
(`_on_main`, `_on_window`, ...) in one of the parts the agent is made of; a handler with no opinion
(None), or one whose pick is not legal, leaves the choice to the safest kind listed (pass, decline,
refuse, keep, end, ...). Off its own turn, `interject` curses the leader around its door.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from munchkin.agents.heuristic.fighting import Fighting
from munchkin.agents.heuristic.prompts import Prompts
from munchkin.agents.heuristic.running import Running
from munchkin.agents.observation import Observation
from munchkin.engine import actions as A
from munchkin.engine.actions import Action
from munchkin.engine.game import Game

_HANDLERS: dict[str, str] = {}  # a decision's kind -> the name of its handler


class HeuristicAgent(Prompts, Fighting, Running):
    """Plays Munchkin by rules of thumb; see the package docstring (`munchkin.agents.heuristic`)."""

    def __init__(self, seed: int = 0) -> None:
        """A fresh agent, nothing kept yet; `seed` seeds `rng`, which no choice reads (the agent is
        deterministic)."""
        self.rng = random.Random(seed)  # the agent is deterministic; kept for the common interface
        self._free: dict[tuple[int, int, str], int] = {}
        self._turn = -1
        self._equip: dict[tuple[Any, ...], set[int]] = {}  # best_equip's answers, by `_equip_key`
        self._equip_cdef: list[Any] | None = None  # the game (its cards' list) they are for

    def act(self, obs: Observation) -> Action:
        """The action rules of thumb pick, judged on a world the seat cannot tell from the real
        game (hidden cards dealt anew): the rules of thumb look only at what the seat may know."""
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        return self.choose(obs.world(), obs.seat, legal)

    def memory(self) -> tuple[int, dict[tuple[int, int, str], int]]:
        """What the agent remembers between decisions (its free actions this turn), to carry a choice
        made in another process back (`restore`); its caches are left out (they only save time)."""
        return self._turn, dict(self._free)

    def restore(self, memory: tuple[int, dict[tuple[int, int, str], int]] | None) -> None:
        """Remember again what `memory` says (see `memory`); None: nothing."""
        if memory is not None:
            self._turn, self._free = memory[0], dict(memory[1])

    INTERJECT_AT = frozenset({("main", "start"), ("main", "door")})  # another's turn, around its door

    def interject(self, obs: Observation) -> Action | None:
        """Off its own turn: a Curse on the player whose turn it is, before or right after their door,
        when that player leads the table (Level 4 or more, and not below this seat) and it hurts enough."""
        curses = [a for a in obs.any_time if a.kind == A.PLAY and a.target >= 0 and a.flag != "sidekick"]
        if not curses:
            return None
        g = obs.world()
        p, lead = g.players[obs.seat], self.leader(g, obs.seat)
        if lead is None or lead.seat != g.active or lead.level < max(4, p.level):
            return None
        return self._curse_on(g, p, [a for a in curses if a.target == lead.seat], lead)

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        """The action for `seat` among `legal` in `game` (a world of the seat's observation)."""
        if len(legal) == 1:
            return legal[0]
        if game.turn != self._turn:
            self._free.clear()
            self._turn = game.turn
        kind = game.prompt.kind
        name = _HANDLERS.get(kind)
        if name is None:  # an interned name: the method is then found from the type's cache
            name = _HANDLERS[kind] = sys.intern("_on_" + kind)
        handler = getattr(self, name, None)
        choice = handler(game, seat, legal) if handler is not None else None
        if choice is None or choice not in legal:
            choice = self._default(legal)
        return choice

    @staticmethod
    def _default(legal: list[Action]) -> Action:
        """The safest action listed when no rule has an opinion: pass, decline, refuse, keep, end, kick, loot or
        run, in that order; else the first."""
        for kind in (A.PASS, A.DECLINE, A.REFUSE, A.KEEP, A.END, A.KICK, A.LOOT, A.RUN):
            for a in legal:
                if a.kind == kind:
                    return a
        return legal[0]
