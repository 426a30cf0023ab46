"""A table's bots (`TableBots`), seeded so that a restarted server plays on unchanged, with their manners and
stand-ins for absent people; `think`, a long-thinking bot's move, chosen in a worker process."""

from __future__ import annotations

import random
from typing import Any

from munchkin.agents.base import Agent, decide, interjection, make_agent
from munchkin.agents.observation import observe
from munchkin.agents.registry import TIERS, resolve
from munchkin.cards.loader import load_set
from munchkin.engine import actions as A
from munchkin.engine.actions import Action
from munchkin.engine.game import Game
from munchkin.engine.state import CHARITY


def think(spec: str, dice: str, memory: Any, g: Game, seat: int, legal: list[Action]) -> tuple[Action, Any]:
    """In a bot worker: the move of a bot of `spec` for `seat` among `legal`, its dice seeded from
    `dice` and its memory of the turn as the server's copy of it holds it; with its memory after."""
    for name in g.setup.sets:  # the sets' card hooks are registered when a set is first loaded here
        load_set(name)
    agent = make_agent(spec, 0)
    _seed_dice(agent, dice)
    restore = getattr(agent, "restore", None)
    if restore is not None:
        restore(memory)
    a = decide(agent, g, seat, legal)
    recall = getattr(agent, "memory", None)
    return a, recall() if recall is not None else None


def _seed_dice(agent: Agent, dice: str) -> None:
    rng = getattr(agent, "rng", None)
    if isinstance(rng, random.Random):
        rng.seed(dice)


class TableBots:
    """The bots of one table (seat -> tier), seeded from the table's bot seed, and the manners they
    keep: a bot offers each other seat at most one trade or gift a turn, since a person must answer
    every offer by hand. The tiers that think long (`heavy`) choose in a worker process (`think`)."""

    def __init__(self, strengths: dict[int, str], seed: int) -> None:
        self.seed = seed
        self.specs = {s: resolve(k if k != "heuristic" else "easy") for s, k in strengths.items()}
        self.agents: dict[int, Agent] = {s: make_agent(k, seed * 7919 + s) for s, k in self.specs.items()}
        self.heavy = {s for s, k in strengths.items() if k in TIERS and TIERS[k].heavy}
        self.stand_ins: dict[int, Agent] = {}  # people's seats a bot has played while they were away
        self.offered: set[tuple[int, int, int]] = set()  # (turn, bot, other seat)

    def __contains__(self, seat: object) -> bool:
        return seat in self.agents

    def stand_in(self, seat: int) -> None:
        """Let an Easy bot (the heuristic, fast enough to play on the loop) play a person's seat from now on
        (until `stand_in` is no longer asked)."""
        if seat not in self.agents and seat not in self.stand_ins:
            self.stand_ins[seat] = make_agent("heuristic", self.seed * 7919 + seat)

    def thinks_long(self, g: Game, seat: int) -> bool:
        """Whether this seat's bot chooses its move now in a worker process (a search it may run at
        this decision), not on the event loop."""
        if seat not in self.heavy:
            return False
        searches = getattr(self.agents[seat], "searches_at", None)
        pr = g.prompt
        return searches is None or bool(searches(pr.kind, getattr(pr, "stage", ""), g.active == seat))

    def interjection(self, g: Game) -> Action | None:
        """An any-time action a bot takes now while the game waits on another seat (its choice is
        a pure function of what the seat sees, so a restarted server plays on unchanged), else None."""
        return interjection(g, self.agents)

    def _dice(self, g: Game, seat: int) -> str:
        """The seed of a bot's dice for this position: the table, the seat and the game's version, so
        the same position always gets the same answer and a restarted server plays on unchanged."""
        return f"{self.seed}:{seat}:{g.version}"

    def _kept(self, g: Game, seat: int) -> list[Action]:
        """The legal actions a bot may take, its manners kept (no second offer to a seat this turn)."""
        legal = g.legal_actions(seat)
        hand = g.players[seat].hand if g.prompt.kind == CHARITY else ()  # Charity's gifts are no offers
        kept = [
            a
            for a in legal
            if not (a.kind in (A.GIVE, A.TRADE) and a.card not in hand and (g.turn, seat, a.target) in self.offered)
        ]
        extra = set(g.any_time(seat))
        if all(a in extra for a in kept):  # nothing left that answers the game: the manners give way
            kept = legal
        return kept

    def _noted(self, g: Game, seat: int, a: Action) -> Action:
        hand = g.players[seat].hand if g.prompt.kind == CHARITY else ()
        if a.kind in (A.GIVE, A.TRADE) and a.target >= 0 and a.card not in hand:  # an offer someone answers
            self.offered.add((g.turn, seat, a.target))
        return a

    def choose(self, g: Game, seat: int) -> Action:
        """The bot's action, chosen here (see `_dice` for its dice)."""
        agent = self.agents.get(seat) or self.stand_ins[seat]
        _seed_dice(agent, self._dice(g, seat))
        return self._noted(g, seat, decide(agent, g, seat, self._kept(g, seat)))

    def recall(self, g: Game, seat: int) -> None:
        """Go through a decision the bot took before a restart, so that what it remembers of the turn
        comes back: a bot that thinks long only recalls (its search is not run again)."""
        agent = self.agents.get(seat) or self.stand_ins.get(seat)
        recall = getattr(agent, "recall", None)
        if agent is None or recall is None:
            self.choose(g, seat)
            return
        _seed_dice(agent, self._dice(g, seat))
        kept = self._kept(g, seat)
        obs = observe(g, seat, kept)
        try:
            recall(obs)
        finally:
            obs.close()

    def job(self, g: Game, seat: int) -> tuple[str, str, Any, Game, int, list[Action]]:
        """What a worker needs to choose this bot's move (`think`): a copy of the game without its log."""
        agent = self.agents[seat]
        memory = getattr(agent, "memory", None)
        kept = self._kept(g, seat)
        return (
            self.specs[seat],
            self._dice(g, seat),
            memory() if memory is not None else None,
            g.clone(False),
            seat,
            kept,
        )

    def took(self, g: Game, seat: int, a: Action, memory: Any) -> Action:
        """A worker's move for this bot: its memory of the turn kept, its offer noted."""
        restore = getattr(self.agents[seat], "restore", None)
        if restore is not None:
            restore(memory)
        return self._noted(g, seat, a)
