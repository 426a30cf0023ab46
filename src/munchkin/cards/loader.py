"""Loads and checks set files: one folder per edition under `munchkin/sets/`, and designers' own
set folders registered for this process (`add_set_dir`), which may replace a built-in set."""

from __future__ import annotations

import atexit
import hashlib
import importlib
import importlib.util
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from munchkin.cards.hooks import HOOKS, designer_hooks, restore_hooks
from munchkin.cards.hooks import hook as hook  # sets register their hooks through the loader, as before
from munchkin.cards.schema import Card, Effect, House, HouseCard, SetFile
from munchkin.errors import CardError

SETS_DIR = Path(__file__).resolve().parent.parent / "sets"
SET_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")  # typed in --set, joined by commas; "-" is "_" in ids
HOOKS_FILE = "hooks.py"


@dataclass(frozen=True)
class CardSet:
    name: str
    title: str
    path: Path
    cards: tuple[Card, ...]
    door_cards: int
    treasure_cards: int
    terms: dict[str, str]
    houses: tuple[House, ...] = ()  # chosen at setup, outside both decks (Harry Potter)
    house_cards: tuple[HouseCard, ...] = ()
    card_files: tuple[Path, ...] = ()  # the file of each card, as errors name it
    header_file: Path | None = None  # the file with the set header
    version: int = 1  # the cards' version (a built-in set keeps older versions in v<N>/ for old saves)


# designers' set folders registered in this process: set name -> (folder, its validated set)
_REGISTERED: dict[str, tuple[Path, CardSet]] = {}
# what must forget its cached sets when the registered folders change (help pages, card faces, ...)
_LISTENERS: list[Callable[[], None]] = []


def _builtin_sets() -> list[str]:
    # a set's name is its folder's, with "-" for "_" (the folder must be a Python package name)
    return [p.name.replace("_", "-") for p in SETS_DIR.iterdir() if any(p.glob("*.yaml"))]


def available_sets() -> list[str]:
    """The built-in sets and the designers' folders registered in this process, by name."""
    return sorted(set(_builtin_sets()) | set(_REGISTERED))


def _set_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.yaml"))


@cache
def load_set(name: str, version: int | None = None) -> CardSet:
    """Read, validate and return one set; raise CardError naming file and card.

    A designer's folder registered under `name` (`add_set_dir`) wins over the built-in set.
    `version` asks for an older version of a built-in set's cards (a save made with them): its
    folder `v<version>/` holds the files that differ from today's."""
    if name in _REGISTERED:
        cs = _REGISTERED[name][1]
        if version is not None and version != cs.version:
            raise CardError(f"set {name!r} is a designer's folder of version {cs.version}, not {version}")
        return cs
    package = name.replace("-", "_")
    folder = SETS_DIR / package
    if name not in available_sets():
        raise CardError(f"unknown set {name!r}; known sets: {', '.join(available_sets())}")
    importlib.import_module("munchkin.cards.library")  # the shared hooks, before the set's own
    importlib.import_module(f"munchkin.sets.{package}.hooks") if (folder / HOOKS_FILE).exists() else None
    if version is not None and version != load_set(name).version:
        older = folder / f"v{version}"
        if not older.is_dir():
            raise CardError(
                f"set {name!r} has no cards of version {version} (this engine has version {load_set(name).version})"
            )
        cs = _build(folder, *_read_folder(folder, folder, older))
    else:
        cs = _build(folder, *_read_folder(folder, folder))
    check_set(cs)
    return cs


