"""Which characters look alike, from Unicode's confusables (TR39) as the `confusable-homoglyphs`
package ships them: each class of look-alikes is given one prototype, so that two names can be
compared by how they print rather than by their code points."""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources
from typing import Literal

# The package lists a right-to-left entry between left-to-right marks, for display; they are not part of it.
_DISPLAY_MARKS = str.maketrans("", "", "\u200e\u200f")

# Look-alikes that issue 30 names and that the TR39 data does not link: each is joined to the
# class of the letter it prints like. (The other pairs it names, Ϲ/C, Ꭱ/R, Ꭺ/A and ᴄ/c, are in the data.)
SUPPLEMENT = {
    "\u0262": "G",  # ɢ LATIN LETTER SMALL CAPITAL G: a G at the height of a small letter
    "\u0185": "b",  # ƅ LATIN SMALL LETTER TONE SIX: a b with a short stem
}


def bare(text: str, form: Literal["NFD", "NFKD"] = "NFKD") -> str:
    """`text` without accents: decomposed (`form`: NFKD, or NFD to keep compatibility characters)
    with the combining marks dropped."""
    return "".join(ch for ch in unicodedata.normalize(form, text) if not unicodedata.combining(ch))


def _data() -> dict[str, list[dict[str, str]]]:
    """The package's map: a character (or a short sequence) to the entries it may be confused with."""
    raw = (resources.files("confusable_homoglyphs") / "confusables.json").read_text("utf-8")
    data: dict[str, list[dict[str, str]]] = json.loads(raw)
    return data


def _classes(pairs: list[tuple[str, str]]) -> list[list[str]]:
    """The classes of look-alikes that `pairs` link, directly or through others (union-find)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    classes: dict[str, list[str]] = {}
    for x in parent:
        classes.setdefault(find(x), []).append(x)
    return list(classes.values())


def _rank(ch: str) -> tuple[bool, bool, bool, int]:
    """The order in which a class's characters are preferred as its prototype: an ASCII small letter
    first (so that folding case after mapping changes nothing), then any ASCII letter, any ASCII sign,
    then the lowest code point."""
    return (not ("a" <= ch <= "z"), not ch.isascii() or not ch.isalpha(), not ch.isascii(), ord(ch))


def _prototype(members: list[str]) -> str:
    """What a class prints as: a sequence of other characters where the data gives one ('rn' for m,
    so that 'rn' typed as two letters and m look the same), else its preferred single character."""
    singles = [m for m in members if len(m) == 1]
    spelled = [m for m in members if len(m) > 1 and bare(m) and not set(m) & set(singles)]
    if spelled:
        return min(spelled, key=lambda m: (len(m), not m.isascii(), m))
    return min(singles, key=_rank)


@functools.cache
def prototypes() -> dict[int, str]:
    """Each character that has look-alikes (by code point) to its class's prototype, spelled out in
    prototypes all the way down; built once, on first use, from about 9,600 entries."""
    pairs = [
        (a, b)
        for key, entries in _data().items()
        for entry in entries
        if (a := key.translate(_DISPLAY_MARKS)) and (b := entry["c"].translate(_DISPLAY_MARKS)) and a != b
    ]
    pairs += list(SUPPLEMENT.items())
    proto_of: dict[str, str] = {}
    for members in _classes(pairs):
        if any(len(m) == 1 for m in members):
            proto = _prototype(members)
            proto_of.update((m, proto) for m in members if len(m) == 1)

    def spell(ch: str, seen: frozenset[str]) -> str:
        """`ch`'s prototype with each of its characters spelled as its own prototype (a cycle stops)."""
        proto = proto_of.get(ch, ch)
        if len(proto) == 1 or ch in seen:
            return proto if len(proto) == 1 else ch
        return "".join(spell(c, seen | {ch}) for c in bare(proto))

    table = {ord(ch): bare(spell(ch, frozenset())) or ch for ch in proto_of}  # never a character to nothing
    return {k: v for k, v in table.items() if v != chr(k)}


def skeleton(text: str) -> str:
    """`text` as it prints: accents dropped and every character replaced by its class's prototype,
    before and after NFKD (which turns a few look-alikes into letters that look different: the lunate
    Ϲ into Σ). Case is kept: callers fold it themselves where case should not count."""
    table = prototypes()
    return bare(bare(text, "NFD").translate(table)).translate(table)
