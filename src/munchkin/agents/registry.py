"""The registry of named agents, the tiers people choose from, and how an agent is named on a
command line or a table.

An agent spec is one of:
- a tier (`easy`, `medium`, `hard`): the agent and budget `TIERS` give it;
- a registered name (`random`, `heuristic`, `search`), optionally with a variant after a colon
  (`search:fast`, `search:400` for a budget of 400 iterations a decision);
- an import path `package.module:Class` (or `module:Class`) of a class taking the seed (`Class(seed)`) whose
  instances have `act(obs)`.
`make_agent(spec, seed)` builds one; `check_spec(spec)` says in words what is wrong with a spec."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from munchkin.agents.base import Agent


# The agent `simulate`, `balance` and the ladder seat by default: it plays by rules of thumb as a
# person might, so a card's numbers mean something (uniformly random play, 430 turns a game, does not).
DEFAULT_AGENT = "heuristic"
AGENTS_HELP = (
    "Who plays: an agent, or a comma list (one per seat, cycled): random, heuristic, search, search:fast, "
    "easy, medium, hard, or your own class as package.module:Class (importable, e.g. on PYTHONPATH; "
    "made as Class(seed), answering act(obs)). Default heuristic."
)


@dataclass(frozen=True)
class Registered:
    """A named agent: how to make it from a seed and a variant ('' for the plain one), what variants
    it knows (a variant not listed may still be valid, as a budget is), and a line for people."""

    make: Callable[[int, str], Agent]
    about: str
    variants: tuple[str, ...] = ()
    check_variant: Callable[[str], str | None] | None = None


def _random(seed: int, variant: str) -> Agent:
    from munchkin.agents.random_agent import RandomAgent

    return RandomAgent(seed)


def _heuristic(seed: int, variant: str) -> Agent:
    from munchkin.agents.heuristic import HeuristicAgent

    return HeuristicAgent(seed)


def _search(seed: int, variant: str) -> Agent:
    from munchkin.agents.search import SearchAgent, parse_budget

    return SearchAgent(seed, parse_budget(variant))


def _search_variant(variant: str) -> str | None:
    from munchkin.agents.search import parse_budget

    try:
        parse_budget(variant)
    except ValueError as e:
        return str(e)
    return None


def _no_variant(variant: str) -> str | None:
    return "it has no variants" if variant else None


REGISTRY: dict[str, Registered] = {
    "random": Registered(_random, "uniform over the legal answers, now and then an any-time action", (), _no_variant),
    "heuristic": Registered(_heuristic, "rules of thumb judged on one imagined world of its seat", (), _no_variant),
    "search": Registered(
        _search,
        "the heuristic's choice checked against a few others, each played forward in imagined worlds",
        ("fast", "strong"),
        _search_variant,
    ),
}


@dataclass(frozen=True)
class Tier:
    """A bot strength offered to people: its label, the agent spec behind it, how it plays in a line,
    and whether it thinks long enough to be run away from a server's event loop (`heavy`)."""

    label: str
    spec: str
    about: str
    heavy: bool = False
    rating: str = ""  # its place on the ladder (docs/bots.md), in words


TIERS: dict[str, Tier] = {
    "easy": Tier(
        "Easy", "heuristic", "plays by rules of thumb, never looks ahead", rating="ladder ordinal 19.2 (mu 26.0 ± 2.3)"
    ),
    "medium": Tier(
        "Medium",
        "search:2",
        "checks its main choices in two imagined futures",
        heavy=True,
        rating="ladder ordinal 22.1 (mu 28.8 ± 2.2)",
    ),
    "hard": Tier(
        "Hard",
        "search:fast",
        "checks its main choices against more in six imagined futures",
        heavy=True,
        rating="ladder ordinal 25.7 (mu 32.4 ± 2.2)",
    ),
}


def offered() -> list[dict[str, str]]:
    """The bots a table offers people, strongest last, with the agent behind each and its rating; and
    the random mover, for trying the rules."""
    out = [{"id": k, "label": t.label, "agent": t.spec, "about": t.about, "rating": t.rating} for k, t in TIERS.items()]
    out.append(
        {
            "id": "random",
            "label": "Random",
            "agent": "random",
            "about": "any legal move, at random",
            "rating": "ladder ordinal -4.2 (mu 5.2 ± 3.1)",
        }
    )
    return out


def resolve(spec: str) -> str:
    """The agent spec a tier stands for (`hard` -> `search`); any other spec as it is."""
    t = TIERS.get(spec.strip().lower())
    return t.spec if t is not None else spec


def register(name: str, entry: Registered) -> None:
    """Add (or replace) a named agent."""
    REGISTRY[name] = entry


def names() -> list[str]:
    """The tiers, then the registered names with their listed variants (`search:fast`)."""
    out: list[str] = list(TIERS)
    for name, r in REGISTRY.items():
        out.append(name)
        out += [f"{name}:{v}" for v in r.variants]
    return out


def _split(spec: str) -> tuple[str, str]:
    name, _, variant = spec.strip().partition(":")
    return name.strip(), variant.strip()


def _is_import_path(spec: str) -> bool:
    """`module:Class` or `package.module:Class`: not a registered name, and a class name after the colon."""
    name, variant = _split(spec)
    return name not in REGISTRY and bool(name) and bool(variant) and variant.isidentifier()


def check_spec(spec: str) -> str | None:
    """What is wrong with an agent spec, in words; None if it names an agent."""
    spec = resolve(spec)
    if not spec.strip():
        return "an agent spec is empty"
    if _is_import_path(spec):
        module, attr = _split(spec)
        try:
            mod = importlib.import_module(module)
        except ImportError as e:
            return (
                f"cannot import {module!r} for agent {spec!r}: {e} (is its folder on PYTHONPATH?); "
                f"the named agents are {', '.join(names())}"
            )
        cls = getattr(mod, attr, None)
        if not callable(cls):
            return f"module {module!r} has no class {attr!r} (agent {spec!r})"
        if isinstance(cls, type) and not callable(getattr(cls, "act", None)):
            return f"{attr} in {module!r} has no method act(obs), which an agent answers with (agent {spec!r})"
        return None
    name, variant = _split(spec)
    r = REGISTRY.get(name)
    if r is None:
        return f"unknown agent {spec!r}; choose one of {', '.join(names())}, or give a class as package.module:Class"
    if r.check_variant is not None:
        why = r.check_variant(variant)
        if why is not None:
            return f"agent {spec!r}: {why}"
    return None


def make_agent(spec: str, seed: int) -> Agent:
    """The agent a spec names, seeded with `seed` (see the module docstring); ValueError if none."""
    why = check_spec(spec)
    if why is not None:
        raise ValueError(why)
    spec = resolve(spec)
    name, variant = _split(spec)
    if _is_import_path(spec):
        try:
            agent: Agent = getattr(importlib.import_module(name), variant)(seed)
        except Exception as e:  # the researcher's own constructor: say which agent, and how it was made
            raise ValueError(f"agent {spec!r} could not be made as {variant}(seed): {type(e).__name__}: {e}") from e
        return agent
    return REGISTRY[name].make(seed, variant)


__all__ = [
    "AGENTS_HELP",
    "DEFAULT_AGENT",
    "REGISTRY",
    "TIERS",
    "Registered",
    "Tier",
    "check_spec",
    "make_agent",
    "names",
    "offered",
    "register",
    "resolve",
]
