"""The server's guards against hostile input: a cap on request bodies, a cap on JSON nesting, the
rules a name must follow (and when two names look alike), and the rate limits on new tables."""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from munchkin.server.clock import Clock
from munchkin.server.config import ServerSettings
from munchkin.server.skeleton import skeleton

MAX_JSON_DEPTH = 32  # arrays and objects inside each other; a table needs 3, a WebSocket message 2

# ---------------------------------------------------------------------------------------------- JSON depth

# Linear passes only: a single regular expression that matches whole strings backtracks on an
# unterminated string of escaped quotes, and 16 KB of those once took a second of the event loop.
_ESCAPE = re.compile(r"\\.", re.DOTALL)  # a backslash and the character it escapes
_STRING = re.compile(r'"[^"]*"?')  # a string once its escapes are gone; an unterminated one runs to the end
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
JSON_CHECK_ON_LOOP = 16_384  # bytes (the default body limit; about 2 ms): longer bodies are checked off the loop


def json_too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the arrays and objects in `text` nest deeper than `limit`; checked before parsing,
    since the parser recurses and a few kilobytes of brackets exhaust Python's stack. Three linear
    passes: escapes out, strings out, then the running depth of the brackets left. A backslash
    outside a string (invalid JSON) may hide what follows it, but the parser stops there too."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", _ESCAPE.sub("", text)))
    return max(itertools.accumulate(map(_STEP.__getitem__, brackets)), default=0) > limit


def too_deep_message(limit: int = MAX_JSON_DEPTH) -> str:
    return f"JSON nested too deeply: at most {limit} levels of arrays and objects"


# ---------------------------------------------------------------------------------------------- request bodies


class BodyGuard:
    """ASGI middleware: an HTTP request body over the limit is refused with 413 before it is read
    (by its Content-Length) or as soon as the limit is passed (a chunked body, counted as it
    arrives); a body within it is held, checked for JSON nesting, and handed on whole."""

    def __init__(self, app: ASGIApp, max_bytes: Callable[[], int]) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.max_bytes()
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            if not declared.strip().isdigit():
                await refuse(send, 400, "Content-Length must be a whole number of bytes")
                return
            if int(declared) > limit:
                await refuse(send, 413, f"request body too large: {int(declared)} bytes, the limit is {limit}")
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk: bytes = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await refuse(send, 413, f"request body too large: over the limit of {limit} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        text = body.decode("latin-1")  # latin-1 keeps every byte; JSON's brackets, quotes and escapes are ASCII
        deep = json_too_deep(text) if len(body) <= JSON_CHECK_ON_LOOP else await asyncio.to_thread(json_too_deep, text)
        if deep:
            await refuse(send, 400, too_deep_message())
            return
        handed = False

        async def replay() -> Message:
            nonlocal handed
            if handed:
                return await receive()
            handed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def refuse(send: Send, status: int, detail: str) -> None:
    """Answer `{"detail": ...}` with `status`; after a 413 the rest of the body is never read, so the
    connection is closed rather than kept for another request."""
    body = json.dumps({"detail": detail}).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 413:
        raw.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


# ---------------------------------------------------------------------------------------------- names

_DIRECTION_CONTROLS = frozenset("\u061c\u200e\u200f") | {
    chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))
}
# letters and symbols that print as nothing, though Unicode does not class them as format characters
_BLANK_GLYPHS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_BAD_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible character",
    "Co": "a private-use character",
    "Cs": "half of a surrogate pair, not a character",
    "Cn": "an unassigned code point",
    "Zl": "a line break",
    "Zp": "a paragraph break",
}


