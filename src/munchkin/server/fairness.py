"""A fair table's record in its config: the secret drawn at creation, its commitment, each seat's
entropy, whether the cards are dealt; and what of it each audience may see (docs/server.md,
"Provably fair deals"). The secret leaves the server only once the game is over."""

from __future__ import annotations

import secrets
from typing import Any

from munchkin.engine.actions import MunchkinError
from munchkin.engine.chance import FAIR_SCHEME, SECRET_BYTES, FairChance, fair_commitment, fair_key
from munchkin.server.guard import clean_name

MAX_ENTROPY_CHARS = 128  # the page offers 64 hex digits (32 random bytes); a person may type their own


def new_fair_record(seats: int) -> dict[str, Any]:
    """A fresh table's record: a 256-bit secret from the operating system, its commitment, no entropy yet."""
    secret = secrets.token_bytes(SECRET_BYTES)
    return {
        "scheme": FAIR_SCHEME,
        "secret": secret.hex(),
        "commitment": fair_commitment(secret),
        "entropy": [None] * seats,
        "dealt": False,
    }


def fair_chance(record: dict[str, Any]) -> FairChance:
    """The table's generator, keyed by its secret and the entropy given (none: the empty string)."""
    return FairChance(fair_key(bytes.fromhex(record["secret"]), entropy_list(record)))


def entropy_list(record: dict[str, Any]) -> list[str]:
    """Each seat's entropy in seat order, the empty string for a seat that gave none."""
    return [e if isinstance(e, str) else "" for e in record["entropy"]]


def public_fair(record: dict[str, Any] | None, over: bool) -> dict[str, Any] | None:
    """What everyone may see of a fair table (None for a table without one: a chosen seed, or made
    before fair deals): the commitment, each seat's entropy and whether the cards are dealt, and the
    secret only once the game is over."""
    if not isinstance(record, dict):
        return None
    entropy = record.get("entropy")  # a damaged record is listed all the same: what is not text shows as null
    return {
        "scheme": _text(record.get("scheme")) or FAIR_SCHEME,
        "commitment": _text(record.get("commitment")),
        "entropy": [_text(e) for e in entropy] if isinstance(entropy, list) else [],
        "dealt": record.get("dealt") is True,
        "secret": _text(record.get("secret")) if over else None,
    }


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def record_problem(record: Any, seats: int) -> str | None:
    """What is wrong with a stored fair record, in words that quote none of it, or None."""
    if not isinstance(record, dict):
        return "its fair-deal record is not a mapping"
    secret, commitment = record.get("secret"), record.get("commitment")
    if not (isinstance(secret, str) and len(secret) == 2 * SECRET_BYTES and _is_hex(secret)):
        return f"its fair-deal secret is not {2 * SECRET_BYTES} hexadecimal digits"
    if commitment != fair_commitment(bytes.fromhex(secret)):
        return "its fair-deal commitment is not the SHA-256 of its secret"
    entropy = record.get("entropy")
    if (
        not isinstance(entropy, list)
        or len(entropy) != seats
        or not all(e is None or isinstance(e, str) for e in entropy)
    ):
        return f"its fair-deal record needs one entropy (text or null) for each of its {seats} seats"
    if record.get("dealt") not in (True, False):
        return "its fair-deal record does not say whether the cards are dealt"
    return None


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def revealed_fair(record: dict[str, Any]) -> dict[str, Any]:
    """The record a finished game's save carries, so that `munchkin verify` can recompute every draw:
    the scheme, the commitment, the secret, each seat's entropy, and the sexes and Houses declared."""
    return {
        "scheme": record.get("scheme", FAIR_SCHEME),
        "commitment": record["commitment"],
        "secret": record["secret"],
        "entropy": list(record["entropy"]),
        "declared": record.get("declared", {"sexes": None, "houses": None}),
    }


def clean_entropy(value: Any) -> str:
    """A person's entropy as it is stored, shown and keyed: text as a name is (NFC, runs of spaces made
    one, no control or invisible characters), 1 to MAX_ENTROPY_CHARS characters; MunchkinError naming
    what is wrong otherwise."""
    if not isinstance(value, str):
        raise MunchkinError('an "entropy" message needs "entropy": text of your own choosing, or the page\'s')
    try:
        text = clean_name(value, "your entropy")
    except ValueError as exc:
        raise MunchkinError(str(exc)) from None
    if len(text) > MAX_ENTROPY_CHARS:
        raise MunchkinError(f"your entropy is at most {MAX_ENTROPY_CHARS} characters; this has {len(text)}")
    return text


__all__ = [
    "MAX_ENTROPY_CHARS",
    "clean_entropy",
    "entropy_list",
    "fair_chance",
    "new_fair_record",
    "public_fair",
    "record_problem",
    "revealed_fair",
]
