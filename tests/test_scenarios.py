"""Every scenario file under tests/scenarios runs and meets all its expectations."""

from pathlib import Path

import pytest

from munchkin.scenario import run_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(p.parents[1])) for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    result = run_scenario(path)
    assert result.ok, "\n".join(result.failures)


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 1
