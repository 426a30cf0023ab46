"""The search bot (`munchkin.agents.search`): repeatable with a seed and an iteration budget, blind to
what its seat cannot see (the attacker's twin games), never drawing from the real game's chance,
searching only where the choice matters, and named through the registry."""

from __future__ import annotations

import random

import pytest

from munchkin.agents.base import decide, interjection, make_agent
from munchkin.agents.observation import Observation
from munchkin.agents.random_agent import RandomAgent
from munchkin.agents.registry import check_spec
from munchkin.agents.search import BUDGETS, SearchAgent, parse_budget
from munchkin.engine.actions import Action
from munchkin.engine.game import Game, Options, Setup
from test_determinize import EVERY_SET, NAMES, hidden_twin


def play_with(spec: str, seed: int, sets: list[str], moves: int) -> tuple[list[str], SearchAgent]:
    """The first `moves` moves of a 4-player game of `sets` in which seat 0 is `spec` and the
    others heuristic, as texts; with seat 0's agent."""
    g = Game(Setup(sets, NAMES[:4], seed, Options(turn_cap=400)))
    bots = {s: make_agent(spec if s == 0 else "heuristic", seed * 10 + s) for s in range(4)}
    texts = []
    while not g.over and len(texts) < moves:
        a = interjection(g, bots)
        if a is None:
            s = g.to_act[0]
            a = decide(bots[s], g, s)
        texts.append(g.text(a))
        g.apply(a)
    agent = bots[0]
    assert isinstance(agent, SearchAgent)
    return texts, agent


def test_with_a_seed_and_an_iteration_budget_its_choices_repeat_exactly() -> None:
    first, agent = play_with("search:fast", 5, ["deluxe"], 400)
    again, _ = play_with("search:fast", 5, ["deluxe"], 400)
    assert first == again
    assert len(agent.thoughts) >= 5, "too few searched decisions to show anything"
    assert all(t.worlds == BUDGETS["fast"].iterations for t in agent.thoughts)


def test_it_searches_only_where_the_choice_matters() -> None:
    """A decision with one legal action, or whose only sensible answer is the heuristic's, costs no
    world; a searched one weighs the heuristic's choice first, among at most the budget's candidates."""
    _, agent = play_with("search:fast", 2, ["deluxe"], 300)
    assert agent.thoughts
    for t in agent.thoughts:
        assert 2 <= len(t.candidates) <= BUDGETS["fast"].candidates
        assert t.gains[0] == 0.0  # the heuristic's own choice, the yardstick of the others
        assert t.chosen in t.candidates

    class Counting(SearchAgent):
        worlds = 0

        def act(self, obs: Observation) -> Action:
            if len(obs.legal) == 1:
                before = len(self.thoughts)
                a = super().act(obs)
                assert len(self.thoughts) == before
                return a
            return super().act(obs)

    g = Game(Setup(["deluxe"], NAMES[:4], 2, Options(turn_cap=400)))
    bot = Counting(2, parse_budget("fast"))
    for _ in range(200):
        s = g.to_act[0]
        g.apply(decide(bot, g, s))


def test_it_leaves_the_heuristic_only_for_a_clearly_better_move() -> None:
    """Where its search found nothing clearly better (gain no more than the margin, or within the
    noise), it plays the heuristic's choice; where it moved, the gain beat both."""
    from munchkin.agents.search import MARGIN

    _, agent = play_with("search:fast", 3, ["deluxe"], 600)
    for t in agent.thoughts:
        if t.chosen != t.candidates[0]:
            i = t.candidates.index(t.chosen)
            assert t.gains[i] > MARGIN and t.gains[i] > t.errors[i]


@pytest.mark.parametrize("sets", EVERY_SET, ids="+".join)
def test_its_choice_is_the_same_in_a_game_and_its_hidden_twin(sets: list[str]) -> None:
    """Fair by construction: at decisions of seeded games of every edition and mix, the search bot
    with the same seed and budget chooses the same move in two games that differ only in cards its
    seat cannot see (other hands, the decks' order)."""
    g = Game(Setup(sets, NAMES[:4], 4, Options(turn_cap=5000)))
    bot, rng = RandomAgent(4), random.Random(4)
    asked = searched = 0
    budget = parse_budget("3")
    for _ in range(400):
        if g.over or asked >= 8:
            break
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        if len(legal) > 1 and rng.random() < 0.25:
            twin = hidden_twin(g, seat, random.Random(rng.random()))
            mine, theirs = SearchAgent(9, budget), SearchAgent(9, budget)
            a, b = decide(mine, g, seat), decide(theirs, twin, seat)
            assert g.text(a) == twin.text(b), f"{sets} version {g.version}: hidden cards steered the search"
            assert [[g.text(c) for c in t.candidates] for t in mine.thoughts] == [
                [twin.text(c) for c in t.candidates] for t in theirs.thoughts
            ]
            assert [t.gains for t in mine.thoughts] == [t.gains for t in theirs.thoughts]
            asked += 1
            searched += len(mine.thoughts)
        g.apply(decide(bot, g, seat, legal))
    assert asked >= 4


