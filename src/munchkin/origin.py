"""Where a report's or a save's cards came from: the rules number, the engine's version, each set's card
version and each designer folder (its set, folder name and the hash of its cards).

Only what the games depend on, and the same on every machine: no date, no host, no absolute path, so a
report's summary still depends on its games alone."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from munchkin.cards.loader import SHORT_HASH, folder_words, set_dir_origins
from munchkin.engine.cards import card_version
from munchkin.engine.rules import RULES


def engine_version() -> str:
    """The installed package's version ("unknown" when run from files that were never installed)."""
    try:
        return version("munchkin")
    except PackageNotFoundError:
        return "unknown"


def report_origin(sets: Iterable[str], card_versions: Mapping[str, int] | None = None) -> dict[str, Any]:
    """The origin of games dealt from `sets` in this process: {"rules", "engine", "card_versions",
    "set_dirs"}; `card_versions` as the games had them (default: today's, the registered folders' own)."""
    names = list(dict.fromkeys(sets))
    return {
        "rules": RULES,
        "engine": engine_version(),
        "card_versions": {s: int((card_versions or {}).get(s) or card_version(s)) for s in names},
        "set_dirs": set_dir_origins(names),
    }


def origin_words(o: Mapping[str, Any] | None) -> str:
    """An origin in one line for a page's header or a table: "rules 6, engine 0.1.0, cards deluxe v3;
    deluxe from the designer folder my-deluxe (cards sha256 3f2a9c1e4b5d)"."""
    if not o:
        return "not recorded"
    cards = ", ".join(f"{s} v{v}" for s, v in (o.get("card_versions") or {}).items())
    words = f"rules {o.get('rules', '?')}, engine {o.get('engine', '?')}, cards {cards or '?'}"
    for d in o.get("set_dirs") or []:
        words += f"; {d.get('set')} from the designer folder {d.get('folder')} (cards sha256 "
        words += f"{str(d.get('sha256'))[:SHORT_HASH]})"
    return words


def origin_difference(a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> str | None:
    """How two runs' origins differ, in words (the first difference found), or None when they agree
    or either run recorded none (a report written before origins were recorded)."""
    if not a or not b:
        return None
    for key, what in (("rules", "rules"), ("engine", "engine version"), ("card_versions", "card versions")):
        if a.get(key) != b.get(key):
            return f"they were played under different {what}: {a.get(key)} and {b.get(key)}"
    fa = {d.get("set"): d for d in a.get("set_dirs") or []}
    fb = {d.get("set"): d for d in b.get("set_dirs") or []}
    for name in sorted(set(fa) | set(fb), key=str):
        x, y = fa.get(name), fb.get(name)
        if x is None or y is None:
            one = x or y
            assert one is not None
            return f"only one of them was dealt from a designer folder for set {name!r}: {folder_words(one)}"
        if x.get("sha256") != y.get("sha256"):
            return (
                f"they were dealt from designer folders with different cards: {folder_words(x)} and "
                f"{folder_words(y)}; merge only runs of the same folder"
            )
    return None
