"""Munchkin as a PettingZoo AEC environment (issue 36): agents `player_0` .. `player_{n-1}`, one seat
acting at a time through the fixed action catalogue (`munchkin.rl.catalogue`), observations from the
encoder (`munchkin.rl.encoding`) plus the sub-choice stage. See docs/rl.md.

Which seat acts: the first seat the game waits on (`Game.to_act[0]`); a window waiting on several seats
asks them one after another. A seat whose only legal action is one move is not asked: the environment
takes it. "Any time" moves: a seat is offered its any-time actions only when the game waits on it (with
its answers, as `legal_actions` lists them); seats the game does not wait on are never asked, and with
`any_time=False` the any-time extras are left out altogether (the seat answers the decision only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.game import Game, Options, Setup
from munchkin.engine.rules import MAX_PLAYERS, MIN_PLAYERS
from munchkin.rl.catalogue import VERBS, Catalogue, Chooser
from munchkin.rl.encoding import Encoder

# the kinds of decision the game waits on (`Decision.kind`), and the stages of one's own turn
DECISION_KINDS = (
    "main",
    "drawn",
    "window",
    "losing",
    "help",
    "curse_window",
    "run",
    "rolled",
    "caught",
    "choose",
    "loot_body",
    "pick",
    "charity",
    "offer",
    "end_window",
    "before",
)
MAIN_STAGES = ("create", "start", "door", "after")
REWARDS = ("win", "rank")


def _sets(sets: str | Sequence[str]) -> list[str]:
    """A set list from one name, a "+"-joined mix ("star+deluxe") or a list."""
    out = sets.split("+") if isinstance(sets, str) else list(sets)
    out = [s.strip() for s in out if s.strip()]
    if not out:
        raise ValueError("sets is empty: name an edition (deluxe, star, good-bad, harry-potter) or a mix")
    return out


def _options(options: Options | dict[str, Any] | None) -> Options:
    """Game options from an Options or a dict of its fields (a field it lacks is named in the error)."""
    if options is None:
        return Options()
    if isinstance(options, Options):
        return options
    known = {f.name for f in fields(Options)}
    wrong = sorted(set(options) - known)
    if wrong:
        raise ValueError(f"unknown game option(s) {', '.join(wrong)}; the options are {', '.join(sorted(known))}")
    return Options(**options)


class Stage:
    """The environment's own features after the encoder's: the decision kind and stage, whether the
    seat is waited on for its own decision, and the sub-choices taken so far in this action."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        k, s, v = len(DECISION_KINDS), len(MAIN_STAGES), len(VERBS)
        p, d = catalogue.players, len(catalogue.definitions)
        names = ("decision", "main_stage", "own_decision", "verb", "target", "cards", "n", "depth")
        sizes = (k, s, 1, v, p, d, 1, 1)
        self.blocks: list[tuple[str, int, int]] = []
        at = 0
        for name, n in zip(names, sizes, strict=True):
            self.blocks.append((name, at, n))
            at += n
        self.start = {name: a for name, a, _ in self.blocks}
        self.size = at
        # where each decision kind's and each stage's feature is, from the block's start
        self._kind = {x: self.start["decision"] + i for i, x in enumerate(DECISION_KINDS)}
        self._main = self._kind["main"]
        self._stage = {x: self.start["main_stage"] + i for i, x in enumerate(MAIN_STAGES)}
        self._own = self.start["own_decision"]
        # what each catalogue index taken adds: (feature, value it is set to), value -1 for a card
        # (counted), feature -1 for none (a flag, a rank, done)
        self._feature: list[tuple[int, float]] = []
        st = self.start
        for t in range(catalogue.size):
            b, j = catalogue.block(t)
            if b == "verb":
                self._feature.append((st["verb"] + j, 1.0))
            elif b == "target":
                self._feature.append((st["target"] + j, 1.0))
            elif b in ("card", "monster", "with"):
                self._feature.append((st["cards"] + j, -1.0))
            elif b == "n":
                self._feature.append((st["n"], j / 10.0))
            else:
                self._feature.append((-1, 0.0))

    def features(self, game: Game, seat: int, prefix: Sequence[int]) -> np.ndarray:
        """The stage features alone, as a vector of `size`."""
        out = np.zeros(self.size, dtype=np.float32)
        self.write(out, 0, game, seat, prefix)
        return out

    def write(self, out: np.ndarray, at: int, game: Game, seat: int, prefix: Sequence[int]) -> None:
        """Write the stage features into `out` from `at` on, where it holds zeros."""
        prompt = game.prompt
        k = self._kind.get(prompt.kind)
        if k is not None:
            out[at + k] = 1.0
            if k == self._main:
                stage = self._stage.get(getattr(prompt, "stage", ""))
                if stage is not None:
                    out[at + stage] = 1.0
        if seat in game.deciding():
            out[at + self._own] = 1.0
        if prefix:
            self.add_prefix(out, at, prefix)

    def add_prefix(self, out: np.ndarray, at: int, prefix: Sequence[int]) -> None:
        """Write the sub-choices taken so far into `out`, whose stage features start at `at` and hold
        none yet: `features(game, seat, prefix)` is `features(game, seat, ())` with these added."""
        if not prefix:
            return
        feature = self._feature
        for t in prefix:
            where, value = feature[t]
            if where >= 0:
                if value >= 0:
                    out[at + where] = value
                else:  # a card: counted
                    out[at + where] += 1.0
        out[at + self.start["depth"]] = len(prefix) / 8.0


