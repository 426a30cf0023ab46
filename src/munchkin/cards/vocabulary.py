"""The card vocabulary as a list of paths, read from the schema's models (docs/cards.md).

Every field of every model reachable from `Card` is a path, so a key added to the schema is listed
with no other edit. A model reached from one field only is named by that field (`monster.bribe.then`);
one reached from several (`Condition`, `Effect`, ...) by its class (`condition.level_at_most`), and each
field holding it is a path of its own (`monster.escape_if`). A field typed as a Literal has one path per
value (`effect.lose_race=one`), under the Literal's own name when several fields share it (`ability=berserk`,
`item_filter=big`). A field typed as a Condition has two branches: it held, and it failed (`effect.if=held`,
`effect.if=failed`). The engine records the paths it acts on (`munchkin.engine.vocabulary`); the
scenarios' run must cover them all (tests/test_vocabulary.py).
"""

from __future__ import annotations

import re
import types
from typing import Annotated, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from munchkin.cards import schema
from munchkin.cards.schema import Card, Condition

# Fields that cannot change a game, each with why; no effect, condition, monster, item or ability key.
INERT: dict[str, str] = {
    "card.id": "identity: hooks and saves name the card by it, play does not read it",
    "card.name": "what players and scenarios call the card, not what it does",
    "card.text": "the card's words in our own prose; the engine implements the blocks",
    "card.note": "where the card's facts come from",
    "card.provenance": "whether the rulebook, the box or we made the card",
    "card.kind": "names the card's one block (the schema requires kind == block), whose keys are listed",
}

# Values the engine and the built-in hooks never read: a scenario cannot show them acting. Each is
# data a designer's own hook may read (as the Pit Bull's reads `wand_pole_staff`), and printed on
# the card's face. The test fails if the engine starts reading one (then it must be covered).
UNREAD: dict[str, str] = {}

# Conditions decide twice: the branch where they held and the one where they failed.
HELD, FAILED = "held", "failed"


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _literal_names() -> dict[tuple[object, ...], str]:
    """The schema's named Literals (`Ability`, `ItemFilter`, ...) by their values."""
    return {get_args(v): _snake(k) for k, v in vars(schema).items() if get_origin(v) is Literal}


def _parts(tp: object) -> list[object]:
    """The types a field's annotation is made of: unions, lists and Annotated unwrapped."""
    origin = get_origin(tp)
    if origin is Annotated:
        return _parts(get_args(tp)[0])
    if origin in (Union, types.UnionType, list):
        return [p for a in get_args(tp) for p in _parts(a)]
    return [tp]


def _models(tp: object) -> list[type[BaseModel]]:
    return [p for p in _parts(tp) if isinstance(p, type) and issubclass(p, BaseModel)]


def _field_name(model: type[BaseModel], attr: str) -> str:
    """A field as the YAML writes it (`if`, `class`), not as Python names it (`if_`, `class_`)."""
    alias = model.model_fields[attr].alias
    return alias or attr


def _reaches(root: type[BaseModel]) -> dict[type[BaseModel], int]:
    """How many fields hold each model reachable from `root`."""
    count: dict[type[BaseModel], int] = {}
    todo = [root]
    seen = {root}
    while todo:
        model = todo.pop()
        for info in model.model_fields.values():
            for sub in _models(info.annotation):
                count[sub] = count.get(sub, 0) + 1
                if sub not in seen:
                    seen.add(sub)
                    todo.append(sub)
    return count


def paths(root: type[BaseModel] = Card) -> list[str]:
    """Every key and branch of the vocabulary, in schema order, less the inert fields (`INERT`)."""
    reached = _reaches(root)
    shared = {m for m, n in reached.items() if n > 1}
    literals = _literal_names()
    literal_uses: dict[tuple[object, ...], int] = {}
    for model in [root, *reached]:
        for info in model.model_fields.values():
            for p in _parts(info.annotation):
                if get_origin(p) is Literal:
                    literal_uses[get_args(p)] = literal_uses.get(get_args(p), 0) + 1
    out: list[str] = []
    named: set[tuple[object, ...]] = set()
    shared_done: set[type[BaseModel]] = set()

    def walk(model: type[BaseModel], prefix: str) -> None:
        for attr, info in model.model_fields.items():
            key = _field_name(model, attr)
            path = f"{prefix}.{key}" if prefix else key
            if model is root:
                path = f"card.{key}"
            if path in INERT:
                continue
            parts = _parts(info.annotation)
            subs = _models(info.annotation)
            plain = [p for p in parts if p not in subs and get_origin(p) is not Literal and p is not type(None)]
            for sub in subs:
                if sub is Condition:
                    out.extend([f"{path}={HELD}", f"{path}={FAILED}"])
                    if sub not in shared_done:
                        shared_done.add(sub)
                        pending.append((sub, _snake(sub.__name__)))
                elif sub in shared:
                    out.append(path)
                    if sub not in shared_done:
                        shared_done.add(sub)
                        pending.append((sub, _snake(sub.__name__)))
                else:  # a block of its own: its fields are the paths (the root's blocks lose `card.`)
                    walk(sub, key if model is root else path)
            for p in parts:
                if get_origin(p) is not Literal:
                    continue
                values = get_args(p)
                if len(values) == 1 and len([q for q in parts if q is not type(None)]) == 1:
                    plain.append(p)  # a flag such as `go_up_a_level: true`: the field is the path
                elif literal_uses.get(values, 0) > 1 and values in literals:
                    out.append(path)  # where the shared values are used ...
                    if values not in named:  # ... and the values once, under their own name
                        named.add(values)
                        out.extend(f"{literals[values]}={v}" for v in values)
                else:
                    out.extend(f"{path}={v}" for v in values)
            if plain:
                out.append(path)

    pending: list[tuple[type[BaseModel], str]] = []
    walk(root, "")
    while pending:
        model, prefix = pending.pop(0)
        walk(model, prefix)
    return list(dict.fromkeys(out))