def clean_name(value: str, what: str) -> str:
    """`value` as a name: NFC, runs of whitespace made one space, stripped; raises ValueError naming
    the first hidden, control or unassigned character (by code point), or when nothing is left."""
    v = unicodedata.normalize("NFC", value)
    for ch in v:
        why = _BAD_CATEGORIES.get(unicodedata.category(ch))
        if ch in _DIRECTION_CONTROLS:
            why = "a text-direction control"
        elif ch in _BLANK_GLYPHS:
            why = "an invisible character"
        if why is not None:
            raise ValueError(f"{what} may not contain U+{ord(ch):04X} ({why})")
    v = " ".join(v.split())
    if not v:
        raise ValueError(f"{what} may not be empty or only spaces")
    if all(unicodedata.category(ch) in ("Mn", "Me", "Zs") for ch in v):
        raise ValueError(f"{what} needs at least one visible letter, digit or sign")
    return v


_JOINER = "\u200d"  # the zero-width joiner: invisible, but it makes one picture of two emoji (a family, a flag)
MAX_MARKS = 4  # accents stacked on one letter in a chat line; more make "Zalgo" text that covers the lines above


def _pictograph(ch: str) -> bool:
    """A character an emoji sequence is made of: a symbol, a skin tone (Sk) or the emoji variation selector."""
    return unicodedata.category(ch) in ("So", "Sk") or ch == "\ufe0f"


def clean_text(value: str, what: str, most: int) -> str:
    """`value` as a line of free text (a chat line): the rules of `clean_name` (no control, invisible,
    direction or unassigned character, named by code point; whitespace made single spaces), besides
    which a zero-width joiner is allowed between two emoji (it joins them into one picture), at most
    MAX_MARKS accents may stack on one letter, and the text may hold at most `most` characters."""
    v = unicodedata.normalize("NFC", value)
    kept = []
    for i, ch in enumerate(v):
        if ch == _JOINER and 0 < i < len(v) - 1 and _pictograph(v[i - 1]) and _pictograph(v[i + 1]):
            continue  # checked apart: an emoji sequence's joiner
        kept.append(ch)
    clean_name("".join(kept), what)  # raises naming the first character refused
    v = " ".join(v.split())
    run = 0
    for ch in v:
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        if run > MAX_MARKS:
            raise ValueError(f"{what} may not stack more than {MAX_MARKS} accents on one letter")
    if len(v) > most:
        raise ValueError(f"{what} may hold at most {most} characters; this one has {len(v)}")
    return v


def look_keys(name: str) -> tuple[str, str]:
    """Two skeletons of a name (`munchkin.server.skeleton`: NFKC, accents dropped, Unicode's look-alikes
    mapped to one prototype, m spelled 'rn'): the first with case folded before mapping and the
    prototypes made small after it (Bob, BOB; b0b, since 0 prints as O), the second keeping case, for
    capitals that look like another letter's small form (I and l); two names look alike when either
    skeleton is the same."""
    return skeleton(skeleton(name.casefold()).lower()), skeleton(name)


def look_alike(names: list[str]) -> tuple[str, str] | None:
    """The first pair (earlier, later) of `names` that look alike, or None."""
    seen: dict[tuple[int, str], str] = {}
    for name in names:
        keys = list(enumerate(look_keys(name)))
        for k in keys:
            if k in seen:
                return seen[k], name
        for k in keys:
            seen.setdefault(k, name)
    return None


# ---------------------------------------------------------------------------------------------- rate limits


@dataclass
class Bucket:
    """A token bucket's level at a moment; its rate and size are given when it is used."""

    tokens: float
    at: float

    def level(self, now: float, per_second: float, size: float) -> float:
        return min(size, self.tokens + (now - self.at) * per_second)


