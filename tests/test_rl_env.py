"""The reinforcement-learning environment (issue 36): PettingZoo's API and seed tests on every edition
and a mix, Gymnasium's checker on the single-agent wrapper, the action catalogue (every legal action
reachable, no index offered that leads nowhere), random masked play to the end, a smoke training run."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.game import Options
from munchkin.rl.catalogue import COMBINED, Catalogue, Chooser
from munchkin.rl.env import env, raw_env
from munchkin.rl.single import MunchkinSingle

EDITIONS = ["deluxe", "star", "good-bad", "harry-potter", "star+deluxe"]


def play_random(e: raw_env, seed: int, limit: int = 100_000) -> int:
    """Play a game of `e` from `seed` to its end with random masked indices; the number of steps."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for _ in e.agent_iter(limit):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps


# what api_test says of every Dict observation with an action mask (PettingZoo's own classic games too)
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def run_api_test(sets: str, players: int, cycles: int, **kw: object) -> None:
    """PettingZoo's api_test, failing on any warning but those of a Dict observation."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(sets=sets, players=players, **kw), num_cycles=cycles)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize("sets", EDITIONS)
def test_pettingzoo_api(sets: str) -> None:
    run_api_test(sets, 4, 300)


@pytest.mark.parametrize("players", [3, 6])
def test_pettingzoo_api_player_counts(players: int) -> None:
    run_api_test("deluxe", players, 200)


def test_pettingzoo_api_other_options() -> None:
    run_api_test("good-bad", 5, 200, any_time=False, reward="rank", combined=False, options={"turn_cap": 30})


def test_seed_test() -> None:
    seed_test(lambda: env(sets="star+deluxe", players=4), num_cycles=300)


def test_same_seed_same_episode() -> None:
    """Two environments reset with one seed and given the same indices play the very same game; another
    seed deals another game."""
    logs = []
    for seed in (7, 7, 8):
        e = raw_env(sets="deluxe", players=4)
        play_random(e, 11)
        e.reset(seed=seed)
        rng = np.random.default_rng(0)
        for _ in range(400):
            obs = e.observe(e.agent_selection)
            if e.game is None or e.game.over:
                break
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert e.game is not None
        logs.append(e.game.log_json())
    assert logs[0] == logs[1]
    assert logs[0] != logs[2]


def test_check_env_single() -> None:
    """Gymnasium's checker passes; it warns only that the observation's Box is unbounded (the encoder
    names no bounds)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(MunchkinSingle(sets="deluxe", players=4, opponents="random"), skip_render_check=True)
    assert all("infinity" in str(w.message) for w in caught)


def test_single_against_heuristic_bots_ends_with_the_games_reward() -> None:
    """A learner playing random masked indices against heuristic bots: the reward given at the end is
    the game's (1 when the learner is among the winners), the episode ends once."""
    s = MunchkinSingle(sets="good-bad", players=3, opponents=["heuristic", "random"], seat=1)
    for seed in range(2):
        obs, info = s.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done, total, steps = False, 0.0, 0
        while not done:
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, r, term, trunc, info = s.step(a)
            total += r
            done = term or trunc
            steps += 1
        g = s.env.game
        assert g is not None and g.over
        assert total == (1.0 if 1 in g.winners else 0.0)
        assert not obs["action_mask"].any()
        with pytest.raises(RuntimeError):
            s.step(0)


def test_single_illegal_index() -> None:
    s = MunchkinSingle(sets="deluxe", players=4)
    obs, _ = s.reset(seed=3)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, r, term, _, info = s.step(bad)
    assert term and r == -1.0 and info["illegal"]
    strict = MunchkinSingle(sets="deluxe", players=4, illegal="raise")
    strict.reset(seed=3)
    with pytest.raises(ValueError, match="not offered"):
        strict.step(bad)


def explore(ch: Chooser, found: list[Action], depth: int = 0) -> None:
    """Every index offered from here: each must lead, through offered indices only, to a listed action."""
    offered = ch.offered()
    assert offered, "a node that offers nothing and ends no action: a dead end"
    assert depth < 40
    for i in offered:
        f = ch.fork()
        done = f.choose(i)
        if done is not None:
            found.append(done)
        else:
            explore(f, found, depth + 1)


def check_catalogue(sets: str) -> int:
    """At every decision of two seeded games: every legal action the seat is offered has a sequence
    of masked indices that yields exactly it, and every offered index leads to a legal action (a listed
    one, or a combined move the listing leaves out); the number of combined moves offered."""
    decisions = combined = 0
    for seed in (1, 2):
        e = raw_env(sets=sets, players=4, options={"turn_cap": 60})
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while e.game is not None and not e.game.over:
            g, seat = e.game, e.seat
            acts = e.legal(seat)
            fresh = Chooser(e.catalogue, g, acts)
            found: list[Action] = []
            explore(fresh.fork(), found)
            assert len(found) == len(set(found))  # no action reached twice
            listed = set(acts)
            assert listed <= set(found)  # every listed action
            extra = [a for a in found if a not in listed]  # the combined moves: legal, unlisted
            assert all(a.kind in COMBINED and g.is_legal(a) for a in extra)
            combined += len(extra)
            plain: list[Action] = []  # without the combined moves: the listing, exactly
            explore(Chooser(e.catalogue, g, acts, combined=False), plain)
            assert sorted(map(repr, plain)) == sorted(map(repr, acts))
            for a in acts:
                seq = fresh.sequence_of(a)
                c = fresh.fork()
                got = None
                for k, i in enumerate(seq):
                    assert c.mask()[i] == 1
                    got = c.choose(i)
                    assert (got is None) == (k < len(seq) - 1)
                assert got == a
            decisions += 1
            e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    assert decisions > 20
    return combined


