"""Every key and branch of the card vocabulary (read from the schema) is documented in docs/cards.md
and acted on by the engine in at least one scenario, as recorded at run time: the scenarios of
tests/scenarios, and those of tests/data/vocabulary-scenarios, played with the test cards of the
designer's folder tests/data/vocabulary for keys no built-in card uses."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import pytest

from munchkin.cards.loader import add_set_dir, clear_set_dirs
from munchkin.cards.schema import Condition, Strict
from munchkin.cards.vocabulary import INERT, UNREAD, paths
from munchkin.engine.vocabulary import recording, used
from munchkin.scenario import run_scenario

ROOT = Path(__file__).parents[1]
DOC = (ROOT / "docs" / "cards.md").read_text(encoding="utf-8")
SCENARIOS = sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))
TEST_CARDS = ROOT / "tests" / "data" / "vocabulary"  # a designer's folder: the keys no built-in card uses
TEST_CARD_SCENARIOS = sorted((ROOT / "tests" / "data" / "vocabulary-scenarios").glob("*.yaml"))


SECTIONS = {"card": "Every card", "condition": "Conditions", "effect": "Effects", "item_filter": "Effects"}


def _section(path: str) -> str:
    """The docs/cards.md section that documents a path (Blocks for every card kind's block)."""
    return SECTIONS.get(path.split(".")[0].split("=")[0], "Blocks")


def _doc_words() -> set[str]:
    """Every word written in backquotes in docs/cards.md (`key`, `key: value`, `{a, b}`, `a|b`)."""
    text = DOC.replace("```", "")  # code fences would pair the backquotes wrongly
    return {w for span in re.findall(r"`([^`\n]+)`", text) for w in re.findall(r"[a-z][a-z0-9_]*", span)}


def _words(path: str) -> list[str]:
    """The words a path needs in the doc: its last key, and a branch's value (not a number or held/failed)."""
    keys, _, value = path.partition("=")
    namespace, *fields = keys.split(".")
    words = fields[-1:] if fields else []
    if value and value not in ("held", "failed") and not value.isdigit():
        words.append(value)
    return words


@pytest.fixture(scope="module")
def covered() -> set[str]:
    with recording() as seen:
        for path in SCENARIOS:
            result = run_scenario(path)
            assert result.ok, f"{path.name}: " + "\n".join(result.report())
        assert add_set_dir(TEST_CARDS) == "vocabulary"
        try:
            for path in TEST_CARD_SCENARIOS:
                result = run_scenario(path)
                assert result.ok, f"{path.name}: " + "\n".join(result.report())
        finally:
            clear_set_dirs()
    return seen


def test_the_vocabulary_is_listed_from_the_schema() -> None:
    listed = paths()
    assert "effect.lose_gold" in listed and "effect.lose_race=one" in listed
    assert "monster.will_not_pursue.unless=failed" in listed and "ability=berserk" in listed
    assert not set(listed) & set(INERT)
    assert set(UNREAD) <= set(listed)


def test_every_key_is_documented() -> None:
    words = _doc_words()
    missing = [p for p in paths() if any(w not in words for w in _words(p))]
    assert not missing, f"keys of the schema that docs/cards.md does not write: {missing}"


# Words docs/cards.md writes in backquotes between "Every card" and "Hooks" that are no key of a card:
NOT_KEYS = {
    "elf", "cleric", "quidditch", "slytherin",  # examples of the names a condition takes
    "true", "false",  # flags' values
    "actions", "before_combat", "fn", "use",  # hooks' methods and arguments, an action's verb
    "munchkin", "tests",  # module and folder paths
    "terms",  # the set header's (docs/cards.md, Set header)
    "rulebook", "published", "original",  # `provenance`'s values (an inert key)
}  # fmt: skip


def test_every_key_the_doc_writes_is_in_the_schema() -> None:
    """A backquoted word of the card sections of docs/cards.md that starts a span (`key`, `key: N`)
    names a key or value of the schema, or is one of the few words listed as no key."""
    text = DOC[DOC.index("## Every card") : DOC.index("## Hooks")].replace("```", "")
    written = {m.group(1) for span in re.findall(r"`([^`\n]+)`", text) if (m := re.match(r"([a-z][a-z0-9_]*)", span))}
    schema: set[str] = set()
    for path in [*paths(), *INERT]:
        keys, _, value = path.partition("=")
        schema.update(keys.split("."))
        schema.add(value)
    unknown = sorted(written - schema - NOT_KEYS)
    assert not unknown, f"docs/cards.md writes keys the schema does not have: {unknown}"


def test_every_key_and_branch_is_exercised_by_a_scenario(covered: set[str]) -> None:
    listed = paths()
    unknown = sorted(covered - set(listed))
    assert not unknown, f"the engine recorded paths the schema does not have: {unknown}"
    read = sorted(set(UNREAD) & covered)
    assert not read, f"the engine now acts on {read}: take them out of UNREAD, which says it never does"
    missing = [p for p in listed if p not in covered and p not in UNREAD]
    lines = [f"{p}  (docs/cards.md, {_section(p)})" for p in missing]
    assert not missing, f"{len(missing)} of {len(listed)} vocabulary paths no scenario exercises:\n" + "\n".join(lines)


def test_a_new_key_is_listed_with_no_edit() -> None:
    """The list is read from the models: a block with a new number, Literal and condition lists them."""

    class Block(Strict):
        reach: int = 0
        mode: Literal["near", "far"] = "near"
        only_if: Condition | None = None

    class Toy(Strict):
        block: Block

    listed = paths(Toy)
    assert {"block.reach", "block.mode=near", "block.mode=far", "block.only_if=held", "block.only_if=failed"} <= set(
        listed
    )
    assert "condition.level_at_most" in listed  # the condition's own keys, once


def test_the_recorder_notes_only_while_recording() -> None:
    used("effect.die")  # outside a recording: nothing kept, nothing raised
    with recording() as outer:
        used("effect.die")
        with recording() as inner:
            used("effect.lose_race", "one")
        assert inner == {"effect.lose_race=one"}
    assert outer == {"effect.die", "effect.lose_race=one"}
