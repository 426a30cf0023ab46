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
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from munchkin.cards.hooks import HOOKS, designer_hooks, restore_hooks
from munchkin.cards.hooks import hook as hook  # sets register their hooks through the loader, as before
from munchkin.cards.problems import (
    Loc,
    Problem,
    did_you_mean,
    field_path,
    line_of,
    raise_problems,
    read_yaml,
    translate,
)
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
# where each registered folder's cards came from: set name -> {"set", "folder" (base name), "sha256"}
_ORIGINS: dict[str, dict[str, str]] = {}
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
        return _checked(folder, folder, older)
    return _checked(folder, folder)


@dataclass
class _Raw:
    """A folder as read, before validation: the header, each raw card with its file and YAML node,
    and every problem found so far."""

    header: dict[str, Any] | None
    header_file: Path
    header_node: yaml.Node | None
    cards: list[tuple[Path, Any, yaml.Node | None]]
    problems: list[Problem]
    invalid: list[tuple[Path, Any, yaml.Node | None]] = field(default_factory=list)  # the cards the schema refused


def _checked(folder: Path, shown: Path, older: Path | None = None) -> CardSet:
    """Read, validate and check a folder's set; one CardError listing every problem found."""
    raw = _read_folder(folder, shown, older)
    cs, nodes = _build(folder, raw)
    problems = raw.problems + (_set_problems(cs, nodes, raw) if cs is not None else [])
    raise_problems(problems, shown)
    assert cs is not None  # a set that could not be built left a problem
    return cs