class Cheat(SearchAgent):
    """A search bot whose blindness is broken on purpose: its worlds are clones of the real game."""

    @staticmethod
    def world(obs: Observation, rng: random.Random) -> Game:
        return obs._game().clone(history=False)  # the private link an honest agent never uses


def test_the_twin_test_catches_a_bot_that_peeks() -> None:
    """The fairness test has teeth: a search bot that searches the real game instead of its seat's
    worlds chooses differently in a game and its hidden twin, or scores them differently."""
    caught = 0
    g = Game(Setup(["deluxe"], NAMES[:4], 4, Options(turn_cap=5000)))
    bot, rng = RandomAgent(4), random.Random(4)
    for _ in range(600):
        if g.over or caught:
            break
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        if len(legal) > 1 and rng.random() < 0.25:
            twin = hidden_twin(g, seat, random.Random(rng.random()))
            mine, theirs = Cheat(9, parse_budget("3")), Cheat(9, parse_budget("3"))
            a, b = decide(mine, g, seat), decide(theirs, twin, seat)
            gains = [t.gains for t in mine.thoughts], [t.gains for t in theirs.thoughts]
            caught += g.text(a) != twin.text(b) or gains[0] != gains[1]
        g.apply(decide(bot, g, seat, legal))
    assert caught


def test_its_worlds_never_draw_from_the_real_games_chance() -> None:
    """Searching deals and rolls only in its worlds: the real game's generator and state are where
    they were before the bot thought."""
    g = Game(Setup(["deluxe"], NAMES[:4], 6, Options(turn_cap=400)))
    bots = {s: make_agent("search:fast" if s == 0 else "heuristic", s) for s in range(4)}
    checked = 0
    for _ in range(600):
        if g.over:
            break
        s = g.to_act[0]
        state, digest = g.rng.getstate(), g.state_digest()
        a = decide(bots[s], g, s)
        if s == 0:
            assert g.rng.getstate() == state and g.state_digest() == digest
            checked += 1
        g.apply(a)
    agent = bots[0]
    assert isinstance(agent, SearchAgent) and agent.thoughts and checked > 20


def test_search_specs_are_read_by_the_registry() -> None:
    assert parse_budget("fast") == BUDGETS["fast"]
    assert parse_budget("40").iterations == 40
    assert parse_budget("0.5s").seconds == 0.5
    assert check_spec("search") is None and check_spec("search:strong") is None
    for bad in ("search:lots", "search:0", "search:-1s", "search:99999"):
        why = check_spec(bad)
        assert why is not None and "search budget" in why, bad
    assert "unknown agent" in (check_spec("serch") or "")
    assert "has no variants" in (check_spec("heuristic:hard") or "")
    assert check_spec("munchkin.agents.random_agent:RandomAgent") is None
    assert "no class" in (check_spec("munchkin.agents.random_agent:Nobody") or "")
    assert "cannot import" in (check_spec("munchkin.nowhere:Bot") or "")
    assert isinstance(make_agent("search:fast", 1), SearchAgent)


def test_tiers_name_the_agents_behind_them() -> None:
    """Easy, Medium and Hard are the heuristic and two search budgets, in order of strength."""
    from munchkin.agents.heuristic import HeuristicAgent
    from munchkin.agents.registry import TIERS, names

    assert list(TIERS) == ["easy", "medium", "hard"] and names()[:3] == ["easy", "medium", "hard"]
    assert type(make_agent("easy", 1)) is HeuristicAgent
    medium, hard = make_agent("Medium", 1), make_agent("hard", 1)
    assert isinstance(medium, SearchAgent) and isinstance(hard, SearchAgent)
    assert medium.budget.iterations * medium.budget.candidates < hard.budget.iterations * hard.budget.candidates
    assert not TIERS["easy"].heavy and TIERS["medium"].heavy and TIERS["hard"].heavy


def test_recalling_its_decisions_brings_back_what_it_remembers() -> None:
    """A server rebuilding a table after a restart has its bots recall their past decisions instead of
    searching them again: the recalled memory is the one the searching bot had, decision by decision;
    and a memory carried to another process and back (`memory`, `restore`) is the same."""
    from munchkin.agents.observation import observe

    g = Game(Setup(["deluxe"], NAMES[:4], 8, Options(turn_cap=400)))
    bots = {s: make_agent("search:2" if s == 0 else "heuristic", s) for s in range(4)}
    searcher, recaller = bots[0], SearchAgent(0, parse_budget("2"))
    assert isinstance(searcher, SearchAgent)
    compared = 0
    for _ in range(500):
        if g.over:
            break
        s = g.to_act[0]
        if s == 0:
            obs = observe(g, 0)
            recaller.recall(obs)
            obs.close()
        a = decide(bots[s], g, s)
        if s == 0:
            assert recaller.memory() == searcher.memory()
            carried = SearchAgent(0, parse_budget("2"))
            carried.restore(searcher.memory())
            assert carried.memory() == searcher.memory()
            compared += 1
        g.apply(a)
    assert compared > 50 and searcher.thoughts