class CreationLimits:
    """New tables: a token bucket per client address and one for the server, each refilled at its
    per-minute figure from the settings and holding as many (at least one); 0 means no limit. A
    quarter of the server's bucket is kept for addresses that have created nothing lately (their own
    bucket is full), so that a few busy addresses cannot lock every newcomer out."""

    MAX_TRACKED = 10_000  # client addresses remembered; full buckets are forgotten first

    def __init__(self, settings: Callable[[], ServerSettings], clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        self.clients: dict[str, Bucket] = {}
        self.total: Bucket | None = None

    def take(self, host: str) -> float:
        """Take a token from both buckets and return 0, or return the seconds until both have one."""
        s, now = self.settings(), self.clock()
        fresh = self.fresh(host, now)
        rates = [(s.tables_per_minute, host), (s.tables_per_minute_total, None)]
        waits: list[float] = [0.0]
        taken: list[tuple[Bucket, float, float]] = []
        for per_minute, who in rates:
            if not 0 < per_minute < math.inf:  # 0 (or a figure that is not one): no limit
                continue
            per_second, size = per_minute / 60, max(1.0, per_minute)
            bucket = self.bucket(who, size, now)
            level = bucket.level(now, per_second, size)
            keep = 0.0 if who is not None or fresh else reserve(size)
            waits.append(max(0.0, (1 + keep - level) / per_second))
            taken.append((bucket, level, per_second))
        if max(waits) > 0:
            return max(waits)
        for bucket, level, _ in taken:
            bucket.tokens, bucket.at = level - 1, now
        return 0.0

    def fresh(self, host: str, now: float) -> bool:
        """Has this address created nothing lately (no bucket of its own, or a full one)?"""
        s = self.settings()
        bucket = self.clients.get(host)
        if bucket is None or not 0 < s.tables_per_minute < math.inf:
            return bucket is None
        size = max(1.0, s.tables_per_minute)
        return bucket.level(now, s.tables_per_minute / 60, size) >= size

    def bucket(self, host: str | None, size: float, now: float) -> Bucket:
        if host is None:
            if self.total is None:
                self.total = Bucket(size, now)
            return self.total
        if host not in self.clients and len(self.clients) >= self.MAX_TRACKED:
            self.forget(now)
        return self.clients.setdefault(host, Bucket(size, now))

    def forget(self, now: float) -> None:
        """Drop the buckets that are full again (a new one is the same), else the oldest half."""
        s = self.settings()
        per_second, size = s.tables_per_minute / 60, max(1.0, s.tables_per_minute)
        full = [h for h, b in self.clients.items() if b.level(now, per_second, size) >= size]
        for h in full or list(self.clients)[: len(self.clients) // 2]:
            del self.clients[h]


def reserve(size: float) -> float:
    """The part of a shared allowance kept for newcomers: a quarter (none of one smaller than 4)."""
    return float(int(size) // 4)


def live_reserve(max_live: int) -> int:
    """Places for unfinished tables kept for addresses holding none: a tenth, at least one (of two or more)."""
    return max(1, max_live // 10) if max_live >= 2 else 0


def retry_after(seconds: float) -> str:
    """A Retry-After value: whole seconds, rounded up, at least one."""
    return str(max(1, math.ceil(seconds)))


class Pacer:
    """Spaces out a kind of request (replay downloads) to at most `rate` a second server-wide, so
    that however many clients ask in a loop they take a bounded share of the event loop that runs
    the tables; requests past the rate wait their turn, and past `max_waiting` are refused."""

    def __init__(self, rate: Callable[[], float], max_waiting: int = 64, clock: Clock | None = None) -> None:
        self.rate = rate
        self.clock = clock or Clock()  # the server's (a test's `ManualClock`)
        self.max_waiting = max_waiting
        self.next_at = 0.0  # monotonic time the next request may go
        self.waiting = 0

    async def turn(self) -> float:
        """Wait for this request's turn; returns 0, or (refused) the seconds to wait before asking again."""
        rate = self.rate()
        if not 0 < rate < math.inf:
            return 0.0
        now = self.clock.monotonic()
        at = max(now, self.next_at)
        if at > now and self.waiting >= self.max_waiting:
            return at - now + self.max_waiting / rate
        self.next_at = at + 1 / rate
        if at > now:
            self.waiting += 1
            try:
                await self.clock.sleep(at - now)
            finally:
                self.waiting -= 1
        return 0.0