def _read_folder(
    folder: Path, shown: Path, older: Path | None = None
) -> tuple[dict[str, Any], Path, list[tuple[Path, Any]]]:
    """The set header, the file carrying it, and every raw card with its file; `shown` is the
    folder as messages name it. With `older` (a folder of an older version's files), each of its
    files replaces the file of the same name."""
    header: dict[str, Any] | None = None
    header_file = shown
    raw_cards: list[tuple[Path, Any]] = []
    files = _set_files(folder)
    if older is not None:
        replaced = {f.name: f for f in _set_files(older)}
        files = sorted([replaced.pop(f.name, f) for f in files] + list(replaced.values()), key=lambda f: f.name)
    if not files:
        raise CardError(f"{shown}: no set files here (a set is a folder of *.yaml files, one with the set header)")
    for file in files:
        path = shown / file.relative_to(folder) if file.is_relative_to(folder) else shown / file.name
        try:
            data = yaml.safe_load(file.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise CardError(f"{path}: not valid YAML: {exc}") from exc
        except (OSError, UnicodeDecodeError) as exc:
            raise CardError(f"{path}: cannot read: {exc}") from None
        if not isinstance(data, dict):
            raise CardError(f"{path}: expected a mapping with 'cards'")
        if "set" in data:
            if header is not None:
                raise CardError(f"{path}: a second set header; only one file may carry 'set'")
            header = {k: v for k, v in data.items() if k != "cards"}
            header_file = path
        cards = data.get("cards") or []
        if not isinstance(cards, list):
            raise CardError(f"{path}: 'cards' must be a list of cards")
        raw_cards += [(path, raw) for raw in cards]
    if header is None:
        raise CardError(f"{shown}: no file carries the set header ('set', 'title', deck sizes)")
    return header, header_file, raw_cards


def _problems(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors())


def _header(header: dict[str, Any], header_file: Path) -> SetFile:
    try:
        return SetFile.model_validate({**header, "cards": []})
    except ValidationError as exc:
        raise CardError(f"{header_file}: bad set header: {_problems(exc)}") from None


def _build(folder: Path, header: dict[str, Any], header_file: Path, raw_cards: list[tuple[Path, Any]]) -> CardSet:
    """The set from its header and raw cards, each card validated by the schema (not yet `check_set`)."""
    cards: list[Card] = []
    for path, raw in raw_cards:
        label = raw.get("name") or raw.get("id") if isinstance(raw, dict) else repr(raw)
        try:
            cards.append(Card.model_validate(raw))
        except ValidationError as exc:
            raise CardError(f"{path}: card {label!r}: {_problems(exc)}") from None
    sf = _header(header, header_file)
    return CardSet(
        sf.set,
        sf.title,
        folder,
        tuple(cards),
        sf.door_cards,
        sf.treasure_cards,
        {str(k): v for k, v in sf.terms.items()},
        tuple(sf.houses),
        tuple(sf.house_cards),
        tuple(path for path, _ in raw_cards),
        header_file,
        sf.version,
    )


# ---------------------------------------------------------------------- designers' set folders
def add_set_dir(path: str | Path) -> str:
    """Read and fully check a designer's set folder, register it for this process under the name in
    its header, and return that name. A built-in set of the same name is replaced (a copy of Deluxe
    that changes one monster); the next game, card list or help page uses the folder's cards.

    Its cards may name the shared library's hooks and every built-in set's; a `hooks.py` in the
    folder is imported from its file and may add hooks or replace those of the set it replaces."""
    shown = Path(path)
    folder = shown.expanduser().resolve()
    if not folder.exists():
        raise CardError(f"{shown}: no such folder")
    if not folder.is_dir():
        raise CardError(f"{shown}: not a folder (a set is a folder of *.yaml files)")
    header, header_file, raw_cards = _read_folder(folder, shown)
    name = _header(header, header_file).set
    if not SET_NAME.fullmatch(name):
        raise CardError(
            f"{header_file}: set {name!r}: a set's name is lower-case letters, digits and '-' (e.g. my-deluxe)"
        )
    package = name.replace("-", "_")
    importlib.import_module("munchkin.cards.library")
    for builtin in _builtin_sets():  # before the folder's own hooks, which may replace some of them
        built = builtin.replace("-", "_")
        if (SETS_DIR / built / HOOKS_FILE).exists():
            importlib.import_module(f"munchkin.sets.{built}.hooks")
    hooks_file = folder / HOOKS_FILE
    with designer_hooks(str(hooks_file), package + "."):  # an error leaves the hooks as they were
        if hooks_file.exists():
            _import_hooks(hooks_file, shown / HOOKS_FILE, package)
        cs = _build(folder, header, header_file, raw_cards)
        check_set(cs)
    _REGISTERED[name] = (folder, cs)
    _sets_changed()
    return name


def _import_hooks(file: Path, shown: Path, package: str) -> None:
    """Run a designer's hooks.py as a module of its own, named after its set and its text (the same
    on every machine, so its objects pickle); any error in it is a CardError naming the file."""
    text = file.read_bytes()
    module_name = f"_munchkin_set_{package}_{hashlib.sha256(text).hexdigest()[:12]}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has a loader
        raise CardError(f"{shown}: cannot import")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except CardError as exc:
        sys.modules.pop(module_name, None)
        raise CardError(f"{shown}: {exc}") from None
    except Exception as exc:  # the designer's code: any error is theirs to fix, said in one line
        sys.modules.pop(module_name, None)
        raise CardError(f"{shown}: cannot import: {type(exc).__name__}: {exc}") from None


def clear_set_dirs() -> None:
    """Forget every registered folder: the built-in sets and their hooks again."""
    _REGISTERED.clear()
    restore_hooks()
    _sets_changed()


def set_dirs() -> dict[str, Path]:
    """The registered designers' folders, by set name."""
    return {name: folder for name, (folder, _) in _REGISTERED.items()}


def when_sets_change(forget: Callable[[], None]) -> None:
    """Call `forget` whenever the registered folders change (a cache of anything read from sets)."""
    _LISTENERS.append(forget)


def _sets_changed() -> None:
    load_set.cache_clear()
    for forget in _LISTENERS:
        forget()


def set_dir_files(path: str | Path) -> dict[str, str]:
    """A set folder's files (its *.yaml and hooks.py) as name -> text, to rebuild it elsewhere
    (another process or machine) with `add_set_files`."""
    folder = Path(path)
    if not folder.is_dir():
        raise CardError(f"{folder}: no such folder")
    files = _set_files(folder) + [f for f in [folder / HOOKS_FILE] if f.exists()]
    return {f.name: f.read_text(encoding="utf-8") for f in files}


def add_set_files(files: dict[str, str]) -> str:
    """Write files from `set_dir_files` to a new temporary folder (removed at exit) and register it."""
    for name in files:
        if Path(name).name != name or not (name.endswith(".yaml") or name == HOOKS_FILE):
            raise CardError(f"{name!r}: a set folder holds only *.yaml files and {HOOKS_FILE}")
    folder = Path(tempfile.mkdtemp(prefix="munchkin-set-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return add_set_dir(folder)


def _hooks_of(card: Card) -> Iterator[str]:
    for block in (
        card.monster,
        card.item,
        card.one_shot,
        card.curse,
        card.enhancer,
        card.race,
        card.class_,
        card.special,
        card.sidekick,
        card.role,
        card.proficiency,
    ):
        name = getattr(block, "hook", None) if block is not None else None
        if name:
            yield name
    effects: list[Effect] = []
    if card.monster:
        effects += card.monster.bad_stuff + card.monster.even_if_escaped
    if card.curse:
        effects += card.curse.effects
    while effects:
        e = effects.pop()
        if e.hook:
            yield e.hook
        if e.otherwise:
            effects += e.otherwise


def check_set(cs: CardSet) -> None:
    """Deck counts, unique ids and names, every named hook registered; errors name the card's file."""
    seen_ids: set[str] = set()
    seen_names: dict[str, str] = {}
    doors = treasures = 0
    for i, card in enumerate(cs.cards):
        where = cs.card_files[i] if i < len(cs.card_files) else cs.path
        if not card.id.startswith(cs.name.replace("-", "_") + "."):
            raise CardError(
                f"{where}: card {card.name!r}: id {card.id!r} must start with '{cs.name.replace('-', '_')}.'"
            )
        if card.id in seen_ids:
            raise CardError(f"{where}: card {card.name!r}: duplicate id {card.id!r}")
        seen_ids.add(card.id)
        if card.name in seen_names:
            raise CardError(f"{where}: card {card.name!r}: name used twice ({seen_names[card.name]} and {card.id})")
        seen_names[card.name] = card.id
        for h in _hooks_of(card):
            if h not in HOOKS:
                raise CardError(f"{where}: card {card.name!r}: hook {h!r} is not registered (library or hooks.py)")
        if card.deck == "door":
            doors += card.copies
        else:
            treasures += card.copies
    where = cs.header_file or cs.path
    for house in cs.houses:
        if not house.id.startswith(cs.name.replace("-", "_") + "."):
            raise CardError(
                f"{where}: House {house.name!r}: id {house.id!r} must start with '{cs.name.replace('-', '_')}.'"
            )
        if house.house.hook and house.house.hook not in HOOKS:
            raise CardError(f"{where}: House {house.name!r}: hook {house.house.hook!r} is not registered in hooks.py")
    if doors != cs.door_cards or treasures != cs.treasure_cards:
        raise CardError(
            f"{where}: deck counts are {doors} Door and {treasures} Treasure cards; "
            f"the set header says {cs.door_cards} and {cs.treasure_cards}"
        )
