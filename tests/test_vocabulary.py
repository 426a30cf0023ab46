"""Every key and branch of the card vocabulary (read from the schema) is documented in docs/cards.md
and acted on by the engine in at least one scenario of tests/scenarios, as recorded at run time."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from munchkin.cards.vocabulary import INERT, paths
from munchkin.engine.vocabulary import recording
from munchkin.scenario import run_scenario

ROOT = Path(__file__).parents[1]
DOC = (ROOT / "docs" / "cards.md").read_text(encoding="utf-8")
SCENARIOS = sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))


def _section(word: str) -> str:
    """The docs/cards.md section that first writes `word` in backquotes (`word` or `word: ...`)."""
    heading = "(top)"
    for line in DOC.splitlines():
        if line.startswith("#"):
            heading = line.lstrip("# ")
        elif re.search(rf"`{re.escape(word)}(`|:|\\|)", line):
            return heading
    return ""


def _words(path: str) -> list[str]:
    """The words of a path as the doc writes them: each key, and the value of a branch."""
    keys, _, value = path.partition("=")
    words = (
        keys.split(".")[1:]
        if keys.split(".")[0] in ("card", "condition", "effect", "ability", "item_filter", "sex")
        else keys.split(".")
    )
    if keys.split(".")[0] in ("ability", "item_filter", "sex"):
        words = []
    if value and value not in ("held", "failed"):
        words.append(value)
    return words


@pytest.fixture(scope="module")
def covered() -> set[str]:
    with recording() as seen:
        for path in SCENARIOS:
            result = run_scenario(path)
            assert result.ok, f"{path.name}: " + "\n".join(result.report())
    return seen


def test_the_vocabulary_is_listed_from_the_schema() -> None:
    listed = paths()
    assert "effect.lose_gold" in listed and "effect.lose_race=one" in listed
    assert "monster.will_not_pursue.unless=failed" in listed and "ability=berserk" in listed
    assert not set(listed) & set(INERT)


def test_every_key_is_documented() -> None:
    missing = [p for p in paths() if any(not _section(w) for w in _words(p))]
    assert not missing, f"keys of the schema that docs/cards.md does not write: {missing}"


def test_every_key_and_branch_is_exercised_by_a_scenario(covered: set[str]) -> None:
    listed = paths()
    unknown = sorted(covered - set(listed))
    assert not unknown, f"the engine recorded paths the schema does not have: {unknown}"
    missing = [p for p in listed if p not in covered]
    lines = [f"{p}  (docs/cards.md: {_section(_words(p)[-1]) if _words(p) else '?'})" for p in missing]
    assert not missing, f"{len(missing)} of {len(listed)} vocabulary paths no scenario exercises:\n" + "\n".join(lines)
