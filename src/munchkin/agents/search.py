"""The search bot: the heuristic's choice, checked against a few alternatives by playing each of them
forward in worlds its seat might imagine.

At a decision that matters (its door, a fight it is in or could meddle with, a help offer, running
away, a drawn card, a Curse answer) it takes the heuristic's choice and up to `candidates - 1`
other sensible actions, deals `iterations` worlds of its seat (`Observation.world` with its own
generator: other hands and the decks dealt anew, chance reseeded), and in every world plays each
candidate and then the heuristic's rules of thumb for every seat to the end of the turn (the
rollout, cut off at `MAX_ROLLOUT` decisions), and scores where it ends (`evaluation.score`). Every
candidate meets the same worlds and the same dice (a paired comparison, so the difference between
two candidates is measured with far less noise than either's value). It leaves the heuristic's
choice only for a candidate that is better by more than `MARGIN` points and by more than its
paired standard error: with few worlds the search stays with the heuristic.

Elsewhere (equipping, trading, the many small "any time" moments) it plays as the heuristic does,
which costs no search. With an iteration budget and a seed its choices are exactly repeatable;
with a time budget (`seconds`) it deals worlds until the time is spent. It sees only what its
seat may know: worlds come from the observation, never from the game."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from munchkin.agents.evaluation import score
from munchkin.agents.heuristic import HeuristicAgent
from munchkin.agents.observation import Observation
from munchkin.engine import actions as A
from munchkin.engine.actions import Action
from munchkin.engine.game import Game

MAX_ROLLOUT = 400  # decisions a rollout plays at most before it is scored where it stands
MARGIN = 0.5  # points a candidate must beat the heuristic's choice by (a Level is 4.5)

# the moments worth a search: (decision kind, stage, whether it is the searcher's own turn);
# a stage of None matches every stage
SEARCH_AT: frozenset[tuple[str, str | None, bool | None]] = frozenset(
    {
        ("main", "door", True),  # after the door: look for trouble with which monster, or loot
        ("window", None, None),  # a fight: one's own (ask for help, play cards) or another's (meddle)
        ("losing", None, None),  # losing: ask for help, play something, or run
        ("help", None, None),  # an offer of help: accept or refuse
        ("drawn", None, None),  # a card drawn face up: play it now or keep it
        ("run", None, None),  # Run Away: from which monster first, with what
        ("rolled", None, None),  # a roll: keep it or change it
        ("curse_window", None, None),  # a Curse on its way: answer it or not
        ("choose", None, None),  # a choice a card offers
        ("before", None, None),  # before the fight or its Bad Stuff
    }
)

# kinds of action the search weighs; others (equipping, trading, gifts, sales, discards of one's
# own cards in play) are left to the heuristic, which plays them between the decisions above
WEIGHED = frozenset(
    {
        A.KICK,
        A.TROUBLE,
        A.LOOT,
        A.END,
        A.PASS,
        A.PLAY,
        A.KEEP,
        A.ACCEPT,
        A.REFUSE,
        A.ASK,
        A.BERSERK,
        A.TURNING,
        A.FLIGHT,
        A.CHARM,
        A.BACKSTAB,
        A.RUN,
        A.FLEE_FROM,
        A.SACRIFICE,
        A.CHOOSE,
        A.TAKE,
        A.USE,
        A.DECLINE,
        A.VOLUNTEER,
        A.HOUSE,
    }
)
# which kinds come first among the alternatives when there are more than the budget allows
FIRST = (A.PASS, A.DECLINE, A.REFUSE, A.ACCEPT, A.RUN, A.LOOT, A.TROUBLE, A.KEEP, A.PLAY, A.ASK)


@dataclass(frozen=True)
class Budget:
    """How hard the search thinks: worlds a decision (`iterations`), or a time limit in seconds
    (`seconds`, then as many worlds as fit, at least `min_iterations`); how many actions it weighs
    at once (`candidates`, the heuristic's choice among them)."""

    iterations: int = 16
    seconds: float | None = None
    candidates: int = 4
    min_iterations: int = 2


BUDGETS = {
    "fast": Budget(iterations=6, candidates=3),
    "": Budget(iterations=16, candidates=4),
    "strong": Budget(iterations=40, candidates=5),
}


@dataclass
class Thought:
    """What one searched decision found: the candidates, their mean scores against the heuristic's
    choice (paired), the worlds dealt and the time it took (for reports and tests)."""

    moment: tuple[str, str, bool]
    candidates: list[Action]
    gains: list[float]
    errors: list[float]
    worlds: int
    seconds: float
    chosen: Action


class SearchAgent:
    """Searches the decisions that matter (see the module docstring); the heuristic elsewhere."""

    def __init__(self, seed: int = 0, budget: Budget | None = None) -> None:
        self.budget = budget or BUDGETS[""]
        self.rng = random.Random(seed)
        self.policy = HeuristicAgent(seed)  # the rules of thumb, for its own moves
        self.rollout_policy = HeuristicAgent(seed)  # the same rules, for every seat in the rollouts
        self.INTERJECT_AT = self.policy.INTERJECT_AT
        self.thoughts: list[Thought] = []  # the searched decisions, newest last (kept `KEEP_THOUGHTS`)

    KEEP_THOUGHTS = 256

    def interject(self, obs: Observation) -> Action | None:
        """Off its own turn, as the heuristic: a Curse on a leader around their door."""
        return self.policy.interject(obs)

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        seat = obs.seat
        w = obs.world()  # the heuristic's own world (its choice is the heuristic agent's)
        choice = self.policy.choose(w, seat, legal)
        moment = (w.prompt.kind, getattr(w.prompt, "stage", ""), w.active == seat)
        if not self._searches(moment):
            return choice
        cands = self.candidates(w, seat, legal, choice)
        if len(cands) == 1:
            return choice
        return self._search(obs, moment, cands)

    def recall(self, obs: Observation) -> None:
        """Go through a decision taken before (a server rebuilding its table) without searching: what
        it remembers of the turn comes back as it was after the decision."""
        if len(obs.legal) > 1:
            self.policy.choose(obs.world(), obs.seat, obs.legal)

    def memory(self) -> object:
        """What it remembers between decisions (the rules of thumb's), for a choice made in another process."""
        return self.policy.memory()

    def restore(self, memory: object) -> None:
        """Remember again what `memory` says."""
        self.policy.restore(memory)  # type: ignore[arg-type]

    @staticmethod
    def searches_at(kind: str, stage: str, own_turn: bool) -> bool:
        """Whether a decision of this kind and stage (on its own turn or not) is one it may search:
        a caller may then let it think away from where time matters (a server's event loop)."""
        return SearchAgent._searches((kind, stage, own_turn))

    @staticmethod
    def _searches(moment: tuple[str, str, bool]) -> bool:
        kind, stage, own = moment
        return any((kind, s, o) in SEARCH_AT for s in (stage, None) for o in (own, None))  # 4 lookups in a frozenset

    def candidates(self, g: Game, seat: int, legal: Sequence[Action], choice: Action) -> list[Action]:
        """The heuristic's choice first, then other actions of the kinds the search weighs, those of
        the kinds in `FIRST` first and within a kind in the order of the generator, up to the budget."""
        rest = [a for a in legal if a != choice and a.kind in WEIGHED]
        if not rest:
            return [choice]
        rank = {k: i for i, k in enumerate(FIRST)}
        keyed = [(rank.get(a.kind, len(FIRST)), self.rng.random(), i) for i, a in enumerate(rest)]
        keyed.sort()
        return [choice] + [rest[i] for _, _, i in keyed[: self.budget.candidates - 1]]

    def _search(self, obs: Observation, moment: tuple[str, str, bool], cands: list[Action]) -> Action:
        """Play every candidate forward in the same worlds; the best by its paired gain over the
        heuristic's choice (`cands[0]`), if clearly better, else that choice."""
        b = self.budget
        seat = obs.seat
        start = time.perf_counter()
        n = len(cands)
        sums, squares = [0.0] * n, [0.0] * n
        worlds = 0
        while True:
            if b.seconds is None:
                if worlds >= b.iterations:
                    break
            elif worlds >= b.min_iterations and time.perf_counter() - start >= b.seconds:
                break
            w = self.world(obs, random.Random(self.rng.getrandbits(64)))
            base = 0.0
            for i, a in enumerate(cands):
                g = w.clone(history=False) if i < n - 1 else w
                g.apply(a)
                self._rollout(g)
                s = score(g, seat, self.rollout_policy)
                if i == 0:
                    base = s
                d = s - base
                sums[i] += d
                squares[i] += d * d
            worlds += 1
        gains = [s / worlds for s in sums]
        spread = [max(0.0, q / worlds - m * m) for q, m in zip(squares, gains, strict=True)]
        errors = [math.sqrt(v / max(1, worlds - 1)) for v in spread]  # paired standard errors
        best = max(range(n), key=lambda i: (gains[i] - errors[i], -i))
        chosen = cands[best] if best and gains[best] > MARGIN and gains[best] > errors[best] else cands[0]
        self.thoughts.append(Thought(moment, cands, gains, errors, worlds, time.perf_counter() - start, chosen))
        if len(self.thoughts) > self.KEEP_THOUGHTS:
            del self.thoughts[: -self.KEEP_THOUGHTS]
        return chosen

    @staticmethod
    def world(obs: Observation, rng: random.Random) -> Game:
        """A world of the seat from the search's own generator, dealt at once (it is played in)."""
        w = obs.world(rng)
        w.deal()  # type: ignore[attr-defined]
        return w

    def _rollout(self, g: Game) -> None:
        """Play `g` on by the rules of thumb, every seat, to the end of the turn it is in."""
        policy = self.rollout_policy
        policy._free.clear()  # its count of free actions a turn starts afresh in every rollout
        policy._turn = -1
        turn = g.turn
        for _ in range(MAX_ROLLOUT):
            if g.over or g.turn != turn:
                return
            s = g.to_act[0]
            legal = g.legal_actions(s)
            g.apply(legal[0] if len(legal) == 1 else policy.choose(g, s, legal))


def parse_budget(variant: str) -> Budget:
    """A budget from an agent variant: a named one (`fast`, `strong`, '' for the default), a number of
    worlds (`search:40`), or a time limit (`search:0.5s`). ValueError names what is wrong."""
    v = variant.strip()
    if v in BUDGETS:
        return BUDGETS[v]
    base = BUDGETS[""]
    try:
        if v.endswith("s"):
            seconds = float(v[:-1])
            if not 0 < seconds <= 60:
                raise ValueError
            return Budget(iterations=base.iterations, seconds=seconds, candidates=base.candidates)
        n = int(v)
        if not 1 <= n <= 10_000:
            raise ValueError
        return Budget(iterations=n, candidates=base.candidates)
    except ValueError:
        named = ", ".join(f"search:{k}" for k in BUDGETS if k)
        raise ValueError(
            f"a search budget is {named}, a number of worlds from 1 to 10000 (search:40), "
            f"or seconds up to 60 (search:0.5s); not {variant!r}"
        ) from None


__all__ = ["BUDGETS", "Budget", "SearchAgent", "Thought", "parse_budget"]
