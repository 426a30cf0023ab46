"""The shared card hook library (`munchkin.cards.library`): each edition names it, none borrows another's."""

from __future__ import annotations

import ast
import types
from collections import defaultdict
from pathlib import Path

from munchkin.agents.heuristic import LIBRARY_AS
from munchkin.cards.hooks import HOOKS
from munchkin.cards.loader import SETS_DIR, _hooks_of, available_sets, load_set


def _named_hooks() -> dict[str, set[str]]:
    """Every hook id a card or House of any edition names, with the editions naming it."""
    named: dict[str, set[str]] = defaultdict(set)
    for name in available_sets():
        cs = load_set(name)
        for card in cs.cards:
            for h in _hooks_of(card):
                named[h].add(name)
        for house in cs.houses:
            if house.house.hook:
                named[house.house.hook].add(name)
    return named


def test_no_edition_imports_another_editions_package() -> None:
    for path in SETS_DIR.rglob("*.py"):
        own = path.relative_to(SETS_DIR).parts[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
            for m in modules:
                if m.startswith("munchkin.sets."):
                    assert m.split(".")[2] == own, f"{path.relative_to(SETS_DIR)} imports {m}"


def test_a_hook_two_editions_name_is_a_library_hook() -> None:
    for h, editions in _named_hooks().items():
        if len(editions) > 1:
            assert h.startswith("library."), (h, sorted(editions))
        elif not h.startswith("library."):  # an edition's own hook, under its own id
            (edition,) = editions
            assert h.startswith(edition.replace("-", "_") + "."), (h, edition)


def test_every_library_hook_is_named_by_a_card() -> None:
    named = _named_hooks()
    library = {h for h in HOOKS if h.startswith("library.")}
    assert library, "the library registered no hooks"
    assert sorted(library - set(named)) == []


def _same_rule(a: object, b: object) -> bool:
    if isinstance(a, types.FunctionType) or isinstance(b, types.FunctionType):
        return a is b
    return type(a) is type(b) and vars(a) == vars(b)


def test_an_edition_hook_is_no_copy_of_a_library_hook() -> None:
    """A card that plays exactly like a library hook names it instead of registering a copy."""
    _named_hooks()  # every edition's hooks registered
    library = {h: obj for h, obj in HOOKS.items() if h.startswith("library.")}
    for h, obj in HOOKS.items():
        if not h.startswith("library."):
            assert not any(_same_rule(obj, lib) for lib in library.values()), h


def test_bots_play_a_library_hook_as_the_deluxe_card_naming_it() -> None:
    """The heuristic bot knows each library hook by the Deluxe card that names it (its old hook name)."""
    deluxe = {c.id: set(_hooks_of(c)) for c in load_set("deluxe").cards}
    library = {h.split(".", 1)[1] for h in HOOKS if h.startswith("library.")}
    assert set(LIBRARY_AS) == library
    for short, card in LIBRARY_AS.items():
        assert f"library.{short}" in deluxe[f"deluxe.{card}"], (short, card)


def test_library_modules_say_what_they_hold() -> None:
    folder = Path(__file__).resolve().parent.parent / "src" / "munchkin" / "cards" / "library"
    for path in folder.glob("*.py"):
        assert ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))), path.name
