"""Every scenario file under tests/scenarios runs and meets all its expectations, traced: looking at
the state after every step (`--trace`) changes nothing (tests/test_cli.py runs them untraced)."""

from pathlib import Path

import pytest
import yaml

from munchkin.scenario import run_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(p.parents[1])) for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    result = run_scenario(path, trace=True)
    assert result.ok, "\n".join(result.report())
    steps = yaml.safe_load(path.read_text(encoding="utf-8")).get("steps") or []
    assert sum(line.startswith("after step ") for line in result.trace) == len(steps)


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 1