@pytest.mark.parametrize("sets", EDITIONS)
def test_catalogue_reaches_every_legal_action_and_no_dead_end(sets: str) -> None:
    assert check_catalogue(sets) > 0  # combined moves were offered, and each was legal


@pytest.mark.parametrize("sets", EDITIONS)
def test_random_masked_play_to_the_end(sets: str) -> None:
    """Random masked play ends every game; the winners get 1, the others 0, once each."""
    for seed in range(3):
        e = raw_env(sets=sets, players=4)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        got = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter(200_000):
            obs, r, term, trunc, _ = e.last()
            got[agent] += r
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        g = e.game
        assert g is not None and g.over and not e.agents
        assert got == {a: (1.0 if i in g.winners else 0.0) for i, a in enumerate(e.possible_agents)}


def test_turn_cap_truncates_and_rank_rewards() -> None:
    e = raw_env(sets="deluxe", players=4, options=Options(turn_cap=6), reward="rank")
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    seen_trunc = set()
    for agent in e.agent_iter(100_000):
        obs, r, term, trunc, _ = e.last()
        if term or trunc:
            assert trunc and not term
            seen_trunc.add(agent)
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    g = e.game
    assert g is not None and g.capped and seen_trunc == set(e.possible_agents)
    final = e.final_rewards()
    levels = [p.level for p in g.players]
    best = [s for s in range(4) if levels[s] == max(levels)]
    assert all(final[s] == 1.0 for s in best) and min(final) >= 0.0
    assert all(final[a] >= final[b] for a in range(4) for b in range(4) if levels[a] > levels[b])


def test_without_any_time_moves_only_answers_are_offered() -> None:
    e = raw_env(sets="star", players=4, any_time=False, options={"turn_cap": 40})
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    asked = 0
    while e.game is not None and not e.game.over:
        g, seat = e.game, e.seat
        extras = set(g.any_time(seat))
        assert e.chooser is not None and not extras & set(e.chooser.actions)
        asked += 1
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    assert asked > 10


@pytest.mark.parametrize("sets", EDITIONS)
def test_catalogue_size_and_describe(sets: str) -> None:
    cat = Catalogue(sets.split("+"), 4)
    assert sum(n for _, _, n in cat.layout()) == cat.size
    assert cat.size == raw_env(sets=sets).action_space("player_0").n  # type: ignore[attr-defined]
    words = [cat.describe(i) for i in range(cat.size)]
    assert len(set(words)) == cat.size  # no two indices mean the same
    with pytest.raises(ValueError, match="outside the catalogue"):
        cat.describe(cat.size)


def test_bad_input_is_named() -> None:
    with pytest.raises(ValueError, match="players must be 3 to 6"):
        raw_env(players=7)
    with pytest.raises(ValueError, match="reward must be"):
        raw_env(reward="money")
    with pytest.raises(ValueError, match="unknown game option"):
        raw_env(options={"turncap": 3})
    with pytest.raises(ValueError, match="opponents"):
        MunchkinSingle(opponents="nobody")
    e = raw_env()
    e.reset(seed=1)
    bad = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not offered"):
        e.step(bad)


def test_smoke_training_policy_gradient() -> None:
    """A few hundred steps of REINFORCE with a linear masked-softmax policy (numpy only) against random
    bots: it runs, its rewards add up to the games' results, and its weights move."""
    s = MunchkinSingle(sets="deluxe", players=3, opponents="random", options={"turn_cap": 30}, reward="rank")
    n_obs = s.observation_space["observation"].shape[0]  # type: ignore[index]
    n_act = int(s.action_space.n)  # type: ignore[attr-defined]
    rng = np.random.default_rng(0)
    w = np.zeros((n_obs, n_act), dtype=np.float64)
    w0 = w.copy()
    steps, episodes, lr = 0, 0, 0.01
    while steps < 400:
        obs, _ = s.reset(seed=episodes)
        grads: list[tuple[np.ndarray, int, np.ndarray]] = []
        ret, done = 0.0, False
        while not done:
            x, m = obs["observation"].astype(np.float64), obs["action_mask"].astype(bool)
            logits = np.where(m, x @ w, -np.inf)
            p = np.exp(logits - logits.max())
            p /= p.sum()
            a = int(rng.choice(n_act, p=p))
            grads.append((x, a, p))
            obs, r, term, trunc, _ = s.step(a)
            ret += r
            done = term or trunc
            steps += 1
        g = s.env.game
        assert g is not None and ret == s.env.final_rewards()[0]
        for x, a, p in grads:  # REINFORCE with the episode's return against a fixed baseline of 0.5
            onehot = np.zeros(n_act)
            onehot[a] = 1.0
            w += lr * (ret - 0.5) * np.outer(x, onehot - p)
        episodes += 1
    assert episodes >= 2 and not np.array_equal(w, w0)