def _read_folder(folder: Path, shown: Path, older: Path | None = None) -> _Raw:
    """The set header, the file carrying it, and every raw card with its file and node; `shown` is
    the folder as messages name it. With `older` (a folder of an older version's files), each of its
    files replaces the file of the same name. A file's mistakes are noted, and the others still read."""
    raw = _Raw(None, shown, None, [], [])
    files = _set_files(folder)
    if older is not None:
        replaced = {f.name: f for f in _set_files(older)}
        files = sorted([replaced.pop(f.name, f) for f in files] + list(replaced.values()), key=lambda f: f.name)
    if not files:
        raise CardError(f"{shown}: no set files here (a set is a folder of *.yaml files, one with the set header)")
    for file in files:
        path = shown / file.relative_to(folder) if file.is_relative_to(folder) else shown / file.name
        try:
            data, node = read_yaml(file.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = mark.line + 1 if mark is not None else None
            what = " ".join(str(w) for w in (getattr(exc, "context", None), getattr(exc, "problem", None)) if w)
            raw.problems.append(Problem(path, line, None, None, f"not valid YAML: {what or exc}"))
            continue
        except (OSError, UnicodeDecodeError) as exc:
            raw.problems.append(Problem(path, None, None, None, f"cannot read: {exc}"))
            continue
        if not isinstance(data, dict):
            raw.problems.append(Problem(path, None, None, None, "expected a mapping with 'cards'"))
            continue
        if "set" in data:
            if raw.header is not None:
                raw.problems.append(
                    Problem(
                        path, line_of(node, ("set",)), None, None, "a second set header; only one file may carry 'set'"
                    )
                )
            else:
                raw.header = {k: v for k, v in data.items() if k != "cards"}
                raw.header_file, raw.header_node = path, node
        cards = data.get("cards") or []
        if not isinstance(cards, list):
            raw.problems.append(Problem(path, line_of(node, ("cards",)), None, None, "'cards' must be a list of cards"))
            continue
        nodes = node.value if isinstance(node, yaml.MappingNode) else []
        card_nodes: list[yaml.Node] = next(
            (v.value for k, v in nodes if k.value == "cards" and isinstance(v, yaml.SequenceNode)), []
        )
        raw.cards += [(path, card, card_nodes[i] if i < len(card_nodes) else None) for i, card in enumerate(cards)]
    if raw.header is None and not raw.problems:
        raw.problems.append(
            Problem(shown, None, None, None, "no file carries the set header ('set', 'title', deck sizes)")
        )
    return raw


def _header(raw: _Raw) -> SetFile | None:
    """The validated set header, or None with its problems noted."""
    if raw.header is None:
        return None
    try:
        return SetFile.model_validate({**raw.header, "cards": []})
    except ValidationError as exc:
        for loc, words in translate(exc, SetFile):
            raw.problems.append(Problem(raw.header_file, line_of(raw.header_node, loc), None, field_path(loc), words))
        return None


def _card_label(raw: Any) -> str | None:
    if isinstance(raw, dict):
        return str(raw.get("name") or raw.get("id") or "") or None
    return repr(raw)


def _build(folder: Path, raw: _Raw) -> tuple[CardSet | None, list[yaml.Node | None]]:
    """The set from its header and raw cards, each card validated by the schema (not yet the checks
    across cards), and each valid card's node; None when the header or a card is wrong (noted)."""
    cards: list[Card] = []
    files: list[Path] = []
    nodes: list[yaml.Node | None] = []
    failed = False
    for path, data, node in raw.cards:
        try:
            cards.append(Card.model_validate(data))
        except ValidationError as exc:
            failed = True
            raw.invalid.append((path, data, node))
            for loc, words in translate(exc, Card):
                raw.problems.append(Problem(path, line_of(node, loc), _card_label(data), field_path(loc), words))
            continue
        files.append(path)
        nodes.append(node)
    sf = _header(raw)
    if sf is None:
        return None, nodes
    cs = CardSet(
        sf.set,
        sf.title,
        folder,
        tuple(cards),
        sf.door_cards,
        sf.treasure_cards,
        {str(k): v for k, v in sf.terms.items()},
        tuple(sf.houses),
        tuple(sf.house_cards),
        tuple(files),
        raw.header_file,
        sf.version,
    )
    if failed:  # the checks across cards still run on the valid ones
        raw.problems += _set_problems(cs, nodes, raw)
        return None, nodes
    return cs, nodes


# ---------------------------------------------------------------------- designers' set folders
def add_set_dir(path: str | Path, folder_name: str | None = None) -> str:
    """Read and fully check a designer's set folder, register it for this process under the name in
    its header, and return that name. A built-in set of the same name is replaced (a copy of Deluxe
    that changes one monster); the next game, card list or help page uses the folder's cards.

    Its cards may name the shared library's hooks and every built-in set's; a `hooks.py` in the
    folder is imported from its file and may add hooks or replace those of the set it replaces.
    `folder_name` is the folder's name as reports and saves record it (default: its base name)."""
    shown = Path(path)
    folder = shown.expanduser().resolve()
    if not folder.exists():
        raise CardError(f"{shown}: no such folder")
    if not folder.is_dir():
        raise CardError(f"{shown}: not a folder (a set is a folder of *.yaml files)")
    raw = _read_folder(folder, shown)
    sf = _header(raw)
    if sf is None:  # no name to import hooks under: the cards' own mistakes, and the header's
        _build(folder, raw)
        raise_problems(raw.problems, shown)
    assert sf is not None
    name = sf.set
    if not SET_NAME.fullmatch(name):
        raise CardError(
            f"{raw.header_file}: set {name!r}: a set's name is lower-case letters, digits and '-' (e.g. my-deluxe)"
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
        cs, nodes = _build(folder, raw)
        problems = raw.problems + (_set_problems(cs, nodes, raw) if cs is not None else [])
        raise_problems(problems, shown)
        assert cs is not None
    _REGISTERED[name] = (folder, cs)
    _ORIGINS[name] = {"set": name, "folder": folder_name or folder.name, "sha256": cards_sha256(set_dir_files(folder))}
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


@cache
def builtin_set(name: str) -> CardSet | None:
    """The built-in set of this name as shipped (today's cards), even while a designer's folder replaces
    it; None when no built-in set has the name (a designer's new set)."""
    if name not in _builtin_sets():
        return None
    package = name.replace("-", "_")
    importlib.import_module("munchkin.cards.library")
    importlib.import_module(f"munchkin.sets.{package}.hooks") if (SETS_DIR / package / HOOKS_FILE).exists() else None
    return _checked(SETS_DIR / package, SETS_DIR / package)


def designer_card(set_name: str, card_id: str) -> tuple[str, str] | None:
    """For a card of a registered designer folder: (the folder's name, how the card stands against the
    built-in card of the same id: "changed", "new" or "same"); None for a card of a built-in set."""
    registered = _REGISTERED.get(set_name)
    if registered is None:
        return None
    folder = _ORIGINS[set_name]["folder"]

    def find(cs: CardSet | None) -> Card | House | None:
        pool: list[Card | House] = [*cs.cards, *cs.houses] if cs is not None else []
        return next((c for c in pool if c.id == card_id), None)

    mine = find(registered[1])
    if mine is None:
        return None
    theirs = find(builtin_set(set_name))
    return folder, "new" if theirs is None else "same" if theirs == mine else "changed"


def clear_set_dirs() -> None:
    """Forget every registered folder: the built-in sets and their hooks again."""
    _REGISTERED.clear()
    _ORIGINS.clear()
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


def add_set_files(files: dict[str, str], folder_name: str | None = None) -> str:
    """Write files from `set_dir_files` to a new temporary folder (removed at exit) and register it
    (under `folder_name`, the folder they were read from, as reports and saves name it)."""
    for name in files:
        if Path(name).name != name or not (name.endswith(".yaml") or name == HOOKS_FILE):
            raise CardError(f"{name!r}: a set folder holds only *.yaml files and {HOOKS_FILE}")
    folder = Path(tempfile.mkdtemp(prefix="munchkin-set-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return add_set_dir(folder, folder_name)


# ---------------------------------------------------------------------- where the cards came from
SHORT_HASH = 12  # hex digits of a folder's hash shown to people; reports and saves keep all 64


def cards_sha256(files: Mapping[str, str]) -> str:
    """The hash of a set folder's cards: sha256 over its files (`set_dir_files`: the *.yaml and
    hooks.py) in name order, each name and text with its length. Text is read with universal
    newlines, so the same folder checked out with CRLF line endings has the same hash."""
    h = hashlib.sha256()
    for name in sorted(files):
        for part in (name.encode("utf-8"), files[name].encode("utf-8")):
            h.update(f"{len(part)}:".encode())
            h.update(part)
    return h.hexdigest()


def set_dir_origins(sets: Iterable[str] | None = None) -> list[dict[str, str]]:
    """Each registered designer folder (of `sets`, in their order; default: every one) as reports and
    saves record it: {"set", "folder" (its base name, never a machine's path), "sha256"}."""
    names = list(dict.fromkeys(sets)) if sets is not None else sorted(_ORIGINS)
    return [dict(_ORIGINS[n]) for n in names if n in _ORIGINS]


def folder_words(o: Mapping[str, Any]) -> str:
    """A recorded folder in words: "set 'deluxe' from folder 'my-deluxe' (cards sha256 3f2a9c1e4b5d)"."""
    return f"set {o.get('set')!r} from folder {o.get('folder')!r} (cards sha256 {str(o.get('sha256'))[:SHORT_HASH]})"


ORIGIN_SINCE_RULES = 7  # saves and tables of these rules or later record every designer folder they used


def origin_problem(origin: Any, what: str = "save", sets: Any = None, rules: Any = None) -> str | None:
    """Why a save's (or a stored table's: `what`) recorded origin (`Setup.origin`: {"set_dirs": [...]})
    cannot be replayed with the folders registered in this process, in words naming the folder and the
    --set-dir to give, or None. Said before any replay: without the folder, a replay would fail at some
    move with a missing card. There is no override: a changed folder deals other cards. Given its `sets`
    and `rules`, a save of rules 7 or later that records no folder for a set was dealt from the built-in
    cards, so a --set-dir that replaces that set is refused too (older saves cannot tell)."""
    if isinstance(rules, int) and rules >= ORIGIN_SINCE_RULES and isinstance(sets, list):
        recorded = (origin or {}).get("set_dirs", []) if isinstance(origin, dict) or origin is None else []
        given = {o.get("set") for o in recorded if isinstance(o, dict)}
        built_in = _builtin_sets()
        for name in sets:
            if isinstance(name, str) and name in _ORIGINS and name in built_in and name not in given:
                return (
                    f"this {what} was dealt from the built-in {name!r} cards, but --set-dir gave "
                    f"{folder_words(_ORIGINS[name])} in their place; replay it without that folder"
                )
    if origin is None:
        return None
    recorded = origin.get("set_dirs", []) if isinstance(origin, dict) else None
    if not isinstance(recorded, list) or not all(isinstance(o, dict) for o in recorded):
        return f"the {what}'s origin is not a mapping with a list of set_dirs"
    for o in recorded:
        name = o.get("set")
        here = _ORIGINS.get(name) if isinstance(name, str) else None
        if here is None:
            return (
                f"this {what} was dealt from a designer folder: {folder_words(o)}; "
                f"give it with --set-dir {o.get('folder')}"
            )
        if here["sha256"] != o.get("sha256"):
            return (
                f"this {what} was dealt from a designer folder whose cards differ from the one given: it has "
                f"{folder_words(o)}, --set-dir gave {folder_words(here)}; give the folder as it was when the "
                "game was played"
            )
    return None


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
    """Deck counts, unique ids and names, every named hook registered, every Race, Class, Role and
    House a condition names known: one CardError listing every problem, naming file and card."""
    raise_problems(_set_problems(cs, [], None), cs.header_file or cs.path)


# the character cards a condition may name, by its field ("human" is no Race)
_TRAITS = {"race": "race", "not_race": "race", "class": "class", "not_class": "class"}
_TRAITS |= {"role": "role", "not_role": "role", "house": "house", "not_house": "house"}


@cache
def _builtin_traits(package: str) -> frozenset[tuple[str, str]]:
    """(kind, lower-case name) of a built-in set's Races, Classes, Roles and Houses, read from its
    YAML alone (checking it would check every set from every set)."""
    found: set[tuple[str, str]] = set()
    for file in _set_files(SETS_DIR / package):
        data, _ = read_yaml(file.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            continue
        for card in (data.get("cards") or []) + (data.get("houses") or []):
            if isinstance(card, dict) and card.get("kind") in _TRAITS.values() and isinstance(card.get("name"), str):
                found.add((str(card["kind"]), card["name"].lower()))
    return frozenset(found)


def _traits(cs: CardSet) -> dict[str, set[str]]:
    """Each kind's names a condition may use: those of this set, of every built-in set and of every
    registered folder, lower-case as the engine compares them (any of them may share a game)."""
    names: dict[str, set[str]] = {kind: set() for kind in _TRAITS.values()}
    names["race"].add("human")
    for package in {b.replace("-", "_") for b in _builtin_sets()}:
        for kind, name in _builtin_traits(package):
            names[kind].add(name)
    for other in [cs] + [c for _, c in _REGISTERED.values()]:
        for card in other.cards:
            if card.kind in names:
                names[card.kind].add(card.name.lower())
        names["house"] |= {h.name.lower() for h in other.houses}
    return names


# the schema's fields that hold a Condition
_CONDITIONS = {"if", "unless", "usable_if", "not_usable_if", "escape_if", "defeated_by", "flees_from"}


def _named(data: Any, loc: Loc = ()) -> Iterator[tuple[Loc, str, str]]:
    """Every hook, and every Race, Class, Role or House a condition names, in a card as written (or
    dumped by its YAML names): (field, "hook" or the kind, the name)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "hook" and isinstance(value, str):
                yield loc + (key,), "hook", value
            elif key in _CONDITIONS and isinstance(value, dict):
                for k, v in value.items():
                    if k in _TRAITS and isinstance(v, str):
                        yield loc + (key, k), _TRAITS[k], v
            else:
                yield from _named(value, loc + (str(key),))
    elif isinstance(data, list):
        for i, item in enumerate(data):
            yield from _named(item, loc + (i,))


def _known(kind: str, names: set[str]) -> str:
    """'; the Races are: dwarf, elf, ...' for a name with no near miss."""
    plural = {"race": "Races", "class": "Classes", "role": "Roles", "house": "Houses"}[kind]
    return f"; the {plural} are: {', '.join(sorted(names))}"


def _set_problems(cs: CardSet, nodes: list[yaml.Node | None], raw: _Raw | None) -> list[Problem]:
    """The checks across a set's valid cards; `nodes` (parallel to its cards, may be empty) give lines."""
    problems: list[Problem] = []
    prefix = cs.name.replace("-", "_") + "."
    seen_ids: dict[str, str] = {}  # id -> the name of its first card
    seen_names: dict[str, tuple[str, str]] = {}  # lower-case name -> (name as written, where)
    traits = _traits(cs)
    doors = treasures = 0
    # every card as written, the ones the schema refused too: (file, node, id, name)
    written = [
        (file, node, str(data.get("id")), data["name"])
        for file, data, node in (raw.cards if raw is not None else [])
        if isinstance(data, dict) and isinstance(data.get("name"), str)
    ] or [(cs.card_files[i] if i < len(cs.card_files) else cs.path, None, c.id, c.name) for i, c in enumerate(cs.cards)]
    for file, node, card_id, name in written:
        line = line_of(node, ())
        if not card_id.startswith(prefix) and card_id != "None":
            problems.append(
                Problem(file, line_of(node, ("id",)), name, "id", f"{card_id!r} must start with {prefix!r}")
            )
        if card_id in seen_ids:
            problems.append(
                Problem(
                    file, line_of(node, ("id",)), name, "id", f"duplicate id {card_id!r} (also {seen_ids[card_id]!r})"
                )
            )
        seen_ids.setdefault(card_id, name)
        earlier = seen_names.get(name.lower())
        if earlier is not None and earlier[0] == name:
            problems.append(
                Problem(file, line_of(node, ("name",)), name, "name", f"name used twice (also at {earlier[1]})")
            )
        elif earlier is not None:
            problems.append(
                Problem(
                    file,
                    line_of(node, ("name",)),
                    name,
                    "name",
                    f"differs only in case from {earlier[0]!r} (at {earlier[1]}); actions and scenarios "
                    "look names up ignoring case, so each name must differ in its letters",
                )
            )
        seen_names.setdefault(name.lower(), (name, f"{file}:{line}" if line else str(file)))
    # the hooks and names of the valid cards, and of those the schema refused (as written)
    as_written: list[tuple[Path, yaml.Node | None, str | None, Any]] = [
        (
            cs.card_files[i] if i < len(cs.card_files) else cs.path,
            nodes[i] if i < len(nodes) else None,
            card.name,
            card.model_dump(by_alias=True, exclude_none=True),
        )
        for i, card in enumerate(cs.cards)
    ]
    as_written += [(f, n, _card_label(d), d) for f, d, n in (raw.invalid if raw is not None else [])]
    for file, node, label, data in as_written:
        for loc, kind, value in _named(data):
            line = line_of(node, loc)
            if kind == "hook" and value not in HOOKS:
                words = f"hook {value!r} is not registered (library or hooks.py){did_you_mean(value, HOOKS)}"
                problems.append(Problem(file, line, label, field_path(loc), words))
            elif kind != "hook" and value not in traits[kind]:
                words = (
                    f"no set has a {kind.title()} {value!r}, so this never holds"
                    f"{did_you_mean(value, traits[kind]) or _known(kind, traits[kind])}"
                    + ("; conditions name them in lower case" if value != value.lower() else "")
                )
                problems.append(Problem(file, line, label, field_path(loc), words))
    for i, card in enumerate(cs.cards):  # a one-shot of a Run Away moment does nothing by itself
        shot = card.one_shot
        if shot is not None and shot.when in ("run_away", "after_roll") and not shot.hook:
            node = nodes[i] if i < len(nodes) else None
            problems.append(
                Problem(
                    cs.card_files[i] if i < len(cs.card_files) else cs.path,
                    line_of(node, ("one_shot", "when")),
                    card.name,
                    "one_shot.when",
                    f"a one-shot played when: {shot.when} acts only through its hook, and it has none, so it "
                    "could never be played: add a hook, or play it in combat (when: combat) for its bonus",
                )
            )
    for card in cs.cards:
        if card.deck == "door":
            doors += card.copies
        else:
            treasures += card.copies
    where_header = cs.header_file or cs.path
    header_node = raw.header_node if raw is not None else None
    for house in cs.houses:
        if not house.id.startswith(prefix):
            problems.append(
                Problem(where_header, None, house.name, "id", f"House id {house.id!r} must start with {prefix!r}")
            )
        if house.house.hook and house.house.hook not in HOOKS:
            problems.append(
                Problem(
                    where_header,
                    None,
                    house.name,
                    "house.hook",
                    f"hook {house.house.hook!r} is not registered in hooks.py{did_you_mean(house.house.hook, HOOKS)}",
                )
            )
    if raw is not None:  # a card that failed the schema still has its copies in a deck
        for _, data, _ in raw.invalid:
            if isinstance(data, dict):
                copies = data.get("copies", 1)
                copies = copies if isinstance(copies, int) and copies > 0 else 1
                doors += copies if data.get("deck") == "door" else 0
                treasures += copies if data.get("deck") == "treasure" else 0
    if doors != cs.door_cards or treasures != cs.treasure_cards:
        problems.append(
            Problem(
                where_header,
                line_of(header_node, ("door_cards",)),
                None,
                None,
                f"deck counts are {doors} Door and {treasures} Treasure cards; "
                f"the set header says {cs.door_cards} and {cs.treasure_cards}",
            )
        )
    return problems
