"""What `munchkin cards check` says about a set: every problem of a folder, each with its file, line,
card and field in plain words (pydantic's messages translated), with "did you mean" for near-misses."""

from __future__ import annotations

import difflib
import typing
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from munchkin.errors import CardError

Loc = tuple[str | int, ...]
# the C parser when PyYAML has it (several times faster on a whole set), else the Python one
Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Problem:
    """One mistake: where it is (file, line), whose it is (card, field) and what is wrong."""

    file: Path
    line: int | None
    card: str | None
    field: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else f"{self.file}"
        card = f" card {self.card!r}:" if self.card else ""
        field = f" {self.field}:" if self.field else ""
        return f"{where}:{card}{field} {self.message}"


def raise_problems(problems: list[Problem], shown: Path) -> None:
    """One CardError listing every problem, by file and line (a single one stays a single line)."""
    problems = sorted(problems, key=lambda p: (str(p.file), p.line or 0))
    if len(problems) == 1:
        raise CardError(str(problems[0]))
    if problems:
        lines = "\n".join(f"  {p}" for p in problems)
        raise CardError(f"{shown}: {len(problems)} problems\n{lines}")


def did_you_mean(word: object, choices: Iterable[str]) -> str:
    """' (did you mean 'x'?)' when `word` is close to one of `choices`, else ''."""
    close = difflib.get_close_matches(str(word), list(choices), n=1, cutoff=0.6)
    if not close and isinstance(word, str):  # a case slip: 'Elf' for 'elf'
        close = [c for c in choices if c.lower() == word.lower()][:1]
    return f" (did you mean {close[0]!r}?)" if close else ""


def field_path(loc: Loc) -> str:
    """`monster.bad_stuff[0].lose_levels`: a field as the YAML spells it."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


# ---------------------------------------------------------------------- YAML lines
def read_yaml(text: str) -> tuple[Any, yaml.Node | None]:
    """The data of a YAML text and its node tree (whose marks give each value's line)."""
    loader = Loader(text)
    try:
        node = loader.get_single_node()
        return (loader.construct_document(node) if node is not None else None), node
    finally:
        loader.dispose()


def line_of(node: yaml.Node | None, loc: Loc) -> int | None:
    """The 1-based line of the value at `loc` under `node`, or of the deepest part of it that exists
    (for an unknown key: the key's own line)."""
    if node is None:
        return None
    for i, part in enumerate(loc):
        child: yaml.Node | None = None
        if isinstance(node, yaml.MappingNode) and isinstance(part, str):
            for key, value in node.value:
                if key.value == part:
                    child = key if i == len(loc) - 1 else value  # a field's line is its key's
                    break
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            child = node.value[part]
        if child is None:
            break
        node = child
    return int(node.start_mark.line) + 1


# ---------------------------------------------------------------------- pydantic in plain words
def _models_in(annotation: Any) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for arg in typing.get_args(annotation):
        yield from _models_in(arg)


def model_at(model: type[BaseModel], loc: Loc) -> type[BaseModel] | None:
    """The block model found at `loc` inside `model` (list indexes skipped), to name its fields."""
    current: type[BaseModel] | None = model
    for part in loc:
        if isinstance(part, int) or current is None:
            continue
        fields = {f.alias or name: f for name, f in current.model_fields.items()}
        if part not in fields:
            return None
        current = next(_models_in(fields[part].annotation), None)
    return current


def _is_union_tag(part: str | int) -> bool:
    # pydantic names the branch of a union it tried: 'int', "literal['all']", 'list[...]'
    return isinstance(part, str) and (
        "[" in part or part.startswith("constrained-") or part in {"int", "str", "bool", "float", "none"}
    )


def _literal_values(error: ErrorDetails) -> list[str]:
    expected = str((error.get("ctx") or {}).get("expected", ""))
    return [v.strip().strip("'") for v in expected.replace(" or ", ",").split(",") if v.strip()]


def _expected(error: ErrorDetails) -> str:
    """What the value should have been, as a noun: 'a whole number', "one of 'a', 'b'"."""
    kind = error["type"]
    ctx = error.get("ctx") or {}
    if kind == "literal_error":
        values = _literal_values(error)
        return f"{values[0]!r}" if len(values) == 1 else "one of " + ", ".join(repr(v) for v in values)
    return {
        "int_parsing": "a whole number",
        "int_type": "a whole number",
        "int_from_float": "a whole number",
        "bool_parsing": "true or false",
        "bool_type": "true or false",
        "string_type": "text",
        "list_type": "a list (lines starting with '- ', or [a, b])",
        "model_type": "a block of 'key: value' lines",
        "model_attributes_type": "a block of 'key: value' lines",
        "dict_type": "a block of 'key: value' lines",
        "greater_than_equal": f"at least {ctx.get('ge')}",
        "less_than_equal": f"at most {ctx.get('le')}",
        "too_short": f"at least {ctx.get('min_length')} long",
        "too_long": f"at most {ctx.get('max_length')} long",
        "string_pattern_mismatch": "like <set>.<snake_case_name> (lower-case letters, digits and _)",
    }.get(kind, error["msg"])


def _shown(value: object) -> str:
    return "nothing" if value is None else repr(value)


def translate(exc: ValidationError, model: type[BaseModel], base: Loc = ()) -> list[tuple[Loc, str]]:
    """Each of pydantic's errors as (field, plain words); the branches of one union are one message."""
    grouped: dict[Loc, list[ErrorDetails]] = {}
    for error in exc.errors():
        loc = tuple(p for p in error["loc"] if not _is_union_tag(p))
        grouped.setdefault(loc, []).append(error)
    out: list[tuple[Loc, str]] = []
    for loc, errors in grouped.items():
        first = errors[0]
        if first["type"] == "extra_forbidden":
            block = model_at(model, loc[:-1])
            names = [f.alias or n for n, f in block.model_fields.items()] if block else []
            out.append((base + loc, f"unknown field {loc[-1]!r}{did_you_mean(loc[-1], names)}"))
        elif first["type"] == "missing":
            out.append((base + loc, "is missing (it is required)"))
        elif first["type"] == "value_error":
            out.append((base + loc, str(first["msg"]).removeprefix("Value error, ")))
        else:
            wanted = " or ".join(dict.fromkeys(_expected(e) for e in errors))
            choices = [v for e in errors if e["type"] == "literal_error" for v in _literal_values(e)]
            hint = did_you_mean(first.get("input"), choices) if choices else ""
            out.append((base + loc, f"should be {wanted}, not {_shown(first.get('input'))}{hint}"))
    return out
