"""Limits on the server's TCP connections, below the web app: how many one client address may hold
open, how many the server holds in all, how many requests and new connections an address may make
a second, how long a client may take to send a request's headers and its body, and how long it may
leave what it is sent unread. Without them a client holding thousands of idle or half-sent
connections used up the server's file descriptors, and then every request failed.

uvicorn gives each connection a protocol object; `guarded_protocols` returns subclasses of its
HTTP and WebSocket protocols that count each connection by its address from the moment it is
accepted until it closes (a WebSocket is the same connection, upgraded), refuse one past a cap
with a 503 that says which cap, answer a request past its address's rate with a 429 before the app
runs, close a request that is too slow with a 408, and reset a connection that reads nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import math
import resource
import socket
import struct
import time
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from munchkin.server.config import ServerSettings
from munchkin.server.guard import Bucket

MAX_HEAD_BYTES = 65_536  # a request line and headers longer than this are refused with 431
REFUSED_GRACE = 1.0  # seconds a refused connection stays open to read the request and send its 503
LIMBO = 256  # refused connections waiting to hear their 503 at once; past it they are dropped at once
FD_RESERVE = 128  # file descriptors kept for the database, the replay worker and log files
REQUEST_BURST_SECONDS = 5.0  # an address may spend this many seconds' worth of requests at once (6 page loads)
MAX_PACED = 10_000  # addresses whose request rate is followed; full buckets are forgotten first
# the kernel's buffer for what a client has not read yet: fixed (not grown up to megabytes), so that a
# client that never reads fills it, then the server's own buffer, and is cut off after the write timeout
SEND_BUFFER = 131_072


def address_key(host: str | None) -> str:
    """The key of a client address for per-address limits: an IPv4 address as it is, an IPv6 address
    by its /64 (one home or host is given a whole /64, so its addresses count as one), an IPv4 address
    mapped into IPv6 as that IPv4 address; anything else (a test client's name) as it is."""
    if not host:
        return "unknown"
    try:
        ip = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


def raise_open_files_limit() -> int | None:
    """Raise this process's soft limit on open files (each connection is one) as far as its hard limit
    allows; returns the limit now in force, or None when there is none."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = [hard] if hard != resource.RLIM_INFINITY else [resource.RLIM_INFINITY, 1_048_576, 65_536]
    for target in wanted:
        if soft != resource.RLIM_INFINITY and (target == resource.RLIM_INFINITY or soft < target):
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
                soft = target
                break
            except (ValueError, OSError):
                continue
    return None if soft == resource.RLIM_INFINITY else soft


class ConnectionCounts:
    """Open connections by client address and in all; a connection is counted from its accept to its close."""

    def __init__(self, settings: Callable[[], ServerSettings], open_files: int | None = None) -> None:
        self.settings = settings
        self.by_key: dict[str, int] = {}
        self.keys: dict[int, str] = {}  # id(transport) -> its address key
        self.total = 0
        self.limbo = 0  # refused connections still open to hear their 503
        self.open_files = open_files  # the process's limit on open files, if known
        self.buckets: dict[str, Bucket] = {}  # requests and new connections by address key

    def pace(self, host: str | None) -> bool:
        """Take one of an address's tokens for a new connection or a request: REQUEST_BURST at once, then
        `requests_per_second`; False when it has none left (a trusted proxy is never paced here)."""
        s = self.settings()
        rate = s.requests_per_second
        if not 0 < rate < math.inf or host in s.trusted_proxies:
            return True
        now = time.monotonic()
        size = max(1.0, rate * REQUEST_BURST_SECONDS)
        key = address_key(host)
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= MAX_PACED:  # forget the addresses whose buckets are full again
                self.buckets = {k: b for k, b in self.buckets.items() if b.level(now, rate, size) < size}
            bucket = self.buckets[key] = Bucket(size, now)
        level = bucket.level(now, rate, size)
        if level < 1:
            return False
        bucket.tokens, bucket.at = level - 1, now
        return True

    def max_total(self) -> int:
        """The cap on open connections: the setting, lowered to fit the open-files limit."""
        cap = self.settings().max_connections
        if self.open_files is not None:
            cap = min(cap, max(16, self.open_files - FD_RESERVE))
        return cap

    def admit(self, transport: Any, host: str | None) -> str | None:
        """Count a new connection and return None, or return why it is refused (it is not counted)."""
        s = self.settings()
        key = address_key(host)
        if self.total >= self.max_total():
            return f"the server holds as many connections as it may ({self.max_total()}): try again shortly"
        per = s.max_connections_per_address
        if per and host not in s.trusted_proxies and self.by_key.get(key, 0) >= per:
            return f"too many connections from your address: at most {per} at once"
        self.by_key[key] = self.by_key.get(key, 0) + 1
        self.keys[id(transport)] = key
        self.total += 1
        return None

    def release(self, transport: Any) -> None:
        """A counted connection closed (as HTTP or as a WebSocket); a second call does nothing."""
        key = self.keys.pop(id(transport), None)
        if key is None:
            return
        self.total -= 1
        left = self.by_key[key] - 1
        if left:
            self.by_key[key] = left
        else:
            del self.by_key[key]


def _plain_response(status: int, reason: str, detail: str, extra: str = "") -> bytes:
    body = json.dumps({"detail": detail}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
        f"connection: close\r\n{extra}\r\n"
    )
    return head.encode("latin-1") + body


def guarded_protocols(counts: ConnectionCounts) -> tuple[type[Any], type[Any]]:
    """uvicorn's HTTP (httptools) and WebSocket protocols with the connection limits of `counts`."""

    def too_many_detail() -> str:
        return f"too many requests from your address: at most {counts.settings().requests_per_second:g} a second"

    async def too_many_requests(scope: Any, receive: Any, send: Any) -> None:
        """The whole app for a request past its address's rate: 429, and the connection closes."""
        body = json.dumps({"detail": too_many_detail()}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", b"5"),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 429, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    class StallWatch(asyncio.Protocol):
        """A connection whose writes back up (the client reads nothing) is cut off after the write timeout."""

        loop: asyncio.AbstractEventLoop
        transport: asyncio.Transport
        _stalled: asyncio.TimerHandle | None = None

        def pause_writing(self) -> None:
            super().pause_writing()
            seconds = counts.settings().write_timeout
            if self._stalled is None and seconds > 0:
                self._stalled = self.loop.call_later(seconds, cut_off, self.transport)

        def resume_writing(self) -> None:
            super().resume_writing()
            self._unstall()

        def _unstall(self) -> None:
            if self._stalled is not None:
                self._stalled.cancel()
                self._stalled = None

    class GuardedHttp(StallWatch, HttpToolsProtocol):
        """Counts the connection; times each request's headers and body; refuses past a cap."""

        _timer: asyncio.TimerHandle | None = None
        _paced_out = False  # a request past the address's rate
        _refused: str | None = None
        _answered = False
        _head_bytes = 0

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not counts.pace(self.client[0] if self.client else None):  # a flood of connections: cut at once
                transport.abort()
                return
            sock = transport.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError, AttributeError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
            why = counts.admit(transport, self.client[0] if self.client else None)
            if why is None:
                self._arm(counts.settings().header_timeout, self._headers_too_slow)
                return
            self._refused = why
            if counts.limbo >= LIMBO:  # a flood: no time to be polite
                transport.abort()
                return
            counts.limbo += 1
            self._arm(REFUSED_GRACE, self._refuse_now)

        def data_received(self, data: bytes) -> None:
            if self.transport.is_closing():  # answered and closing (408, 429, 431): the rest is not read
                return
            if self._refused is not None:  # read what the client sent (so the 503 is not lost), answer once
                self._refuse_now()
                return
            super().data_received(data)

        def _refuse_now(self) -> None:
            if self._answered or self.transport.is_closing():
                return
            self._answered = True
            self._disarm()
            answer = _plain_response(503, "Service Unavailable", self._refused or "", "retry-after: 10\r\n")
            self.transport.write(answer)
            self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._head_bytes = 0
            if self._timer is None:  # a later request on a kept-alive connection: its headers get their time
                self._arm(counts.settings().header_timeout, self._headers_too_slow)

        def on_url(self, url: bytes) -> None:
            self._head_bytes += len(url)
            if self._head_bytes > MAX_HEAD_BYTES:
                self._close_with(431, "Request Header Fields Too Large", "the request line is too long")
                return
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._head_bytes += len(name) + len(value) + 4
            if self._head_bytes > MAX_HEAD_BYTES:
                detail = f"the request's headers are too long: at most {MAX_HEAD_BYTES} bytes"
                self._close_with(431, "Request Header Fields Too Large", detail)
                return
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            self._disarm()
            if self.transport.is_closing():
                return
            if not counts.pace(self.client[0] if self.client else None):
                self._paced_out = True  # a WebSocket handshake too is answered as a plain request
                real = self.app
                self.app = too_many_requests  # answered in its turn, after any request before it on this connection
                try:
                    super().on_headers_complete()
                finally:
                    self.app = real
                return
            super().on_headers_complete()
            if not (self.parser.should_upgrade() and self._should_upgrade()):
                self._arm(counts.settings().body_timeout, self._body_too_slow)

        def on_body(self, body: bytes) -> None:
            if not self.transport.is_closing():
                super().on_body(body)

        def on_message_complete(self) -> None:
            self._disarm()
            if not self.transport.is_closing():
                super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            if self.transport.is_closing():
                return
            super().handle_websocket_upgrade()

        def _should_upgrade(self) -> bool:
            return not self._paced_out and super()._should_upgrade()

        def _unsupported_upgrade_warning(self) -> None:
            if not self._paced_out:  # a refused handshake is no news for the log
                super()._unsupported_upgrade_warning()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._unstall()
            if self._refused is not None:
                counts.limbo -= 1
            counts.release(self.transport)
            super().connection_lost(exc)

        def _arm(self, seconds: float, then: Callable[[], None]) -> None:
            self._disarm()
            if seconds > 0:
                self._timer = self.loop.call_later(seconds, then)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _headers_too_slow(self) -> None:
            self._timer = None
            seconds = counts.settings().header_timeout
            if self.cycle is None or self.cycle.response_complete:  # no request of this connection is being served
                self._close_with(408, "Request Timeout", f"a request's headers must arrive within {seconds:g} s")

        def _body_too_slow(self) -> None:
            self._timer = None
            seconds = counts.settings().body_timeout
            if self.cycle is not None and not self.cycle.response_started:
                self._close_with(408, "Request Timeout", f"a request's body must arrive within {seconds:g} s")
            else:
                self.transport.close()

        def _close_with(self, status: int, reason: str, detail: str, extra: str = "") -> None:
            if self.transport.is_closing():
                return
            self.transport.write(_plain_response(status, reason, detail, extra))
            self.transport.close()

    class GuardedWebSocket(StallWatch, WebSocketsSansIOProtocol):
        """An upgraded connection: still counted until it closes; cut off if it stops reading."""

        def connection_lost(self, exc: Exception | None) -> None:
            self._unstall()
            counts.release(self.transport)
            super().connection_lost(exc)

    return GuardedHttp, GuardedWebSocket


def cut_off(transport: asyncio.Transport) -> None:
    """Close a connection at once with a reset: the unsent data is dropped, not left in the kernel for
    minutes while it probes a client that reads nothing."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError, AttributeError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()