@pytest.mark.parametrize("sets", ["deluxe", "harry-potter", "star+deluxe"])
def test_observation_and_mask_same_in_every_world_of_the_seat(sets: str) -> None:
    """At each decision, the seat's observation (encoder and stage features) and its mask are the same
    in a copy of the game whose hidden cards (other hands, the decks' order) were dealt anew."""
    e = raw_env(sets=sets, players=4, options={"turn_cap": 40})
    e.reset(seed=4)
    rng, worlds = np.random.default_rng(4), random.Random(0)
    checked = differed = 0
    while e.game is not None and not e.game.over:
        g, seat, agent = e.game, e.seat, e.agent_selection
        assert e.chooser is not None
        if len(e.chooser.prefix) <= 1:  # at the start of an action (or past one forced sub-choice)
            w = g.determinize(seat, worlds)
            differed += any(w.players[s].hand != g.players[s].hand for s in range(4) if s != seat)
            prefix = e.chooser.prefix
            mine = e.observe(agent)
            theirs = np.concatenate((e.encoder.encode(w, seat), e.stage.features(w, seat, prefix)))
            assert np.array_equal(mine["observation"], theirs)
            fresh_g, fresh_w = Chooser(e.catalogue, g, e.legal(seat)), Chooser(e.catalogue, w, w.legal_actions(seat))
            assert np.array_equal(fresh_g.mask(), fresh_w.mask())
            checked += 1
        e.step(int(rng.choice(np.flatnonzero(e.observe(agent)["action_mask"]))))
    assert checked > 20 and differed > 10


def test_single_seat_drawn_each_game_and_render() -> None:
    """With seat=None the learner's seat is drawn from the episode's seed (so the same seed gives the
    same seat); render("ansi") tells the events since the last render."""
    s = MunchkinSingle(sets="star", players=4, seat=None, render_mode="ansi")
    seats = {s.reset(seed=k)[1]["seat"] for k in range(12)}
    assert len(seats) > 1
    assert s.reset(seed=5)[1]["seat"] == s.reset(seed=5)[1]["seat"]
    obs, info = s.reset(seed=5)
    text = s.render()
    assert text and "player_" in text
    s.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert s.render() != text


def test_docs_give_the_catalogue_sizes() -> None:
    """docs/rl.md's table of N per edition and mix is the catalogue's (3 to 6 players)."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "rl.md").read_text(encoding="utf-8")
    rows = [line.split("|")[1:-1] for line in doc.splitlines() if line.startswith("| ")]
    sizes = {r[0].strip(): [c.strip() for c in r[1:]] for r in rows if len(r) == 6 and r[1].strip().isdigit()}
    assert {"deluxe", "star", "good-bad", "harry-potter", "star+deluxe"} <= set(sizes)
    for name, cells in sizes.items():
        sets = ["deluxe", "star", "good-bad", "harry-potter"] if name == "all four" else name.split("+")
        cat = [Catalogue(sets, p) for p in (3, 4, 5, 6)]
        assert cells == [str(len(cat[0].definitions))] + [str(c.size) for c in cat], name


def test_a_game_of_other_sets_is_named() -> None:
    e = raw_env(sets="star", players=4)
    e.reset(seed=1)
    assert e.game is not None
    with pytest.raises(MunchkinError, match="not in the catalogue of deluxe"):
        Chooser(Catalogue(["deluxe"], 4), e.game, e.legal(e.seat))


def test_the_stage_features_of_every_index_taken() -> None:
    """Each catalogue index taken shows in the stage features as its block says: a verb or a target
    set to 1, a card (card, monster, with) counted, Treasures `n` as n/10, a flag, rank or "done"
    as nothing but the depth; an index taken twice (two copies of a card) counts 2."""
    e = raw_env(sets="star+deluxe", players=5)
    e.reset(seed=1)
    assert e.game is not None
    cat, st = e.catalogue, e.stage
    at = {name: a for name, a, _ in st.blocks}
    base = st.features(e.game, 0, ())
    for t in range(cat.size):
        block, j = cat.block(t)
        want = np.zeros(st.size, np.float32)
        if block in ("verb", "target"):
            want[at[block] + j] = 1.0
        elif block in ("card", "monster", "with"):
            want[at["cards"] + j] = 2.0
        elif block == "n":
            want[at["n"]] = j / 10.0
        want[at["depth"]] = 2 / 8.0
        assert np.array_equal(st.features(e.game, 0, (t, t)) - base, want), (t, block, j)