class raw_env(AECEnv):  # noqa: N801  (PettingZoo's name for the unwrapped environment)
    """The AEC environment. `sets`: an edition or a mix ("star+deluxe" or a list); `players`: 3 to 6;
    `options`: the game's Options (or a dict of them: turn_cap, listen_at_the_door, ...); `reward`:
    "win" (+1 to each winner, 0 to the others) or "rank" (by Level: 1 first, 0 last); `any_time`:
    offer a waited seat its any-time extras too; `observation_key`: the name of the vector in the
    observation dict ("observations" for RLlib's action-masking module); `combined`: offer the combined
    moves the engine accepts without listing them (help deals of several cards, Berserking with
    several discards, ...; see `catalogue.combined_moves`)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "munchkin_v0", "is_parallelizable": False}

    def __init__(
        self,
        sets: str | Sequence[str] = "deluxe",
        players: int = 4,
        options: Options | dict[str, Any] | None = None,
        reward: str = "win",
        any_time: bool = True,
        render_mode: str | None = None,
        observation_key: str = "observation",
        combined: bool = True,
    ) -> None:
        super().__init__()
        self.combined = combined
        if observation_key == "action_mask" or not observation_key:
            raise ValueError(f"observation_key must be a name other than 'action_mask', not {observation_key!r}")
        self.observation_key = observation_key
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in ("human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.sets = _sets(sets)
        self.game_options = _options(options)
        try:
            self.catalogue = Catalogue(self.sets, players)
        except (MunchkinError, KeyError, FileNotFoundError) as e:
            raise ValueError(f"cannot set up sets {'+'.join(self.sets)}: {e}") from e
        self.encoder = Encoder(self.sets, players)
        self.stage = Stage(self.catalogue)
        self.n_players = players
        self.reward_mode = reward
        self.any_time_moves = any_time
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents: list[str] = []
        n = self.encoder.size + self.stage.size
        self._obs_spaces = {
            a: spaces.Dict(
                {
                    observation_key: spaces.Box(-np.inf, np.inf, (n,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self.catalogue.size,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._act_spaces = {a: spaces.Discrete(self.catalogue.size) for a in self.possible_agents}
        self.game: Game | None = None
        self.chooser: Chooser | None = None
        self._seeds: np.random.Generator | None = None
        self._encoded: dict[int, np.ndarray] = {}
        self._encoded_at = -1
        self._rendered = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_spaces[agent]

    # ------------------------------------------------------------------ episodes
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: of seed `seed` when given, else the next of a generator seeded by the last seed given."""
        if seed is not None:
            self._seeds = np.random.default_rng(int(seed))
            game_seed = int(seed)
        else:
            if self._seeds is None:
                self._seeds = np.random.default_rng()
            game_seed = int(self._seeds.integers(2**31))
        self.game = Game(Setup(list(self.sets), list(self.possible_agents), game_seed, self.game_options))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._encoded = {}
        self._encoded_at = -1
        self._rendered = 0
        self.agent_selection = self.agents[0]
        self._settle()
        self._finish()

    def legal(self, seat: int) -> list[Action]:
        """The engine actions offered to a seat the game waits on (without the any-time extras when
        `any_time` is off)."""
        g = self.game
        assert g is not None
        acts = g.legal_actions(seat)
        if not self.any_time_moves:
            extra = g.any_time(seat) if seat in g.to_act else acts
            if extra:
                acts = acts[: len(acts) - len(extra)]
        return acts

    def _settle(self) -> None:
        """Take every move that is no choice, then wait on the next seat that has one."""
        g = self.game
        assert g is not None
        self.chooser = None
        while not g.over:
            seat = g.to_act[0]
            acts = self.legal(seat)
            if len(acts) == 1:
                g.apply(acts[0])
                continue
            self.chooser = Chooser(self.catalogue, g, acts, self.combined)
            self.agent_selection = self.possible_agents[seat]
            return

    def _finish(self) -> None:
        """At the game's end: the rewards, and every agent terminated (a win) or truncated (the turn cap)."""
        g = self.game
        assert g is not None
        if not g.over:
            return
        final = self.final_rewards()
        for i, a in enumerate(self.possible_agents):
            if a in self.rewards:
                self.rewards[a] = final[i]
                if g.capped:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True

    def final_rewards(self) -> list[float]:
        """Each seat's reward for the game as it ended: "win": 1 to each winner; "rank": by (winner,
        Level), 1 to the first and 0 to the last, ties sharing the better place."""
        g = self.game
        assert g is not None
        n = self.n_players
        if self.reward_mode == "win":
            return [1.0 if s in g.winners else 0.0 for s in range(n)]
        key = [(s in g.winners, g.players[s].level) for s in range(n)]
        return [(n - 1 - sum(k > key[s] for k in key)) / (n - 1) for s in range(n)]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.chooser is not None and self.game is not None
        try:
            i = int(action)
        except (TypeError, ValueError):
            raise ValueError(
                f"an action is an index of the catalogue (0 to {self.catalogue.size - 1}), not {action!r}"
            ) from None
        chosen = self.chooser.choose(i)  # an index not offered raises here, changing nothing
        self._cumulative_rewards[agent] = 0.0
        if chosen is not None:
            self._move(chosen)
        if self.render_mode == "human":
            self.render()

    def apply_action(self, action: Action) -> None:
        """Take an engine action for the seat waited on, past the catalogue (opponents that are bots)."""
        agent = self.agent_selection
        assert self.game is not None
        self._cumulative_rewards[agent] = 0.0
        self._move(action)

    def _move(self, action: Action) -> None:
        """Apply an action, take what follows that is no choice, and at the game's end give the rewards
        (the only step that gives any: they are 0 before it)."""
        g = self.game
        assert g is not None
        g.apply(action)
        self._settle()
        if g.over:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._finish()
            self._accumulate_rewards()

    # ------------------------------------------------------------------ observing
    @property
    def seat(self) -> int:
        """The seat of `agent_selection`."""
        return self.possible_agents.index(self.agent_selection)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        g = self.game
        assert g is not None
        seat = self._seat_of.get(agent)
        if seat is None:
            raise ValueError(f"no agent {agent!r} here: the agents are {', '.join(self.possible_agents)}")
        if self._encoded_at != g.version:
            self._encoded = {}
            self._encoded_at = g.version
        base = self._encoded.get(seat)  # the encoder's vector and the stage features of no sub-choice
        if base is None:
            # the encoder's kept vector, not a copy (each observation is copied from it below): valid
            # while the game stays at this version, as the cache is
            base = self._encoded[seat] = self.encoder.encode(g, seat, self.stage.size, copy=False)
            self.stage.write(base, self.encoder.size, g, seat, ())
        acting = self.chooser is not None and agent == self.agent_selection and not g.over
        prefix = self.chooser.prefix if acting and self.chooser is not None else ()
        obs = base.copy()
        if prefix:
            self.stage.add_prefix(obs, self.encoder.size, prefix)
        return {self.observation_key: obs, "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str) -> np.ndarray:
        """The agent's mask alone (no observation built): the indices offered to it now."""
        ch = self.chooser
        if ch is not None and agent == self.agent_selection and self.game is not None and not self.game.over:
            return ch.mask()
        return np.zeros(self.catalogue.size, dtype=np.int8)

    def render(self) -> str | None:
        """The events since the last render, as a spectator reads them."""
        if self.render_mode is None or self.game is None:
            return None
        from munchkin.engine.view import narrate

        text = "\n".join(narrate(self.game, None, self._rendered))
        self._rendered = len(self.game.events)
        if self.render_mode == "human":
            if text:
                print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None
        self.chooser = None


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers: an index not offered ends the game with -1 for
    the seat that gave it; indices outside the catalogue are refused; the API's order is enforced."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


__all__ = ["DECISION_KINDS", "MAIN_STAGES", "env", "raw_env"]
