"""docs/engine.md: its agent of one's own and its agent loop run as written (read from the page, so
the page cannot drift from the code), and that agent plays in `simulate` and `balance` by its import
path, with wins by agent and their intervals; the defaults `simulate`, `balance` and `Options` share."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import munchkin
from munchkin.agents.registry import DEFAULT_AGENT
from munchkin.cli import app
from munchkin.engine.events import Event, Level
from munchkin.engine.game import TURN_CAP, Game, Options

DOC = Path(__file__).resolve().parents[1] / "docs" / "engine.md"
SET = "good-bad"  # the quickest edition for the bots

BROKEN = """
class NoAct:
    def __init__(self, seed):
        pass


class Grumpy:
    def __init__(self, seed):
        raise RuntimeError("no seed for me")

    def act(self, obs):
        return obs.legal[0]
"""


def _blocks() -> list[str]:
    """The page's Python code blocks, in order: the agent module, then the loop."""
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


@pytest.fixture
def my_agents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The page's `my_agents.py` (and a module of broken agents) in a folder on the path."""
    (tmp_path / "my_agents.py").write_text(_blocks()[0], encoding="utf-8")
    (tmp_path / "broken_agents.py").write_text(BROKEN, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))  # worker processes start with the same path
    return tmp_path


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_the_page_has_its_two_blocks() -> None:
    blocks = _blocks()
    assert len(blocks) == 2
    assert "class FirstChoice" in blocks[0] and "while not game.over" in blocks[1]


def test_the_agent_loop_of_the_page_plays_a_game_to_its_end(my_agents: Path) -> None:
    scope: dict[str, object] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(_blocks()[1], str(DOC), "exec"), scope)  # noqa: S102 (our own page's example)
    game = scope["game"]
    assert isinstance(game, Game)
    assert game.over and not game.capped and game.winners
    assert all(isinstance(ev, Event) for ev in game.events)  # typed records, as the page says
    ups = sum(ev.change for ev in game.events if isinstance(ev, Level) and ev.change > 0)
    names = [game.players[s].name for s in game.winners]
    assert printed.getvalue().splitlines() == [
        f"winners: {names} after {game.turn + 1} turns",
        f"capped: False Levels gained: {ups}",
    ]
    again = Game.from_json(game.to_json())  # the save replays to the same end
    assert again.winners == game.winners and again.events == game.events


def test_simulate_plays_an_agent_of_ones_own_and_gives_wins_by_agent(my_agents: Path) -> None:
    r = run(
        *("simulate", "--set", SET, "--games", "6", "--players", "4", "--seed", "5"),
        *("--agents", "my_agents:FirstChoice,heuristic", "--json"),
    )
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    rows = {row["agent"]: row for row in s["wins_by_agent"]}
    assert list(rows) == ["my_agents:FirstChoice", "heuristic"]
    assert rows["my_agents:FirstChoice"]["seats"] == [0, 2] and rows["heuristic"]["seats"] == [1, 3]
    wins = s["wins_by_seat"]
    assert rows["heuristic"]["k"] == wins[1] + wins[3]
    assert sum(row["k"] for row in rows.values()) == sum(wins)
    for row in rows.values():
        assert row["n"] == 2 * s["finished"]
        assert 0 <= row["low"] <= row["rate"] <= row["high"] <= 1 and row["high"] > row["low"]

    text = run(
        *("simulate", "--set", SET, "--games", "6", "--players", "4", "--seed", "5"),
        *("--agents", "my_agents:FirstChoice,heuristic"),
    )
    assert text.exit_code == 0, text.output
    flat = " ".join(text.stdout.split())
    assert "wins by agent" in flat
    first = rows["my_agents:FirstChoice"]
    assert f"my_agents:FirstChoice (seats 1, 3): {first['k']} of {first['n']} seat-games" in flat
    assert "seat 1 (Ann, my_agents:FirstChoice)" in flat and "seat 0" not in flat  # seats from 1 for people


def test_simulate_with_one_agent_prints_no_wins_by_agent() -> None:
    r = run("simulate", "--set", SET, "--games", "2", "--players", "3", "--agents", "random")
    assert r.exit_code == 0, r.output
    assert "wins by agent" not in r.stdout and "wins by seat" in r.stdout


def test_balance_plays_an_agent_of_ones_own_and_reports_wins_by_agent(my_agents: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    r = run(
        *("balance", "--set", SET, "--games", "6", "--players", "3", "--workers", "2"),
        *("--agents", "heuristic,my_agents:FirstChoice", "--out", str(out), "--json"),
    )
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    rows = {row["agent"]: row for row in s["agents"]}
    assert rows["heuristic"]["seats"] == [0, 2] and rows["my_agents:FirstChoice"]["seats"] == [1]
    assert rows["heuristic"]["k"] == s["seats"][0]["k"] + s["seats"][2]["k"]
    assert rows["my_agents:FirstChoice"]["n"] == s["finished"]
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "<h2>Wins by agent</h2>" in page and "my_agents:FirstChoice" in page
    with (out / "agents.csv").open(encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    assert [(t["agent"], t["seats"]) for t in table] == [("heuristic", "1 3"), ("my_agents:FirstChoice", "2")]


@pytest.mark.parametrize("command", ["simulate", "balance"])
@pytest.mark.parametrize(
    "spec, says",
    [
        ("my_agent:FirstChoice", "cannot import 'my_agent'"),
        ("my_agents:LastChoice", "has no class 'LastChoice'"),
        ("broken_agents:NoAct", "has no method act(obs)"),
        ("broken_agents:Grumpy", "could not be made as Grumpy(seed): RuntimeError: no seed for me"),
        ("heuristik", "unknown agent 'heuristik'"),
    ],
)
def test_a_bad_agent_is_refused_before_any_game(
    my_agents: Path, tmp_path: Path, command: str, spec: str, says: str
) -> None:
    out = tmp_path / "never"
    extra = ["--out", str(out), "--workers", "1"] if command == "balance" else []
    r = run(command, "--set", SET, "--games", "2", "--agents", f"random,{spec}", *extra)
    assert r.exit_code == 2, r.output
    assert says in " ".join(r.output.replace("│", " ").split()) and "Traceback" not in r.output
    assert not out.exists()


def test_the_defaults_agree() -> None:
    from munchkin.balance.runner import DEFAULT_TURN_CAP as balance_cap
    from munchkin.balance.runner import Version
    from munchkin.ladder.games import DEFAULT_TURN_CAP as ladder_cap
    from munchkin.simulate import run_game

    assert Options().turn_cap == TURN_CAP == balance_cap == ladder_cap == 5000
    assert Version(("deluxe",), 4, ("heuristic",)).game_options().turn_cap == TURN_CAP
    g = run_game([SET], 3, 1, ["random"])
    assert g.options.turn_cap == TURN_CAP

    r = run("simulate", "--set", SET, "--games", "1", "--players", "3", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["agents"] == [DEFAULT_AGENT] == ["heuristic"]
    for command in ("simulate", "balance"):
        h = " ".join(run(command, "--help").stdout.replace("│", " ").split())
        assert "Default heuristic" in h and "package.module:Class" in h, command
        assert str(TURN_CAP) in h, command


def test_the_package_ships_its_types_and_says_what_its_entry_points_do() -> None:
    root = Path(munchkin.__file__).parent
    assert (root / "py.typed").is_file()
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    assert '"py.typed"' in pyproject
    for name in ("legal_actions", "text", "to_json", "seat_of", "prompt"):
        doc = getattr(Game, name).__doc__
        assert doc and len(doc.split()) > 8, name
