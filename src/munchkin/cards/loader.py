"""Loads and checks set files; one folder per edition under `munchkin/sets/`."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from munchkin.cards.hooks import HOOKS
from munchkin.cards.hooks import hook as hook  # sets register their hooks through the loader, as before
from munchkin.cards.schema import Card, Effect, House, HouseCard, SetFile
from munchkin.errors import CardError

SETS_DIR = Path(__file__).resolve().parent.parent / "sets"


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


def available_sets() -> list[str]:
    # a set's name is its folder's, with "-" for "_" (the folder must be a Python package name)
    return sorted(p.name.replace("_", "-") for p in SETS_DIR.iterdir() if any(p.glob("*.yaml")))


def _set_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.yaml"))


@cache
def load_set(name: str) -> CardSet:
    """Read, validate and return one set; raise CardError naming file and card."""
    package = name.replace("-", "_")
    folder = SETS_DIR / package
    if name not in available_sets():
        raise CardError(f"unknown set {name!r}; known sets: {', '.join(available_sets())}")
    importlib.import_module("munchkin.cards.library")  # the shared hooks, before the set's own
    importlib.import_module(f"munchkin.sets.{package}.hooks") if (folder / "hooks.py").exists() else None
    header: dict[str, Any] | None = None
    raw_cards: list[tuple[Path, Any]] = []
    for path in _set_files(folder):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise CardError(f"{path}: not valid YAML: {exc}") from exc
        if not isinstance(data, dict):
            raise CardError(f"{path}: expected a mapping with 'cards'")
        if "set" in data:
            if header is not None:
                raise CardError(f"{path}: a second set header; only one file may carry 'set'")
            header = {k: v for k, v in data.items() if k != "cards"}
        for raw in data.get("cards") or []:
            raw_cards.append((path, raw))
    if header is None:
        raise CardError(f"{folder}: no file carries the set header ('set', 'title', deck sizes)")
    cards: list[Card] = []
    for path, raw in raw_cards:
        label = raw.get("name") or raw.get("id") if isinstance(raw, dict) else repr(raw)
        try:
            cards.append(Card.model_validate(raw))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors())
            raise CardError(f"{path}: card {label!r}: {problems}") from None
    try:
        sf = SetFile.model_validate({**header, "cards": []})
    except ValidationError as exc:
        raise CardError(f"{folder}: bad set header: {exc}") from None
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
    )
    check_set(cs)
    return cs


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
    """Deck counts, unique ids and names, every named hook registered."""
    seen_ids: set[str] = set()
    seen_names: dict[str, str] = {}
    doors = treasures = 0
    where = cs.path
    for card in cs.cards:
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
