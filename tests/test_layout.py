"""The engine is pure rules, no I/O: no module under munchkin/engine/ imports a file reader.

Read with `ast`, so an import inside a function counts as much as one at the top. Card definitions
reach the engine as data (`engine.cards.provide_sets`), a scenario's table as a plain mapping
(`engine.table`); set files, scenario files and the invariant checker sit outside and import the
engine, never the reverse."""

from __future__ import annotations

import ast
from pathlib import Path

import munchkin.engine

ENGINE = Path(munchkin.engine.__file__).parent

# The only parts of the package the engine may import besides itself: the card schema (validated
# definitions as data), the hook protocol and registry (code the sets register), and the errors.
MUNCHKIN_ALLOWED = ("munchkin.engine", "munchkin.cards.schema", "munchkin.cards.hooks", "munchkin.errors")

# Libraries that read or write the outside world (files, processes, network, terminals), and YAML.
IO_LIBRARIES = {
    "yaml",
    "os",
    "pathlib",
    "io",
    "sys",
    "shutil",
    "glob",
    "tempfile",
    "subprocess",
    "socket",
    "urllib",
    "http",
    "sqlite3",
    "pickle",
    "shelve",
    "logging",
    "importlib",
    "asyncio",
}

# json serializes a game's save, its fingerprint and its state digest (strings in, strings out): only there.
JSON_ALLOWED = {"game.py", "digest.py"}


def _imports(tree: ast.AST) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
            # `from munchkin import scenario` names the module in the imported names
            out += [(node.lineno, f"{node.module}.{a.name}") for a in node.names if node.module == "munchkin"]
    return out


def _problem(module: str, name: str) -> str | None:
    top = name.split(".")[0]
    if top in IO_LIBRARIES:
        return "an I/O library"
    if top == "json" and module not in JSON_ALLOWED:
        return "json outside the save and the digests (engine/game.py, engine/digest.py)"
    if top == "munchkin" and name != "munchkin" and not name.startswith(MUNCHKIN_ALLOWED):
        return "a module outside the engine (scenario files, set loader, invariants, ...)"
    if name == "munchkin":
        return "the package root (it wires the loader in)"
    return None


def test_engine_imports_no_io_nor_loaders() -> None:
    found = []
    modules = sorted(ENGINE.glob("*.py"))
    assert len(modules) > 10  # the engine's modules were found
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, name in _imports(tree):
            why = _problem(path.name, name)
            if why:
                found.append(f"engine/{path.name}:{line} imports {name}: {why}")
    assert not found, "the engine is pure rules, no I/O:\n" + "\n".join(found)


def test_the_check_catches_what_it_forbids() -> None:
    """The names the brief forbids are caught, so the test above could fail."""
    for name in ("yaml", "munchkin.scenario", "munchkin.invariants", "munchkin.cards.loader", "os", "pathlib"):
        assert _problem("cards.py", name), name
    tree = ast.parse("def f():\n    from munchkin import scenario\n")
    assert any(_problem("x.py", n) for _, n in _imports(tree))
    assert _problem("cards.py", "json") and not _problem("game.py", "json")
    assert not _problem("cards.py", "munchkin.cards.schema")


def test_no_rule_is_a_stub() -> None:
    """No engine module raises NotImplementedError, but the abstract source of chance (engine/chance.py):
    a rule a lower layer calls is declared for the type checker only (engine/core.py)."""
    stubs = []
    for path in sorted(ENGINE.glob("*.py")):
        if path.name == "chance.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and "NotImplementedError" in ast.unparse(node):
                stubs.append(f"engine/{path.name}:{node.lineno}")
    assert not stubs, "stubs that raise NotImplementedError: " + ", ".join(stubs)
    from munchkin.engine.core import GameCore

    assert not hasattr(GameCore, "legal_actions")  # declared under TYPE_CHECKING only


def test_game_is_its_state_and_interface_not_a_stack_of_mixins() -> None:
    """A rule lives in the module of its part of the rulebook, as a function over the game or a step,
    never in a class the game inherits from: `Game` is the state (`GameCore`) and the public interface."""
    from munchkin.engine.core import GameCore
    from munchkin.engine.game import Game

    assert Game.__mro__ == (Game, GameCore, object)
    for name in ("has_ability", "gain_levels", "settle_table", "run_away_bonus", "help_candidates", "card_actions"):
        assert not hasattr(Game, name), f"{name} is a method of Game; it belongs in its rule module"
