"""The ladder (`munchkin ladder`): the seat rotation, finishing places and the rating fit on hand-made
games, then short runs from the command line: the report folder, heuristic rated above random, the same
ratings from the same seed, an agent of one's own by import path on worker processes, and clear errors
for bad flags and for an agent that fails. (The runner on Ray is balance's, tested in test_balance.py.)"""

from __future__ import annotations

import csv
import json
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from munchkin.cli import app
from munchkin.ladder.games import Clock, League, Outcome, play_batch
from munchkin.ladder.ratings import fit, places
from munchkin.ladder.schedule import Schedule
from munchkin.simulate import run_game

GAMES = 24  # 12 games in each seat for each of two agents at four seats


def ladder(*args: str) -> Any:
    return CliRunner().invoke(app, ["ladder", *args])


def _read(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "ladder.json").read_text(encoding="utf-8"))
    return data


def _games_only(data: dict[str, Any]) -> dict[str, Any]:
    """A report's figures without the run's timing (the time, the think time, the command and workers)."""
    out = {k: v for k, v in data.items() if k != "run"}
    out["agents"] = [{k: v for k, v in r.items() if k != "think"} for r in data["agents"]]
    return out


# ------------------------------------------------------------------ the seat rotation


@pytest.mark.parametrize(
    "agents, seats, editions, blocks",
    [(2, 4, 1, 6), (3, 4, 2, 5), (4, 4, 1, 6), (5, 4, 1, 12), (6, 3, 1, 10), (3, 6, 1, 10), (6, 4, 1, 3), (6, 4, 1, 7)],
)
def test_every_agent_sits_in_every_seat_equally_and_pairs_meet_about_equally(
    agents: int, seats: int, editions: int, blocks: int
) -> None:
    games = agents * editions * blocks
    s = Schedule.make(agents, seats, editions, games)
    in_seat: Counter[tuple[int, int, int]] = Counter()
    met: Counter[tuple[int, int]] = Counter()
    for g in range(games):
        seating = s.seating(g)
        assert sorted(Counter(seating).values()) == sorted(
            seats // agents + (a < seats % agents) for a in range(min(agents, seats))
        ), seating  # each agent P // K or P // K + 1 times
        for seat, a in enumerate(seating):
            in_seat[a, seat, s.edition(g)] += 1
        present = sorted(set(seating))
        met.update((a, b) for i, a in enumerate(present) for b in present[i + 1 :])
    assert set(in_seat.values()) == {games // (agents * editions)}  # every agent, seat and edition alike
    assert len(in_seat) == agents * seats * editions
    assert len(met) == agents * (agents - 1) // 2
    assert max(met.values()) - min(met.values()) <= 1, met


def test_a_full_period_plays_every_seating_once() -> None:
    s = Schedule.make(4, 4, 1, 24)  # 4 agents at 4 seats: 24 orders, each once
    assert len({s.seating(g) for g in range(24)}) == 24


# ------------------------------------------------------------------ places and ratings


def _outcome(game: int, seats: tuple[int, ...], winners: tuple[int, ...], levels: tuple[int, ...]) -> Outcome:
    return Outcome(game, seats, 0, winners, levels, not winners, 50, 500)


def test_places_winners_first_then_by_level_with_shared_places() -> None:
    assert places(_outcome(0, (0, 1, 2, 3), (2,), (7, 9, 10, 7))) == [3, 2, 1, 3]
    assert places(_outcome(0, (0, 1, 2, 3), (0, 3), (10, 4, 9, 10))) == [1, 4, 3, 1]  # a shared win
    assert places(_outcome(0, (0, 1, 2, 3), (), (8, 9, 9, 2))) == [3, 1, 1, 4]  # the turn cap: by Level alone


def test_the_fit_rates_the_agent_that_always_wins_highest_whatever_order_the_games_come_in() -> None:
    # agent 1 wins every game from either of its two seats; agent 0 is always last
    games = [
        _outcome(g, (0, 1, 1, 0) if g % 2 else (1, 0, 0, 1), (1,) if g % 2 else (0,), (1, 10, 5, 2)) for g in range(8)
    ]
    (mu0, s0), (mu1, s1) = fit(games, 2)[0]
    assert mu1 > 25 > mu0 and s0 < 25 / 3 and s1 < 25 / 3
    # workers send games back in any order: the fit takes them by game number
    assert fit(list(reversed(games)), 2)[0] == fit(games, 2)[0]


def test_an_agent_in_two_seats_moves_by_the_sum_of_its_seats_moves() -> None:
    from openskill.models import PlackettLuce

    o = _outcome(0, (0, 1, 0, 1), (2,), (3, 9, 10, 5))  # places 4, 2, 1, 3
    m = PlackettLuce(tau=0.0)
    seat = [r for (r,) in m.rate([[m.rating()] for _ in range(4)], ranks=[4.0, 2.0, 1.0, 3.0])]
    prior = 25 / 3
    (mu0, s0), (mu1, s1) = fit([o], 2)[0]
    assert mu0 == pytest.approx(seat[0].mu + seat[2].mu - 25) and mu1 == pytest.approx(seat[1].mu + seat[3].mu - 25)
    assert s0 == pytest.approx(seat[0].sigma * seat[2].sigma / prior)  # sigma^2 shrinks by both seats' factors
    assert s1 == pytest.approx(seat[1].sigma * seat[3].sigma / prior)
    assert mu0 != mu1  # the seats' places tell the agents apart


def test_a_ladder_game_is_the_game_simulate_plays_with_that_seating() -> None:
    league = League(("random", "heuristic"), (("good-bad",),), 4, 5, Schedule.make(2, 4, 1, 2))
    outcomes, timings = play_batch(league, 0, 2)
    for o in outcomes:
        g = run_game(["good-bad"], 4, 5 + o.game, [league.agents[a] for a in o.seats])
        assert (o.winners, o.turns, o.decisions) == (tuple(g.winners), g.turn, g.decisions)
        assert o.levels == tuple(p.level for p in g.players)
    random_, heuristic = timings[0], timings[1]
    assert random_.decide.decisions > 0 and heuristic.decide.decisions > 0
    assert random_.ask.decisions == 0 < heuristic.ask.decisions  # only the heuristic acts at any time


def test_the_clock_reads_quantiles_within_its_bins() -> None:
    c = Clock()
    for ms in range(1, 101):  # 1 ms to 100 ms
        c.add(ms / 1000)
    assert c.decisions == 100 and abs(c.seconds - 5.05) < 1e-9
    assert 0.050 * 0.97 < c.quantile(0.5) < 0.050 * 1.03
    assert 0.095 * 0.97 < c.quantile(0.95) < 0.095 * 1.03


# ------------------------------------------------------------------ runs from the command line


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ladder") / "report"
    r = ladder(
        *("--agents", "random,heuristic", "--games", str(GAMES), "--players", "4", "--set", "good-bad"),
        *("--seed", "2", "--workers", "1", "--out", str(out)),  # (under rules 6 seed 3 rates them closer)
    )
    assert r.exit_code == 0, r.output
    return out


def test_the_report_folder_ranks_heuristic_above_random(report: Path) -> None:
    data = _read(report)
    heuristic, random_ = data["agents"]  # best first
    assert (heuristic["agent"], heuristic["rank"], random_["agent"], random_["rank"]) == ("heuristic", 1, "random", 2)
    assert heuristic["ordinal"] > random_["mu"] + 3 * random_["sigma"]  # clearly apart, not by a hair
    assert heuristic["win_rate"]["rate"] > random_["win_rate"]["rate"]
    assert data["games"] == GAMES and heuristic["games"] == random_["games"] == GAMES
    assert heuristic["seats"] == 2 * GAMES  # two agents at four seats: each fills two seats a game
    assert heuristic["think"]["decisions"] > 0 and heuristic["think"]["p95_ms"] >= heuristic["think"]["median_ms"] > 0
    about = data["about"]
    assert (about["agents"], about["sets"], about["players"], about["seed"]) == (
        ["random", "heuristic"],
        ["good-bad"],
        4,
        2,
    )
    assert isinstance(about["rules"], int) and "--seed 2" in data["run"]["command"]
    (pair,) = data["head_to_head"]
    assert pair["games"] == GAMES and pair["comparisons"] == 4 * GAMES  # two seats against two, every game
    assert pair["b_ahead"]["rate"] > pair["a_ahead"]["rate"] and pair["a_rated_above"] < 0.01
    with (report / "ladder.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["agent"] for r in rows] == ["heuristic", "random"]
    assert float(rows[0]["ordinal"]) == pytest.approx(heuristic["ordinal"])
    page = (report / "index.html").read_text(encoding="utf-8")
    assert "data:image/png;base64," in page and "http://" not in page and "<script src" not in page
    assert page.count("<tr>") >= 2 + 2 + 2 + 2 + 4  # agents, head to head, editions, seats, and their headings
    assert (report / "ratings.png").read_bytes().startswith(b"\x89PNG")


def test_the_seats_were_rotated_evenly(report: Path) -> None:
    for row in _read(report)["agents"]:
        assert [s["games"] for s in row["by_seat"]] == [GAMES * 2 // 4] * 4  # 48 seat-games over 4 seats


def test_the_same_seed_gives_the_same_ratings(report: Path, tmp_path: Path) -> None:
    args = ("--agents", "random,heuristic", "--players", "4", "--set", "good-bad", "--workers", "1")
    r = ladder(*args, "--games", str(GAMES), "--seed", "2", "--out", str(tmp_path / "again"))
    assert r.exit_code == 0, r.output
    assert _games_only(_read(tmp_path / "again")) == _games_only(_read(report))
    r = ladder(*args, "--games", "4", "--seed", "4", "--out", str(tmp_path / "other"))
    assert r.exit_code == 0, r.output
    assert _read(tmp_path / "other")["agents"][0]["mu"] != _read(report)["agents"][0]["mu"]  # other games


AGENTS_PACKAGE = '''
"""An agent of one's own, named by import path: random answers, and never an any-time action."""
from munchkin.agents.random_agent import RandomAgent


class Plain(RandomAgent):
    def act(self, obs):
        answers = [a for a in obs.legal if a not in set(obs.any_time)] or obs.legal
        return answers[self.rng.randrange(len(answers))]


class Broken(RandomAgent):
    def act(self, obs):
        raise KeyError("no such card")
'''


@pytest.fixture
def own_agents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "ownbots"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "simple.py").write_text(textwrap.dedent(AGENTS_PACKAGE), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))  # worker processes start with the same path


def test_an_agent_named_by_import_path_plays_on_worker_processes(own_agents: None, tmp_path: Path) -> None:
    out = tmp_path / "report"
    r = ladder(
        *("--agents", "random,ownbots.simple:Plain,heuristic", "--games", "6", "--players", "3"),
        *("--set", "good-bad", "--workers", "2", "--out", str(out)),
    )
    assert r.exit_code == 0, r.output
    rows = {row["agent"]: row for row in _read(out)["agents"]}
    own = rows["ownbots.simple:Plain"]
    assert own["games"] == 6 and own["think"]["decisions"] > 0
    assert [s["games"] for s in own["by_seat"]] == [2, 2, 2]
    assert "ownbots.simple:Plain" in r.output  # in the table printed


def test_an_agent_that_fails_is_named_without_a_traceback(own_agents: None, tmp_path: Path) -> None:
    r = ladder(
        "--agents", "random,ownbots.simple:Broken", "--games", "2", "--workers", "1", "--out", str(tmp_path / "r")
    )
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "agent 'ownbots.simple:Broken' at seat" in r.output and "KeyError" in r.output
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize(
    "args, says",
    [
        (["--agents", "random,genius"], "unknown agent 'genius'"),
        (["--agents", "random,nosuchpackage.bots:Bot"], "cannot import 'nosuchpackage.bots'"),
        (["--agents", "random,munchkin.agents.random_agent:Nobody"], "has no class 'Nobody'"),
        (["--agents", "random,heuristic:fast"], "it has no variants"),
        (["--agents", "heuristic"], "at least two agents"),
        (["--agents", "random,random"], "'random' named twice"),
        (["--agents", "random,heuristic", "--set", "nosuch"], "unknown set 'nosuch'"),
        (["--agents", "random,heuristic", "--set", "deluxe", "--set", "deluxe"], "deluxe given twice"),
        (["--agents", "random,heuristic", "--games", "0"], "--games"),
        (["--agents", "random,heuristic", "--players", "7"], "--players"),
        (["--agents", "random,heuristic", "--ray", "somewhere"], "give auto, local, or an address"),
        (["--agents", "random,heuristic", "--ray", "local", "--workers", "2"], "not both"),
        (["--games", "3"], "--agents"),
    ],
)
def test_bad_flags_get_a_clear_error(args: list[str], says: str, tmp_path: Path) -> None:
    r = ladder("--out", str(tmp_path / "r"), *args)
    assert r.exit_code == 2
    assert says in " ".join(r.output.replace("│", " ").split())  # the error's box may wrap it
    assert "Traceback" not in r.output
    assert not (tmp_path / "r").exists()
